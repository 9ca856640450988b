"""The crud workload's framework-independent parts: the page query, the item body's plain checks (for the
stacks whose framework has no validation library of its own) and the SQL text on table items."""

import re

# quantity is an integer column, id an integer identity: 32-bit PostgreSQL integers.
INT_MIN, INT_MAX = -(2**31), 2**31 - 1
PAGE, SIZE, MAX_SIZE = 1, 10, 100
_INTEGER = re.compile(r"-?[0-9]+")

# Bind parameters as the drivers spell them: asyncpg ($1) and psycopg (%s).
SELECT_ASYNCPG = "SELECT id, name, quantity FROM items WHERE id = $1"
PAGE_ASYNCPG = "SELECT id, name, quantity FROM items ORDER BY id LIMIT $1 OFFSET $2"
INSERT_ASYNCPG = "INSERT INTO items (name, quantity) VALUES ($1, $2) RETURNING id, name, quantity"
UPDATE_ASYNCPG = "UPDATE items SET name = $2, quantity = $3 WHERE id = $1 RETURNING id, name, quantity"
DELETE_ASYNCPG = "DELETE FROM items WHERE id = $1 RETURNING id"
SELECT_PSYCOPG = "SELECT id, name, quantity FROM items WHERE id = %s"
PAGE_PSYCOPG = "SELECT id, name, quantity FROM items ORDER BY id LIMIT %s OFFSET %s"
INSERT_PSYCOPG = "INSERT INTO items (name, quantity) VALUES (%s, %s) RETURNING id, name, quantity"
UPDATE_PSYCOPG = "UPDATE items SET name = %s, quantity = %s WHERE id = %s RETURNING id, name, quantity"
DELETE_PSYCOPG = "DELETE FROM items WHERE id = %s RETURNING id"


def _query_int(raw: str | None, name: str, default: int, low: int, high: int) -> int:
    if raw is None:
        return default
    if not _INTEGER.fullmatch(raw):
        raise ValueError(f"{name} must be an integer")
    value = int(raw)
    if not low <= value <= high:
        raise ValueError(f"{name} must be between {low} and {high}")
    return value


def page_query(page: str | None, size: str | None) -> tuple[int, int]:
    """(LIMIT, OFFSET) of ?page=&size=; a ValueError's message is the one-line reason the 400 answer carries."""
    size_ = _query_int(size, "size", SIZE, 1, MAX_SIZE)
    # A page past INT_MAX rows is empty anyway; the bound keeps OFFSET inside PostgreSQL's bigint.
    page_ = _query_int(page, "page", PAGE, 1, INT_MAX)
    return size_, (page_ - 1) * size_


def offset(page: int, size: int) -> int:
    return (page - 1) * size


def is_stored_id(ident: int) -> bool:
    """Whether an id from the path can name a row: one outside the column's range would make the driver refuse
    the parameter (a 500) where the answer is 404."""
    return 1 <= ident <= INT_MAX


def fields(value) -> tuple[str, int]:
    """(name, quantity) of a decoded JSON body; a ValueError's message says what the 422 refuses.

    bool is refused for quantity although Python makes it an int: JSON true is not a number.
    """
    if not isinstance(value, dict):
        raise ValueError("the body must be a JSON object")
    name, quantity = value.get("name"), value.get("quantity")
    if not isinstance(name, str):
        raise ValueError("name must be a string")
    if type(quantity) is not int or not INT_MIN <= quantity <= INT_MAX:
        raise ValueError("quantity must be an integer in 32 bits")
    return name, quantity
