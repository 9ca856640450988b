import ipaddress

from cryptography import x509

from manifests import BASE
from webshootout.engine import check_transport
from webshootout.stacks import catalog
from webshootout.workloads.probe import Link
from webshootout.server import Environment
from webshootout.services.assets import Assets


def test_with_certs_puts_the_runs_certificate_with_the_servers_and_names_their_host(tmp_path):
    env = Environment(None, Assets(tmp_path / "hash", tmp_path / "static"), "secret", (0,), tmp_path / "servers",
                      tmp_path / "logs", host="10.1.2.3")
    made = check_transport.with_certs(env).tls
    # Under the servers' scratch directory, which harness.environment removes at the end.
    assert {made.ca.parent, made.cert.parent, made.key.parent} == {tmp_path / "servers" / ".tls"}
    leaf = x509.load_pem_x509_certificates(made.cert.read_bytes())[0]
    names = leaf.extensions.get_extension_for_class(x509.SubjectAlternativeName).value
    assert ipaddress.ip_address("10.1.2.3") in names.get_values_for_type(x509.IPAddress)
    assert env.tls is None  # the environment of cleartext servers is left as it was


class _Served:
    def __init__(self, variant):
        self.variant = variant

    def context(self, workload):
        raise AssertionError("nothing is requested when the streams cannot be shown")


def test_streams_are_not_checked_without_a_slow_request_and_say_why(tmp_path):
    folder = tmp_path / "frameworks" / "c" / "demo"
    folder.mkdir(parents=True)
    (folder / "framework.toml").write_text(BASE + '[transport]\ntls = true\n'
                                           'h2 = true\nnote = "x"\n')
    (variant,) = catalog.load_manifest(folder / "framework.toml")
    outcome = check_transport._streams(_Served(variant), Link(ca=tmp_path / "ca.pem", http2=True))
    assert outcome == check_transport.Outcome(
        "HTTP/2 streams over h2+tls", unchecked="it takes the stack's plaintext and one of queries or hash "
                                                "(a slow request)")
