"""TechEmpower's database test types on asyncpg, for the async stacks (orm = "raw", updates per row)."""

import asyncpg

from . import techempower as te


async def random_worlds(pool: asyncpg.Pool, n: int) -> list[dict[str, int]]:
    """n rows of random ids, each read by a query of its own on one pooled connection (asyncpg
    prepares the statement once per connection and reuses it)."""
    async with pool.acquire() as conn:
        return [te.world(*await conn.fetchrow(te.SELECT_WORLD_ASYNCPG, i)) for i in te.random_ids(n)]


async def updated_worlds(pool: asyncpg.Pool, n: int) -> list[dict[str, int]]:
    """n rows read one query each, given new numbers, written by one UPDATE per row (executemany
    pipelines them in one transaction)."""
    async with pool.acquire() as conn:
        worlds = [te.world(*await conn.fetchrow(te.SELECT_WORLD_ASYNCPG, i)) for i in te.random_ids(n)]
        for w in worlds:
            w["randomNumber"] = te.random_id()
        await conn.executemany(te.UPDATE_WORLD_ASYNCPG, te.updates_in_lock_order(worlds))
    return worlds


async def fortunes(pool: asyncpg.Pool) -> list[te.Fortune]:
    return te.fortunes_sorted(await pool.fetch(te.SELECT_FORTUNES))


async def fill_cache(cache: te.WorldCache, pool: asyncpg.Pool) -> None:
    cache.fill(await pool.fetch(te.SELECT_ALL_WORLDS))
