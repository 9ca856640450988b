"""A small valid manifest that tests vary with str.replace."""

BASE = """
schema = 1
name = "demo"
display = "Demo"
language = "python"
version = "1.0"
server = "demo server"
kind = "micro"
[start]
command = "run --port {port}"
ready = "/plaintext"
[workloads]
plaintext = "/plaintext"
[fairness]
processes = "WORKERS"
threads = "1"
pool = "none"
keepalive = "on"
backlog = "511: the demo server's default"
production = "release"
"""
