"""Load drivers: each turns a LoadSpec into one LoadResult."""

from . import ab, wrk
from .base import DriverError, LoadResult, LoadSpec

DRIVERS = {"wrk": wrk.run, "ab": ab.run}

__all__ = ["DRIVERS", "DriverError", "LoadResult", "LoadSpec"]
