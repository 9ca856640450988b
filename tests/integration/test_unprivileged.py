"""Servers run as the unprivileged system user: every process of the server, its RUN_DIR, and an answer."""

import os
import pwd
import stat
import tempfile
from pathlib import Path

import psutil
import pytest

from webshootout.stacks import catalog
from webshootout import harness
from webshootout.system import httpget, users

pytestmark = [pytest.mark.integration, pytest.mark.timeout(300),
              pytest.mark.skipif(os.geteuid() != 0, reason="only a root harness switches to another user")]


def _groups(pid: int) -> tuple[int, ...]:
    """The supplementary groups: root's must not be kept by a server that dropped root."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("Groups:"):
            return tuple(int(g) for g in line.split()[1:])
    raise AssertionError(f"no Groups: line in /proc/{pid}/status")


# go-nethttp: one process; php: nginx and php-fpm, masters and workers, which drop root on their own when
# started as root and must not need it here.
@pytest.mark.parametrize("framework", ["go-nethttp", "php"])
def test_server_runs_as_the_unprivileged_user(root, no_leftovers, framework):
    (variant,) = catalog.select(catalog.discover(root), (framework,))
    user = users.ensure(users.SERVER_USER)
    cpus = tuple(sorted(os.sched_getaffinity(0)))
    # A run folder inside one only its owner may enter (mktemp -d makes them 0700): the work files move out.
    with tempfile.TemporaryDirectory() as tmp, \
            harness.environment(Path(tmp) / "run" / "work", Path(tmp) / "run" / "logs", cpus,
                                harness.needs_database([variant])) as env:
        assert not env.scratch.is_relative_to(tmp) and users.reachable_by_others(env.scratch)
        leaks: list = []
        with harness.serving(variant, env, install=True, on_stop_fault=leaks.append) as served:
            assert served.server.user == users.SERVER_USER
            processes = [psutil.Process(pid) for pid in served.server.running.group.pids()]
            assert len(processes) >= (1 if framework == "go-nethttp" else 4)  # php: 2 masters and workers
            for proc in processes:
                found = (tuple(proc.uids()), tuple(proc.gids()), _groups(proc.pid))
                assert found == ((user.pw_uid,) * 3, (user.pw_gid,) * 3, ()), f"{proc.pid} {proc.name()}: {found}"
            run_dir = env.scratch / variant.id
            mode = run_dir.stat()
            assert (mode.st_uid, mode.st_gid) == (user.pw_uid, user.pw_gid)
            assert not mode.st_mode & stat.S_IWOTH
            status, _ = httpget.get(f"http://{served.server.host}:{served.server.port}{variant.start.ready}", 10)
            assert status == 200
        assert not leaks, leaks
    assert not env.scratch.parent.exists(), "the moved work folder is removed at the end"
