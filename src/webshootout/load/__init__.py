"""Load drivers: each turns a LoadSpec into one LoadResult."""

from . import ab, native, wrk
from .base import DriverError, LoadResult, LoadSpec

DRIVERS = {"native": native.run, "wrk": wrk.run, "ab": ab.run}
WEBSOCKET_DRIVERS = {"native"}

__all__ = ["DRIVERS", "WEBSOCKET_DRIVERS", "DriverError", "LoadResult", "LoadSpec"]
