"""Starting and stopping fake_server.py processes: a Subject for the conform runner."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from webshootout.conform.target import Target

SCRIPT = Path(__file__).with_name("fake_server.py")
H2_SCRIPT = Path(__file__).with_name("fake_h2_server.py")


def rss(pid: int) -> int | None:
    """The resident memory of a process, in bytes (None once it is gone)."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return None
    return next((int(line.split()[1]) * 1024 for line in status.splitlines() if line.startswith("VmRSS:")), None)


class FakeServer:
    """One fake_server.py process with the given flaws; restart() starts a fresh one after it died."""

    script = SCRIPT

    def __init__(self, *flaws: str):
        self.flaws, self.starts = flaws, 0
        self.process: subprocess.Popen | None = None
        self.port = 0
        self.restart()

    def restart(self) -> None:
        self.stop()
        self.process = subprocess.Popen([sys.executable, str(self.script), *self.flaws], stdout=subprocess.PIPE,
                                        stdin=subprocess.DEVNULL)
        self.port = int(self.process.stdout.readline())
        self.starts += 1

    def target(self) -> Target:
        pid = self.process.pid if self.process is not None else -1
        return Target("127.0.0.1", self.port, "/plaintext", "/upload", memory=lambda: rss(pid))

    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def stop(self) -> None:
        if self.process is not None:
            self.process.kill()
            self.process.wait()
            self.process.stdout.close()
            self.process = None


class FakeH2Server(FakeServer):
    """One fake_h2_server.py process (h2c) with the given flaws."""

    script = H2_SCRIPT


class Servers:
    """Fake servers by kind and flaw, started when first asked for and all stopped by close()."""

    def __init__(self, kind: type[FakeServer] = FakeServer):
        self.kind = kind
        self.running: dict[tuple[str, ...], FakeServer] = {}

    def __call__(self, *flaws: str) -> FakeServer:
        if flaws not in self.running:
            self.running[flaws] = self.kind(*flaws)
        return self.running[flaws]

    def close(self) -> None:
        for server in self.running.values():
            server.stop()
