"""Round-trip time and throughput between two hosts, measured with our own code at both ends: a small TCP
server started on one host, a client run on the other, both as `python3 -c` over SSH.

Round-trip time: the median of many ping-pongs of a small message on one connection with Nagle off, which
is what one request/response over a kept-alive connection pays in network latency. Throughput: bytes the
client pushes to the server in about a second, as the server counted them. Both ends are Python, so on
links faster than a few Gbit/s the throughput is a floor rather than the link's capacity."""

from __future__ import annotations

import inspect
import json
import textwrap
import time
from dataclasses import asdict, dataclass
from pathlib import Path

from .remote import Remote, RemoteError

ROUNDS = 200
MESSAGE_BYTES = 64
BULK_SECONDS = 1.0
READY = "netprobe listening on port "


class NetprobeError(RuntimeError):
    pass


@dataclass(frozen=True)
class Link:
    """What was measured from the client role to the server role; meta.json records as_meta()."""

    server: str
    client: str
    rtt_median_us: float
    rtt_min_us: float
    rtt_p90_us: float
    rounds: int
    throughput_mbit_s: float
    bulk_bytes: int
    bulk_seconds: float

    def as_meta(self) -> dict:
        return asdict(self)


def _serve(address: str, ready: str) -> None:
    """The server end: one ping-pong connection, then one bulk connection, then it exits by itself."""
    # Imports live inside: this function's source is what runs on the remote host.
    import socket

    with socket.create_server((address, 0)) as server:
        server.settimeout(60)
        print(ready + str(server.getsockname()[1]), flush=True)
        for _ in range(2):
            conn, _ = server.accept()
            with conn:
                conn.settimeout(60)
                conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
                if conn.recv(1) == b"p":
                    while data := conn.recv(65536):
                        conn.sendall(data)
                else:
                    total = 0
                    while data := conn.recv(1 << 20):
                        total += len(data)
                    conn.sendall(total.to_bytes(8, "big"))


def _client(address: str, port: int, rounds: int, size: int, seconds: float) -> dict:
    """The client end: round-trip times in seconds, then the bulk transfer's bytes and duration."""
    import socket
    import time

    def receive(conn, wanted):
        got = b""
        while len(got) < wanted:
            chunk = conn.recv(wanted - len(got))
            if not chunk:
                raise ConnectionError("the netprobe server closed the connection early")
            got += chunk
        return got

    rtts = []
    with socket.create_connection((address, port), timeout=30) as conn:
        conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        conn.sendall(b"p")
        message = b"x" * size
        for _ in range(rounds):
            start = time.perf_counter()
            conn.sendall(message)
            receive(conn, size)
            rtts.append(time.perf_counter() - start)
    with socket.create_connection((address, port), timeout=30) as conn:
        conn.sendall(b"b")
        block = bytes(1 << 16)
        start = time.perf_counter()
        while time.perf_counter() - start < seconds:
            conn.sendall(block)
        conn.shutdown(socket.SHUT_WR)
        received = int.from_bytes(receive(conn, 8), "big")
        elapsed = time.perf_counter() - start
    return {"rtts": rtts, "bytes": received, "seconds": elapsed}


def python_argv(function, **kwargs) -> list[str]:
    """argv running `function(**kwargs)` with the host's python3 and printing its result as JSON."""
    source = textwrap.dedent(inspect.getsource(function))
    call = f"import json, sys\nprint(json.dumps({function.__name__}(**json.loads(sys.argv[1]))))\n"
    return ["python3", "-c", source + call, json.dumps(kwargs)]


def _port(log: Path, timeout: float) -> int:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        text = log.read_text(errors="replace") if log.exists() else ""
        for line in text.splitlines():
            if line.startswith(READY):
                return int(line[len(READY):])
        time.sleep(0.05)
    raise NetprobeError(f"the netprobe server did not report its port within {timeout:g}s; its log ({log}):\n"
                        + (log.read_text(errors="replace")[-2000:] if log.exists() else "(none)"))


def _percentile(ordered: list[float], fraction: float) -> float:
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def measure(server: Remote, client: Remote, log: Path, *, rounds: int = ROUNDS,
            seconds: float = BULK_SECONDS) -> Link:
    """Measures the link from `client` to `server`'s benchmark address; `log` gets the server's output."""
    running = server.start(python_argv(_serve, address=server.host.address, ready=READY), log=log)
    try:
        port = _port(log, 30)
        done = client.run(python_argv(_client, address=server.host.address, port=port, rounds=rounds,
                                      size=MESSAGE_BYTES, seconds=seconds), timeout=60 + seconds)
    except RemoteError as exc:
        raise NetprobeError(f"measuring {client.host.role} -> {server.host.role}: {exc}") from None
    finally:
        leaked = running.stop(grace=2)
    if leaked:
        raise NetprobeError(f"the netprobe server on {server} had to be killed: {leaked}")
    numbers = json.loads(done.stdout)
    rtts = sorted(numbers["rtts"])
    return Link(server.host.role, client.host.role, round(_percentile(rtts, 0.5) * 1e6, 1),
                round(rtts[0] * 1e6, 1), round(_percentile(rtts, 0.9) * 1e6, 1), len(rtts),
                round(numbers["bytes"] * 8 / numbers["seconds"] / 1e6, 1), numbers["bytes"],
                round(numbers["seconds"], 3))
