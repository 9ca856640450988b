"""A server on this machine: its own run directory, run as the unprivileged user, pinned to the run's CPUs."""

from __future__ import annotations

import os
import shutil

from ..console import say
from ..services import certs
from ..stacks.catalog import Variant
from ..system import process, users
from .base import Environment, Server, await_ready, command_for, proxied, server_env


def start(variant: Variant, env: Environment) -> Server:
    """Starts the server and waits until its ready path answers 200; on failure nothing is left running."""
    port = process.free_port()
    run_dir = env.scratch / variant.id
    if run_dir.exists():
        shutil.rmtree(run_dir)
    run_dir.mkdir(parents=True)
    tls_dir = [env.tls.key.parent] if env.tls else []
    run_as = users.for_server([variant.folder, *variant.setup.inputs, run_dir, env.assets.static_dir, *tls_dir],
                              variant.start.root, say)
    # Owned by the server's user and not world-writable: what the server writes at run time goes here.
    os.chown(run_dir, run_as.uid, run_as.gid)
    os.chmod(run_dir, 0o755)
    if env.tls is not None:
        certs.hand_to(env.tls, run_as.uid, run_as.gid)
    app_port = process.free_port() if proxied(variant, env) else None
    command = command_for(variant, env.host, port, env.worker_count, app_port)
    # setpriv rather than Popen(user=): it also sets the group and clears root's supplementary groups.
    argv = ["bash", "-c", command] if not run_as.switches else [
        "setpriv", f"--reuid={run_as.uid}", f"--regid={run_as.gid}", "--clear-groups", "--", "bash", "-c", command]
    log = env.logs / f"{variant.id}.log"  # opened by the harness, in a folder the server cannot write to
    log.parent.mkdir(parents=True, exist_ok=True)
    log.touch()
    # php-fpm and Apache reopen their stderr by name (/proc/self/fd/2), which needs the file's own permission.
    os.chown(log, run_as.uid, run_as.gid)
    running = process.start(argv, cwd=variant.folder, env=server_env(variant, env, port, run_dir, app_port),
                            cpus=env.cpus, log=log, port=port)
    return await_ready(Server(variant, port, log, running, str(run_as), ca=env.tls.ca if env.tls else None))
