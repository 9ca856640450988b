"""Load drivers: each turns a LoadSpec into one LoadResult."""

from . import ab, h2load, native, wrk
from .base import DriverError, LoadResult, LoadSpec, request_errors

DRIVERS = {"native": native.run, "wrk": wrk.run, "ab": ab.run, "h2load": h2load.run}
WEBSOCKET_DRIVERS = {"native"}
IN_PROCESS_WARMUP = {"native"}  # drivers that warm up and measure over the same connections

__all__ = ["DRIVERS", "IN_PROCESS_WARMUP", "WEBSOCKET_DRIVERS", "DriverError", "LoadResult", "LoadSpec",
           "request_errors"]
