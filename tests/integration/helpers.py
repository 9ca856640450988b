"""For integration tests: settings with short trials and the default CPU split; finding leftovers."""

from pathlib import Path

import psutil

from webshootout.system.process import OWNER_VAR
from webshootout.config.profiles import Profile
from webshootout.config.settings import Settings, default_split
from webshootout.config.suites import Part


def make_settings(root: Path, frameworks: tuple[str, ...], out: Path | None = None, **kw) -> Settings:
    """Short trials at 16 connections; `parts` (or `profile`) replace the one part of the selection."""
    server_cpus, load_cpus = default_split()
    values = dict(duration=2.0, warmup=0.5, trials=1, server_cpus=server_cpus, load_cpus=load_cpus, out=out,
                  workloads=None)
    profile = kw.pop("profile", Profile(connections=(16,)))
    values.update(kw)
    values.setdefault("parts", (Part("adhoc", frameworks, values["workloads"], profile),))
    return Settings(root=root, suite=None, frameworks=frameworks, **values)


def owned_by(pid: int) -> list[psutil.Process]:
    """Live processes started by the harness running as process `pid` (a `shootout` child of a test)."""
    found = []
    for proc in psutil.process_iter():
        try:
            if proc.environ().get(OWNER_VAR) == str(pid):
                found.append(proc)
        except psutil.Error:
            continue
    return found
