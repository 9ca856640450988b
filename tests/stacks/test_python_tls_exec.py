"""frameworks/python/common/tls-exec.sh: the certificate flags of the Python servers' command lines."""
import os
import subprocess
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[2] / "frameworks" / "python" / "common" / "tls-exec.sh"


def run(*args: str, **tls: str) -> subprocess.CompletedProcess:
    env = {key: value for key, value in os.environ.items() if key not in ("TLS_CERT", "TLS_KEY")}
    return subprocess.run([str(SCRIPT), *args], env={**env, **tls}, capture_output=True, text=True, timeout=10)


def test_cleartext_runs_the_command_as_given():
    done = run("--certfile", "--keyfile", "--", "echo", "app:app", "--workers", "1")
    assert (done.returncode, done.stdout) == (0, "app:app --workers 1\n")


def test_tls_appends_the_flags_with_the_paths_and_the_extra_flags():
    done = run("--cert", "--key", "--min", "tls1.2", "--", "echo", "app:app", TLS_CERT="/c.pem", TLS_KEY="/k.pem")
    assert done.stdout == "app:app --cert /c.pem --key /k.pem --min tls1.2\n"


def test_one_path_without_the_other_is_refused_naming_both():
    for tls in ({"TLS_CERT": "/c.pem"}, {"TLS_KEY": "/k.pem"}):
        done = run("--cert", "--key", "--", "echo", "started", **tls)
        assert done.returncode == 1 and done.stdout == ""
        assert "TLS_CERT and TLS_KEY" in done.stderr


def test_a_command_without_its_flags_is_a_usage_error():
    done = run("--cert", "--", "echo")
    assert done.returncode == 2 and "usage" in done.stderr
