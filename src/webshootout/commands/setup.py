"""`shootout setup`: the harness's own tools, then each selected framework's setup (cached); with a hosts
file, the load host builds shootout-load and the app host the selected frameworks as well."""

from __future__ import annotations

from ..stacks import catalog, provision
from ..hosts import placement
from ..console import say
from ..services import postgres
from ..config.settings import Settings
from ..conform import h2spec


def run(settings: Settings, harness_only: bool = False) -> int:
    provision.ensure_harness_tools(say)
    postgres.find_bindir(say)
    h2spec.ensure(say)  # conform's HTTP/2 suite (docs/conform.md); said and left out where Go cannot build it
    if harness_only:
        return 0
    failed = 0
    variants = settings.variants()
    for variant in variants:
        if variant.unavailable:
            say(f"{variant.id}: skipped, unavailable: {variant.unavailable}")
            continue
        try:
            provision.setup(variant, settings.root / "runs" / "setup-logs" / f"{variant.id}.log", say,
                            install=settings.install)
            say(f"{variant.id}: ready")
        except provision.SetupError as exc:
            failed += 1
            say(f"{variant.id}: setup failed: {exc}")
    with placement.placed(settings.hosts, say, catalog.available_ids(variants)):
        pass  # connecting builds there (placement.placed)
    return 1 if failed else 0
