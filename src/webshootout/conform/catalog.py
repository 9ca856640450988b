"""Every probe, in the order they run: the smuggling pairs first, the slow one last."""

from __future__ import annotations

import re

from . import chunks, fields, fragmentation, framing, h2attacks, h2probes, limits, semantics
from .probe import FAMILIES, Probe

PROBES: tuple[Probe, ...] = (*framing.PROBES, *chunks.PROBES, *fields.PROBES, *limits.PROBES,
                             *fragmentation.PROBES, *semantics.PROBES, *h2probes.PROBES, *h2attacks.PROBES)
BY_NAME = {probe.name: probe for probe in PROBES}

assert len(BY_NAME) == len(PROBES), "probe names must be unique"
assert all(re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", p.name) and p.family in FAMILIES and p.level in ("MUST", "SHOULD")
           for p in PROBES), "a probe's name is kebab-case, its family one of FAMILIES, its level MUST or SHOULD"


def selected(name: str | None, slow: bool) -> tuple[Probe, ...]:
    """The named probe (KeyError if none is), or every probe, the slow ones only when asked."""
    if name is not None:
        return (BY_NAME[name],)
    return tuple(p for p in PROBES if slow or not p.slow)
