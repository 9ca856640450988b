#!/usr/bin/env bash
# Does a stack's db throughput follow the machine? Runs the probe (probe.c) at nice 19 on the load
# generator's CPU beside TRIALS db trials of STACK, then prints each trial's req/s beside the probe's mean
# rate over that trial and their correlation. Usage: bench/machine-phases/run.sh STACK [TRIALS]
set -euo pipefail
stack="${1:?usage: run.sh STACK [TRIALS]}"
trials="${2:-16}"
here="$(cd "$(dirname "$0")" && pwd)"
root="$(dirname "$(dirname "$here")")"
work="$(mktemp -d)"
trap 'kill "${probe:-}" 2>/dev/null || true; rm -rf "$work"' EXIT
gcc -O2 -o "$work/probe" "$here/probe.c"
date +%s.%N > "$work/start"
nice -n 19 taskset -c 1 "$work/probe" 100000 > "$work/probe.txt" &
probe=$!
"$root/shootout" run --frameworks "$stack" --workloads db --trials "$trials" --duration 3 --out "$work/runs" >&2
kill "$probe"
python3 - "$work" <<'PY'
import datetime, glob, json, statistics, sys
work = sys.argv[1]
start = float(open(f"{work}/start").read())
windows = [tuple(map(float, line.split())) for line in open(f"{work}/probe.txt")]
pairs = []
for line in open(glob.glob(f"{work}/runs/*/results.jsonl")[0]):
    trial = json.loads(line)
    if trial.get("kind") != "trial":
        continue
    end = datetime.datetime.fromisoformat(trial["time"]).timestamp() - start  # a trial's time is its end
    rates = [rate for at, rate in windows if end - trial["duration_s"] <= at <= end]
    if rates:
        pairs.append((trial["rps"], statistics.fmean(rates)))
        print(f"trial {trial['trial']:2}  {trial['rps']:9,.0f} req/s  probe {pairs[-1][1]:5.2f} M steps/s")
print(f"correlation {statistics.correlation(*zip(*pairs)):.2f} over {len(pairs)} trials")
PY
