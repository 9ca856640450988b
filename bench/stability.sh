#!/usr/bin/env bash
# How much do trials of one stack spread? Runs a suite (default: quick, with more trials) and prints, per
# framework x workload x load point, the trials' median req/s and coefficient of variation (sample standard
# deviation / mean), marking every row above LIMIT. Run it on a quiet machine: nothing else running.
#   bench/stability.sh                 the quick suite's frameworks, TRIALS trials each
#   SUITE=sessions TRIALS=5 bench/stability.sh
#   DURATION=10 TRIALS=3 bench/stability.sh   the quick suite with 10 s trials
#   bench/stability.sh RUN_DIR         print the table of a finished run only
set -euo pipefail

SUITE=${SUITE:-quick}
TRIALS=${TRIALS:-5}
LIMIT=${LIMIT:-0.03}
root=$(cd "$(dirname "$0")/.." && pwd)

if [[ $# -ge 1 ]]; then
  run_dir=$1
else
  out=$(mktemp -d "${TMPDIR:-/tmp}/stability-XXXXXX")
  start=$(date +%s)
  "$root/shootout" run --suite "$SUITE" --trials "$TRIALS" ${DURATION:+--duration "$DURATION"} --out "$out" \
    >/dev/null
  echo "wall time of the run: $(( $(date +%s) - start )) s" >&2
  run_dir=$(ls -d "$out"/*/ | head -n1)
fi

"$root/.venv/bin/python" - "$run_dir/results.jsonl" "$LIMIT" <<'PY'
import json, statistics, sys
path, limit = sys.argv[1], float(sys.argv[2])
rows, far, reruns, stolen, waited = {}, {}, {}, {}, 0.0
for raw in open(path):
    line = json.loads(raw)
    if line["kind"] == "trial":
        key = (line["framework"], line["workload"], line["point"])
        rows.setdefault(key, []).append(line["rps"])
        # Trials whose server and load CPUs the host had placed apart (docs/method.md), as the harness saw it.
        far[key] = far.get(key, 0) + ("cpus-far" in line["flags"])
        # Runs discarded because the server's JIT compiled through them (docs/method.md).
        reruns[key] = reruns.get(key, 0) + line.get("jit_reruns", 0)
        # The most the hypervisor took of either role's CPUs in one of the row's trials.
        steal = line.get("steal_percent") or {}
        stolen[key] = max(stolen.get(key, 0.0), *steal.values(), 0.0)
        waited += (line.get("cpu_link") or {}).get("waited_s", 0.0)
print(f"{'framework':<18} {'workload':<10} {'point':<22} {'trials':>6} {'median req/s':>13} {'CV':>7}  cpus-far  JIT reruns  steal")
above = 0
for (framework, workload, point), rps in sorted(rows.items()):
    cv = statistics.stdev(rps) / statistics.mean(rps) if len(rps) > 1 and statistics.mean(rps) else 0.0
    above += cv > limit
    mark = "  > limit" if cv > limit else ""
    n_far, n_reruns = far[(framework, workload, point)], reruns[(framework, workload, point)]
    print(f"{framework:<18} {workload:<10} {point:<22} {len(rps):>6} {statistics.median(rps):>13,.0f} {cv:>6.1%}"
          f"  {n_far or '':>8}  {n_reruns or '':>10}  {stolen[(framework, workload, point)]:>4.1f}%{mark}")
print(f"{above} of {len(rows)} rows have a CV above {limit:.0%}; {sum(far.values())} trials flagged cpus-far; "
      f"{waited:.1f} s waited for the CPUs; {sum(reruns.values())} runs discarded as the JIT compiled")
PY
