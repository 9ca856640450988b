"""Load drivers: each turns a LoadSpec into one LoadResult."""

from . import ab, wrk
from .base import DriverError, LoadResult, LoadSpec

DRIVERS = {"wrk": wrk.run, "ab": ab.run}
WEBSOCKET_DRIVERS: set[str] = set()

__all__ = ["DRIVERS", "WEBSOCKET_DRIVERS", "DriverError", "LoadResult", "LoadSpec"]
