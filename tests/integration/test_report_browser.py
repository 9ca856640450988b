"""Headless Chromium opens the fixture run's report.html from disk: it renders without console errors, the
charts carry the fixture's numbers, and a screenshot is kept in runs/report-screenshots/ to look at."""

import os
import shutil
import signal
import subprocess
from html.parser import HTMLParser
from pathlib import Path

import pytest

from webshootout import report
from webshootout.stacks.provision import SetupError, apt_install

pytestmark = pytest.mark.integration

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "runs" / "baseline"
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic", "--hide-scrollbars"]


def _chromium() -> str:
    found = shutil.which("chromium")
    if found:
        return found
    try:
        apt_install(["chromium"], print)
    except SetupError as exc:
        pytest.fail(f"the browser test needs Debian's chromium and could not install it: {exc}")
    found = shutil.which("chromium")
    if not found:
        pytest.fail("apt-get installed chromium but no `chromium` executable is on PATH")
    return found


def _browse(chromium: str, profile: Path, *args: str) -> subprocess.CompletedProcess:
    """Runs Chromium in its own process group and kills the whole group if it outlives the timeout."""
    argv = [chromium, *FLAGS, f"--user-data-dir={profile}", *args]
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            stdin=subprocess.DEVNULL, start_new_session=True)
    try:
        out, err = proc.communicate(timeout=120)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        pytest.fail(f"chromium did not finish within 120 s: {' '.join(argv)}")
    finally:
        try:
            os.killpg(proc.pid, signal.SIGKILL)  # helpers (zygote, GPU process) it may have left
        except ProcessLookupError:
            pass
    return subprocess.CompletedProcess(argv, proc.returncode, out, err)


class _Elements(HTMLParser):
    def __init__(self):
        super().__init__()
        self.found: list[tuple[str, dict]] = []

    def handle_starttag(self, tag, attrs):
        self.found.append((tag, dict(attrs)))


@pytest.fixture(scope="module")
def rendered(tmp_path_factory):
    run = tmp_path_factory.mktemp("report") / "run"
    shutil.copytree(FIXTURE, run)
    data = report.write_all(run)
    chromium = _chromium()
    url = (run / "report.html").as_uri()
    dom = _browse(chromium, tmp_path_factory.mktemp("profile"), "--enable-logging=stderr", "--v=0",
                  "--dump-dom", url)
    shots = Path(__file__).resolve().parents[2] / "runs" / "report-screenshots"
    shots.mkdir(parents=True, exist_ok=True)
    shot = shots / "fixture-report.png"
    shot.unlink(missing_ok=True)
    picture = _browse(chromium, tmp_path_factory.mktemp("profile"), f"--screenshot={shot}",
                      "--window-size=1400,3000", url)
    parser = _Elements()
    parser.feed(dom.stdout)
    return {"data": data, "dom": dom, "picture": picture, "shot": shot, "elements": parser.found}


def test_page_loads_without_console_errors(rendered):
    dom = rendered["dom"]
    assert dom.returncode == 0, dom.stderr[-2000:]
    assert "<h1>webshootout report</h1>" in dom.stdout
    console = [line for line in dom.stderr.splitlines() if "CONSOLE" in line]
    assert console == [], console


def test_throughput_bars_carry_every_median(rendered):
    bars = [(a["data-framework"], float(a["data-value"])) for tag, a in rendered["elements"]
            if tag == "rect" and "bar" in a.get("class", "").split()]
    for workload in rendered["data"]["workloads"]:
        for point in workload["points"]:
            for result in point["results"]:
                assert (result["framework"], result["rps"]["median"]) in bars, (workload["workload"], point["label"])
    errorbars = [a for tag, a in rendered["elements"] if tag == "g" and a.get("class") == "errorbar"]
    assert len(errorbars) == sum(len(p["results"]) for w in rendered["data"]["workloads"] for p in w["points"])


def test_every_chart_kind_is_present(rendered):
    labels = [a.get("aria-label", "") for tag, a in rendered["elements"] if tag == "svg"]
    for wanted in ("req/s at c=16", "latency percentiles at c=64", "req/s against connections",
                   "p99 against connections", "server CPU %", "peak memory MB", "requests per CPU-second",
                   "requests per second, burst 16>256>16 x 2s", "p99 per second, burst 16>256>16 x 2s"):
        assert any(wanted in label for label in labels), (wanted, labels)
    # The spectrum plots the merged p99.99 of beta at json c=64 (from the fixture's histograms).
    json_point = rendered["data"]["workloads"][1]["points"][0]
    beta = next(r for r in json_point["results"] if r["framework"] == "beta")
    points = [float(a["data-value"]) for tag, a in rendered["elements"] if tag == "circle"]
    assert beta["latency_us"]["p99_99"] in points


def test_unmeasured_frameworks_are_listed_with_reasons(rendered):
    text = rendered["dom"].stdout
    for item in rendered["data"]["not_measured"]:
        assert item["reason"] in text, item


def test_screenshot_is_kept(rendered):
    picture, shot = rendered["picture"], rendered["shot"]
    assert picture.returncode == 0, picture.stderr[-2000:]
    data = shot.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
    assert (width, height) == (1400, 3000)
    assert len(data) > 50_000  # a blank page compresses to a few kB
