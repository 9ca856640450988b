"""The machine's speed probe: the real shootout-speed pinned to a CPU, and what the harness does with a bad one."""

import os

import pytest

from load.test_native_driver import _built
from webshootout.system import speed


def test_the_probe_measures_the_walk_on_its_cpu_and_stops_at_close():
    probe = speed.Speed(_built().with_name("shootout-speed"), sorted(os.sched_getaffinity(0))[-1])
    try:
        rates = [probe.measure(50), probe.measure(50)]
    finally:
        probe.close()
    assert all(0 < rate < 1000 for rate in rates)  # million steps a second: any machine is well inside
    assert probe._process.poll() == 0


def test_an_answer_that_is_not_a_rate_is_an_error_that_says_what_came(tmp_path):
    probe = speed.Speed("/bin/cat", 0)  # echoes the request back: a number, not {"steps_per_s": ...}
    try:
        with pytest.raises(speed.SpeedError, match="answered '50'"):
            probe.measure(50)
    finally:
        probe.close()


def test_a_probe_that_cannot_start_says_so(tmp_path):
    with pytest.raises(speed.SpeedError, match="nothing-here"):
        speed.Speed(tmp_path / "nothing-here", 0)
