"""Roles on remote hosts without a remote host: shipping (which paths, shared or copied), the remote native
driver, the remote server's stop, and the sweep of a dead harness's leftovers (through the stand-in for ssh
of test_remote.py, which runs the command here as sshd would)."""

import dataclasses
import json
import os
import socket
import subprocess
from pathlib import Path

import psutil
import pytest

from .test_remote import fake_ssh  # noqa: F401 - a fixture, used by name
from webshootout.stacks import catalog
from webshootout.server import remote as remote_server
from webshootout.hosts import remote_sweep, ship
from webshootout.load import native
from webshootout.load.base import DriverError, LoadSpec
from webshootout.load.remote import driver_on
from webshootout.hosts.remote import REMOTE_OWNER_VAR, REMOTE_ROOT, Remote, RemoteError
from webshootout.workloads import Target

ROOT = Path(__file__).resolve().parents[2]


class FilesRemote:
    """A host that does not share our files (shared=False) or does; records what is copied to it."""

    def __init__(self, shared: bool):
        self.shared = shared
        self.copied: list[tuple[str, list[str]]] = []
        self.ran: list[tuple[list[str], float]] = []
        self.answer = subprocess.CompletedProcess([], 0, "", "")
        self.written: list[tuple[str, bytes]] = []

    def __str__(self) -> str:
        return "load (root@10.0.0.4)"

    def read_file(self, path: str, *, timeout: float = 60.0) -> bytes:
        if not self.shared:
            raise RemoteError("cat: No such file or directory")
        return Path(path).read_bytes()

    def copy_folder(self, local: Path, remote_dir: str, *, exclude=(), timeout: float = 600.0) -> None:
        self.copied.append((remote_dir, sorted(p.name for p in local.iterdir())))
        self.excluded = exclude

    def run(self, argv, *, timeout=60.0, env=None, cwd=None, check=True):
        self.ran.append((argv, timeout))
        return self.answer

    def write_file(self, path: str, data: bytes, *, timeout: float = 60.0) -> None:
        self.written.append((path, data))


def test_a_host_without_our_files_gets_the_sources_and_builds_there(tmp_path):
    host = FilesRemote(shared=False)
    said = []
    assert ship.build_there(host, tmp_path, ("flask", "go-nethttp"), said.append)
    assert host.copied == [(str(tmp_path), [])] and host.excluded == ship.NOT_SOURCES
    (argv, timeout), = host.ran
    assert argv == ["./shootout", "setup", "--frameworks", "flask,go-nethttp"] and timeout == ship.BUILD_TIMEOUT
    assert ship.build_there(host, tmp_path, None, said.append)
    assert host.ran[-1][0] == ["./shootout", "setup", "--harness-only"]
    host.answer = subprocess.CompletedProcess([], 1, "", "go: module lookup disabled")
    with pytest.raises(RemoteError, match=r"setup --frameworks flask failed \(exit 1\):\ngo: module lookup"):
        ship.build_there(host, tmp_path, ("flask",), said.append)


def test_a_host_sharing_our_files_builds_nothing(tmp_path):
    host = FilesRemote(shared=True)
    assert not ship.build_there(host, tmp_path, ("flask",), print)
    assert host.copied == [] and host.ran == [] and list(tmp_path.iterdir()) == []


def test_a_host_sharing_our_files_gets_nothing_copied_and_the_marker_is_removed(tmp_path):
    (tmp_path / "app").mkdir()
    host = FilesRemote(shared=True)
    assert ship.ship(host, [tmp_path / "app"]) == []
    assert host.copied == [] and list((tmp_path / "app").iterdir()) == []


def test_folders_and_single_files_land_at_the_same_path_on_another_host(tmp_path):
    (tmp_path / "app").mkdir()
    (tmp_path / "app" / "main.go").write_text("")
    (tmp_path / "tool").write_text("#!/bin/sh\n")
    host = FilesRemote(shared=False)
    assert ship.ship(host, [tmp_path / "app", tmp_path / "tool"]) == [tmp_path / "app", tmp_path / "tool"]
    assert host.copied == [(str(tmp_path / "app"), ["main.go"]), (str(tmp_path), ["tool"])]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["app", "tool"]  # markers gone
    with pytest.raises(RemoteError, match="cannot ship relative: not an absolute path"):
        ship.ship(host, [Path("relative")])


def _spec() -> LoadSpec:
    return LoadSpec("10.77.0.2", 8080, Target("/plaintext", expect_body="Hello, World!"), connections=8,
                    threads=2, duration=3.0, cpus=(1, 3))


@pytest.fixture
def program(tmp_path, monkeypatch) -> Path:
    """An executable where the driver looks for shootout-load (the fake host never runs it)."""
    path = tmp_path / "shootout-load"
    path.write_text("")
    path.chmod(0o755)
    monkeypatch.setenv(native.BINARY_ENV, str(path))
    return path


def test_the_remote_driver_pins_times_logs_and_parses_like_native(tmp_path, fixture_root, program):
    host = FilesRemote(shared=False)
    run = driver_on(host)
    output = (fixture_root / "drivers" / "shootout-load.json").read_text()
    host.answer = subprocess.CompletedProcess([], 0, output, "")
    log = tmp_path / "load.log"
    result = run(_spec(), log)
    assert result.requests == json.loads(output)["requests"] and result.driver == "native"
    argv, timeout = host.ran[-1]
    assert argv == ["taskset", "-c", "1,3", *native.argv(_spec(), str(program))]
    assert timeout == native.allowance(_spec())
    assert log.read_text().startswith(f"$ {program} --json") and "on load (root@10.0.0.4)" in log.read_text()
    host.answer = subprocess.CompletedProcess([], 124, "", "")
    allowed = f"{native.allowance(_spec()):.0f}s"  # its connect deadline, warm-up, window and a margin
    with pytest.raises(DriverError, match=rf"on load \(root@10.0.0.4\) did not finish within {allowed}"):
        run(_spec())
    host.answer = subprocess.CompletedProcess([], 2, "", "connect refused")
    with pytest.raises(DriverError, match="exited with 2: connect refused"):
        run(_spec())


def test_the_remote_driver_trusts_the_run_ca_from_a_copy_on_the_load_host(tmp_path, program):
    host = FilesRemote(shared=False)
    run = driver_on(host)
    host.answer = subprocess.CompletedProcess([], 2, "", "refused")
    ca = tmp_path / "ca.pem"
    ca.write_bytes(b"-----BEGIN CERTIFICATE-----\n")
    for _ in range(2):
        with pytest.raises(DriverError):
            run(dataclasses.replace(_spec(), tls_ca=ca))
    (there, data), = host.written  # written once, however many trials
    assert data == ca.read_bytes() and there.startswith(REMOTE_ROOT) and there.endswith(".pem")
    argv, _ = host.ran[-1]
    assert argv[argv.index("--ca") + 1] == there
    with pytest.raises(DriverError, match="cannot give the run's CA certificate to load .*missing.pem"):
        run(dataclasses.replace(_spec(), tls_ca=tmp_path / "missing.pem"))


class _Process:
    def __init__(self, host, said: str | Exception | None):
        self.remote, self.said = host, said

    def stop(self) -> str | None:
        if isinstance(self.said, Exception):
            raise self.said
        return self.said


def test_the_remote_server_reports_what_its_stop_found_and_a_port_left_bound():
    host = FilesRemote(shared=True)
    running = remote_server.RemoteRunning(_Process(host, None), None, "10.77.0.2", 8080)
    assert running.stop() is None
    argv, _ = host.ran[-1]
    assert argv[:2] == ["python3", "-c"] and argv[3:] == ["10.77.0.2", "8080", "5"]
    host.answer = subprocess.CompletedProcess([], 1, "", "")
    running = remote_server.RemoteRunning(_Process(host, "did not stop"), None, "10.77.0.2", 8080)
    assert running.stop() == f"did not stop; port 8080 is still in use on {host} after stop"
    running = remote_server.RemoteRunning(_Process(host, RemoteError("no answer within 25s")), None,
                                          "10.77.0.2", 8080)
    assert running.stop().startswith(f"could not stop it on {host}: no answer within 25s; port 8080")


def test_the_port_check_script_tells_a_bound_port_from_a_free_one():
    with socket.socket() as held:
        held.bind(("127.0.0.1", 0))
        held.listen()
        port = held.getsockname()[1]
        check = ["python3", "-c", remote_server._PORT_FREED, "127.0.0.1", str(port), "0.3"]
        assert subprocess.run(check).returncode == 1
    assert subprocess.run(check).returncode == 0


def _tagged_sleep(tag: str) -> subprocess.Popen:
    return subprocess.Popen(["sleep", "300"], env={**os.environ, REMOTE_OWNER_VAR: tag},
                            start_new_session=True)


def test_the_sweep_clears_only_what_dead_harnesses_of_this_machine_left(fake_ssh, tmp_path):
    me = socket.gethostname()
    never = int(Path("/proc/sys/kernel/pid_max").read_text()) + 1  # a pid no process can have
    root = tmp_path / "remote-root"
    for name in (f"{me}-{never}", f"{me}-{os.getpid()}", f"{me}-1", f"other-{never}", "stray"):
        (root / name / "servers").mkdir(parents=True)
    # Made before pid 1 started: a dead harness's whose pid now belongs to another process.
    before = psutil.Process(1).create_time() - 3600
    os.utime(root / f"{me}-1", (before, before))
    dead, live, other = _tagged_sleep(f"{me}-{never}"), _tagged_sleep(f"{me}-{os.getpid()}"), \
        _tagged_sleep(f"other-{never}")
    said = []
    try:
        lines = remote_sweep.sweep(fake_ssh, said.append, root=str(root))
        dead.wait(timeout=5)
        assert dead.returncode == -15
        assert live.poll() is None and other.poll() is None
        killed = f"killed process group {dead.pid} ({dead.pid} sleep) left by {me}-{never}, with SIGTERM"
        assert lines == [killed, f"removed {root}/{me}-1", f"removed {root}/{me}-{never}"]
        assert said == [f"{fake_ssh}: {line}" for line in lines]
        assert sorted(p.name for p in root.iterdir()) == sorted(
            [f"{me}-{os.getpid()}", f"other-{never}", "stray"])
    finally:
        for proc in (dead, live, other):
            proc.kill()
            proc.wait()


def test_the_sources_leave_out_build_output_history_and_runs_but_not_fixtures_named_runs(tmp_path):
    for path in ("src/a.py", "runs/r1/results.jsonl", "tests/fixtures/runs/meta.json", ".git/HEAD",
                 "frameworks/py/flask/.venv/bin/python", "frameworks/py/flask/app.py",
                 "frameworks/py/flask/.setup-done", "target/release/x", "frameworks/js/e/node_modules/m.js"):
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text("")
    # As Remote.copy_folder packs a folder.
    tar = subprocess.run(["tar", "-C", str(tmp_path), *(f"--exclude={name}" for name in ship.NOT_SOURCES),
                          "-cf", "-", "."], capture_output=True, check=True).stdout
    files = subprocess.run(["tar", "-tf", "-"], input=tar, capture_output=True, check=True).stdout.decode()
    assert sorted(f for f in files.split() if not f.endswith("/")) == [
        "./frameworks/py/flask/app.py", "./src/a.py", "./tests/fixtures/runs/meta.json"]
