import os
from pathlib import Path

import psutil
import pytest

from webshootout.system.process import OWNER_VAR

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = Path(__file__).resolve().parent / "fixtures"


@pytest.fixture
def root() -> Path:
    return ROOT


@pytest.fixture
def fixture_root() -> Path:
    return FIXTURES


def tagged_processes() -> list[psutil.Process]:
    """Processes this test process's harness started (they name it as their owner) still alive."""
    found = []
    for proc in psutil.process_iter():
        try:
            if proc.environ().get(OWNER_VAR) == str(os.getpid()):
                found.append(proc)
        except psutil.Error:
            continue
    return found


@pytest.fixture
def no_leftovers():
    """Fails the test if it leaves a harness-started process behind, and kills any such process."""
    before = {p.pid for p in tagged_processes()}
    yield
    left = [p for p in tagged_processes() if p.pid not in before]
    for proc in left:
        try:
            proc.kill()
        except psutil.Error:
            pass
    assert not left, f"processes left behind: {[(p.pid, p.name()) for p in left]}"
