import pytest

from .servers import Servers


@pytest.fixture(scope="session")
def servers():
    """Fake servers shared by the tests (one process per set of flaws), all stopped at the end."""
    started = Servers()
    try:
        yield started
    finally:
        started.close()
