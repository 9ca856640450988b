"""Stop signals: each unwinds like Ctrl-C, and one that comes during a cleanup waits for the cleanup."""

import os
import signal
import time

import pytest

from webshootout.system.signals import STOP_SIGNALS, stop_like_ctrl_c, uninterrupted


@pytest.fixture
def restored_handlers():
    before = {sig: signal.getsignal(sig) for sig in STOP_SIGNALS}
    yield
    for sig, handler in before.items():
        signal.signal(sig, handler)


@pytest.mark.parametrize("sig", STOP_SIGNALS)
def test_a_signal_during_a_cleanup_lets_it_finish_then_stops(restored_handlers, sig):
    stop_like_ctrl_c()
    steps = []
    with pytest.raises(KeyboardInterrupt):
        with uninterrupted():
            os.kill(os.getpid(), sig)
            os.kill(os.getpid(), signal.SIGINT)  # the impatient second Ctrl-C
            time.sleep(0.05)
            steps.append("server stopped")
            steps.append("database stopped")
    assert steps == ["server stopped", "database stopped"]
    assert signal.getsignal(sig) is not signal.SIG_IGN and signal.getsignal(signal.SIGINT) is not None


@pytest.mark.parametrize("sig", STOP_SIGNALS[1:])
def test_every_stop_signal_unwinds_like_ctrl_c(restored_handlers, sig):
    stop_like_ctrl_c()
    with pytest.raises(KeyboardInterrupt):
        os.kill(os.getpid(), sig)
        time.sleep(1)
