"""session: GET -> `Count is N`, a per-visitor counter kept in PostgreSQL, visitors known by a cookie."""

import json

from .base import Context, Target, VerifyError, expect, expect_body
from .headers import TEXT_UTF8
from .spec import Axis, AxisError, Workload


def _count(ctx: Context, visitor, n: int, who: str) -> None:
    request = f"GET {ctx.path} as {who}, request #{n}"
    response = visitor.get(ctx.path)
    expect(request, response, content_type=TEXT_UTF8)
    expect_body(request, response, f"Count is {n}".encode())
    if n == 1 and not response.set_cookies:
        raise VerifyError(request, "a new visitor got no Set-Cookie header")


def verify(ctx: Context) -> None:
    ctx.postgres.reset()
    first, second = ctx.visitor(), ctx.visitor()
    for n in (1, 2, 3):
        _count(ctx, first, n, "visitor A")
    _count(ctx, second, 1, "visitor B (new)")
    # A new connection with A's cookie is still A: identity lives in the cookie, not the connection.
    first.close()
    _count(ctx, first, 4, "visitor A on a new connection")
    stranger = ctx.visitor()
    stranger.cookies = {name: "0" * 24 for name in first.cookies}
    _count(ctx, stranger, 1, "a visitor with an unknown cookie value")
    if ctx.session_store == "postgres":
        _check_database(ctx, requests=6)
    ctx.after_a_tick()


def _check_database(ctx: Context, requests: int) -> None:
    rows = ctx.postgres.query("SELECT data FROM usersessions")
    if rows:
        counts = []
        for (data,) in rows:
            try:
                counts.append(json.loads(data)["count"])
            except (ValueError, KeyError, TypeError):
                raise VerifyError("SELECT data FROM usersessions", f"row data {data!r} is not "
                                  '{"count": N}') from None
        if sorted(counts) != [1, 1, 4]:
            raise VerifyError("SELECT data FROM usersessions", f"counts {sorted(counts)}, expected [1, 1, 4]")
        return
    # A framework's own session store (an idiomatic variant) must still read and write per request.
    calls = sum(ctx.postgres.calls_touching(table) for table in SESSION_TABLES if table != "usersessions")
    if calls < requests:
        raise VerifyError(f"{requests} session requests", "usersessions is empty and the framework's session "
                          f"table saw {calls} statements: the counter is not kept in PostgreSQL")


def target(ctx: Context, sessions: bool) -> Target:
    """With sessions, each connection is one visitor; without, every request is a new visitor."""
    if sessions:
        return Target(ctx.path, sessions=True, expect_counter=True)
    return Target(ctx.path, expect_body="Count is 1")


# Tables frameworks create for their own session stores (Django, Laravel, Symfony, AdonisJS), emptied with
# ours per trial.
SESSION_TABLES = ("usersessions", "django_session", "sessions", "symfony_sessions", "adonis_sessions")
_MODES = {"sessions": (True,), "cookieless": (False,), "both": (True, False)}


def _modes(key: str, value) -> tuple[bool, ...]:
    if value not in _MODES:
        raise AxisError(f"{key}: expected one of {sorted(_MODES)}, got {value!r}")
    return _MODES[value]


# True: a cookie jar per connection, each connection one visitor; False: every request a new visitor.
SESSIONS = Axis("sessions", (True,), _modes, lambda with_cookies: None if with_cookies else "cookieless",
                "both", "session workload: a visitor per connection, a new visitor per request, or both",
                choices=tuple(_MODES), in_trial_line=False)
WORKLOAD = Workload("session", 4, verify, target, axis=SESSIONS, needs_database=True, emptied_tables=SESSION_TABLES,
                    in_session_store=True)
