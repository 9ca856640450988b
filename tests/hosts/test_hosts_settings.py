"""--hosts and a suite's [hosts] table: where they place the roles, what they refuse, how reports show it."""

from dataclasses import replace
from pathlib import Path

import pytest

from webshootout.services import assets
from webshootout import cli
from webshootout.config import suites
from webshootout.hosts.placement import port_warning
from webshootout.report import fmt
from webshootout.results.rundir import RunDir
from webshootout.config.settings import SettingsError

HOSTS = """
[hosts.app]
ssh = "root@10.9.0.2"
address = "10.9.0.2"
cpus = "2-3"

[hosts.database]
ssh = "root@10.9.0.3"
address = "10.9.0.3"
cpus = "0-7"

[hosts.load]
ssh = "root@10.9.0.4"
address = "10.9.0.4"
cpus = "5"
"""


def _settings(*argv: str):
    args = cli.parser().parse_args(list(argv))
    return cli.build(args, cli.ROOT, default_suite=cli.suites_default(args))


@pytest.fixture
def hosts_file(tmp_path) -> Path:
    path = tmp_path / "hosts.toml"
    path.write_text(HOSTS)
    return path


def test_the_hosts_file_gives_each_role_its_host_and_cpus(hosts_file):
    settings = _settings("run", "--hosts", str(hosts_file), "--frameworks", "flask")
    assert settings.hosts["app"].address == "10.9.0.2"
    # CPUs of other machines: not checked against this one's.
    assert settings.server_cpus == (2, 3) and settings.load_cpus == (5,)


def test_without_hosts_nothing_changes():
    assert _settings("run", "--frameworks", "flask").hosts is None


@pytest.mark.parametrize("flags, message", [
    (["--server-cpus", "0"], "--server-cpus: the hosts file gives each role's CPUs"),
    (["--load-cpus", "1"], "--load-cpus: the hosts file gives each role's CPUs"),
    (["--driver", "wrk"], "--driver wrk: only the native driver"),
])
def test_flags_the_hosts_file_decides_are_refused(hosts_file, flags, message):
    with pytest.raises(SettingsError, match=message):
        _settings("run", "--hosts", str(hosts_file), "--frameworks", "flask", *flags)


def test_a_bad_hosts_file_is_named(tmp_path):
    path = tmp_path / "hosts.toml"
    path.write_text(HOSTS.replace('cpus = "5"', 'cpus = "five"'))
    with pytest.raises(SettingsError, match=r"--hosts: .*hosts.toml: hosts.load.cpus"):
        _settings("check", "--hosts", str(path))


def test_a_suite_may_place_the_roles(tmp_path):
    path = tmp_path / "lab.toml"
    path.write_text('frameworks = ["flask"]\n' + HOSTS)
    suite = suites.load(path)
    assert suite.hosts["load"].cpus == (5,)
    path.write_text('frameworks = ["flask"]\n[hosts.app]\nssh = "x"\n')
    with pytest.raises(suites.SuiteError, match=r"lab.toml: hosts.database: missing"):
        suites.load(path)


def test_resume_refuses_other_hosts(tmp_path, hosts_file):
    rundir = RunDir(tmp_path / "run")
    rundir.create()
    argv = ["run", "--frameworks", "flask", "--hosts", str(hosts_file)]
    roles = {role: {"ssh": f"root@{address}", "address": address, "cpus": cpus}
             for role, address, cpus in (("app", "10.9.0.2", [2, 3]), ("database", "10.9.0.3", list(range(8))),
                                         ("load", "10.9.0.4", [5]))}
    rundir.write_meta({"argv": argv, "command": "./shootout " + " ".join(argv), "topology": {"roles": roles}})
    args = cli.parser().parse_args(["run", "--resume", str(rundir.path)])
    assert cli._resumed(args).hosts["app"].address == "10.9.0.2"
    hosts_file.write_text(HOSTS.replace("10.9.0.2", "10.9.0.9"))
    with pytest.raises(SettingsError, match=r"--hosts: the run placed app on root@10.9.0.2 \(address 10.9.0.2, "
                                            r"CPUs \[2, 3\]\), the hosts given now place it on root@10.9.0.9"):
        cli._resumed(args)


def test_resume_of_a_one_machine_run_refuses_hosts(hosts_file):
    with pytest.raises(SettingsError, match="--hosts: the run placed app on this machine"):
        cli.refuse_other_hosts(None, cli.build(cli.parser().parse_args(
            ["run", "--frameworks", "flask", "--hosts", str(hosts_file)]), cli.ROOT).hosts)


def test_reports_show_the_topology_and_no_pinning_of_one_machine():
    run = {"pinning": {"server_cpus": [0], "load_cpus": [1]}, "topology": {
        "roles": {"app": {"ssh": "root@a", "address": "10.0.0.2", "cpus": [0, 1], "cpus_online": 8,
                          "kernel": "6.1", "cpu_model": "EPYC"}},
        "links": [{"client": "load", "server": "app", "rtt_median_us": 52.4, "throughput_mbit_s": 9400.0}]}}
    assert fmt.topology_lines(run) == [
        "app: root@a at 10.0.0.2, CPUs 0,1 of 8, Linux 6.1, EPYC",
        "link load -> app: round trip median 52 us, 9,400 Mbit/s"]
    assert "own host" in fmt.pinning_text(run)
    alone = {"pinning": {"server_cpus": [0], "load_cpus": [1]}, "topology": None}
    assert fmt.topology_lines(alone) == [] and fmt.pinning_text(alone).startswith("server and PostgreSQL on CPUs [0]")


def test_a_rewritten_hash_file_is_published_where_the_servers_read_it(tmp_path):
    published = []
    files = replace(assets.create(tmp_path), publish=published.append)
    files.rewrite_hash_file()
    assert published == [files.hash_file]


def test_a_load_host_without_port_reuse_is_warned_of_with_its_ceiling():
    assert port_warning({"tcp_tw_reuse": "1", "local_port_range": "32768-60999"}) is None
    warning = port_warning({"tcp_tw_reuse": "2", "local_port_range": "32768-60999"})
    assert "tcp_tw_reuse = 2" in warning and "about 470 new connections per second" in warning
