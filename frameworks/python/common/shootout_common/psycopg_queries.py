"""TechEmpower's database test types on psycopg, for the WSGI stacks (orm = "raw", updates per row)."""

from psycopg_pool import ConnectionPool

from . import techempower as te


def _select(conn, n: int) -> list[dict[str, int]]:
    # psycopg prepares a statement server-side once it has run a few times on the connection.
    cur = conn.cursor()
    return [te.world(*cur.execute(te.SELECT_WORLD_PSYCOPG, (i,)).fetchone()) for i in te.random_ids(n)]


def random_worlds(pool: ConnectionPool, n: int) -> list[dict[str, int]]:
    """n rows of random ids, each read by a query of its own on one pooled connection."""
    with pool.connection() as conn:
        return _select(conn, n)


def updated_worlds(pool: ConnectionPool, n: int) -> list[dict[str, int]]:
    """n rows read one query each, given new numbers, written by one UPDATE per row (executemany
    pipelines them) in one transaction."""
    with pool.connection() as conn:
        worlds = _select(conn, n)
        for w in worlds:
            w["randomNumber"] = te.random_id()
        with conn.transaction():
            conn.cursor().executemany(
                te.UPDATE_WORLD_PSYCOPG, [(number, id_) for id_, number in te.updates_in_lock_order(worlds)]
            )
    return worlds


def fortunes(pool: ConnectionPool) -> list[te.Fortune]:
    with pool.connection() as conn:
        return te.fortunes_sorted(conn.execute(te.SELECT_FORTUNES).fetchall())


def fill_cache(cache: te.WorldCache, pool: ConnectionPool) -> None:
    with pool.connection() as conn:
        cache.fill(conn.execute(te.SELECT_ALL_WORLDS).fetchall())
