"""Starting and stopping fake_server.py processes: a Subject for the conform runner."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from webshootout.conform.target import Target

SCRIPT = Path(__file__).with_name("fake_server.py")


class FakeServer:
    """One fake_server.py process with the given flaws; restart() starts a fresh one after it died."""

    def __init__(self, *flaws: str):
        self.flaws, self.starts = flaws, 0
        self.process: subprocess.Popen | None = None
        self.port = 0
        self.restart()

    def restart(self) -> None:
        self.stop()
        self.process = subprocess.Popen([sys.executable, str(SCRIPT), *self.flaws], stdout=subprocess.PIPE,
                                        stdin=subprocess.DEVNULL)
        self.port = int(self.process.stdout.readline())
        self.starts += 1

    def target(self) -> Target:
        return Target("127.0.0.1", self.port, "/plaintext", "/upload")

    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def stop(self) -> None:
        if self.process is not None:
            self.process.kill()
            self.process.wait()
            self.process.stdout.close()
            self.process = None


class Servers:
    """Fake servers by flaw, started when first asked for and all stopped by close()."""

    def __init__(self):
        self.running: dict[tuple[str, ...], FakeServer] = {}

    def __call__(self, *flaws: str) -> FakeServer:
        if flaws not in self.running:
            self.running[flaws] = FakeServer(*flaws)
        return self.running[flaws]

    def close(self) -> None:
        for server in self.running.values():
            server.stop()
