"""The lab's hosts for tests that need remote roles: the lab already up is used and left up; otherwise it
is brought up for the test and taken down after it, also on failure."""

import contextlib
import os
import shutil
from typing import Iterator

import pytest

from webshootout.config import hostsfile as hosts
from webshootout.hosts import lab


@contextlib.contextmanager
def lab_hosts() -> Iterator[hosts.Hosts]:
    if os.geteuid() != 0 or shutil.which("ip") is None:
        pytest.skip("the lab needs root and iproute2")
    layout = lab.Layout()
    if layout.hosts_file.exists():
        status = lab.status(layout)
        if not (status["bridge"] and all(role["sshd_pid"] for role in status["roles"].values())):
            pytest.fail(f"a lab is only partly up ({layout.state}): run `./shootout lab down` first")
        yield hosts.load(layout.hosts_file)
        return
    try:
        yield hosts.load(lab.up(lambda message: None, layout))
    finally:
        lab.down(lambda message: None, layout)
