"""The keep-alive claim a verification holds a server to: its manifest's, or behind the TLS proxy nginx's."""

from manifests import BASE
from webshootout.harness import keepalive_mismatch
from webshootout.stacks import catalog
from webshootout.workloads.keepalive import KeepAlive

CLOSES = BASE.replace('keepalive = "on"', 'keepalive = "off"') + \
    '[transport]\ntls = true\nproxy = "nginx"\nnote = "behind nginx"\n'


def closing_stack(tmp_path) -> catalog.Variant:
    folder = tmp_path / "frameworks" / "python" / "demo"
    folder.mkdir(parents=True)
    (folder / "framework.toml").write_text(CLOSES)
    (variant,) = catalog.load_manifest(folder / "framework.toml")
    return variant


def test_a_server_that_closes_is_held_to_its_manifest_in_cleartext(tmp_path):
    variant = closing_stack(tmp_path)
    assert variant.fairness.keepalive == "off"
    assert keepalive_mismatch(variant, KeepAlive(5, 5)) is None
    assert "the manifest says \"off\" but 5 requests shared one connection" in keepalive_mismatch(
        variant, KeepAlive(5, 1))


def test_behind_the_tls_proxy_the_connection_is_nginxs_and_kept_alive(tmp_path):
    variant = closing_stack(tmp_path)
    assert keepalive_mismatch(variant, KeepAlive(5, 1), proxied=True) is None
    assert "5 requests took 5 TCP connections through the nginx terminating TLS" in keepalive_mismatch(
        variant, KeepAlive(5, 5), proxied=True)
