"""Stopping on a signal: every stop signal ends a command like Ctrl-C, and cleanups are not cut short."""

from __future__ import annotations

import contextlib
import signal
import threading
from typing import Iterator

STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGQUIT)


@contextlib.contextmanager
def uninterrupted() -> Iterator[None]:
    """Holds back the stop signals until the block ends, then stops as asked.

    A second Ctrl-C (or a SIGTERM) while servers and PostgreSQL are being stopped would otherwise abandon them.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    caught: list[int] = []
    previous = {sig: signal.signal(sig, lambda number, frame: caught.append(number)) for sig in STOP_SIGNALS}
    try:
        yield
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
        if caught:
            raise KeyboardInterrupt


def _raise_interrupt(number, frame):
    raise KeyboardInterrupt


def stop_like_ctrl_c() -> None:
    """SIGTERM, SIGHUP and SIGQUIT unwind like Ctrl-C, so servers and PostgreSQL are stopped on the way out."""
    for sig in STOP_SIGNALS[1:]:
        signal.signal(sig, _raise_interrupt)
