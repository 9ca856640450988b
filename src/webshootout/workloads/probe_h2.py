"""The verification client's HTTP/2: the sans-IO `h2` package on one socket, over TLS (ALPN "h2" offered
alone) or in cleartext with prior knowledge (h2c). Several requests may be in flight on the connection at
once, and their answers are handed back in the order they completed (what the streams check looks at)."""

from __future__ import annotations

import http.client
import socket
import time
from dataclasses import dataclass, field
from pathlib import Path

import h2.config
import h2.connection
import h2.events
import h2.exceptions

from ..system import httpget

# An answer: status, header pairs (lower-case names, the :status pseudo-header kept) and body.
Answer = tuple[int, list[tuple[str, str]], bytes]


class H2Error(http.client.HTTPException):
    """The server broke HTTP/2: it refused ALPN h2, reset a stream, ended the connection or sent bad frames."""


@dataclass
class _Stream:
    path: str
    headers: list[tuple[str, str]] = field(default_factory=list)
    body: bytearray = field(default_factory=bytearray)


class Client:
    """One HTTP/2 connection to host:port; `ca` (a PEM CA to verify against) means TLS, None means h2c."""

    def __init__(self, host: str, port: int, timeout: float, ca: Path | None):
        self.host, self.port, self.timeout = host, port, timeout
        self.authority = f"{host}:{port}"
        self.scheme = "https" if ca else "http"
        self.sock = socket.create_connection((host, port), timeout=timeout)
        try:
            if ca is not None:
                self.sock = httpget.tls_context(ca, ("h2",)).wrap_socket(self.sock, server_hostname=host)
                chosen = self.sock.selected_alpn_protocol()
                if chosen != "h2":
                    raise H2Error(f"{self.authority}: offered only ALPN \"h2\", the server selected {chosen!r} "
                                  "(it does not serve HTTP/2 over TLS)")
            self.conn = h2.connection.H2Connection(h2.config.H2Configuration(client_side=True,
                                                                            header_encoding="utf-8"))
            self.conn.initiate_connection()
            self.sock.sendall(self.conn.data_to_send())
        except BaseException:
            self.sock.close()
            raise
        self._open: dict[int, _Stream] = {}
        self._ended: list[int] = []
        self._head = b""  # the server's first bytes, shown when they were not HTTP/2 (an HTTP/1.1 answer, say)

    def send(self, paths: list[str], headers: dict[str, str]) -> list[int]:
        """Sends a GET of each path, all in one write; returns their stream ids. Nothing is read here."""
        streams = []
        for path in paths:
            stream = self.conn.get_next_available_stream_id()
            self.conn.send_headers(stream, [(":method", "GET"), (":scheme", self.scheme),
                                            (":authority", self.authority), (":path", path),
                                            *((k.lower(), v) for k, v in headers.items())], end_stream=True)
            self._open[stream] = _Stream(path)
            streams.append(stream)
        self.sock.sendall(self.conn.data_to_send())
        return streams

    def wait(self, streams: list[int], limit: int) -> list[tuple[int, Answer]]:
        """The answers of `streams`, in the order they ended, all within the timeout; bodies at most `limit`."""
        deadline = time.monotonic() + self.timeout
        while not set(streams) <= set(self._ended):
            self._read(deadline, limit)
        done = [s for s in self._ended if s in streams]
        self._ended = [s for s in self._ended if s not in streams]
        return [(s, self._answer(self._open.pop(s))) for s in done]

    def get(self, path: str, headers: dict[str, str], limit: int) -> Answer:
        return self.wait(self.send([path], headers), limit)[0][1]

    def close(self) -> None:
        try:
            self.conn.close_connection()
            self.sock.sendall(self.conn.data_to_send())
        except (OSError, h2.exceptions.H2Error):
            pass  # closing anyway
        self.sock.close()

    @staticmethod
    def _answer(stream: _Stream) -> Answer:
        status = dict(stream.headers).get(":status", "")
        if not status.isdigit():
            raise H2Error(f"GET {stream.path}: the answer has no valid :status ({status!r})")
        return int(status), stream.headers, bytes(stream.body)

    def _read(self, deadline: float, limit: int) -> None:
        left = deadline - time.monotonic()
        if left <= 0:
            raise TimeoutError(f"HTTP/2 answers not complete after {self.timeout:g} s")
        self.sock.settimeout(left)
        try:
            data = self.sock.recv(65536)
        except ConnectionResetError:
            data = b""  # as a close: a server that did not take the preface often resets (unread bytes)
        self._head = self._head or data[:40]
        if not data:
            raise H2Error(f"{self.authority}: the server closed the HTTP/2 connection (its first bytes: "
                          f"{self._head!r})")
        try:
            events = self.conn.receive_data(data)
        except h2.exceptions.ProtocolError as exc:
            raise H2Error(f"{self.authority}: not valid HTTP/2 from the server ({type(exc).__name__}: {exc}); "
                          f"its first bytes: {self._head!r}") from None
        for event in events:
            self._on(event, limit)
        if outgoing := self.conn.data_to_send():
            self.sock.sendall(outgoing)

    def _on(self, event: h2.events.Event, limit: int) -> None:
        stream = self._open.get(getattr(event, "stream_id", 0))
        if isinstance(event, h2.events.ResponseReceived) and stream:
            stream.headers = [(k.lower(), v) for k, v in event.headers]
        elif isinstance(event, h2.events.DataReceived) and stream:
            stream.body += event.data
            self.conn.acknowledge_received_data(event.flow_controlled_length, event.stream_id)
            if len(stream.body) > limit:
                raise H2Error(f"GET {stream.path}: the body is over {limit} bytes")
        elif isinstance(event, h2.events.StreamEnded) and stream:
            self._ended.append(event.stream_id)
        elif isinstance(event, h2.events.StreamReset) and stream:
            raise H2Error(f"GET {stream.path}: the server reset the stream (HTTP/2 error code {event.error_code})")
        elif isinstance(event, h2.events.ConnectionTerminated) and (
                event.error_code or any(s > (event.last_stream_id or 0) for s in self._open)):
            raise H2Error(f"{self.authority}: the server ended the HTTP/2 connection (GOAWAY, error code "
                          f"{event.error_code})")
