import os
import pwd
import shutil
import tempfile
from pathlib import Path

import pytest

from webshootout.system import users

root_only = pytest.mark.skipif(os.geteuid() != 0, reason="creates a system user and switches to it: needs root")


@pytest.fixture
def open_dir():
    """A folder others may traverse: pytest's tmp_path sits under a 0700 folder."""
    path = Path(tempfile.mkdtemp(prefix="test-users-", dir="/tmp"))
    path.chmod(0o755)
    yield path
    shutil.rmtree(path)


def test_blocker_is_the_outermost_folder_others_cannot_traverse(open_dir):
    outer = open_dir / "outer"
    inner = outer / "inner"
    inner.mkdir(parents=True)
    for folder in (outer, inner):
        folder.chmod(0o755)
    assert users.blocker(inner) is None and users.reachable_by_others(inner)
    inner.chmod(0o700)
    outer.chmod(0o750)
    assert users.blocker(inner / "file.txt") == outer
    assert not users.reachable_by_others(inner)
    outer.chmod(0o711)  # traverse without listing is enough
    assert users.blocker(inner) == inner


def test_blocker_skips_parts_that_do_not_exist_yet(open_dir, tmp_path):
    assert users.blocker(open_dir / "not" / "yet") is None
    assert users.blocker(tmp_path / "not" / "yet") is not None  # pytest's own 0700 folder still counts


def _said():
    said = []
    return said, said.append


@root_only
def test_root_runs_servers_as_the_system_user(open_dir):
    said, say = _said()
    run_as = users.for_server([open_dir], None, say)
    entry = pwd.getpwnam(users.SERVER_USER)
    assert (run_as.name, run_as.uid, run_as.gid) == (users.SERVER_USER, entry.pw_uid, entry.pw_gid)
    assert entry.pw_uid != 0 and entry.pw_shell.endswith("nologin")
    assert run_as.switches and str(run_as) == users.SERVER_USER and said == []


@root_only
def test_manifest_root_key_keeps_root_and_says_why(open_dir):
    run_as = users.for_server([open_dir], "binds port 80", _said()[1])
    assert (run_as.uid, run_as.switches) == (0, False)
    assert str(run_as) == "root (manifest [start] root: binds port 80)"


@root_only
def test_unreachable_folder_falls_back_to_root_and_is_said_once(open_dir):
    private = open_dir / "private"
    (private / "app").mkdir(parents=True)
    private.chmod(0o700)
    said, say = _said()
    first = users.for_server([open_dir, private / "app"], None, say)
    second = users.for_server([private / "app"], None, say)
    assert first == second and first.uid == 0
    assert str(first) == f"root ({private} is mode 0700, not reachable by {users.SERVER_USER})"
    assert len(said) == 1 and str(private) in said[0] and "0700" in said[0]


def test_not_root_runs_as_itself(monkeypatch, tmp_path):
    monkeypatch.setattr(os, "geteuid", lambda: 4321)
    monkeypatch.setattr(pwd, "getpwuid", lambda uid: pwd.struct_passwd(("someone", "x", uid, 99, "", "/", "/bin/sh")))
    run_as = users.for_server([tmp_path], "ignored: cannot be root anyway", _said()[1])
    assert (str(run_as), run_as.uid, run_as.gid, run_as.switches) == ("someone", 4321, 99, False)


def test_ensure_without_root_names_the_missing_user(monkeypatch):
    monkeypatch.setattr(os, "geteuid", lambda: 4321)
    with pytest.raises(users.UserError, match="'no-such-user-xyz' does not exist and only root may create it"):
        users.ensure("no-such-user-xyz")


def test_ensure_finds_an_existing_user():
    assert users.ensure("root").pw_uid == 0

