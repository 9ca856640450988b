"""upload and upload-chunked: the answer to a request body, `<bytes read> <SHA-256 hex>` (docs/workloads.md)."""

import hashlib

# The body limit every stack gives its framework: bodies up to 1 MiB must be accepted and one over 16 MiB
# refused; 2 MiB sits between, with room to spare for the largest body the load sends.
MAX_BODY = 2 * 1024 * 1024


class BodyDigest:
    """Counts and hashes a body fed piece by piece, as a framework's streaming body API hands it over."""

    __slots__ = ("size", "_sha256")

    def __init__(self) -> None:
        self.size = 0
        self._sha256 = hashlib.sha256()

    def update(self, piece: bytes) -> None:
        self.size += len(piece)
        self._sha256.update(piece)

    def answer(self) -> str:
        return f"{self.size} {self._sha256.hexdigest()}"


def answer(body: bytes) -> str:
    """The answer to a body a framework read whole."""
    return f"{len(body)} {hashlib.sha256(body).hexdigest()}"
