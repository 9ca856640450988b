"""grpcio's server of Bench in WORKERS processes on one port, as grpcio's examples/python/multiprocessing does it:
the processes are forked before any of them starts gRPC, and each binds PORT with SO_REUSEPORT, so the kernel
spreads the connections. `--asyncio`: each process runs a grpc.aio server on its event loop instead of the sync
server's thread pool."""

import asyncio
import multiprocessing
import os
import signal
import sys
from concurrent import futures
from pathlib import Path

import grpc

import service

# grpcio's helloworld server (examples/python/helloworld/greeter_server.py) serves from a pool of 10 threads.
THREADS = 10
OPTIONS = [("grpc.so_reuseport", 1)]


def _address() -> str:
    host, port = os.environ["HOST"], os.environ["PORT"]
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


def _bind(server) -> None:
    cert, key = os.environ.get("TLS_CERT"), os.environ.get("TLS_KEY")
    if cert and key:  # TLS only, ALPN h2 (gRPC core's)
        credentials = grpc.ssl_server_credentials([(Path(key).read_bytes(), Path(cert).read_bytes())])
        server.add_secure_port(_address(), credentials)
    else:  # h2c with prior knowledge: gRPC's plaintext
        server.add_insecure_port(_address())


def _serve_sync() -> None:
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=THREADS), options=OPTIONS)
    service.add(service.Bench(), server)
    _bind(server)
    server.start()
    server.wait_for_termination()


async def _serve_asyncio() -> None:
    server = grpc.aio.server(options=OPTIONS)
    service.add(service.AsyncBench(), server)
    _bind(server)
    await server.start()
    await server.wait_for_termination()


def _worker(asyncio_server: bool) -> None:
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    if asyncio_server:
        asyncio.run(_serve_asyncio())
    else:
        _serve_sync()


def main() -> None:
    workers = int(os.environ.get("WORKERS", "1"))
    asyncio_server = "--asyncio" in sys.argv[1:]
    processes = [multiprocessing.Process(target=_worker, args=(asyncio_server,)) for _ in range(workers)]
    for process in processes:
        process.start()

    def stop(signum, frame):
        for process in processes:
            process.terminate()

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    for process in processes:
        process.join()
    sys.exit(1 if any(p.exitcode and p.exitcode > 0 for p in processes) else 0)  # a worker failed, not stopped


if __name__ == "__main__":
    main()
