"""Settings for integration tests: short trials, the machine's default CPU split."""

from pathlib import Path

from webshootout.profiles import Profile
from webshootout.settings import Settings, default_split


def make_settings(root: Path, frameworks: tuple[str, ...], out: Path | None = None, **kw) -> Settings:
    server_cpus, load_cpus = default_split()
    values = dict(duration=2.0, warmup=0.5, trials=1, profile=Profile(connections=(16,)), server_cpus=server_cpus,
                  load_cpus=load_cpus, out=out, workloads=None)
    values.update(kw)
    return Settings(root=root, suite=None, frameworks=frameworks, **values)
