"""Command line: parse flags into Settings, then call the command's run()."""

from __future__ import annotations

import argparse
import shlex
import sys
from pathlib import Path

from . import ROOT
from .stacks import catalog
from .system import leftovers
from .config import suites
from .commands import check, clean, compare, report, run, setup
from .commands import fairness as fairness_cmd
from .commands import list as list_cmd
from .commands import lab as lab_cmd
from .load.base import DriverError
from .stacks.provision import SetupError
from .hosts.remote import RemoteError
from .results.rundir import ResultsError, RunDir
from .services.postgres import PostgresError
from .config.settings import DRIVERS, Settings, SettingsError, build, refuse_changes, refuse_other_hosts, resume_flags
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
    p.add_argument("--hash-n", metavar="N[,N...]", help="n for the hash workload, one point each (default 1)")
    p.add_argument("--sessions", choices=("sessions", "cookieless", "both"),
                   help="session workload: a visitor per connection, a new visitor per request, or both")
    p.add_argument("--keepalive", choices=("on", "off", "both"),
                   help="off: a new TCP connection for every request (its connect in the latency); both: each point twice")
    p.add_argument("--pipeline", type=int, metavar="N", help="requests in flight per connection (HTTP/1.1 pipelining)")
    p.add_argument("--workers", type=int, metavar="N", help="WORKERS for every server (default: one per server CPU)")
    p.add_argument("--websocket-rate", type=float, metavar="R", help="WebSocket messages/s in total (default closed loop)")
    p.add_argument("--slo-p99-ms", type=float, metavar="MS",
                   help="p99 bound for the sustainable throughput of a rate sweep (default 10)")
    p.add_argument("--driver", choices=DRIVERS, help="load generator (default native: shootout-load)")
    p.add_argument("--server-cpus", metavar="CPUS", help="CPUs for the servers and PostgreSQL (default: first half)")
    p.add_argument("--load-cpus", metavar="CPUS", help="CPUs for the load generator (default: second half)")
    p.add_argument("--out", metavar="DIR", help="parent directory of the run directory (default runs/)")
    p.add_argument("--resume", metavar="RUN_DIR", help="continue a run, skipping trials already recorded")
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
        if args.command == "clean":
            return clean.run(settings)
        return run.run(settings, argv)
    except (SettingsError, catalog.ManifestError, suites.SuiteError, ResultsError, SetupError, PostgresError,
            DriverError, RemoteError) as exc:
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
