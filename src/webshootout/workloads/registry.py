"""Every workload, found once: each module of this package that defines WORKLOAD is one. A new workload is its
module (and its contract in docs/workloads.md); nothing else in the harness lists workloads."""

from __future__ import annotations

import importlib
import pkgutil

from .spec import Axis, SeededTable, Workload

_PACKAGE = __name__.rpartition(".")[0]


def _discover() -> dict[str, Workload]:
    found = []
    for module in pkgutil.iter_modules(importlib.import_module(_PACKAGE).__path__):
        workload = getattr(importlib.import_module(f"{_PACKAGE}.{module.name}"), "WORKLOAD", None)
        if isinstance(workload, Workload):
            found.append(workload)
    return {w.name: w for w in sorted(found, key=lambda w: w.order)}


REGISTRY: dict[str, Workload] = _discover()
NAMES: tuple[str, ...] = tuple(REGISTRY)
DATABASE: frozenset[str] = frozenset(w.name for w in REGISTRY.values() if w.needs_database)
EMPTIED_TABLES: tuple[str, ...] = tuple(t for w in REGISTRY.values() for t in w.emptied_tables)
SEEDED_TABLES: tuple[SeededTable, ...] = tuple(t for w in REGISTRY.values() for t in w.seeded_tables)
QUICK: str = next(w.name for w in REGISTRY.values() if w.quick)  # the cheapest answer (plaintext)
BODY: str = next(w.name for w in REGISTRY.values() if w.reads_body)  # a request body read whole (upload)


def get(name: str) -> Workload:
    return REGISTRY[name]


def axes() -> dict[str, Axis]:
    """Every distinct axis by its key (queries and updates share one)."""
    return {w.axis.key: w.axis for w in REGISTRY.values() if w.axis is not None}


def per_request_axes() -> dict[str, Axis]:
    """The numeric axes a report draws series along."""
    return {key: axis for key, axis in axes().items() if axis.per_request}
