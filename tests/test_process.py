import resource

from webshootout import process


def test_fd_limit_is_raised_for_ten_thousand_connections():
    soft_before, hard_before = resource.getrlimit(resource.RLIMIT_NOFILE)
    try:
        soft = process.raise_fd_limit()
        now_soft, now_hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        # Up to the hard limit, which root raises too where the sandbox allows it.
        assert now_soft == soft == min(now_hard, process.FD_LIMIT) and now_hard >= hard_before
    finally:
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft_before, resource.getrlimit(resource.RLIMIT_NOFILE)[1]))
