"""upload-chunked: upload's contract with the body sent `Transfer-Encoding: chunked` (upload.py has the rest)."""

import itertools
import os

from . import upload
from .base import Context
from .spec import Workload

UNEVEN = [1, 7, 300, 4096, 10000, 2, 17000]  # chunk sizes in turn, the last repeated


def verify(ctx: Context) -> None:
    head = upload.head(ctx, "Transfer-Encoding: chunked")
    for size, sizes, note in ((64 << 10, UNEVEN, "chunks of uneven sizes"),
                              (upload.MAX_ACCEPTED, [upload.LOAD_CHUNK], f"{upload.LOAD_CHUNK >> 10} KiB chunks"),
                              (1024, [1024], "one chunk")):
        body = os.urandom(size)
        upload.sent_in_pieces(ctx, f"POST {ctx.path} ({size} bytes, chunked, {note})", head,
                              upload.chunked(body, sizes), body)
    frames = (f"{len(block):x}\r\n".encode() + block + b"\r\n" for block in upload.oversize())
    upload.refused(ctx, f"POST {ctx.path} ({upload.OVERSIZE} bytes, chunked)", head,
                   itertools.chain(frames, [upload.LAST_CHUNK]))
    # The Date rule's two answers: a small upload whose answer is replayed a tick later.
    upload.post(ctx, ctx.visitor(), 1024, " (the answer the Date rule replays)")
    ctx.after_a_tick()


WORKLOAD = Workload("upload-chunked", 15, verify, upload.target_for(upload.LOAD_CHUNK), axis=upload.BODY_BYTES,
                    http1_only=True)
