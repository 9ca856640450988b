"""The session workload on asyncpg, for the async stacks: one visit, one transaction."""

import json
import secrets

import asyncpg

from . import env
from .visit import COOKIE, Visit, data as _data

__all__ = ["COOKIE", "Visit", "create_pool", "visit"]


def create_pool(size: int | None = None) -> asyncpg.Pool:
    """DATABASE_URL's pool, DB_POOL connections unless size says otherwise (DB_POOL_TOTAL for a
    one-process server); await it, or use it with `async with`.

    Create it inside the worker's own event loop (after any fork): a pool belongs to one loop.
    """
    size = size or env.db_pool()
    return asyncpg.create_pool(env.value("DATABASE_URL"), min_size=size, max_size=size)


async def visit(pool: asyncpg.Pool, uid: str | None) -> Visit:
    """BEGIN; SELECT ... FOR UPDATE; UPDATE (INSERT for a new or unknown visitor); COMMIT.

    The row lock makes two concurrent requests of one visitor count one after the other.
    """
    async with pool.acquire() as conn, conn.transaction():
        data = None
        if uid is not None:
            data = await conn.fetchval("SELECT data FROM usersessions WHERE uid = $1 FOR UPDATE", uid)
        if data is None:
            visit = Visit(secrets.token_urlsafe(16), 1, True)
            await conn.execute(
                "INSERT INTO usersessions (uid, data) VALUES ($1, $2)", visit.uid, _data(visit.count)
            )
        else:
            visit = Visit(uid, json.loads(data)["count"] + 1, False)
            await conn.execute(
                "UPDATE usersessions SET data = $1 WHERE uid = $2", _data(visit.count), uid
            )
    return visit
