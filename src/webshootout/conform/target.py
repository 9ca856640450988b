"""What a probe is aimed at: one server's address and the paths of its manifest's workloads."""

from __future__ import annotations

from dataclasses import dataclass

HELLO = b"Hello, World!"  # the plaintext workload's body (docs/workloads.md)


@dataclass(frozen=True)
class Target:
    host: str
    port: int
    plaintext: str
    upload: str | None = None  # None: the id maps no workload that reads a body, so the probes that need one skip

    @property
    def authority(self) -> str:
        return f"{self.host}:{self.port}"
