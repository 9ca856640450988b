import re
import subprocess
from pathlib import Path

import pytest

from webshootout.stacks import catalog, provision
from manifests import BASE
from webshootout.stacks.catalog import ManifestError

ROOT = Path(__file__).resolve().parents[2]



def write(tmp_path: Path, text: str, name: str = "demo") -> Path:
    folder = tmp_path / "frameworks" / "python" / name
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "framework.toml").write_text(text)
    return folder / "framework.toml"


def error_of(tmp_path: Path, text: str) -> str:
    with pytest.raises(ManifestError) as info:
        catalog.load_manifest(write(tmp_path, text))
    return str(info.value)


def test_valid_manifest_with_variant_merges_keys(tmp_path):
    path = write(tmp_path, BASE + '[variants.fast]\ndisplay = "Demo fast"\nstart = { command = "run fast" }\n')
    base, fast = catalog.load_manifest(path)
    assert (base.id, fast.id) == ("demo", "demo-fast")
    assert fast.start.command == "run fast" and fast.start.ready == "/plaintext"
    assert fast.display == "Demo fast" and fast.version == "1.0"
    assert fast.path_of("plaintext") == "/plaintext" and fast.path_of("db") is None


def test_variant_workloads_replace_the_base_list(tmp_path):
    path = write(tmp_path, BASE.replace('plaintext = "/plaintext"\n', 'plaintext = "/p"\njson = "/j"\n')
                 + '[variants.one]\nworkloads = { json = "/j2" }\n')
    _, one = catalog.load_manifest(path)
    assert one.workloads == (("json", "/j2"),)


def test_missing_field_names_file_and_field(tmp_path):
    message = error_of(tmp_path, BASE.replace('version = "1.0"\n', ""))
    assert "framework.toml" in message and "version" in message and "missing" in message


def test_wrong_type_names_field_and_value(tmp_path):
    message = error_of(tmp_path, BASE.replace('version = "1.0"', "version = 1"))
    assert "version: expected a non-empty string, got 1" in message


def test_unknown_workload(tmp_path):
    message = error_of(tmp_path, BASE.replace('plaintext = "/plaintext"\n', 'plaintext = "/plaintext"\ngraphql = "/g"\n'))
    assert "workloads.graphql" in message and "unknown workload" in message


def test_bad_placeholder(tmp_path):
    message = error_of(tmp_path, BASE.replace("{port}", "{prot}"))
    assert "start.command" in message and "{prot}" in message


def test_name_must_match_folder(tmp_path):
    message = error_of(tmp_path, BASE.replace('name = "demo"', 'name = "other"'))
    assert "name: expected the folder name 'demo'" in message


def test_unknown_key_and_bad_kind(tmp_path):
    assert "colour" in error_of(tmp_path, "colour = 1\n" + BASE)


def test_bad_kind(tmp_path):
    assert "kind: expected one of" in error_of(tmp_path, BASE.replace('kind = "micro"', 'kind = "huge"'))


def test_negative_timeout(tmp_path):
    assert "start.timeout" in error_of(tmp_path, BASE.replace('ready = "/plaintext"', 'ready = "/plaintext"\ntimeout = -1'))


def test_invalid_toml(tmp_path):
    assert "not valid TOML" in error_of(tmp_path, "schema = = 1")


def test_unavailable_needs_no_start(tmp_path):
    text = BASE[: BASE.index("[start]")] + 'unavailable = "no package"\n'
    (variant,) = catalog.load_manifest(write(tmp_path, text))
    assert variant.unavailable == "no package" and variant.workloads == () and variant.fairness is None


def test_select_unknown_id_lists_known(tmp_path):
    write(tmp_path, BASE)
    variants = catalog.discover(tmp_path)
    with pytest.raises(ManifestError, match=r"--frameworks: unknown framework id 'nope' \(not an id, a language "
                                            r"among jvm, python, or a glob matching one\); known: demo"):
        catalog.select(variants, ("nope",))


def test_select_by_id_language_group_and_glob_in_order_without_repeats(tmp_path):
    write(tmp_path, BASE + "[variants.fast]\n")
    write(tmp_path, BASE.replace('name = "demo"', 'name = "other"').replace('"python"', '"java"'), name="other")
    write(tmp_path, BASE.replace('name = "demo"', 'name = "kt"').replace('"python"', '"kotlin"'), name="kt")
    variants = catalog.discover(tmp_path)

    def ids(*names):
        return [v.id for v in catalog.select(variants, names)]

    assert ids("python") == ["demo", "demo-fast"]
    assert ids("jvm") == ["other", "kt"]
    assert ids("demo-*", "demo", "python") == ["demo-fast", "demo"]
    assert ids("other", "d*") == ["other", "demo", "demo-fast"]


def test_duplicate_ids_are_rejected(tmp_path):
    write(tmp_path, BASE + "[variants.x]\n")
    write(tmp_path, BASE.replace('name = "demo"', 'name = "demo-x"'), name="demo-x")
    with pytest.raises(ManifestError, match="already declared"):
        catalog.discover(tmp_path)


LOCKFILES = ("requirements.txt", "package-lock.json", "go.mod", "pom.xml", "Cargo.toml", "CMakeLists.txt")


def _pinned(version: str, text: str) -> bool:
    """The version as a whole token of a lockfile (1.2 does not match 1.2.3)."""
    return re.search(rf"(?<![\w.])v?{re.escape(version)}(?![\w.])", text) is not None


def _debian_versions(packages) -> list[str]:
    """Each package's installed version, or before its stack's setup installs it, the one apt would install
    (the unit tests may run before the lineup has installed every stack's packages)."""
    found = []
    for package in packages:
        installed = subprocess.run(["dpkg-query", "-W", "-f=${Version}", package], capture_output=True, text=True)
        policy = subprocess.run(["apt-cache", "policy", package], capture_output=True, text=True).stdout
        candidate = next((line.split()[-1] for line in policy.splitlines() if "Candidate:" in line), "(none)")
        version = installed.stdout if installed.returncode == 0 and installed.stdout else candidate
        if version != "(none)":
            found.append(version.split(":")[-1])
    return found


def _toolchain_versions(executables) -> str:
    """What `go version` / `node --version` print: a stack on the bare runtime is pinned by the toolchain."""
    out = []
    for exe in executables:
        for flag in ("version", "--version"):
            done = subprocess.run([exe, flag], capture_output=True, text=True)
            if done.returncode == 0:
                out.append(done.stdout)
                break
    return " ".join(out).replace("go1.", "1.").replace(" v", " ")


@pytest.mark.parametrize("variant", [v for v in catalog.discover(ROOT) if not v.unavailable], ids=lambda v: v.id)
def test_every_manifest_version_is_what_its_stack_pins(variant):
    """Exactly the lockfile's version; for Debian-packaged stacks (PHP, nginx, Boost) the installed package's
    version begins with it, component by component; for a bare runtime, the toolchain's."""
    lock = "".join((variant.folder / n).read_text() for n in LOCKFILES if (variant.folder / n).exists())
    if variant.language == "rust":
        lock += (ROOT / "Cargo.lock").read_text()
    debian = _debian_versions(variant.setup.apt)
    toolchain = _toolchain_versions(variant.setup.requires) if variant.setup.requires else ""
    assert (_pinned(variant.version, lock) or _pinned(variant.version, toolchain)
            or any(re.match(rf"{re.escape(variant.version)}(?![\w])", v) for v in debian)), \
        f"{variant.id}: version {variant.version!r} is neither pinned in its lockfile nor the installed " \
        f"Debian package's ({debian}) nor its toolchain's"


def test_setup_inputs_must_be_existing_folders(tmp_path):
    message = error_of(tmp_path, BASE.replace("[start]", '[setup]\ninputs = ["../shared"]\n[start]'))
    assert "setup.inputs" in message and "../shared" in message


def test_a_change_in_a_setup_input_invalidates_the_build(tmp_path):
    shared = tmp_path / "frameworks" / "python" / "shared"
    shared.mkdir(parents=True)
    (shared / "lib.py").write_text("A = 1\n")
    (variant,) = catalog.load_manifest(write(tmp_path, BASE.replace(
        "[start]", '[setup]\ninputs = ["../shared"]\ncommands = ["true"]\n[start]')))
    assert variant.setup.inputs == (shared.resolve(),)
    provision.setup(variant, tmp_path / "setup.log", lambda _: None, install=False)
    assert provision.is_built(variant)
    (shared / "lib.py").write_text("A = 2\n")
    assert not provision.is_built(variant)



def test_fairness_table_is_parsed_and_variants_override_it(tmp_path):
    text = (BASE.replace('pool = "none"', 'pool = "8"') + 'departures = { pool = "one per process" }\n'
            + '[variants.sync]\nfairness = { keepalive = "off", departures = { keepalive = "behind a proxy" } }\n'
            + '[variants.plain]\nfairness = { threads = "4" }\n')
    base, sync, plain = catalog.load_manifest(write(tmp_path, text))
    assert base.fairness == catalog.Fairness("WORKERS", "1", "8", "on", "release", "511: the demo server's default",
                                             (("pool", "one per process"),))
    # A variant's departures replace the base's: it states every knob it departs on.
    assert sync.fairness.keepalive == "off" and sync.fairness.departures == (("keepalive", "behind a proxy"),)
    assert plain.fairness.threads == "4" and plain.fairness.departure("pool") == "one per process"


def test_fairness_table_is_required_of_an_available_framework(tmp_path):
    message = error_of(tmp_path, BASE[: BASE.index("[fairness]")])
    assert "framework.toml: fairness: expected a table of how the shared knobs are set" in message


@pytest.mark.parametrize("change, field, shown", [
    (('keepalive = "on"', 'keepalive = "yes"'), "fairness.keepalive", "got 'yes'"),
    (('pool = "none"\n', ""), "fairness.pool", "missing"),
    (('threads = "1"', "threads = 1"), "fairness.threads", "got 1"),
    (('production = "release"', 'production = "release"\nspeed = "max"'), "fairness.speed", "unknown key"),
    (('production = "release"', 'production = "release"\ndepartures = { cache = "why" }'),
     "fairness.departures.cache", "unknown knob"),
    (('production = "release"', 'production = "release"\ndepartures = { pool = "" }'),
     "fairness.departures.pool", "the reason"),
])
def test_bad_fairness_values_name_file_and_field(tmp_path, change, field, shown):
    message = error_of(tmp_path, BASE.replace(*change))
    assert "framework.toml" in message and field in message and shown in message


def test_the_listen_backlog_is_required_with_its_number_and_source(tmp_path):
    message = error_of(tmp_path, BASE.replace('backlog = "511: the demo server\'s default"\n', ""))
    assert "framework.toml: fairness.backlog: expected a string (missing)" in message
    for bare in ('"511"', '"the default"', '"0: none"', '": Node"'):
        message = error_of(tmp_path, BASE.replace('"511: the demo server\'s default"', bare))
        assert "framework.toml: fairness.backlog: expected '<number>: where it comes from'" in message
        assert f"got {bare[1:-1]!r}" in message


def test_the_backlog_is_overridden_per_variant_and_may_state_a_departure(tmp_path):
    text = (BASE + '[variants.cluster]\nfairness = { backlog = "2048: --backlog in the start command" }\n'
            + '[variants.dev]\nfairness = { backlog = "5: socketserver\'s default", '
            + 'departures = { backlog = "a development server" } }\n')
    base, cluster, dev = catalog.load_manifest(write(tmp_path, text))
    assert base.fairness.backlog == "511: the demo server's default"
    assert cluster.fairness.backlog == "2048: --backlog in the start command"
    assert dev.fairness.departure("backlog") == "a development server"


def test_outside_contract_at_variant_level(tmp_path):
    text = BASE + '[variants.lite]\noutside_contract = "keeps its counter in SQLite"\n'
    base, lite = catalog.load_manifest(write(tmp_path, text))
    assert base.outside_contract is None and lite.outside_contract == "keeps its counter in SQLite"


def test_outside_contract_must_say_why(tmp_path):
    assert "outside_contract: expected a non-empty string" in error_of(tmp_path, 'outside_contract = ""\n' + BASE)


def test_a_version_must_be_pinned_whole():
    assert _pinned("1.2.3", "flask==1.2.3\n") and _pinned("1.12.0", "github.com/gin-gonic/gin v1.12.0\n")
    assert not _pinned("1.2", "flask==1.2.3\n") and not _pinned("2.3", "flask==1.2.3\n")


def test_start_root_is_the_reason_or_none(tmp_path):
    path = write(tmp_path, BASE.replace('ready = "/plaintext"\n', 'ready = "/plaintext"\nroot = "binds port 80"\n')
                 + '[variants.plain]\ndisplay = "Demo plain"\n')
    base, plain = catalog.load_manifest(path)
    assert base.start.root == "binds port 80" and plain.start.root == "binds port 80"
    other = tmp_path / "other"
    other.mkdir()
    (fresh,) = catalog.load_manifest(write(other, BASE))
    assert fresh.start.root is None


@pytest.mark.parametrize("value", ['""', '"  "', "true", "1"])
def test_start_root_must_be_a_reason(tmp_path, value):
    message = error_of(tmp_path, BASE.replace('ready = "/plaintext"\n', f'ready = "/plaintext"\nroot = {value}\n'))
    assert "framework.toml: start.root: expected why this stack must run as root, a non-empty string" in message


TECHEMPOWER = BASE.replace('plaintext = "/plaintext"\n', 'plaintext = "/plaintext"\nupdates = "/updates"\n')


def test_techempower_db_workloads_need_the_orm_class_and_update_style(tmp_path):
    assert "fairness.orm: expected a string (missing)" in error_of(tmp_path, TECHEMPOWER)
    with_orm = TECHEMPOWER.replace('production = "release"', 'production = "release"\norm = "raw"')
    assert "fairness.updates: expected a string (missing)" in error_of(tmp_path, with_orm)
    wrong = with_orm.replace('orm = "raw"', 'orm = "raw"\nupdates = "bulk"')
    assert "fairness.updates: expected one of ['per-row', 'batched'], got 'bulk'" in error_of(tmp_path, wrong)
    assert "fairness.orm: expected one of ['full', 'micro', 'raw'], got 'sql'" in error_of(
        tmp_path, wrong.replace('orm = "raw"', 'orm = "sql"'))
    (variant,) = catalog.load_manifest(write(tmp_path, wrong.replace("bulk", "batched")))
    assert (variant.fairness.orm, variant.fairness.updates) == ("raw", "batched")


def test_the_static_servers_are_marked_baselines_so_reports_never_rank_them():
    kinds = {v.id: v.kind for v in catalog.discover(ROOT) if v.id in ("nginx-static", "h2o-static", "actix")}
    assert kinds == {"nginx-static": "baseline", "h2o-static": "baseline", "actix": "micro"}
