"""cached's rows in Django's cache framework (the LocMemCache of settings.CACHES, one per process).

Filled from the ORM on first use: Django discourages database access while apps load, and a worker
process has no other start-up hook.
"""

from django.core.cache import cache
from shootout_common import techempower as te

from hello.models import World


def _key(id_: int) -> str:
    return f"world:{id_}"


def _fill() -> dict[str, dict[str, int]]:
    rows = {_key(w.id): te.world(w.id, w.randomnumber) for w in World.objects.all()}
    cache.set_many(rows, timeout=None)
    return rows


def pick(n: int) -> list[dict[str, int]]:
    keys = [_key(i) for i in te.random_ids(n)]
    rows = cache.get_many(keys)
    if len(rows) < len(set(keys)):
        rows = _fill()
    return [rows[k] for k in keys]
