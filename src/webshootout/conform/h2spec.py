"""h2spec (RFC 7540/9113 conformance, a Go program by summerwind) as the family "h2spec": installed from the
Go module proxy into target/h2spec/ by `go install` the first time conform needs it, run once per server
that speaks HTTP/2, and each of its cases read from its JUnit report as one finding. It tests the frame
rules, not the attacks: those are ours (h2attacks.py)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
import time
import xml.etree.ElementTree as ElementTree
from dataclasses import replace
from pathlib import Path
from typing import Callable

from .. import ROOT
from .runner import Finding
from .target import Target

MODULE = "github.com/summerwind/h2spec/cmd/h2spec@v2.2.1+incompatible"
BINARY_ENV = "SHOOTOUT_H2SPEC"  # a built h2spec to use instead of target/h2spec/h2spec
HOME = ROOT / "target" / "h2spec"
CASE_TIMEOUT = 1  # seconds h2spec waits for each expected frame
RUN_TIMEOUT = 25.0  # for all sections at once; the largest has 21 cases
WANTED_ANSWER = ("expected DATA frame", "expected HEADERS Frame")  # how a case waiting for an answer fails
# Every section of h2spec v2.2.1 that has server cases (145 in all; http2/6.6, PUSH_PROMISE, has none), each
# a set of whole test suites, so a case's name (its suite and place in it) is the one a single run gives it.
SECTIONS = ("generic/1", "generic/2", "generic/3", "generic/4", "generic/5", "http2/3", "http2/4", "http2/5",
            "http2/6.1", "http2/6.2", "http2/6.3", "http2/6.4", "http2/6.5", "http2/6.7", "http2/6.8", "http2/6.9",
            "http2/6.10", "http2/7", "http2/8", "hpack")
INSTALL_TIMEOUT = 600.0


def binary() -> Path:
    return Path(os.environ.get(BINARY_ENV) or HOME / "h2spec")


def ensure(log: Callable[[str], None]) -> Path | None:
    """The h2spec binary, installed first if missing; None (having said why) where it cannot be had."""
    path = binary()
    if path.is_file():
        return path
    go = shutil.which("go")
    if go is None:
        log("h2spec: not installed and no go to install it; the h2spec family is left out")
        return None
    log(f"h2spec: go install {MODULE}")
    env = {**os.environ, "GOBIN": str(path.parent), "GOFLAGS": "-mod=mod"}
    try:
        done = subprocess.run([go, "install", MODULE], env=env, capture_output=True, text=True,
                              timeout=INSTALL_TIMEOUT)
    except subprocess.TimeoutExpired:
        log(f"h2spec: go install took over {INSTALL_TIMEOUT:g} s; the h2spec family is left out")
        return None
    if done.returncode != 0 or not path.is_file():
        log(f"h2spec: go install failed ({done.returncode}): {done.stderr.strip()[-400:]}")
        return None
    return path


def command(program: Path, target: Target, report: Path, section: str) -> list[str]:
    tls = ["-t", "-k"] if target.tls else []
    return [str(program), section, "-h", target.host, "-p", str(target.port), "-P", target.plaintext,
            "-o", str(CASE_TIMEOUT), "-j", str(report), *tls]


def _name(package: str, index: int) -> str:
    return "h2spec-" + re.sub(r"[^a-z0-9]+", "-", package.lower()).strip("-") + f"-{index}"


def _reason(case: ElementTree.Element) -> tuple[str, str]:
    for tag, grade in (("failure", "fail"), ("error", "fail"), ("skipped", "skip")):
        found = case.find(tag)
        if found is not None:
            lines = [line.strip() for line in (found.text or found.get("message") or "").splitlines() if line.strip()]
            if grade == "skip":
                return grade, " ".join(lines) or "skipped by h2spec"
            expected, actual = (lines + ["?", "?"])[:2]
            return grade, f"expected {expected}; got {actual}"
    return "pass", "as RFC 9113 requires"


def parse(report: str) -> list[tuple[dict, Finding]]:
    """Each case of an h2spec JUnit report: its probe entry (conform.json's probes) and its finding."""
    found = []
    # h2spec writes what a server sent into its report as is: bytes XML 1.0 has no place for are dropped.
    report = re.sub(r"[^\x09\x0a\x0d\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]", "", report)
    for suite in ElementTree.fromstring(report).iter("testsuite"):
        package = suite.get("package") or suite.get("id") or "case"
        for index, case in enumerate(suite.iter("testcase"), 1):
            name = _name(package, index)
            grade, reason = _reason(case)
            entry = {"name": name, "family": "h2spec", "section": f"{package}: {suite.get('name', '')}".strip(),
                     "level": "MUST", "what": case.get("classname") or ""}
            seconds = float(case.get("time") or 0)
            found.append((entry, Finding(name, "h2spec", "MUST", grade, reason, None, False, seconds)))
    return found


def calls_only(cases: list[tuple[dict, Finding]]) -> list[tuple[dict, Finding]]:
    """The cases as graded for a gRPC server: h2spec's requests are plain GETs and POSTs, which such a server
    refuses (a trailers-only answer, or RST_STREAM) as RFC 9113 lets it, so a case that failed only for want of
    an answer to one (h2spec expected its HEADERS or DATA) is skipped, with h2spec's words kept."""
    return [(entry, replace(found, grade="skip", reason=f"no answer to a request that is not a gRPC call: {found.reason}")
             if found.grade == "fail" and found.reason.startswith(WANTED_ANSWER) else found) for entry, found in cases]


def _read(section: str, report: Path, code: int, said: str) -> tuple[list[tuple[dict, Finding]], str | None]:
    """One section's cases from its report, and why there are none when there is no report to read."""
    if not report.is_file():
        return [], f"{section}: h2spec wrote no report ({code}): {said.strip()[-300:]}"
    try:
        return parse(report.read_text(errors="replace")), None
    except ElementTree.ParseError as exc:
        return [], f"{section}: h2spec's report is not XML: {exc}"


def run(program: Path, target: Target) -> tuple[list[tuple[dict, Finding]], str | None]:
    """h2spec's cases against `target`, its sections at once, and which sections gave none and why (None when
    all ran). Every h2spec started is stopped before this returns, also when it is interrupted."""
    deadline = time.monotonic() + RUN_TIMEOUT
    cases, missing = [], []
    with tempfile.TemporaryDirectory(prefix="shootout-h2spec-") as tmp:
        reports = [Path(tmp) / f"{index}.xml" for index in range(len(SECTIONS))]
        running: list[subprocess.Popen] = []
        try:
            for section, report in zip(SECTIONS, reports):
                running.append(subprocess.Popen(command(program, target, report, section), stdin=subprocess.DEVNULL,
                                                stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                                                errors="replace"))
            for section, report, process in zip(SECTIONS, reports, running):
                try:
                    # One that ended while another was waited for is read whole, however late the deadline.
                    wait = None if process.poll() is not None else max(0.0, deadline - time.monotonic())
                    out, _ = process.communicate(timeout=wait)
                except subprocess.TimeoutExpired:
                    missing.append(f"{section}: h2spec did not finish within {RUN_TIMEOUT:g} s")
                    continue
                found, why = _read(section, report, process.returncode, out)
                cases += found
                missing += [why] if why else []
        finally:
            for process in running:
                if process.poll() is None:
                    process.kill()
                    process.communicate()
    return cases, "; ".join(missing) or None
