import pytest

from .servers import FakeH2Server, Servers


@pytest.fixture(scope="session")
def servers():
    """Fake servers shared by the tests (one process per set of flaws), all stopped at the end."""
    started = Servers()
    try:
        yield started
    finally:
        started.close()


@pytest.fixture(scope="session")
def h2_servers():
    """Fake h2c servers (fake_h2_server.py), one process per set of flaws, all stopped at the end."""
    started = Servers(FakeH2Server)
    try:
        yield started
    finally:
        started.close()
