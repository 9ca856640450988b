"""A tiny h2c server for the HTTP/2 conform probes' tests, on the `h2` package in server mode, run as its own
process: strict by default, and given flaws by name on the command line, each turning off one check the way
a real server gets it wrong. It prints its port, then serves until killed; every request is answered
`200 Hello, World!` after WORK seconds of "handler work" done in order by one worker for the whole server (a
pool of one, so that work done for nothing shows as a second client kept waiting).

Besides h2's own checks the strict server refuses a SETTINGS ACK with a payload (FRAME_SIZE_ERROR), bounds
SETTINGS frames per connection (ENHANCE_YOUR_CALM) and does no work for a stream reset before it was served."""

from __future__ import annotations

import queue
import socket
import sys
import threading
import time

import h2.config
import h2.connection
import h2.events
import h2.exceptions
import h2.frame_buffer
import h2.settings
import h2.stream
import h2.windows

from webshootout.conform import h2frames as f

FLAWS = frozenset(sys.argv[1:])
WORK = 0.005
SETTINGS_BOUND = 1000
WORK_QUEUE: queue.Queue[threading.Event] = queue.Queue()  # the handlers' work, done in order by one worker
LARGEST = (1 << 31) - 1


def _flawed() -> None:
    """Turns off the checks of h2 itself that the flaws name."""
    if "lenient-settings" in FLAWS:
        h2.settings._validate_setting = lambda *args, **kwargs: 0
    if "lenient-window" in FLAWS:
        clamp = lambda current, increment: min(current + increment, LARGEST)  # noqa: E731
        h2.connection.guard_increment_window = h2.stream.guard_increment_window = clamp
    if "no-flow-control" in FLAWS:
        def consumed(self, size):
            self.current_window_size -= size
        h2.windows.WindowManager.window_consumed = consumed
    if "unbounded-continuation" in FLAWS:
        h2.frame_buffer.CONTINUATION_BACKLOG = 1 << 30


class Served:
    def __init__(self, sock: socket.socket):
        self.sock = sock
        config = h2.config.H2Configuration(client_side=False, header_encoding="utf-8",
                                           validate_inbound_headers="lenient-headers" not in FLAWS)
        self.conn = h2.connection.H2Connection(config)
        self.buffer, self.preface, self.settings = bytearray(), False, 0

    def serve(self) -> None:
        self.conn.initiate_connection()
        self.flush()
        while chunk := self.sock.recv(1 << 16):
            self.buffer += chunk
            try:
                if not self.preface:
                    if len(self.buffer) < len(f.PREFACE):
                        continue
                    self.conn.receive_data(bytes(self.buffer[:len(f.PREFACE)]))
                    del self.buffer[:len(f.PREFACE)]
                    self.preface = True
                events = []
                for frame in f.split(self.buffer):
                    events += self.receive(self.filtered(frame))
                self.handle(events)
            except h2.exceptions.ProtocolError as exc:
                self.refuse(getattr(exc, "error_code", f.PROTOCOL_ERROR))
                return
            self.flush()

    def receive(self, data: bytes) -> list:
        """h2's events for one frame; a frame for a stream already closed here (reset after it was answered)
        is let go, as RFC 9113 s5.1 allows."""
        try:
            return self.conn.receive_data(data)
        except h2.exceptions.StreamClosedError:
            return []

    def filtered(self, frame: f.Frame) -> bytes:
        """The frame as h2 gets it, or a connection error where the strict server checks before h2 does."""
        if frame.type == f.SETTINGS and frame.flags & f.ACK and frame.payload:
            if "lenient-frames" not in FLAWS:
                raise Refused(f.FRAME_SIZE_ERROR)
            return f.frame(f.SETTINGS, f.ACK, 0)
        if frame.type == f.SETTINGS and not frame.flags & f.ACK:
            self.settings += 1
            if self.settings > SETTINGS_BOUND and "unbounded-settings" not in FLAWS:
                raise Refused(f.ENHANCE_YOUR_CALM)
        if frame.type == f.WINDOW_UPDATE and frame.payload == b"\0\0\0\0" and "lenient-window" in FLAWS:
            return b""
        if frame.type == f.CONTINUATION and "no-continuation" in FLAWS:
            raise Refused(f.PROTOCOL_ERROR)
        return f.frame(frame.type, frame.flags, frame.stream, frame.payload)

    def handle(self, events) -> None:
        asked = [e.stream_id for e in events if isinstance(e, h2.events.RequestReceived)]
        reset = {e.stream_id for e in events if isinstance(e, h2.events.StreamReset)}
        jobs = {}
        for stream in asked:
            if stream not in reset or "work-after-reset" in FLAWS:  # that flaw works for every stream asked for
                jobs[stream] = threading.Event()
                WORK_QUEUE.put(jobs[stream])
        for stream in asked:
            if stream not in reset:
                jobs[stream].wait()
                self.answer(stream)

    def answer(self, stream: int) -> None:
        try:
            self.conn.send_headers(stream, [(":status", "200"), ("content-type", "text/plain"),
                                            ("content-length", "13")])
            self.conn.send_data(stream, b"Hello, World!", end_stream=True)
        except h2.exceptions.StreamClosedError:
            pass  # reset meanwhile: the work was for nothing

    def refuse(self, code: int) -> None:
        self.conn.close_connection(error_code=code)
        self.flush()

    def flush(self) -> None:
        self.sock.sendall(self.conn.data_to_send())


class Refused(h2.exceptions.ProtocolError):
    def __init__(self, code: int):
        super().__init__(f.error_name(code))
        self.error_code = code


def _connection(sock: socket.socket) -> None:
    with sock:
        try:
            Served(sock).serve()
        except OSError:
            pass


def _worker() -> None:
    while True:
        done = WORK_QUEUE.get()
        time.sleep(WORK)
        done.set()


def main() -> None:
    _flawed()
    threading.Thread(target=_worker, daemon=True).start()
    listener = socket.create_server(("127.0.0.1", 0))
    print(listener.getsockname()[1], flush=True)
    while True:
        sock, _ = listener.accept()
        threading.Thread(target=_connection, args=(sock,), daemon=True).start()


if __name__ == "__main__":
    main()
