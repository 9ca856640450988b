"""Command line: parse flags into Settings, then call the command's run()."""

from __future__ import annotations

import argparse
import dataclasses
import shlex
import sys
from pathlib import Path

from . import ROOT
from .stacks import catalog, sides
from .system import leftovers
from .config import suites
from .workloads import registry
from .commands import ab, abcalibrate, check, clean, compare, report, run, setup
from .commands import fairness as fairness_cmd
from .commands import conform as conform_cmd
from .commands import list as list_cmd
from .commands import lab as lab_cmd
from .load.base import DriverError
from .stacks.provision import SetupError
from .hosts.remote import RemoteError
from .results.rundir import ResultsError, RunDir
from .services.postgres import PostgresError
from .config.settings import (DRIVERS, Settings, SettingsError, build, parse_list, refuse_changes, refuse_other_hosts,
                              resume_flags)
from .report import verdict
from .system.signals import stop_like_ctrl_c



def _selection(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--frameworks", metavar="IDS", help="comma-separated framework ids (variants included)")
    parser.add_argument("--workloads", metavar="NAMES", help=f"comma-separated, among {','.join(catalog.WORKLOADS)}")
    parser.add_argument("--suite", metavar="NAME", help="a suite from suites/NAME.toml")
    parser.add_argument("--no-install", action="store_true", help="never apt-get install; fail instead")
    parser.add_argument("--hosts", metavar="FILE",
                        help="run app, database and load on the hosts this file names (docs/multi-host.md)")


def parser() -> argparse.ArgumentParser:
    top = argparse.ArgumentParser(prog="shootout", description="Reproducible web-framework shootouts.")
    sub = top.add_subparsers(dest="command", required=True, metavar="COMMAND")
    sub.add_parser("list", help="list frameworks, variants and their status").add_argument(
        "--frameworks", metavar="IDS", help="only these ids")
    p = sub.add_parser("setup", help="install the harness's tools and build the selected frameworks")
    _selection(p)
    p.add_argument("--harness-only", action="store_true", help="only the harness's own tools")
    _selection(sub.add_parser("check", help="prove the selected frameworks meet the workload contract"))
    p = sub.add_parser("run", help="verify and measure (default: the quick suite)")
    _selection(p)
    p.add_argument("--duration", type=float, metavar="S", help="seconds per trial (default 5)")
    p.add_argument("--warmup", type=float, metavar="S", help="seconds of warm-up per load point (default 2)")
    p.add_argument("--trials", type=int, metavar="N", help="trials per load point (default 3)")
    p.add_argument("--connections", metavar="N[,N...]", help="closed-loop connections, one or a list (default 64)")
    p.add_argument("--rate", metavar="R[,R...]", help="open loop at these requests/s (latency from intended send)")
    p.add_argument("--rate-sweep", metavar="FROM:TO[:STEPS]|auto",
                   help="open-loop rates in even steps; auto: 10..120 %% of the measured closed-loop capacity")
    p.add_argument("--burst", metavar="C,C,...[:S]", help="one run stepping through these connection counts, S s each")
    for axis in registry.axes().values():
        shape = {"choices": axis.choices} if axis.choices else {"metavar": "N[,N...]"}
        p.add_argument(axis.flag, **shape, help=axis.help)
    p.add_argument("--keepalive", choices=("on", "off", "both"),
                   help="off: a new TCP connection for every request (its connect in the latency); both: each point twice")
    p.add_argument("--requests-per-connection", metavar="N[,N...]",
                   help="the client closes each kept connection after N answers and opens another (10 is the "
                        "field's choice), a point each; 0: kept for the whole trial (the default)")
    p.add_argument("--pipeline", type=int, metavar="N", help="requests in flight per connection (HTTP/1.1 pipelining)")
    p.add_argument("--tls", action=argparse.BooleanOptionalAction,
                   help="over TLS, servers given a certificate of the run's own CA (docs/method.md, Transport)")
    p.add_argument("--http", choices=("1.1", "2"), help="HTTP version (2 without --tls: h2c with prior knowledge)")
    p.add_argument("--streams", type=int, metavar="N", help="concurrent requests per HTTP/2 connection (default 1)")
    p.add_argument("--workers", type=int, metavar="N", help="WORKERS for every server (default: one per server CPU)")
    p.add_argument("--websocket-rate", type=float, metavar="R", help="WebSocket messages/s in total (default closed loop)")
    p.add_argument("--slo-p99-ms", type=float, metavar="MS",
                   help="p99 bound for the sustainable throughput of a rate sweep (default 10)")
    p.add_argument("--driver", choices=DRIVERS, help="load generator (default native: shootout-load)")
    p.add_argument("--server-cpus", metavar="CPUS", help="CPUs for the servers and PostgreSQL (default: first half)")
    p.add_argument("--load-cpus", metavar="CPUS", help="CPUs for the load generator (default: second half)")
    p.add_argument("--out", metavar="DIR", help="parent directory of the run directory (default runs/)")
    p.add_argument("--resume", metavar="RUN_DIR", help="continue a run, skipping trials already recorded")
    p.add_argument("--interleave", action=argparse.BooleanOptionalAction,
                   help="trials in rounds over a part's stacks, their servers kept up (default); "
                        "--no-interleave: each stack's trials back to back, one server at a time")
    p.add_argument("--conform", action=argparse.BooleanOptionalAction,
                   help="after the trials, the conform probes per stack into conform.json (default: the suite's)")
    _ab_parser(sub)
    conform_cmd.add_parser(sub)
    p = sub.add_parser("report", help="write report.html, report.md and summary.json into a run; print one")
    p.add_argument("run_dir", metavar="RUN_DIR")
    p.add_argument("--format", choices=("terminal", "markdown", "html", "json"), default="terminal",
                   help="what to print (default terminal); the three files are written either way")
    p = sub.add_parser("compare", help="per framework and workload: did B change against A, and is it real")
    p.add_argument("run_a", metavar="RUN_A")
    p.add_argument("run_b", metavar="RUN_B")
    p.add_argument("--format", choices=("terminal", "markdown", "html"), default="terminal")
    p = sub.add_parser("clean", help="remove framework build output so the next setup rebuilds")
    p.add_argument("--frameworks", metavar="IDS", help="only these ids")
    p = sub.add_parser("fairness", help="write docs/fairness.md from the manifests; list unexplained departures")
    p.add_argument("--check", action="store_true", help="write nothing; exit 1 when docs/fairness.md is stale")
    sub.add_parser("lab", help="three network namespaces with their own sshd, standing in for three hosts"
                   ).add_argument("action", choices=lab_cmd.ACTIONS, help="up (writes a hosts file), down or status")
    return top


def _ab_parser(sub) -> None:
    p = sub.add_parser("ab", help="is B faster or slower than A: trials alternated A B B A, a verdict with intervals")
    p.add_argument("a", metavar="A", help="a framework id, or ID@VERSION: the stack at that version of its framework")
    p.add_argument("b", metavar="B", help="the same for B (the same id as A for two settings or --b-dir)")
    p.add_argument("--b-dir", metavar="PATH", help="B from this folder's framework.toml (your branch of the stack)")
    p.add_argument("--a-env", action="append", metavar="KEY=VALUE", help="set in A's server environment (repeatable)")
    p.add_argument("--b-env", action="append", metavar="KEY=VALUE", help="set in B's server environment (repeatable)")
    p.add_argument("--threshold", type=float, metavar="PCT",
                   help=f"an interval inside +-PCT is no difference, and exits 0 (default {ab.THRESHOLD:g})")
    p.add_argument("--max-trials", type=int, metavar="N", help=f"pairs of trials per workload and point at most "
                   f"(default {ab.MAX_TRIALS}); undecided then: exit 3")
    p.add_argument("--gate", metavar="p99,cpu", help="p99 latency and/or CPU per request also stop a row and set "
                   "the exit status (throughput always does; the others are reported either way)")
    p.add_argument("--calibrate", action="store_true", help="A against A, then B under a 97 %% CPU quota: this "
                   "machine's false alarms, power and the smallest change it decides in 5 and 15 minutes")
    p.add_argument("--workloads", metavar="NAMES", help=f"comma-separated, among {','.join(catalog.WORKLOADS)}")
    p.add_argument("--connections", metavar="N[,N...]", help="closed-loop connections (default 64)")
    p.add_argument("--rate", metavar="R[,R...]", help="open loop at these requests/s")
    p.add_argument("--hash-n", metavar="N[,N...]", help="n for the hash workload")
    p.add_argument("--workers", type=int, metavar="N", help="WORKERS for both servers")
    p.add_argument("--duration", type=float, metavar="S", help=f"seconds per trial (default {ab.DURATION:g})")
    p.add_argument("--warmup", type=float, metavar="S", help="seconds of warm-up per load point (default 2)")
    p.add_argument("--driver", choices=DRIVERS, help="load generator (default native: shootout-load)")
    p.add_argument("--server-cpus", metavar="CPUS", help="CPUs for the servers and PostgreSQL")
    p.add_argument("--load-cpus", metavar="CPUS", help="CPUs for the load generator")
    p.add_argument("--out", metavar="DIR", help="parent directory of the run directory (default runs/)")
    p.add_argument("--no-install", action="store_true", help="never apt-get install; fail instead")


def _ab(args, argv: list[str]) -> int:
    settings = build(args, ROOT)
    if args.duration is None:
        settings = dataclasses.replace(settings, duration=ab.DURATION)
    threshold = ab.THRESHOLD if args.threshold is None else args.threshold
    if not 0 < threshold < 50:
        raise SettingsError(f"--threshold: expected a percentage above 0 and below 50, got {threshold:g}")
    trials = ab.MAX_TRIALS if args.max_trials is None else args.max_trials
    if trials < 2:
        raise SettingsError(f"--max-trials: expected at least 2 pairs, got {trials}")
    named = parse_list("--gate", args.gate, tuple(verdict.GATE_NAMES)) or ()
    options = ab.Options(threshold / 100, trials, ("throughput", *dict.fromkeys(verdict.GATE_NAMES[g] for g in named)))
    envs = (sides.parse_env("--a-env", args.a_env), sides.parse_env("--b-env", args.b_env))
    chosen = sides.sides(catalog.discover(ROOT), args.a, args.b, Path(args.b_dir) if args.b_dir else None, envs,
                         ROOT / "runs" / "versions")
    if args.calibrate:
        return abcalibrate.run(settings, argv, chosen, options)
    return ab.run(settings, argv, chosen, options)


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    args = parser().parse_args(argv)
    stop_like_ctrl_c()
    leftovers.sweep(verbose=args.command == "clean")
    try:
        if args.command == "report":
            return report.run(Path(args.run_dir), args.format)
        if args.command == "compare":
            return compare.run(Path(args.run_a), Path(args.run_b), args.format)
        if args.command == "fairness":
            return fairness_cmd.run(ROOT, check=args.check)
        if args.command == "lab":
            return lab_cmd.run(args.action)
        if args.command == "ab":
            return _ab(args, argv)
        if getattr(args, "resume", None):
            settings = _resumed(args)
        else:
            settings = build(args, ROOT, default_suite=suites_default(args))
        if args.command == "list":
            return list_cmd.run(settings)
        if args.command == "setup":
            return setup.run(settings, harness_only=args.harness_only)
        if args.command == "check":
            return check.run(settings)
        if args.command == "conform":
            return conform_cmd.run(settings, args)
        if args.command == "clean":
            return clean.run(settings)
        return run.run(settings, argv)
    except (SettingsError, catalog.ManifestError, suites.SuiteError, ResultsError, SetupError, PostgresError,
            DriverError, RemoteError, sides.SideError) as exc:
        print(f"shootout: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("shootout: interrupted", file=sys.stderr)
        return 130


def _resumed(args) -> Settings:
    """A resumed run's settings: rebuilt from the command line it was started with (meta.json), refusing any
    flag that would measure its remaining trials differently."""
    meta = RunDir(Path(args.resume)).read_meta()
    then_argv = meta.get("argv") or shlex.split(meta["command"])[1:]
    then_args = parser().parse_args(then_argv)
    then = build(then_args, ROOT, default_suite=suites_default(then_args))
    now = build(resume_flags(args, then_args), ROOT)
    refuse_changes(then, now)
    refuse_other_hosts((meta.get("topology") or {}).get("roles"), now.hosts)
    return now


def suites_default(args) -> str | None:
    """`run` without a selection runs the quick suite; the other commands default to every framework."""
    return "quick" if args.command == "run" else None
