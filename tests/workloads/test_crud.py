"""crud's check against a tiny server on a real PostgreSQL: the contract passes; each fault is refused, named; the
load's mix and the table check after a trial."""

import json
import re

import pytest

from webshootout.workloads import VerifyError, crud, crud_mix
from webshootout.workloads.base import Context

from .crud_server import crud as crud_server
from .servers import serving

pytestmark = pytest.mark.integration


def check(postgres, fault=None):
    handler = crud_server(postgres.connection.url, fault)
    try:
        with serving(handler, "/items") as served:
            ctx = Context(served.host, served.port, served.path, postgres, None)
            try:
                crud.verify(ctx)
            finally:
                ctx.close()
    finally:
        handler.close_all()


def test_the_contract_passes_and_the_reset_puts_the_table_back(postgres):
    check(postgres)
    postgres.query("INSERT INTO items (name, quantity) VALUES ('extra', 1) RETURNING id")
    postgres.query("UPDATE items SET quantity = 0 WHERE id = 5 RETURNING id")
    postgres.reset()
    assert postgres.query("SELECT count(*), max(id), sum(quantity) FROM items") == [(1000, 1000, 500500)]
    created = postgres.query("INSERT INTO items (name, quantity) VALUES ('next', 1) RETURNING id")
    assert created == [(1001,)]  # the identity restarts after the seed


@pytest.mark.parametrize("fault, message", [
    ("200 for a create", "status 200 for a create: REST answers 201 Created with a Location"),
    ("no location", "Location '', expected /items/"),
    ("cached", "after its delete: status 200, expected 404"),
    ("422 for broken json", "with a body that is not JSON: {\"name\": \"broken\", : status 422, expected 400"),
    ("missing field accepted", "with an object without quantity: {\"name\": \"no quantity\"}: status 201, expected 422"),
    ("delete keeps the row", "answered 204 but the row is still in the table"),
    ("page off by one", "ids [2, 3, 4, 5, 6, 7, 8, 9, 10, 11], expected [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]"),
])
def test_each_fault_is_refused(postgres, fault, message):
    with pytest.raises(VerifyError, match=re.escape(message)):
        check(postgres, fault)


def test_the_mix_is_twenty_requests_a_cycle_with_a_delete_of_what_was_created():
    spec = json.loads(crud_mix.spec("/items", 1000))
    steps = {step["name"]: step for step in spec["steps"]}
    assert sum(step["count"] for step in spec["steps"]) == 20
    assert [steps[n]["count"] for n in ("get", "page", "update", "create", "delete")] == [14, 2, 2, 1, 1]
    assert steps["create"]["capture"] and steps["delete"]["path"] == "/items/{captured}"
    assert steps["update"]["headers"] == ["Content-Type: application/json"]
    assert re.search(steps["get"]["body_regex"], '{"id": 12, "name": "item 12", "quantity": 12}')


def mix(created, deleted, creates_open=0, deletes_open=0):
    return [{"name": "create", "done": created, "unanswered": creates_open},
            {"name": "delete", "done": deleted, "unanswered": deletes_open}]


@pytest.mark.parametrize("rows, counts, ok", [
    (1010, mix(30, 20), True),
    (1011, mix(30, 20), False),
    (1012, mix(30, 20, creates_open=2), True),
    (1008, mix(30, 20, deletes_open=2), True),
    (1007, mix(30, 20, deletes_open=2), False),
])
def test_the_table_after_a_trial_must_match_the_answers(rows, counts, ok):
    problem = crud_mix.table_problem(1000, rows, counts)
    assert (problem is None) == ok
    if not ok:
        assert f"items holds {rows} rows after the trial" in problem
