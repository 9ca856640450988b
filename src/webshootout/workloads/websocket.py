"""websocket: every text message sent is echoed back unchanged."""

from websockets.exceptions import WebSocketException
from websockets.sync.client import connect

from ..system import httpget
from .base import Context, Target, VerifyError, shown
from .spec import Workload

MESSAGES = ("hello", "Hello, World! ünïcødé ✓", "x" * 4000)
LOAD_MESSAGE = "Hello, World!"
# Seconds the client waits, after the echoes, for the server to finish the closing handshake and close TCP. The
# contract is the echo: close() ends the connection itself after this wait and raises nothing either way, and
# some servers (armeria, micronaut) take 2 s, which every check of theirs paid in full per transport.
CLOSE_TIMEOUT = 0.25


def verify(ctx: Context) -> None:
    tls = ctx.link.ca is not None
    url = f"{'wss' if tls else 'ws'}://{ctx.host}:{ctx.port}{ctx.path}"
    try:
        with connect(url, open_timeout=10, close_timeout=CLOSE_TIMEOUT,
                     ssl=httpget.tls_context(ctx.link.ca) if tls else None) as ws:
            for message in MESSAGES:
                ws.send(message)
                echoed = ws.recv(timeout=10)
                if echoed != message:
                    raise VerifyError(f"send {shown(message, 40)} on {url}", f"received {shown(echoed, 40)}")
    except (WebSocketException, OSError, TimeoutError) as exc:
        raise VerifyError(f"WebSocket {url}", f"{type(exc).__name__}: {exc}") from None


def target(ctx: Context) -> Target:
    return Target(ctx.path, websocket_message=LOAD_MESSAGE)


WORKLOAD = Workload("websocket", 7, verify, target, messages=True, http1_only=True)
