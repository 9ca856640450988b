"""Starting one framework's server: the one interface (start) whatever host runs it, with its local and
remote forms below it."""

from ..stacks.catalog import Variant
from . import local, remote
from .base import HOST, Environment, Server, command_for, proxied, server_env

__all__ = ["HOST", "Environment", "Server", "command_for", "proxied", "server_env", "start"]


def start(variant: Variant, env: Environment) -> Server:
    """Starts the server and waits until its ready path answers 200; on failure nothing is left running."""
    if env.app is not None:
        return remote.start(variant, env)
    return local.start(variant, env)
