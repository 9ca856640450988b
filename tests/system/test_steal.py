"""Steal time: the share of our CPUs' time the hypervisor took, from /proc/stat."""

from webshootout.system import steal

STAT = """cpu  900 0 300 5000 10 0 40 {total} 0 0
cpu0 400 0 150 2500 5 0 20 {cpu0} 0 0
cpu1 500 0 150 2500 5 0 20 {cpu1} 0 0
intr 12345
"""


def _write(path, cpu0, cpu1):
    path.write_text(STAT.format(total=cpu0 + cpu1, cpu0=cpu0, cpu1=cpu1))


def test_the_share_stolen_is_that_of_the_cpus_asked_over_the_time_since_the_start(tmp_path, monkeypatch):
    clock = [100.0]
    monkeypatch.setattr("webshootout.system.steal.time.monotonic", lambda: clock[0])
    stat = tmp_path / "stat"
    _write(stat, 7, 3)
    server, both = steal.Steal((0,), stat), steal.Steal((0, 1), stat)
    clock[0] = 110.0
    _write(stat, 7 + steal.TICKS, 3)  # CPU 0 lost one second of ten
    assert server.percent() == 10.0
    assert both.percent() == 5.0  # of two CPUs' twenty seconds
    assert steal.Steal((1,), stat).percent() == 0.0  # no time has passed: nothing to share out


def test_this_machines_counters_read():
    assert steal.Steal((0,)).percent() >= 0.0
