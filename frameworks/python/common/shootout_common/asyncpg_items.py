"""The crud workload's queries on asyncpg, for the async stacks: one statement each, autocommitted.

An item is a dict {"id", "name", "quantity"}; None (False for delete) when no row has the id.
"""

import asyncpg

from . import items


async def get(pool: asyncpg.Pool, ident: int) -> dict | None:
    if not items.is_stored_id(ident):
        return None
    row = await pool.fetchrow(items.SELECT_ASYNCPG, ident)
    return dict(row) if row else None


async def page(pool: asyncpg.Pool, limit: int, offset: int) -> list[dict]:
    return [dict(row) for row in await pool.fetch(items.PAGE_ASYNCPG, limit, offset)]


async def create(pool: asyncpg.Pool, name: str, quantity: int) -> dict:
    # RETURNING: the id is the table's identity's, read in the same round trip.
    return dict(await pool.fetchrow(items.INSERT_ASYNCPG, name, quantity))


async def update(pool: asyncpg.Pool, ident: int, name: str, quantity: int) -> dict | None:
    if not items.is_stored_id(ident):
        return None
    row = await pool.fetchrow(items.UPDATE_ASYNCPG, ident, name, quantity)
    return dict(row) if row else None


async def delete(pool: asyncpg.Pool, ident: int) -> bool:
    return items.is_stored_id(ident) and await pool.fetchval(items.DELETE_ASYNCPG, ident) is not None
