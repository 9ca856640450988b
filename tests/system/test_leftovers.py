"""What a killed harness left behind is found and removed; what a live harness owns is never touched."""

import json
import os
import subprocess
import uuid
from dataclasses import asdict

import pytest

from webshootout.system import cgroup, claims, leftovers, process
from webshootout.system.claims import Owner
from webshootout.system.leftovers import Proc

HARNESS, SERVER = 500, 600


def started(table: dict[int, int]):
    """A fake start_of: the start time of each running pid."""
    return table.get


def test_a_live_owner_keeps_its_processes():
    members = [Proc(SERVER, HARNESS, start=2000, owner=HARNESS), Proc(SERVER + 1, SERVER, 2100, HARNESS)]
    assert leftovers.left_behind(members, started({HARNESS: 1000})) == (False, HARNESS)


def test_a_dead_owner_leaves_its_processes_behind():
    members = [Proc(SERVER, 1, start=2000, owner=HARNESS)]
    assert leftovers.left_behind(members, started({})) == (True, HARNESS)


def test_an_owner_pid_reused_by_a_younger_process_is_not_the_owner():
    members = [Proc(SERVER, 1, start=2000, owner=HARNESS), Proc(SERVER + 1, SERVER, 2500, HARNESS)]
    assert leftovers.left_behind(members, started({HARNESS: 2400})) == (True, HARNESS)


def test_untagged_processes_belong_to_the_parent_of_the_oldest():
    # PostgreSQL writes its process titles over its environment: no tag to read.
    postmaster, backend = Proc(SERVER, HARNESS, 2000, None), Proc(SERVER + 1, SERVER, 3000, None)
    assert leftovers.left_behind([backend, postmaster], started({HARNESS: 1000})) == (False, HARNESS)
    adopted = Proc(SERVER, 1, 2000, None)
    assert leftovers.left_behind([adopted, backend], started({HARNESS: 1000})) == (True, None)


def test_an_owner_runs_only_with_its_pid_start_and_boot():
    owner = Owner(HARNESS, 1000, "boot-a")
    assert owner.runs(started({HARNESS: 1000}), lambda: "boot-a")
    assert not owner.runs(started({HARNESS: 1001}), lambda: "boot-a")
    assert not owner.runs(started({}), lambda: "boot-a")
    assert not owner.runs(started({HARNESS: 1000}), lambda: "boot-b")  # the machine restarted


def test_a_postgresql_cluster_in_the_temp_directory_is_found_from_its_data_directory(tmp_path):
    cluster = tmp_path / "webshootout-pg-abc"
    assert leftovers.temp_cluster(cluster / "data", tmp_path) == cluster
    assert leftovers.temp_cluster(tmp_path / "run" / "work" / "postgres" / "data", tmp_path) is None
    assert leftovers.temp_cluster(tmp_path / "elsewhere" / "webshootout-pg-abc" / "data", tmp_path) is None
    assert leftovers.temp_cluster(None, tmp_path) is None


def swept(registry, say) -> list[str]:
    """The sweep of claimed directories alone (that of processes is machine-wide)."""
    return claims.sweep_claims(claims.claims_in(registry, say), say)


@pytest.fixture
def registry(tmp_path):
    return tmp_path / "claims"


def claim_as(directory, owner: Owner, registry) -> None:
    """A claim written as another harness would have written it."""
    registry.mkdir(mode=0o700, exist_ok=True)
    record = asdict(owner)
    (directory / claims.OWNER_FILE).write_text(json.dumps(record))
    (claims._entry(registry, directory.resolve())).write_text(json.dumps({"path": str(directory.resolve()),
                                                                               **record}))


def gone_owner() -> Owner:
    """The identity of a harness that ran and ended."""
    child = subprocess.Popen(["sleep", "0"])
    start = claims.start_of(child.pid)
    child.wait()
    return Owner(child.pid, start or 0, claims.boot())


def test_a_dead_harness_work_directory_is_removed(tmp_path, registry):
    work = tmp_path / "run" / "work"
    (work / "postgres").mkdir(parents=True)
    owner = gone_owner()
    claim_as(work, owner, registry)
    lines = []
    assert swept(registry, lines.append) == lines  # what it removed is what it said
    assert lines == [f"removed leftover work directory {work.resolve()} "
                     f"(from harness {owner.pid} that no longer runs)"]
    assert not work.exists() and (tmp_path / "run").exists()
    assert not list(registry.iterdir())


def test_a_live_harness_work_directory_is_kept(tmp_path, registry):
    work = tmp_path / "work"
    work.mkdir()
    with claims.claimed(work, registry):
        assert swept(registry, print) == []
        assert work.exists() and len(list(registry.iterdir())) == 1
    assert not (work / claims.OWNER_FILE).exists() and not list(registry.iterdir())


def test_results_are_never_removed(tmp_path, registry):
    run = tmp_path / "run"
    run.mkdir()
    (run / "meta.json").write_text("{}")
    claim_as(run, gone_owner(), registry)
    lines = []
    assert swept(registry, lines.append) == []
    assert (run / "meta.json").exists() and "it holds results" in lines[0]


def test_a_directory_claimed_again_is_not_removed_for_the_old_claim(tmp_path, registry):
    work = tmp_path / "work"
    work.mkdir()
    claim_as(work, gone_owner(), registry)
    (work / claims.OWNER_FILE).write_text(json.dumps(asdict(Owner.me())))  # resumed by a live harness
    assert swept(registry, print) == []
    assert work.exists()


def test_a_registry_others_can_write_is_refused(tmp_path, registry):
    work = tmp_path / "work"
    work.mkdir()
    claim_as(work, gone_owner(), registry)
    registry.chmod(0o777)
    lines = []
    assert swept(registry, lines.append) == []
    assert work.exists() and str(registry) in lines[0] and "refusing" in lines[0]


@pytest.mark.skipif(not cgroup.has_hierarchy(), reason="needs a writable cgroup hierarchy (root)")
def test_sweep_stops_the_group_of_a_dead_harness_and_spares_a_live_one(tmp_path, registry):
    owner = gone_owner()
    group = cgroup.create(uuid.uuid4().hex)
    orphan = subprocess.Popen(["sleep", "60"], env={**os.environ, process.OWNER_VAR: str(owner.pid)})
    live = process.start(["sleep", "60"], cwd=tmp_path, env=dict(os.environ),
                         cpus=tuple(os.sched_getaffinity(0)), log=tmp_path / "live.log")
    try:
        group.add(orphan.pid)
        lines = []
        leftovers.sweep(lines.append, registry=registry)
        orphan.wait(timeout=10)
        assert (f"removed leftover server sleep (pid {orphan.pid}, from harness {owner.pid} "
                "that no longer runs)") in lines
        assert not any(d.exists() for d in group.dirs)
        assert live.alive()
    finally:
        orphan.kill()
        orphan.wait()
        live.stop()
        group.remove()
