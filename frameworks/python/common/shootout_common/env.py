"""The environment the harness gives every server (docs/adding-a-framework.md)."""

import os


def value(name: str) -> str:
    try:
        return os.environ[name]
    except KeyError:
        raise RuntimeError(
            f"environment variable {name} is not set; the harness sets it (docs/adding-a-framework.md)"
        ) from None


def positive_int(name: str) -> int:
    raw = value(name)
    if not raw.isdigit() or int(raw) < 1:
        raise RuntimeError(f"environment variable {name} is {raw!r}: expected a positive integer")
    return int(raw)


def db_pool() -> int:
    """Database connections this process may open: its pool's minimum and maximum (docs/fairness.md)."""
    return positive_int("DB_POOL")


def db_pool_total() -> int:
    """Database connections in all: the one pool of a one-process server (docs/fairness.md)."""
    return positive_int("DB_POOL_TOTAL")
