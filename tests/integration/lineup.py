"""The lineup: every available framework folder, checked one by one (test_lineup.py), and the builder that
sets them up ahead of their checks from the start of the test session."""

from __future__ import annotations

import tempfile
import threading
from pathlib import Path

from webshootout.stacks import catalog, provision
from webshootout.workloads import registry

ROOT = Path(__file__).resolve().parents[2]


def slow(variant: catalog.Variant) -> bool:
    """A setup that compiles with the Rust or C++ toolchain (cargo, cmake, node-gyp's g++) takes minutes: such
    stacks are built first, from the session's start beside the tests before the lineup, and checked last,
    so that no check waits for them."""
    return bool({"cargo", "cmake"} & set(variant.setup.requires)) or "g++" in variant.setup.apt


def _folders() -> dict[str, tuple[str, ...]]:
    """Available ids per framework folder: one test each, so a slow build or a failure stays its own."""
    folders: dict[str, tuple[str, ...]] = {}
    variants = [v for v in catalog.discover(ROOT) if not v.unavailable]
    for variant in sorted(variants, key=lambda v: (slow(v), v.name)):
        folders[variant.name] = (*folders.get(variant.name, ()), variant.id)
    return folders


LINEUP = _folders()
_BASES = {v.name: v for v in catalog.discover(ROOT) if v.id == v.name}


# Over TLS and HTTP/2 the lineup checks again what a transport can change: plain and JSON bodies, a file, the
# session cookie (HTTP/2 may split Cookie into fields) and wss, and gRPC's calls (h2c and TLS are two servers'
# set-ups); the database workloads run the same handlers whatever the transport. The HTTP/2 streams check runs as
# always. `shootout check` checks every workload.
TRANSPORT_WORKLOADS = ("plaintext", "json", "static", "session", "websocket",
                       *(w for w in registry.NAMES if registry.get(w).http2_only))


def shared_transport(variant: catalog.Variant) -> str | None:
    """Why the lineup leaves a variant's TLS and HTTP/2 unchecked: its [transport] table is its base's, note
    included, so the same server code serves them (the -cluster forms), and the base's check covers it; CI's
    time budget has no room for each of them again. `shootout check` itself checks every id's."""
    base = _BASES.get(variant.name)
    if base is None or base.id == variant.id or variant.transport != base.transport or base.unavailable:
        return None
    return f"its [transport] table is {base.id}'s, checked with {base.id}"


class Builder(threading.Thread):
    """Sets up the selected stacks ahead of their checks at the lowest CPU priority, slow builds first, then
    in check order. provision's folder lock makes a check wait for a build under way, or build the stack itself
    when the builder has not reached it; a build that fails here is simply redone by the check, which reports
    it."""

    def __init__(self, names: list[str], logs: Path):
        super().__init__(name="lineup-builder", daemon=True)
        chosen = [v for v in catalog.discover(ROOT) if v.name in names and not v.unavailable]
        self.variants = sorted(chosen, key=lambda v: (not slow(v), names.index(v.name)))
        self.logs = logs
        self.stopping = threading.Event()

    def run(self) -> None:
        for variant in self.variants:
            if self.stopping.is_set():
                return
            try:
                provision.setup(variant, self.logs / f"{variant.id}.log", lambda message: None, background=True)
            except Exception:  # noqa: BLE001 - the check of this stack runs the setup again and reports it
                continue


class Building:
    """The builder of one test session, with the folder of its logs; stopped at the session's end, after the
    build under way (none is left running)."""

    def __init__(self, names: list[str]):
        self.logs = tempfile.TemporaryDirectory(prefix="shootout-lineup-builds-")
        self.thread = Builder(names, Path(self.logs.name))
        self.thread.start()

    def stop(self) -> None:
        self.thread.stopping.set()
        self.thread.join()
        self.logs.cleanup()
