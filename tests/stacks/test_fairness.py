"""The fairness rule (issue 17): every manifest follows it or says why not, what it claims its code does,
and docs/fairness.md is what the manifests say."""

from pathlib import Path

import pytest

from manifests import BASE
from webshootout.stacks import catalog, fairness
from webshootout.commands import fairness as fairness_cmd

ROOT = Path(__file__).resolve().parents[2]
LINEUP = catalog.discover(ROOT)

# A stack with a database workload whose code is sized from DB_POOL and whose count follows WORKERS.
DEMO = (BASE.replace("{port}", "{workers}").replace('pool = "none"', 'pool = "DB_POOL"')
        .replace('plaintext = "/plaintext"\n[fairness]', 'plaintext = "/plaintext"\ndb = "/db"\n[fairness]'))


def test_docs_fairness_md_is_what_the_manifests_say():
    doc = ROOT / fairness.DOC
    assert doc.is_file() and doc.read_text() == fairness.render(LINEUP), \
        "docs/fairness.md is stale: run ./shootout fairness"


@pytest.mark.parametrize("variant", LINEUP, ids=[v.id for v in LINEUP])
def test_every_manifest_follows_the_rule_or_says_why(variant):
    assert fairness.problems(variant) == []


def demo(tmp_path: Path, text: str = DEMO, source: str = "pool = int(os.environ['DB_POOL'])\n",
         name: str = "app.py") -> list[catalog.Variant]:
    folder = tmp_path / "frameworks" / "python" / "demo"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "framework.toml").write_text(text)
    (folder / name).write_text(source)
    return catalog.load_manifest(folder / "framework.toml")


def problems_of(tmp_path: Path, text: str = DEMO, **files) -> list[str]:
    return [p for v in demo(tmp_path, text, **files) for p in fairness.problems(v)]


def test_a_manifest_that_follows_the_rule_has_no_problem(tmp_path):
    assert problems_of(tmp_path) == []


def test_an_unavailable_framework_has_no_problem(tmp_path):
    text = DEMO[: DEMO.index("[start]")] + 'unavailable = "no package"\n'
    assert problems_of(tmp_path, text) == []


@pytest.mark.parametrize("change, knob", [
    (('pool = "DB_POOL"', 'pool = "8"'), "pool"),
    (('keepalive = "on"', 'keepalive = "off"'), "keepalive"),
    (('processes = "WORKERS"', 'processes = "1"'), "processes"),
])
def test_a_departure_needs_a_reason(tmp_path, change, knob):
    text = DEMO.replace(*change)
    (problem,) = problems_of(tmp_path, text)
    assert f"no fairness.departures.{knob} says why" in problem and "framework.toml: demo:" in problem
    assert problems_of(tmp_path, text + f'departures = {{ {knob} = "the guidance says so" }}\n') == []


def test_worker_threads_that_follow_workers_follow_the_rule(tmp_path):
    text = DEMO.replace('processes = "WORKERS"', 'processes = "1"')
    text = text.replace('threads = "1"', 'threads = "GOMAXPROCS = WORKERS"')
    assert problems_of(tmp_path, text) == []


def test_a_departure_from_a_rule_that_is_followed_is_stale(tmp_path):
    (problem,) = problems_of(tmp_path, DEMO + 'departures = { keepalive = "sync worker" }\n')
    assert "fairness.departures.keepalive explains a departure, but fairness.keepalive follows the rule" in problem


def test_db_pool_must_be_read_by_the_code_that_claims_it(tmp_path):
    (problem,) = problems_of(tmp_path, source="pool = 8\n")
    assert "fairness.pool = 'DB_POOL', but neither the start command nor any source file" in problem
    # Prose about DB_POOL does not size a pool; a start command passing it on does.
    assert len(problems_of(tmp_path / "readme", source="sized from DB_POOL\n", name="README.md")) == 1
    passed_on = DEMO.replace("{workers}", "{workers} --pool $DB_POOL")
    assert problems_of(tmp_path / "cmd", passed_on, source="") == []
    # A one-process server sizes its one pool from the whole, DB_POOL_TOTAL.
    assert problems_of(tmp_path / "total", source='std::getenv("DB_POOL_TOTAL")\n', name="main.cpp") == []


def test_db_pool_read_by_shared_code_in_setup_inputs_counts(tmp_path):
    shared = tmp_path / "frameworks" / "python" / "common"
    shared.mkdir(parents=True)
    (shared / "db.py").write_text("size = os.environ['DB_POOL']\n")
    text = DEMO.replace("[start]", '[setup]\ninputs = ["../common"]\n[start]')
    assert problems_of(tmp_path, text, source="") == []


def test_workers_must_be_read_when_claimed(tmp_path):
    (problem,) = problems_of(tmp_path, DEMO.replace("{workers}", "4"))
    assert "neither the start command ({workers}) nor any source file reads WORKERS" in problem


def test_without_database_workloads_the_pool_is_none(tmp_path):
    text = DEMO.replace('db = "/db"\n', "")
    (problem,) = problems_of(tmp_path, text)
    assert "fairness.pool = 'DB_POOL', expected 'none'" in problem
    assert problems_of(tmp_path / "none", text.replace('pool = "DB_POOL"', 'pool = "none"')) == []


def test_render_shows_outside_contract_rows_apart_and_departures_with_reasons(tmp_path):
    text = (DEMO + 'departures = { threads = "the guidance says 2" }\n'
            + '[variants.lite]\noutside_contract = "counter in SQLite"\n')
    doc = fairness.render(demo(tmp_path, text))
    contract, outside = doc.split("## Outside the contract")
    assert "| demo | demo server | WORKERS | 1 | DB_POOL | - | - | on | 511: the demo server's default | release " \
           "| 1.0 | --warmup | " \
           "**threads**: the guidance says 2 |" in contract
    assert "demo-lite" not in contract and "| demo-lite |" in outside and "counter in SQLite |" in outside


def test_the_command_writes_the_doc_and_check_fails_when_it_is_stale(tmp_path, capsys):
    demo(tmp_path)
    (tmp_path / "docs").mkdir()
    assert fairness_cmd.run(tmp_path, check=True) == 1
    assert "docs/fairness.md is not what the manifests say" in capsys.readouterr().err
    assert fairness_cmd.run(tmp_path) == 0
    assert fairness_cmd.run(tmp_path, check=True) == 0
    (tmp_path / "frameworks" / "python" / "demo" / "framework.toml").write_text(DEMO.replace('"1.0"', '"1.1"'))
    assert fairness_cmd.run(tmp_path, check=True) == 1


def test_the_command_fails_on_an_unexplained_departure(tmp_path, capsys):
    demo(tmp_path, DEMO.replace('keepalive = "on"', 'keepalive = "off"'))
    (tmp_path / "docs").mkdir()
    assert fairness_cmd.run(tmp_path) == 1
    assert "keepalive = 'off' and no fairness.departures.keepalive says why" in capsys.readouterr().err


def test_render_shows_each_stacks_database_access_class_and_update_style(tmp_path):
    text = DEMO.replace('db = "/db"', 'db = "/db"\nqueries = "/queries"\nupdates = "/updates"').replace(
        'keepalive = "on"', 'keepalive = "on"\norm = "micro"\nupdates = "batched"')
    doc = fairness.render(demo(tmp_path, text))
    assert "| pool | orm | updates | keep-alive |" in doc
    assert "| DB_POOL | micro | batched | on |" in doc
    assert "| DB_POOL | - | - | on |" in fairness.render(demo(tmp_path / "plain"))


def test_render_shows_each_stacks_listen_backlog_and_the_kernel_cap(tmp_path):
    text = DEMO.replace("511: the demo server's default", "2048: --backlog in the start command")
    doc = fairness.render(demo(tmp_path, text))
    assert "| keep-alive | listen backlog | production settings |" in doc
    assert "| on | 2048: --backlog in the start command | release |" in doc
    rule = next(line for line in doc.splitlines() if line.startswith("- **backlog**"))
    assert "production default, or the value its documentation recommends for many clients" in rule
    assert f"`net.core.somaxconn` ({fairness.SOMAXCONN} on the benchmark machine" in rule

