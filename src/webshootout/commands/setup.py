"""`shootout setup`: the harness's own tools, then each selected framework's setup (cached); with a hosts
file, each built framework is then put on the app host and shootout-load on the load host."""

from __future__ import annotations

from .. import ROOT, catalog, placement, provision, ship
from ..catalog import ManifestError
from ..harness import say
from ..load import native
from ..remote import RemoteError
from ..services import postgres
from ..settings import Settings


def run(settings: Settings, harness_only: bool = False) -> int:
    provision.ensure_harness_tools(say)
    postgres.find_bindir(say)
    if harness_only:
        return 0
    failed = 0
    with placement.placed(settings.hosts, say) as where:
        if where is not None:
            ship.ship(where.remote("load"), [native.binary()])
        for variant in catalog.select(catalog.discover(settings.root), settings.frameworks):
            if variant.unavailable:
                say(f"{variant.id}: skipped, unavailable: {variant.unavailable}")
                continue
            try:
                provision.setup(variant, settings.root / "runs" / "setup-logs" / f"{variant.id}.log", say,
                                install=settings.install)
                if where is not None:
                    placement.apt_install(where.remote("app"), list(variant.setup.apt), say)
                    ship.ship(where.remote("app"), ship.paths_for(variant, ROOT))
                say(f"{variant.id}: ready" + (f" on {where.remote('app')}" if where else ""))
            except (provision.SetupError, RemoteError, ManifestError) as exc:
                failed += 1
                say(f"{variant.id}: setup failed: {exc}")
    return 1 if failed else 0
