#!/usr/bin/env bash
# Does `run` repeat itself? Runs a suite twice back to back (one commit, nothing else running) and prints
# `shootout compare` of the two, whose last lines give the figures of issue 30: rows whose intervals miss
# each other, re-run medians inside the first run's interval, pairs of stacks called in opposite order,
# and each run's wall time. Extra arguments go to both runs.
#   bench/repeat.sh                     the quick suite, interleaved (the default)
#   bench/repeat.sh --no-interleave     one server at a time, its trials back to back
#   SUITE=web bench/repeat.sh
set -euo pipefail

SUITE=${SUITE:-quick}
root=$(cd "$(dirname "$0")/.." && pwd)
out=$(mktemp -d "${TMPDIR:-/tmp}/repeat-XXXXXX")

for n in 1 2; do
  start=$(date +%s)
  "$root/shootout" run --suite "$SUITE" --out "$out/$n" "$@" > "$out/$n.log" 2>&1
  echo "run $n: $(( $(date +%s) - start )) s wall, $(ls -d "$out/$n"/*/)" >&2
done
"$root/shootout" compare "$(ls -d "$out/1"/*/)" "$(ls -d "$out/2"/*/)"
