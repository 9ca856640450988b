"""What a probe is aimed at: one server's address and the paths of its manifest's workloads."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

HELLO = b"Hello, World!"  # the plaintext workload's body (docs/workloads.md)


@dataclass(frozen=True)
class Target:
    host: str
    port: int
    plaintext: str
    upload: str | None = None  # None: the id maps no workload that reads a body, so the probes that need one skip
    tls: bool = False  # the HTTP/2 probes speak TLS with ALPN h2 (else h2c with prior knowledge)
    ca: Path | None = None  # the CA to verify its certificate against (None: not verified)
    # The bytes of memory the server's processes hold now (None: not known), for the probes that watch it grow.
    memory: Callable[[], int | None] = field(default=lambda: None, compare=False, repr=False)

    @property
    def authority(self) -> str:
        return f"{self.host}:{self.port}"
