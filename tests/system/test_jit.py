"""The JIT's compiler threads: found by name among a server's threads, their CPU read from the kernel."""

import shutil
import subprocess
import time
from pathlib import Path

import pytest

from webshootout.system.jit import CompilerThreads


def _task(proc: Path, pid: int, tid: int, name: str, run_ns: int) -> Path:
    task = proc / str(pid) / "task" / str(tid)
    task.mkdir(parents=True)
    (task / "comm").write_text(name + "\n")
    (task / "schedstat").write_text(f"{run_ns} 1000 7\n")
    return task


def test_compiler_threads_are_found_by_name_and_keep_their_time_when_they_exit(tmp_path):
    _task(tmp_path, 7, 7, "java", 9_000_000_000)
    c2 = _task(tmp_path, 7, 8, "C2 CompilerThre", 2_000_000_000)
    c1 = _task(tmp_path, 7, 9, "C1 CompilerThre", 500_000_000)
    _task(tmp_path, 30, 30, "postgres", 4_000_000_000)
    threads = CompilerThreads.of([7, 30, 99], proc=tmp_path)  # 99: gone before it was looked at
    assert threads.cpu_seconds() == pytest.approx(2.5)
    shutil.rmtree(c1)
    (c2 / "schedstat").write_text("3000000000 1000 9\n")
    assert threads.cpu_seconds() == pytest.approx(3.5)


def test_a_server_without_compiler_threads_has_none_to_watch(tmp_path):
    _task(tmp_path, 5, 5, "nginx", 1_000_000)
    assert CompilerThreads.of([5], proc=tmp_path) is None


SPIN = """
public class Spin {
    public static void main(String[] args) {
        long sum = 0;
        for (int round = 0; ; round++) {
            for (int i = 0; i < 1_000_000; i++) sum += (i * 31L) ^ round;
            if (sum == 42) System.out.println(sum);
        }
    }
}
"""


@pytest.mark.skipif(shutil.which("java") is None, reason="no JVM on this machine")
def test_a_real_jvm_shows_its_compiler_threads_compiling(tmp_path):
    (tmp_path / "Spin.java").write_text(SPIN)
    jvm = subprocess.Popen(["java", str(tmp_path / "Spin.java")], cwd=tmp_path,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 60
        threads = None
        while threads is None or threads.cpu_seconds() == 0:
            assert time.monotonic() < deadline, "no compiler thread of the JVM ran within 60 s"
            time.sleep(0.2)
            threads = threads or CompilerThreads.of([jvm.pid])
        assert threads.cpu_seconds() > 0
    finally:
        jvm.kill()
        jvm.wait()
