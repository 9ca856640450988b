"""A stack behind a TLS-terminating nginx: the app moves to a cleartext port on 127.0.0.1 and nginx takes the
run's address, certificate and key (server/tls-proxy.sh)."""

import shlex
from pathlib import Path

from manifests import BASE
from webshootout.engine.lines import display_of
from webshootout.config.profiles import Point
from webshootout.server import base
from webshootout.services import certs
from webshootout.services.assets import Assets
from webshootout.stacks import catalog

PROXIED = BASE + '[transport]\ntls = true\nh2 = true\nproxy = "nginx"\nnote = "nginx in front"\n'


def _variant(tmp_path, text):
    folder = tmp_path / "frameworks" / "python" / "demo"
    folder.mkdir(parents=True)
    (folder / "framework.toml").write_text(text)
    (variant,) = catalog.load_manifest(folder / "framework.toml")
    return variant


def _env(tmp_path, tls: bool) -> base.Environment:
    made = certs.make(tmp_path / "tls") if tls else None
    return base.Environment(None, Assets(tmp_path / "hash", tmp_path / "static"), "s", (0,), tmp_path, tmp_path,
                            host="10.0.0.2", tls=made)


def test_over_tls_nginx_takes_the_address_and_the_app_a_cleartext_port(tmp_path):
    variant = _variant(tmp_path, PROXIED)
    env = _env(tmp_path, tls=True)
    assert base.proxied(variant, env) and not base.proxied(variant, _env(tmp_path / "plain", tls=False))
    command = base.command_for(variant, env.host, 8443, 1, app_port=9000)
    assert shlex.split(command) == ["exec", "bash", str(base.TLS_PROXY), "run --port 9000"]
    values = base.server_env(variant, env, 8443, tmp_path, app_port=9000)
    assert (values["HOST"], values["PORT"], values["APP_PORT"], values["TLS_PROXY_H2"]) == ("10.0.0.2", "8443",
                                                                                          "9000", "1")
    assert values["TLS_CERT"] == str(env.tls.cert)
    assert Path(base.TLS_PROXY).is_file()


def test_a_stack_serving_tls_itself_keeps_its_command(tmp_path):
    variant = _variant(tmp_path, PROXIED.replace('proxy = "nginx"\n', ""))
    env = _env(tmp_path, tls=True)
    assert not base.proxied(variant, env)
    assert base.command_for(variant, env.host, 8443, 1) == "run --port 8443"
    assert "APP_PORT" not in base.server_env(variant, env, 8443, tmp_path)


def test_its_tls_rows_name_the_proxy(tmp_path):
    variant = _variant(tmp_path, PROXIED)
    assert display_of(variant, Point(connections=64, tls=True)) == "Demo, TLS by nginx"
    assert display_of(variant, Point(connections=64)) == "Demo"
