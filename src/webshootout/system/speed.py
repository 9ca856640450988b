"""The machine's speed beside every trial: shootout-speed (loadgen/src/speed.rs) runs a fixed mix of work (a
walk through 8 MiB and an integer loop) on the load CPU just before and just after each trial, while that CPU
is idle. On a shared host both CPUs slow down and speed up together in phases of tens of seconds
(docs/method.md); a trial's probe says which phase it ran in, so runs and trials can be set against it."""

from __future__ import annotations

import json
import os
import select
import subprocess
from pathlib import Path

PROBE_MS = 100  # each probe's length: a few hundred windows of the walk, short beside a trial


class SpeedError(RuntimeError):
    pass


class Speed:
    """One shootout-speed process pinned to `cpu` for the run; measure() asks it for one probe."""

    def __init__(self, binary: Path, cpu: int):
        try:
            self._process = subprocess.Popen([str(binary)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                             stderr=subprocess.PIPE, text=True,
                                             preexec_fn=lambda: os.sched_setaffinity(0, {cpu}))
        except OSError as exc:
            raise SpeedError(f"{binary}: {exc}") from None

    def measure(self, ms: int = PROBE_MS) -> float:
        """Million walk steps a second over the next `ms` milliseconds."""
        process = self._process
        try:
            process.stdin.write(f"{ms}\n")
            process.stdin.flush()
        except OSError as exc:
            raise SpeedError(f"shootout-speed stopped taking probes: {exc}") from None
        ready, _, _ = select.select([process.stdout], [], [], ms / 1000 + 10)
        line = process.stdout.readline() if ready else ""
        try:
            return json.loads(line)["steps_per_s"] / 1e6
        except (ValueError, KeyError, TypeError):
            said = process.stderr.read() if process.poll() is not None else ""
            raise SpeedError(f"shootout-speed answered {line.strip()!r} {said.strip()}".strip()) from None

    def close(self) -> None:
        """Ends the probe (at end of input it exits) and closes its pipes."""
        process = self._process
        try:
            process.stdin.close()
        except OSError:
            pass  # it exited already: nothing is left to flush
        try:
            process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        process.stdout.close()
        process.stderr.close()
