"""The hosts file: every role once, and every bad value refused with the file and field named."""

from pathlib import Path

import pytest

from webshootout.config.hostsfile import HostsError, load, parse_cpu_list

GOOD = """
[hosts.app]
ssh = "root@10.77.0.2"
address = "10.77.0.2"
cpus = "0-1,3"
identity = "key"

[hosts.database]
ssh = "bench@db.example"
address = "db.example"
cpus = "2"
port = 2222

[hosts.load]
ssh = "10.77.0.4"
address = "10.77.0.4"
cpus = "0"
known_hosts = "known"
"""


def _write(tmp_path: Path, text: str) -> Path:
    (tmp_path / "key").write_text("private\n")
    (tmp_path / "known").write_text("")
    path = tmp_path / "hosts.toml"
    path.write_text(text)
    return path


def test_a_good_file_gives_one_host_per_role(tmp_path):
    hosts = load(_write(tmp_path, GOOD))
    app, database, load_host = hosts["app"], hosts["database"], hosts["load"]
    assert (app.ssh, app.address, app.cpus, app.port) == ("root@10.77.0.2", "10.77.0.2", (0, 1, 3), 22)
    assert app.identity == tmp_path / "key" and app.known_hosts is None
    assert (database.ssh, database.address, database.port, database.identity) == \
        ("bench@db.example", "db.example", 2222, None)
    assert load_host.known_hosts == tmp_path / "known"
    assert [h.role for h in hosts.hosts] == ["app", "database", "load"]
    with pytest.raises(KeyError):
        hosts["web"]


def test_one_machine_may_hold_several_roles(tmp_path):
    text = GOOD.replace('"bench@db.example"', '"root@10.77.0.2"').replace('"db.example"', '"10.77.0.2"')
    hosts = load(_write(tmp_path, text))
    assert hosts["app"].ssh == hosts["database"].ssh and hosts["database"].cpus == (2,)


@pytest.mark.parametrize("change, message", [
    (('cpus = "2"', 'cpus = "2-"'), r"hosts\.database\.cpus: .*'2-'"),
    (('cpus = "2"', 'cpus = "3-1"'), r"hosts\.database\.cpus: .*backwards"),
    (('cpus = "2"', 'cpus = "a"'), r"hosts\.database\.cpus"),
    (('cpus = "2"', "cpus = 2"), r"hosts\.database\.cpus: expected a non-empty string, got 2"),
    (('address = "db.example"', 'address = "0.0.0.0"'), r"hosts\.database\.address: 0\.0\.0\.0 is a wildc"),
    (('address = "db.example"', 'address = "::"'), r"hosts\.database\.address: :: is a wildcard"),
    (('address = "db.example"', 'address = "224.0.0.1"'), r"hosts\.database\.address: .*multicast"),
    (('address = "db.example"', 'address = "db example"'), r"hosts\.database\.address: expected an IP"),
    (('ssh = "bench@db.example"', 'ssh = "-oProxyCommand=x"'), r"hosts\.database\.ssh: expected an ssh dest"),
    (('ssh = "bench@db.example"', 'ssh = "a b"'), r"hosts\.database\.ssh"),
    (("port = 2222", "port = 0"), r"hosts\.database\.port: expected a TCP port"),
    (("port = 2222", "port = true"), r"hosts\.database\.port"),
    (("port = 2222", 'user = "x"'), r"hosts\.database\.user: unknown key"),
    (('identity = "key"', 'identity = "nokey"'), r"hosts\.app\.identity: no such file: .*nokey"),
    (('ssh = "10.77.0.4"\n', ""), r"hosts\.load\.ssh: missing"),
    (("[hosts.load]", "[hosts.web]"), r"hosts\.web: unknown role"),
])
def test_bad_values_name_the_file_and_field(tmp_path, change, message):
    old, new = change
    assert old in GOOD
    path = _write(tmp_path, GOOD.replace(old, new, 1))
    with pytest.raises(HostsError, match=message) as caught:
        load(path)
    assert str(caught.value).startswith(f"{path}: ")


def test_every_role_is_needed_and_nothing_else_is_allowed(tmp_path):
    without_load = GOOD[:GOOD.index("[hosts.load]")]
    with pytest.raises(HostsError, match=r"hosts\.load: missing"):
        load(_write(tmp_path, without_load))
    with pytest.raises(HostsError, match=r"suite: unknown key"):
        load(_write(tmp_path, 'suite = "quick"\n' + GOOD))
    with pytest.raises(HostsError, match=r"hosts: expected a table"):
        load(_write(tmp_path, "hosts = 1\n"))
    with pytest.raises(HostsError, match=r"hosts\.app: expected a table"):
        load(_write(tmp_path, "[hosts]\napp = 1\ndatabase = 2\nload = 3\n"))
    with pytest.raises(HostsError, match="not valid TOML"):
        load(_write(tmp_path, "[hosts.app\n"))
    with pytest.raises(HostsError, match="cannot read"):
        load(tmp_path / "absent.toml")


def test_cpu_lists():
    assert parse_cpu_list("0") == (0,)
    assert parse_cpu_list("3,0-1, 1") == (0, 1, 3)
    for bad in ("", "-1", "1-", "x", "1,,2", "2-1"):
        with pytest.raises(ValueError):
            parse_cpu_list(bad)
