"""A server started with the run's certificate on the app host of the lab: the certificate and key go to its
run directory there (the key still 0600), its name is the app host's address, and it serves TLS and h2."""

from pathlib import Path

import pytest

from .labhosts import lab_hosts
from webshootout.hosts.remote import Remote, work_dir
from webshootout.server import Environment
from webshootout.server import remote as remote_server
from webshootout.services import assets, certs
from webshootout.stacks import catalog
from webshootout.workloads import transport

pytestmark = [pytest.mark.integration, pytest.mark.timeout(300)]
FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"


def test_a_tls_server_on_the_app_host_gets_the_certificate_in_its_run_directory(tmp_path, no_leftovers):
    variant = next(v for v in catalog.discover(FIXTURES) if v.id == "faketls")
    with lab_hosts() as lab, Remote(lab["app"]) as app:
        address = lab["app"].address
        made = certs.make(tmp_path / "servers" / ".tls", [address])
        env = Environment(None, assets.create(tmp_path / "assets"), "secret", lab["app"].cpus,
                          tmp_path / "servers", tmp_path / "logs", host=address, app=app, tls=made)
        try:
            srv = remote_server.start(variant, env)  # ready: it answered over TLS, verified against the run's CA
            try:
                there = Path(work_dir("servers", variant.id), "tls")  # the lab shares this machine's files
                assert (there / "server.key").read_bytes() == made.key.read_bytes()
                assert (there / "server.key").stat().st_mode & 0o777 == 0o600
                chosen = transport.selected_alpn(address, srv.port, made.ca)
                assert chosen == {("http/1.1",): "http/1.1", ("h2", "http/1.1"): "h2"}
            finally:
                leak = srv.stop()
        finally:
            app.run(["rm", "-rf", "--", work_dir()])
        assert leak is None
