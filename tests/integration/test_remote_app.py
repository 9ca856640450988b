"""The app and load roles on their lab hosts: go-nethttp started in ws-app over ssh, sampled there, loaded
from ws-load, stopped without a trace; and the sweep of a dead harness's leftovers on a host."""

import dataclasses
import os
import socket
import subprocess
import time
from pathlib import Path

import psutil
import pytest

from .labhosts import lab_hosts
from webshootout.services import assets
from webshootout.stacks import catalog
from webshootout.system import process
from webshootout.server import remote as remote_server
from webshootout.hosts import remote_sweep, ship
from webshootout.load.base import LoadSpec
from webshootout.load.remote import driver_on
from webshootout.hosts.remote import REMOTE_OWNER_VAR, Remote, owner_tag, work_dir
from webshootout.server import Environment
from webshootout.services.postgres import Postgres
from webshootout.workloads import Target

pytestmark = [pytest.mark.integration, pytest.mark.timeout(300)]
ROOT = Path(__file__).resolve().parents[2]


def _carrying(value: str) -> list[psutil.Process]:
    """Live processes whose REMOTE_OWNER_VAR is `value` (the lab shares this machine's pid space)."""
    found = []
    for proc in psutil.process_iter():
        try:
            if proc.environ().get(REMOTE_OWNER_VAR) == value and proc.status() != psutil.STATUS_ZOMBIE:
                found.append(proc)
        except psutil.Error:
            continue
    return found


def _namespace(pid: int) -> str:
    return subprocess.run(["ip", "netns", "identify", str(pid)], capture_output=True, text=True,
                          check=True).stdout.strip()


def _listening(address: str, port: int) -> bool:
    with socket.socket() as sock:
        sock.settimeout(2)
        return sock.connect_ex((address, port)) == 0


def test_a_stack_serves_from_the_app_host_and_is_loaded_from_the_load_host(tmp_path, no_leftovers):
    # may-minihttp touches no database, so a PostgreSQL the app host cannot reach does not stop its start (the
    # Go stacks now fill their world cache from the database as they start).
    variant = next(v for v in catalog.discover(ROOT) if v.id == "may-minihttp")
    if not (ROOT / "target" / "release" / "may-minihttp-shootout").exists():
        pytest.skip("may-minihttp is not built: ./shootout setup --frameworks may-minihttp")
    with lab_hosts() as lab, Remote(lab["app"]) as app, Remote(lab["load"]) as load:
        # The harness gives every server a DATABASE_URL; a local PostgreSQL makes it a valid one.
        with Postgres(tmp_path / "pg", lab["database"].cpus, log=lambda m: None) as pg:
            env = Environment(pg, assets.create(tmp_path / "assets"), "secret", lab["app"].cpus,
                              tmp_path / "servers", tmp_path / "logs", host=lab["app"].address, app=app)
            # What the harness does before it starts a server there (nothing is copied: the lab shares files).
            assert not ship.build_there(app, ROOT, (variant.id,), print)
            ship.ship(app, [env.assets.hash_file.parent])
            srv = remote_server.start(variant, env)
            try:
                assert srv.host == "10.77.0.2" and _listening("10.77.0.2", srv.port)
                assert _namespace(srv.running.process.pgid) == "ws-app"
                assert Path(work_dir("servers", variant.id)).stat().st_mode & 0o777 == 0o755  # the same files
                assert {p.pid for p in _carrying(owner_tag())} >= {srv.running.process.pgid}
                group = srv.running.group
                assert srv.running.process.pgid in group.pids()
                assert group.memory_bytes() > 1 << 20 and group.cpu_seconds() >= 0
                spec = LoadSpec(srv.host, srv.port, Target("/plaintext", expect_body="Hello, World!"),
                                connections=4, threads=1, duration=2.0, cpus=lab["load"].cpus)
                log = tmp_path / "load.log"
                result = driver_on(load)(spec, log)
                assert result.requests > 0 and result.validated
                assert sum(result.errors.values()) == 0 and result.status_counts == {"200": result.requests}
                assert "# on load (root@10.77.0.4)" in log.read_text()
            finally:
                leak = srv.stop()
                app.run(["rm", "-rf", "--", work_dir()])
        assert leak is None
        assert not _listening("10.77.0.2", srv.port)
        assert _carrying(owner_tag()) == []


def test_the_sweep_ends_a_dead_owners_process_and_keeps_a_live_ones(tmp_path):
    never = int(Path("/proc/sys/kernel/pid_max").read_text()) + 1
    dead_tag = f"{socket.gethostname()}-{never}"
    with lab_hosts() as lab, Remote(lab["app"]) as app:
        live = app.start(["sleep", "300"], log=tmp_path / "live.log")
        try:
            # Remote.start tags with this harness: a process of a dead one is started by hand, detached.
            app.run(["sh", "-c", f'{REMOTE_OWNER_VAR}="$0" setsid sleep 300 </dev/null >/dev/null 2>&1 &',
                     dead_tag], timeout=10)
            deadline = time.monotonic() + 5
            while not _carrying(dead_tag) and time.monotonic() < deadline:
                time.sleep(0.05)
            (dead,) = _carrying(dead_tag)
            assert _namespace(dead.pid) == "ws-app"
            said = []
            lines = remote_sweep.sweep(app, said.append)
            killed = f"killed process group {dead.pid} ({dead.pid} sleep) left by {dead_tag}, with SIGTERM"
            assert killed in lines and said == [f"{app}: {line}" for line in lines]
            assert _carrying(dead_tag) == [] and live.alive()
            assert [p.pid for p in _carrying(owner_tag())] == [live.pgid]
        finally:
            for proc in _carrying(dead_tag):
                os.killpg(proc.pid, 9)
            assert live.stop() is None


def test_a_server_that_fails_to_start_there_is_a_start_error_and_leaves_nothing(tmp_path):
    base = next(v for v in catalog.discover(ROOT) if v.id == "go-nethttp")
    variant = dataclasses.replace(base, start=dataclasses.replace(base.start, command="echo broken; exit 3"))
    with lab_hosts() as lab, Remote(lab["app"]) as app:
        env = Environment(None, assets.create(tmp_path / "assets"), "secret", lab["app"].cpus,
                          tmp_path / "servers", tmp_path / "logs", host=lab["app"].address, app=app)
        try:
            with pytest.raises(process.StartError, match="exited with code 3 before it was ready"):
                remote_server.start(variant, env)
        finally:
            app.run(["rm", "-rf", "--", work_dir()])
        assert "broken" in (tmp_path / "logs" / f"{variant.id}.log").read_text()
        assert _carrying(owner_tag()) == []
