"""shootout-load's --mix against a tiny crud server on a real PostgreSQL: crud's verbs answered as the contract
says are all valid and the table matches their counts; a create answered 200, or a delete that keeps its row, is
caught (by the load's status check, or by the table check after the load)."""

import os
from types import SimpleNamespace

import pytest

from hello import Serving
from webshootout.load import native
from webshootout.load.base import LoadSpec
from webshootout.workloads import crud
from workloads.crud_server import crud as crud_server

from .test_native_driver import _built

pytestmark = pytest.mark.integration


def _load(postgres, fault=None):
    """A second of crud's mix over 4 connections; the result, and what the table check says after it."""
    _built()
    postgres.reset()
    handler = crud_server(postgres.connection.url, fault)
    cpus = tuple(sorted(os.sched_getaffinity(0)))
    try:
        with Serving(handler) as serving:
            target = crud.target(SimpleNamespace(path="/items"))
            result = native.run(LoadSpec("127.0.0.1", serving.port, target, connections=4, threads=1, duration=1.0,
                                         cpus=cpus, warmup=0.5))
    finally:
        handler.close_all()
    return result, crud.after_mix(SimpleNamespace(postgres=postgres), result.mix)


def test_the_mix_is_all_valid_in_its_shares_and_the_table_matches_it(postgres):
    result, problem = _load(postgres)
    assert result.requests > 100 and sum(result.errors.values()) == 0, result.errors
    steps = {step["name"]: step for step in result.mix}
    assert list(steps) == ["get", "page", "update", "create", "delete"]
    share = {name: step["requests"] / result.requests for name, step in steps.items()}
    assert 0.6 < share["get"] < 0.8 and 0.02 < share["create"] < 0.08, share
    assert all(step["latency_us"]["p50"] for step in steps.values())
    # Warm-up included: every create the server answered is in the table unless its delete was answered too.
    assert steps["create"]["done"] > steps["create"]["requests"] and problem is None, problem


def test_a_create_answered_200_is_an_error_and_so_is_the_delete_that_had_nothing_to_delete(postgres):
    result, _ = _load(postgres, "200 for a create")
    steps = {step["name"]: step for step in result.mix}
    assert steps["create"]["requests"] == 0 and steps["create"]["errors"] > 0
    assert steps["delete"]["requests"] == 0 and steps["delete"]["errors"] > 0
    assert steps["get"]["errors"] == 0 and result.errors["status"] == steps["create"]["errors"] + steps["delete"]["errors"]


def test_a_delete_that_keeps_its_row_is_found_by_the_table_check(postgres):
    result, problem = _load(postgres, "delete keeps the row")
    assert sum(result.errors.values()) == 0
    assert problem is not None and "items holds" in problem, problem
