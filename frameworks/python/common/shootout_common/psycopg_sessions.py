"""The session workload on psycopg, for the WSGI stacks: one visit, one transaction."""

import json
import secrets

from psycopg_pool import ConnectionPool

from . import env
from .visit import COOKIE, Visit, data

__all__ = ["COOKIE", "Visit", "create_pool", "visit"]


def create_pool() -> ConnectionPool:
    """DATABASE_URL's pool of DB_POOL connections, opened now: call it in each worker after the fork.

    Autocommit keeps a single-query request at one round trip; a visit opens its own transaction.
    """
    size = env.db_pool()
    return ConnectionPool(env.value("DATABASE_URL"), min_size=size, max_size=size,
                          kwargs={"autocommit": True}, open=True)


def visit(pool: ConnectionPool, uid: str | None) -> Visit:
    """BEGIN; SELECT ... FOR UPDATE; UPDATE (INSERT for a new or unknown visitor); COMMIT."""
    with pool.connection() as conn, conn.transaction():
        row = None
        if uid is not None:
            row = conn.execute("SELECT data FROM usersessions WHERE uid = %s FOR UPDATE", (uid,)).fetchone()
        if row is None:
            new = Visit(secrets.token_urlsafe(16), 1, True)
            conn.execute("INSERT INTO usersessions (uid, data) VALUES (%s, %s)", (new.uid, data(new.count)))
            return new
        known = Visit(uid, json.loads(row[0])["count"] + 1, False)
        conn.execute("UPDATE usersessions SET data = %s WHERE uid = %s", (data(known.count), uid))
        return known
