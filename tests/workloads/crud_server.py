"""A tiny crud server on the run's real PostgreSQL for the check's tests: the contract, or wrong in one named way."""

from __future__ import annotations

import json
import re
import threading
from urllib.parse import parse_qs, urlparse

import psycopg

from .servers import Quiet

JSON = "application/json"


def crud(url: str, fault: str | None = None):
    """The contract over `url`'s items table, or (with `fault`) wrong in the one way it names."""
    local = threading.local()
    cache: dict[int, dict] = {}

    class Crud(Quiet):
        disable_nagle_algorithm = True  # head and body go in two writes: Nagle would hold the body for an ACK
        opened: list[psycopg.Connection] = []  # closed by close_all once the server has stopped

        @classmethod
        def close_all(cls) -> None:
            for conn in cls.opened:
                conn.close()

        def db(self) -> psycopg.Connection:
            if getattr(local, "conn", None) is None:
                local.conn = psycopg.connect(url, autocommit=True)
                self.opened.append(local.conn)
            return local.conn

        def item(self, ident: int) -> dict | None:
            if fault == "cached" and ident in cache:
                return cache[ident]
            row = self.db().execute("SELECT id, name, quantity FROM items WHERE id = %s", (ident,)).fetchone()
            found = None if row is None else dict(zip(("id", "name", "quantity"), row))
            if found is not None:
                cache[ident] = found
            return found

        def send_json(self, status: int, value, **headers) -> None:
            self.answer(status, json.dumps(value).encode(), JSON, **headers)

        def ident(self) -> int | None:
            found = re.fullmatch(r"/items/(\d+)", urlparse(self.path).path)
            return int(found[1]) if found else None

        def fields(self) -> dict | int:
            """The body's item, or the status that refuses it."""
            raw = self.rfile.read(int(self.headers.get("Content-Length", "0")))
            try:
                value = json.loads(raw)
            except ValueError:
                return 422 if fault == "422 for broken json" else 400
            if fault == "missing field accepted" and isinstance(value, dict):
                value.setdefault("quantity", 0)
            if (not isinstance(value, dict) or not isinstance(value.get("name"), str)
                    or type(value.get("quantity")) is not int):
                return 422
            return {"name": value["name"], "quantity": value["quantity"]}

        def do_GET(self):  # noqa: N802 - the http.server hook names
            ident = self.ident()
            if ident is not None:
                found = self.item(ident)
                return self.send_json(200, found) if found else self.send_json(404, {"error": "not found"})
            query = parse_qs(urlparse(self.path).query)
            try:
                page, size = int(query.get("page", ["1"])[0]), int(query.get("size", ["10"])[0])
            except ValueError:
                return self.send_json(400, {"error": "page and size are integers"})
            if page < 1 or not 1 <= size <= 100:
                return self.send_json(400, {"error": "page >= 1, size 1..100"})
            offset = (page - 1) * size + (1 if fault == "page off by one" else 0)
            rows = self.db().execute("SELECT id, name, quantity FROM items ORDER BY id LIMIT %s OFFSET %s",
                                     (size, offset)).fetchall()
            self.send_json(200, [dict(zip(("id", "name", "quantity"), row)) for row in rows])

        def do_POST(self):  # noqa: N802
            fields = self.fields()
            if isinstance(fields, int):
                return self.send_json(fields, {"error": "bad item"})
            ident = self.db().execute("INSERT INTO items (name, quantity) VALUES (%s, %s) RETURNING id",
                                      (fields["name"], fields["quantity"])).fetchone()[0]
            if fault == "200 for a create":
                return self.send_json(200, {"id": ident, **fields})
            location = {} if fault == "no location" else {"Location": f"/items/{ident}"}
            self.send_json(201, {"id": ident, **fields}, **location)

        def do_PUT(self):  # noqa: N802
            fields, ident = self.fields(), self.ident()
            if isinstance(fields, int):
                return self.send_json(fields, {"error": "bad item"})
            done = self.db().execute("UPDATE items SET name = %s, quantity = %s WHERE id = %s RETURNING id",
                                     (fields["name"], fields["quantity"], ident)).fetchone()
            self.send_json(200, {"id": ident, **fields}) if done else self.send_json(404, {"error": "not found"})

        def do_DELETE(self):  # noqa: N802
            ident = self.ident()
            sql = "SELECT id FROM items WHERE id = %s" if fault == "delete keeps the row" else \
                "DELETE FROM items WHERE id = %s RETURNING id"
            if self.db().execute(sql, (ident,)).fetchone() is None:
                return self.send_json(404, {"error": "not found"})
            self.answer(204, b"", JSON)

    return Crud
