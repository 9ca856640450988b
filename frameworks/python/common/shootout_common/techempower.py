"""What TechEmpower's database test types share, whatever the framework and driver (docs/workloads.md).

The count parameter, the random ids and numbers, the fortune list, the world cache and the SQL text.
Handlers, their JSON and their templates stay in each framework's idiom.
"""

import random
from dataclasses import dataclass
from operator import attrgetter

WORLD_ROWS = 10_000
MAX_COUNT = 500

# Bind parameters as the drivers spell them: asyncpg ($1) and psycopg (%s).
SELECT_WORLD_ASYNCPG = "SELECT id, randomnumber FROM world WHERE id = $1"
UPDATE_WORLD_ASYNCPG = "UPDATE world SET randomnumber = $2 WHERE id = $1"
SELECT_WORLD_PSYCOPG = "SELECT id, randomnumber FROM world WHERE id = %s"
UPDATE_WORLD_PSYCOPG = "UPDATE world SET randomnumber = %s WHERE id = %s"
SELECT_FORTUNES = "SELECT id, message FROM fortune"
SELECT_ALL_WORLDS = "SELECT id, randomnumber FROM world"


def count(raw: str | None) -> int:
    """queries' and updates' ?queries=, cached's ?count=: missing, empty, not an integer or below 1
    means 1, above 500 means 500."""
    try:
        n = int(raw)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return 1
    return min(max(n, 1), MAX_COUNT)


def random_id() -> int:
    return random.randint(1, WORLD_ROWS)


def random_ids(n: int) -> list[int]:
    """n ids drawn uniformly from 1..10000; they may repeat, as TechEmpower's may."""
    return [random.randint(1, WORLD_ROWS) for _ in range(n)]


def world(id_: int, number: int) -> dict[str, int]:
    """One row as the answers spell it."""
    return {"id": id_, "randomNumber": number}


def updates_in_lock_order(worlds: list[dict[str, int]]) -> list[tuple[int, int]]:
    """(id, new number) per row, by id: concurrent requests then lock their rows in one order and
    cannot deadlock one another."""
    return sorted((w["id"], w["randomNumber"]) for w in worlds)


@dataclass(frozen=True)
class Fortune:
    id: int
    message: str


ADDITIONAL = Fortune(0, "Additional fortune added at request time.")
_by_message = attrgetter("message")


def fortunes_sorted(rows) -> list[Fortune]:
    """The table's rows plus the one added at request time, sorted by message (code point order).

    Takes (id, message) pairs or objects with .id and .message (an ORM's), and keeps objects as given.
    """
    fortunes = [row if hasattr(row, "message") else Fortune(row[0], row[1]) for row in rows]
    fortunes.append(ADDITIONAL)
    fortunes.sort(key=_by_message)
    return fortunes


class WorldCache:
    """Every world row in process memory, filled once from the database; what cached reads instead
    of the table.

    A plain dict: a read-only map of 10,000 small rows needs no eviction, so a cache library would
    only add a lookup cost per key.
    """

    def __init__(self) -> None:
        self._rows: dict[int, dict[str, int]] = {}

    @property
    def filled(self) -> bool:
        return bool(self._rows)

    def fill(self, rows) -> None:
        """rows: (id, randomnumber) pairs or mappings, e.g. asyncpg Records or psycopg tuples."""
        self._rows = {row[0]: world(row[0], row[1]) for row in rows}

    def pick(self, n: int) -> list[dict[str, int]]:
        """n rows of random ids (they may repeat)."""
        rows = self._rows
        return [rows[i] for i in random_ids(n)]
