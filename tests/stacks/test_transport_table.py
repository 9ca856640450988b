"""The manifest's [transport] table (docs/adding-a-framework.md)."""

import pytest

from manifests import BASE
from webshootout.commands.list import transport as listed
from webshootout.stacks import catalog
from webshootout.stacks.catalog import ManifestError, Transport

TABLE = '[transport]\ntls = true\nh2 = true\nh2c = true\nnote = "ListenAndServeTLS"\n'


def load(tmp_path, text):
    folder = tmp_path / "frameworks" / "python" / "demo"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "framework.toml").write_text(text)
    return catalog.load_manifest(folder / "framework.toml")


def error_of(tmp_path, text) -> str:
    with pytest.raises(ManifestError) as info:
        load(tmp_path, text)
    return str(info.value)


def test_without_the_table_a_stack_serves_cleartext_http1_only(tmp_path):
    (variant,) = load(tmp_path, BASE)
    assert variant.transport == Transport() and variant.transport.serves == ("h1",)
    assert listed(variant.transport) == "-"


def test_the_table_says_what_it_serves(tmp_path):
    (variant,) = load(tmp_path, BASE + TABLE)
    assert variant.transport == Transport(tls=True, h2=True, h2c=True, note="ListenAndServeTLS")
    assert variant.transport.serves == ("h1", "h1+tls", "h2+tls", "h2c")
    assert listed(variant.transport) == "tls,h2,h2c"


def test_a_stack_behind_a_tls_terminating_proxy_says_which(tmp_path):
    (variant,) = load(tmp_path, BASE + '[transport]\ntls = true\nh2 = true\nproxy = "nginx"\nnote = "x"\n')
    assert variant.transport.proxy == "nginx" and variant.transport.serves == ("h1", "h1+tls", "h2+tls")
    assert listed(variant.transport) == "tls,h2 (nginx)"
    base, plain = load(tmp_path, BASE + '[transport]\ntls = true\nproxy = "nginx"\nnote = "x"\n'
                                        '[variants.plain]\ntransport = { tls = false }\n')
    assert plain.transport.proxy is None and listed(plain.transport) == "-"


def test_a_variant_may_serve_tls_itself_where_its_base_sits_behind_a_proxy(tmp_path):
    base, own = load(tmp_path, BASE + '[transport]\ntls = true\nproxy = "nginx"\nnote = "x"\n'
                                      '[variants.own]\ntransport = { h2 = true, h2c = true, proxy = "none" }\n')
    assert base.transport.proxy == "nginx"
    assert own.transport.proxy is None and own.transport.serves == ("h1", "h1+tls", "h2+tls", "h2c")
    assert listed(own.transport) == "tls,h2,h2c"


def test_missing_flags_are_false_and_a_variant_may_turn_one_off(tmp_path):
    base, plain = load(tmp_path, BASE + '[transport]\ntls = true\nnote = "x"\n'
                                        '[variants.plain]\ntransport = { tls = false }\n')
    assert base.transport.serves == ("h1", "h1+tls")
    assert plain.transport == Transport(note="x")


@pytest.mark.parametrize("table, expected", [
    ('tls = "yes"\nnote = "x"', "framework.toml: transport.tls: expected true or false, got 'yes'"),
    ('h2c = 1\nnote = "x"', "transport.h2c: expected true or false, got 1"),
    ("tls = true", "transport.note: expected a string (missing)"),
    ('tls = true\nnote = ""', "transport.note: expected a non-empty string, got ''"),
    ('tls = true\nquic = true\nnote = "x"', "transport.quic: expected one of"),
    ('h2 = true\nnote = "x"', "transport.h2: expected false unless tls = true"),
    ('tls = true\nproxy = "haproxy"\nnote = "x"', "transport.proxy: expected one of ['nginx', 'none'], got 'haproxy'"),
    ('tls = true\nh2c = true\nproxy = "nginx"\nnote = "x"', "transport.proxy: expected no proxy with h2c = true"),
])
def test_bad_tables_name_the_file_and_the_field(tmp_path, table, expected):
    assert expected in error_of(tmp_path, BASE + f"[transport]\n{table}\n")


def test_a_bad_variant_table_names_the_variant(tmp_path):
    message = error_of(tmp_path, BASE + TABLE + '[variants.odd]\ntransport = { h2c = "no" }\n')
    assert "variants.odd.transport.h2c: expected true or false" in message


def test_transport_must_be_a_table(tmp_path):
    assert "transport: expected a table, got 'tls'" in error_of(tmp_path, 'transport = "tls"\n' + BASE)


GRPC = BASE.replace('ready = "/plaintext"', 'ready = "h2"').replace(
    'plaintext = "/plaintext"', 'grpc-unary = "/webshootout.Bench/Sum"') + TABLE + "h1 = false\n"


def test_a_server_of_http2_only_says_h1_false_and_is_ready_by_the_preface(tmp_path):
    (variant,) = load(tmp_path, GRPC)
    assert variant.transport.serves == ("h2+tls", "h2c") and variant.start.ready == "h2"
    assert listed(variant.transport) == "tls,h2,h2c only"


@pytest.mark.parametrize("text, expected", [
    (GRPC.replace("h2c = true\n", ""), "transport.h1"),  # HTTP/2 only, but no h2c
    (GRPC.replace('ready = "h2"', 'ready = "/"'), "start.ready"),  # no HTTP/1.1 to GET a path over
    (GRPC.replace('grpc-unary = "/webshootout.Bench/Sum"', 'plaintext = "/plaintext"'), "workloads.plaintext"),
    (GRPC.replace("h1 = false\n", "").replace("h2c = true\n", "h2c = false\n"), "workloads.grpc-unary"),
    (BASE.replace('ready = "/plaintext"', 'ready = "h3"'), "start.ready"),
    (BASE.replace('ready = "/plaintext"', 'ready = "h2"'), "start.ready"),  # the preface needs h2c
])
def test_http2_only_servers_and_workloads_are_refused_where_they_cannot_work(tmp_path, text, expected):
    assert f"field '{expected}'" in error_of(tmp_path, text) or expected in error_of(tmp_path, text)
