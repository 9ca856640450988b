"""remote.py: the ssh client's argv, the remote command's quoting, and (through a stand-in for ssh that
runs the command here the way sshd would, in a session of its own) run, start/stop, copy and read."""

import os
import stat
import subprocess
import time
from pathlib import Path

import psutil
import pytest

from webshootout.config.hostsfile import Host
from webshootout.hosts.remote import Remote, RemoteError, remote_command

NASTY = ["printf", "%s|", "a b", "$(echo injected)", "`id`", "'quoted'", '"double"', "x;y", "*", "~", ""]

# Reads ssh's argv like ssh does up to `--`, keeps the ControlPath as a file standing for the master, and runs
# the command in a new session with a shell, as sshd does (its child, so that it is reaped as sshd would).
FAKE_SSH = r"""#!/bin/bash
control=
while [ "$1" != "--" ]; do
  case "$1" in
    -o) case "$2" in ControlPath=*) control=${2#ControlPath=}; control=${control//\"/};; esac; shift 2;;
    -O) rm -f "$control"; exit 0;;
    -N) touch "$control"; exit 0;;
    *) shift;;
  esac
done
shift 2
setsid bash -c "$1"
"""


def _host(tmp_path: Path, **kw) -> Host:
    return Host("app", "root@10.0.0.2", "10.0.0.2", (0,), **kw)


def test_every_word_reaches_the_program_unchanged(tmp_path):
    command = remote_command(NASTY, env={"GREETING": "hi there; rm -rf /"}, cwd=str(tmp_path))
    out = subprocess.run(["bash", "-c", command + '; echo "$GREETING"'], capture_output=True, text=True)
    assert out.stdout.split("|")[:-1] == NASTY[2:]


def test_the_environment_and_folder_are_applied(tmp_path):
    command = remote_command(["sh", "-c", 'echo "$GREETING $(pwd)"'], env={"GREETING": "a b"},
                             cwd=str(tmp_path))
    out = subprocess.run(["bash", "-c", command], capture_output=True, text=True)
    assert out.stdout == f"a b {tmp_path}\n"


def test_a_time_limit_wraps_the_command_and_bad_input_is_refused():
    assert remote_command(["sleep", "9"], timeout=2.5).startswith("exec timeout -k 5 2.5 sleep 9")
    with pytest.raises(ValueError, match="not a valid name"):
        remote_command(["true"], env={"A;B": "1"})
    with pytest.raises(ValueError, match="non-empty list"):
        remote_command([])
    with pytest.raises(ValueError, match="non-empty list"):
        remote_command(["echo", 1])


def test_ssh_argv_uses_the_master_strict_keys_and_the_given_files(tmp_path):
    odd = tmp_path / "dir with space %h"
    odd.mkdir()
    (odd / "key").write_text("")
    (odd / "known").write_text("")
    with Remote(_host(tmp_path, identity=odd / "key", known_hosts=odd / "known", port=2222)) as remote:
        argv = remote.ssh_argv("exec true")
        control = Path(next(a for a in argv if a.startswith("ControlPath=")).split("=", 1)[1].strip('"'))
        assert stat.S_IMODE(control.parent.stat().st_mode) == 0o700
        options = [argv[i + 1] for i, a in enumerate(argv) if a == "-o"]
        for wanted in ("BatchMode=yes", "StrictHostKeyChecking=yes", "ControlMaster=no", "IdentitiesOnly=yes",
                       "GlobalKnownHostsFile=/dev/null",
                       f'UserKnownHostsFile="{odd}/known"'.replace("%", "%%"),
                       f'IdentityFile="{odd}/key"'.replace("%", "%%")):
            assert wanted in options
        assert argv[0] == "ssh" and argv[argv.index("-p") + 1] == "2222"
        assert argv[-3:] == ["--", "root@10.0.0.2", "exec true"]
        master = remote.ssh_argv(None, "-o", "ControlMaster=yes", "-N")
        assert "ControlMaster=no" not in master and master[-2:] == ["--", "root@10.0.0.2"]
    assert not control.parent.exists()


def test_without_files_ssh_keeps_its_defaults(tmp_path):
    with Remote(_host(tmp_path)) as remote:
        argv = remote.ssh_argv("exec true")
    files = ("IdentityFile", "UserKnownHostsFile", "GlobalKnownHostsFile")
    assert not [a for a in argv if a.startswith(files)]


@pytest.fixture
def fake_ssh(tmp_path, monkeypatch):
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "ssh").write_text(FAKE_SSH)
    (bin_dir / "ssh").chmod(0o755)
    monkeypatch.setenv("PATH", f"{bin_dir}:{os.environ['PATH']}")
    with Remote(_host(tmp_path)) as remote:
        yield remote


def _running(token: str) -> list[psutil.Process]:
    found = []
    for proc in psutil.process_iter():
        try:
            if proc.environ().get("WEBSHOOTOUT_TOKEN") == token:
                found.append(proc)
        except psutil.Error:
            continue
    return found


def test_run_read_write_and_copy(fake_ssh, tmp_path):
    assert fake_ssh.run(NASTY).stdout.split("|")[:-1] == NASTY[2:]
    assert fake_ssh.run(["sh", "-c", "exit 3"], check=False).returncode == 3
    with pytest.raises(RemoteError, match=r"app \(root@10.0.0.2\): exit 3"):
        fake_ssh.run(["sh", "-c", "echo why >&2; exit 3"])
    started = time.monotonic()
    with pytest.raises(RemoteError, match="timed out after 0.5s"):
        fake_ssh.run(["sleep", "30"], timeout=0.5)
    assert time.monotonic() - started < 5
    source = tmp_path / "src"
    (source / "deep" / "node_modules").mkdir(parents=True)
    (source / "deep" / "a file").write_bytes(b"\0bytes")
    (source / "deep" / "node_modules" / "skip").write_text("x")
    target = tmp_path / "copied here"
    fake_ssh.copy_folder(source, str(target), exclude=("node_modules",))
    assert (target / "deep" / "a file").read_bytes() == b"\0bytes"
    assert not (target / "deep" / "node_modules").exists()
    assert fake_ssh.read_file(str(target / "deep" / "a file")) == b"\0bytes"
    with pytest.raises(RemoteError, match="No such file"):
        fake_ssh.read_file(str(tmp_path / "absent"))
    fake_ssh.write_file(str(tmp_path / "new folder" / "ca.pem"), b"\0pem\n")
    assert (tmp_path / "new folder" / "ca.pem").read_bytes() == b"\0pem\n"


def test_start_and_stop_a_process_group_with_escapees(fake_ssh, tmp_path):
    log = tmp_path / "logs" / "server.log"
    # A leader that ignores SIGTERM, a child in its group, and one that left the group (setsid).
    script = "trap '' TERM; echo started $GREETING; sleep 300 & setsid sleep 301 & wait"
    running = fake_ssh.start(["bash", "-c", script], log=log, env={"GREETING": "hello"})
    try:
        assert running.alive() and os.getpgid(running.pgid) == running.pgid
        deadline = time.monotonic() + 5
        while len(_running(running.token)) < 3 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert len(_running(running.token)) == 3
        problems = running.stop(grace=0.5)
    finally:
        for proc in _running(running.token):
            proc.kill()
    assert "did not stop within the grace period" in problems and "outside its group, killed" in problems
    assert not _running(running.token) and not running.alive()
    assert "started hello" in log.read_text()


def test_a_process_that_stops_cleanly_reports_nothing(fake_ssh, tmp_path):
    running = fake_ssh.start(["sleep", "300"], log=tmp_path / "sleep.log")
    assert running.stop() is None and not running.alive()
    assert running.stop() is None
    with pytest.raises(RemoteError, match="could not start"):
        fake_ssh.start(["true"], log=tmp_path / "x.log", cwd=str(tmp_path / "absent"))


def test_closing_stops_what_is_still_running(tmp_path, fake_ssh):
    running = fake_ssh.start(["bash", "-c", "trap '' TERM; sleep 300"], log=tmp_path / "left.log")
    try:
        fake_ssh.close()
        assert not running.alive() and not _running(running.token)
        assert "did not stop within the grace period" in running.stopped
    finally:
        for proc in _running(running.token):
            proc.kill()
