"""Framework-independent parts of the Python implementations (docs/workloads.md).

Each app keeps its handlers in its framework's idiom and calls these for what does not depend on the
framework: the harness's environment, the hash workload and the asyncpg session transaction.
"""
