"""TechEmpower's overview at the top of a tfb run: one row per stack, one column per test type, each cell the
stack's best closed-loop point (median req/s), as their results page summarised a round."""

from __future__ import annotations

from . import fmt
from .tables import Table
from ..workloads import registry

SUITE = "tfb"
# TechEmpower's seven test types in the order of their results page, under our workload names.
TEST_TYPES = tuple((w.name, w.techempower[1]) for w in sorted(
    (w for w in registry.REGISTRY.values() if w.techempower), key=lambda w: w.techempower[0]))
# Where a type has a per-request axis, their panel shows its heaviest level; best over 1 query says little.
HEAVIEST = {w.name: w.axis for w in registry.REGISTRY.values() if w.heaviest_shown}
COUNTED = ("ranked", "baseline")  # flagged rows (errors, client-bound, below rate) are no one's best
CONDITIONS = ("TechEmpower's conditions, as suites/tfb.toml follows them: plaintext pipelined 16 deep at 256 to "
              "16,384 connections, json, db and fortunes at 16 to 512 connections, queries and updates at 512 "
              "connections and 1 to 20 queries, cached at 1 to 100 rows; their data and verification rules. "
              "This machine differs: server and PostgreSQL share the server CPUs, load comes over loopback, "
              "and each level runs the suite's trials, not their one 15 s run")


def _points(workload: dict) -> list[dict]:
    closed = [p for p in workload["points"] if p["profile"] == "closed"]
    axis = HEAVIEST[workload["workload"]].key if workload["workload"] in HEAVIEST else None
    if axis is None or not closed:
        return closed
    heaviest = max(p.get(axis) or 0 for p in closed)
    return [p for p in closed if (p.get(axis) or 0) == heaviest]


def best_points(summary: dict) -> dict[str, dict[str, tuple[float, str, str]]]:
    """framework -> test type -> (median req/s, load point label, the median as printed: the digits its
    interval supports) of its best counted point."""
    best: dict[str, dict[str, tuple[float, str, str]]] = {}
    types = dict(TEST_TYPES)
    for workload in summary["workloads"]:
        if workload["workload"] not in types:
            continue
        for point in _points(workload):
            for row in point["results"]:
                if row["standing"] not in COUNTED:
                    continue
                cells = best.setdefault(row["framework"], {})
                ranking = row["ranking"]
                found = (row["rps"]["median"], point["label"],
                         fmt.measured(row["rps"]["median"], ranking["low"], ranking["high"]))
                if found[0] > cells.get(workload["workload"], (-1.0, ""))[0]:
                    cells[workload["workload"]] = found
    return best


def table(summary: dict) -> Table | None:
    """The overview of a tfb run; None for any other suite."""
    if summary["run"].get("suite") != SUITE:
        return None
    best = best_points(summary)
    names = {r["framework"]: r["display"] for w in summary["workloads"] for p in w["points"] for r in p["results"]}
    rows = [(names[fid], *(cells[t][2] if t in cells else "-" for t, _ in TEST_TYPES))
            for fid, cells in sorted(best.items(), key=lambda item: names[item[0]].lower())]
    heaviest = {t: max((p.get(axis.key) or 0 for w in summary["workloads"] if w["workload"] == t for p in w["points"]),
                       default=0) for t, axis in HEAVIEST.items()}
    levels = ", ".join(f"{t} at {n} {HEAVIEST[t].unit}" for t, n in heaviest.items() if n)
    notes = [f"each cell: the stack's best median req/s over the connection counts measured"
             f"{' (' + levels + ', their headline level)' if levels else ''}; - : not measured, or every "
             "point of it flagged (see its table)", CONDITIONS]
    return Table("TechEmpower overview: best point per stack and test type (median req/s)",
                 ("framework", *(title for _, title in TEST_TYPES)), frozenset({0}), rows, notes)
