import os
import resource

from webshootout import process


def test_fd_limit_is_raised_for_ten_thousand_connections():
    soft_before, hard_before = resource.getrlimit(resource.RLIMIT_NOFILE)
    try:
        soft = process.raise_fd_limit()
        assert resource.getrlimit(resource.RLIMIT_NOFILE)[0] == soft
        # As root the hard limit moves too; otherwise the hard limit is as far as it may go.
        assert soft >= (process.FD_LIMIT if os.geteuid() == 0 else hard_before)
    finally:
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft_before, resource.getrlimit(resource.RLIMIT_NOFILE)[1]))
