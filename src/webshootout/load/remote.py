"""The native driver run on the load host of a hosts file: shootout-load there, over ssh, pinned to the load
role's CPUs. Only the native driver runs remotely: wrk and ab are not built or installed on other hosts."""

from __future__ import annotations

import hashlib
from dataclasses import replace
from pathlib import Path
from typing import Callable

from ..hosts.remote import Remote, RemoteError, work_dir
from . import native
from .base import DriverError, LoadResult, LoadSpec, negotiated

Driver = Callable[..., LoadResult]  # (spec, log=None), as native.run
# remote.run's `timeout` exit status when the time limit on the host ran out.
TIMED_OUT = 124


def driver_on(remote: Remote) -> Driver:
    """A driver with the signature of native.run that runs shootout-load on `remote`, at the path it has here
    (placement.placed has it built there unless the host shares this machine's files)."""
    program = native.binary()
    cas: dict[Path, str] = {}

    def run(spec: LoadSpec, log: Path | None = None) -> LoadResult:
        try:
            if spec.tls_ca is not None:
                spec = replace(spec, tls_ca=Path(_ca_there(remote, spec.tls_ca, cas)))
        except (OSError, RemoteError) as exc:
            raise DriverError(f"cannot give the run's CA certificate to {remote}: {exc}") from None
        argv = native.argv(spec, str(program))
        allowed = native.allowance(spec)
        try:
            done = remote.run(["taskset", "-c", ",".join(map(str, spec.cpus)), *argv], timeout=allowed,
                              check=False)
        except RemoteError as exc:
            raise DriverError(f"shootout-load on {remote}: {exc}") from None
        if log is not None:
            with log.open("a") as out:
                out.write(f"$ {' '.join(argv)}  # on {remote}\n{done.stdout}{done.stderr}\n")
        if done.returncode == TIMED_OUT:
            raise DriverError(f"shootout-load on {remote} did not finish within {allowed:.0f}s")
        return negotiated("shootout-load", spec, native.result_of(done))

    return run


def _ca_there(remote: Remote, ca: Path, copied: dict[Path, str]) -> str:
    """The path on the load host of the run's CA certificate (public: the key never leaves this machine),
    written there the first time a trial asks; named by its content, as a run may make a new CA."""
    if ca not in copied:
        pem = ca.read_bytes()
        there = work_dir("load", f"ca-{hashlib.sha256(pem).hexdigest()[:16]}.pem")
        remote.write_file(there, pem)
        copied[ca] = there
    return copied[ca]
