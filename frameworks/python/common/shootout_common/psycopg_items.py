"""The crud workload's queries on psycopg, for the WSGI stacks: one statement each, autocommitted (the pool's
connections are).

An item is a dict {"id", "name", "quantity"}; None (False for delete) when no row has the id.
"""

from psycopg.rows import dict_row
from psycopg_pool import ConnectionPool

from . import items


def _one(pool: ConnectionPool, query: str, params: tuple) -> dict | None:
    with pool.connection() as conn:
        return conn.cursor(row_factory=dict_row).execute(query, params).fetchone()


def get(pool: ConnectionPool, ident: int) -> dict | None:
    return _one(pool, items.SELECT_PSYCOPG, (ident,)) if items.is_stored_id(ident) else None


def page(pool: ConnectionPool, limit: int, offset: int) -> list[dict]:
    with pool.connection() as conn:
        return conn.cursor(row_factory=dict_row).execute(items.PAGE_PSYCOPG, (limit, offset)).fetchall()


def create(pool: ConnectionPool, name: str, quantity: int) -> dict:
    # RETURNING: the id is the table's identity's, read in the same round trip.
    return _one(pool, items.INSERT_PSYCOPG, (name, quantity))


def update(pool: ConnectionPool, ident: int, name: str, quantity: int) -> dict | None:
    return _one(pool, items.UPDATE_PSYCOPG, (name, quantity, ident)) if items.is_stored_id(ident) else None


def delete(pool: ConnectionPool, ident: int) -> bool:
    return items.is_stored_id(ident) and _one(pool, items.DELETE_PSYCOPG, (ident,)) is not None
