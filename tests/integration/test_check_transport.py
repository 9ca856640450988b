"""`check` over TLS and HTTP/2: a fixture server of our own that serves them (and variants that break one
claim each), and go-nethttp, which serves TLS, h2 and h2c in its production configuration."""

import pytest

from webshootout.commands import check

from .helpers import make_settings

pytestmark = pytest.mark.integration


def test_a_server_that_serves_what_its_transport_table_claims_passes_over_each(fixture_root, capsys, no_leftovers):
    code = check.run(make_settings(fixture_root, ("faketls",)))
    out = capsys.readouterr().out
    assert code == 0, out
    assert "faketls TLS handshake and ALPN: ok" in out
    for transport in ("h2c", "h1+tls", "h2+tls"):
        for workload in ("plaintext", "json", "hash", "static"):
            assert f"faketls {workload} over {transport}: ok" in out
    assert "faketls HTTP/2 streams over h2c: ok" in out and "faketls HTTP/2 streams over h2+tls: ok" in out


def test_a_server_that_refuses_alpn_h2_is_a_clear_error(fixture_root, capsys, no_leftovers):
    assert check.run(make_settings(fixture_root, ("faketls-noh2",))) == 1
    out = capsys.readouterr().out
    assert ("faketls-noh2 TLS handshake and ALPN: FAILED: TLS ALPN: offered h2, http/1.1, the server selected "
            "'http/1.1', expected 'h2' (the manifest's [transport] says h2 = true)") in out
    assert "over h2+tls" not in out  # nothing is checked over a transport the handshake refused
    assert "faketls-noh2 plaintext over h2c: ok" in out


def test_a_server_that_answers_a_connections_streams_in_turn_fails_the_streams_check(fixture_root, capsys,
                                                                                      no_leftovers):
    assert check.run(make_settings(fixture_root, ("faketls-serial",))) == 1
    out = capsys.readouterr().out
    for transport in ("h2c", "h2+tls"):
        assert (f"faketls-serial HTTP/2 streams over {transport}: FAILED: HTTP/2 streams are not concurrent over "
                f"{transport}: 3 x GET /hash?n=100000 then GET /plaintext on one connection") in out
        assert f"faketls-serial plaintext over {transport}: ok" in out  # each answer alone is right


def test_go_nethttp_serves_every_workload_over_tls_h2_and_h2c(root, capsys, no_leftovers):
    code = check.run(make_settings(root, ("go-nethttp",)))
    out = capsys.readouterr().out
    assert code == 0, out
    assert "go-nethttp websocket over h1+tls: ok" in out  # wss
    assert "go-nethttp websocket over h2" not in out
    for transport in ("h2c", "h2+tls"):
        assert f"go-nethttp HTTP/2 streams over {transport}: ok" in out
        assert f"go-nethttp fortunes over {transport}: ok" in out


def test_a_stack_behind_nginx_is_checked_over_tls_and_h2_through_it(fixture_root, capsys, no_leftovers):
    code = check.run(make_settings(fixture_root, ("fake-proxied",)))
    out = capsys.readouterr().out
    assert code == 0, out
    assert "fake-proxied: started again with TLS_CERT and TLS_KEY, behind nginx terminating TLS" in out
    assert "fake-proxied TLS handshake and ALPN: ok" in out
    for transport in ("h1+tls", "h2+tls"):
        for workload in ("plaintext", "json", "hash", "static"):
            assert f"fake-proxied {workload} over {transport}: ok" in out
    assert "fake-proxied HTTP/2 streams over h2+tls: ok" in out and "over h2c" not in out


def test_a_check_may_leave_a_stacks_transports_to_another_id(fixture_root, capsys, no_leftovers):
    code = check.run(make_settings(fixture_root, ("faketls",)), transports=lambda variant: "checked with its base")
    out = capsys.readouterr().out
    assert code == 0, out
    assert "faketls: transports not checked: checked with its base" in out and "faketls json: ok" in out
    assert " over h2c" not in out and "TLS_CERT" not in out  # not started again with a certificate


def test_a_check_may_take_fewer_workloads_over_the_other_transports(fixture_root, capsys, no_leftovers):
    code = check.run(make_settings(fixture_root, ("faketls",)), transport_workloads=("json",))
    out = capsys.readouterr().out
    assert code == 0, out
    assert "faketls plaintext: ok" in out and "faketls hash: ok" in out  # cleartext: every workload
    for transport in ("h2c", "h1+tls", "h2+tls"):
        assert f"faketls json over {transport}: ok" in out and f"faketls hash over {transport}" not in out
    assert "faketls HTTP/2 streams over h2+tls: ok" in out  # its slow requests are its own
