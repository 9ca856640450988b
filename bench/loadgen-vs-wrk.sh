#!/usr/bin/env bash
# shootout-load against wrk on the same minimal C epoll server: requests/s, client CPU seconds, requests per
# client CPU-second and peak RSS of each tool, PAIRS interleaved pairs, then the median ratio
# shootout-load / wrk of requests per client CPU-second; then one run each with 10,000 connections.
#
# The server is pinned to SERVER_CPU and the load tools to CLIENT_CPU (different CPUs), so the client's CPU
# cost per request is what is compared. Usage: bench/loadgen-vs-wrk.sh  (settings below via environment)
set -euo pipefail

PAIRS=${PAIRS:-3}
DURATION=${DURATION:-5}          # seconds per run
CONNECTIONS=${CONNECTIONS:-64}
THREADS=${THREADS:-1}
SERVER_CPU=${SERVER_CPU:-0}
CLIENT_CPU=${CLIENT_CPU:-1}
MANY=${MANY:-10000}              # connections of the last run; 0 skips it

root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
server_pid=""
cleanup() {
  if [[ -n "$server_pid" ]]; then kill "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

command -v wrk >/dev/null || { echo "wrk is not installed (apt-get install wrk)" >&2; exit 1; }
[[ -x /usr/bin/time ]] || { echo "/usr/bin/time is not installed (apt-get install time)" >&2; exit 1; }
gcc -O2 -Wall -Wextra -o "$work/epoll-server" "$root/bench/epoll-server.c"
(cd "$root" && cargo build --release --quiet -p shootout-load)
load="$root/target/release/shootout-load"
ulimit -n $((MANY + 1024 > 4096 ? MANY + 1024 : 4096))

port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
# The server's own time limit is only a backstop in case this script is killed; cleanup stops it.
taskset -c "$SERVER_CPU" "$work/epoll-server" "$port" 3600 &
server_pid=$!
sleep 0.5
url="http://127.0.0.1:$port/"

# measure TOOL CONNECTIONS: runs one tool pinned to CLIENT_CPU and prints "requests rps cpu_s peak_rss_kib",
# CPU and peak RSS from /usr/bin/time (the kernel's accounting of the tool's process), the same way for both.
measure() {
  python3 - "$1" "$2" "$load" "$url" "$DURATION" "$THREADS" "$CLIENT_CPU" "$work/time.txt" <<'EOF'
import json, re, subprocess, sys
tool, conns, load, url, duration, threads, cpu, timing = sys.argv[1:]
if tool == "wrk":
    argv = ["wrk", "-t", threads, "-c", conns, "-d", f"{duration}s", url]
else:
    argv = [load, "--json", "-t", threads, "-c", conns, "-d", f"{duration}s", url]
# time forks from a small C process, so the peak RSS is the tool's, not a forked interpreter's.
done = subprocess.run(["/usr/bin/time", "-o", timing, "-f", "%U %S %M", "taskset", "-c", cpu, *argv],
                      capture_output=True, text=True, timeout=int(duration) + 60)
if done.returncode != 0:
    sys.exit(f"{tool} failed ({done.returncode}): {done.stderr[-400:]}")
if tool == "wrk":
    found = re.search(r"(\d+) requests in ([\d.]+)s", done.stdout)
    errors = re.search(r"Non-2xx or 3xx responses: (\d+)|Socket errors: (.*)", done.stdout)
    if not found:
        sys.exit(f"wrk printed no request count: {done.stdout[-400:]}")
    requests, seconds = int(found.group(1)), float(found.group(2))
    if errors:
        print(f"wrk reported errors: {errors.group(0)}", file=sys.stderr)
else:
    data = json.loads(done.stdout)
    requests, seconds = data["requests"], data["duration_s"]
    if sum(data["errors"].values()):
        print(f"shootout-load reported errors: {data['errors']}", file=sys.stderr)
user, system, rss_kib = open(timing).read().split()[-3:]
print(requests, round(requests / seconds), round(float(user) + float(system), 3), rss_kib)
EOF
}

echo "server: bench/epoll-server.c on CPU $SERVER_CPU; clients on CPU $CLIENT_CPU; $CONNECTIONS connections," \
     "$THREADS thread(s), ${DURATION}s per run, $PAIRS pairs"
printf '%-5s %-14s %12s %10s %16s %12s\n' pair tool "req/s" "CPU s" "req/CPU-s" "peak RSS MB"
ratios=()
for pair in $(seq 1 "$PAIRS"); do
  declare -A per_cpu=()
  # Alternate which tool goes first, so drift on a shared machine does not favour one.
  if (( pair % 2 )); then order="wrk shootout-load"; else order="shootout-load wrk"; fi
  for tool in $order; do
    read -r requests rps cpu rss < <(measure "$tool" "$CONNECTIONS")
    kill -0 "$server_pid" || { echo "the server exited" >&2; exit 1; }
    per_cpu[$tool]=$(python3 -c "print(round($requests / max($cpu, 1e-9)))")
    printf '%-5s %-14s %12s %10s %16s %12s\n' "$pair" "$tool" "$rps" "$cpu" "${per_cpu[$tool]}" \
      "$(python3 -c "print(round($rss / 1024, 1))")"
  done
  ratios+=("$(python3 -c "print(${per_cpu[shootout-load]} / ${per_cpu[wrk]})")")
  unset per_cpu
done
python3 - "${ratios[@]}" <<'EOF'
import statistics, sys
ratios = [float(r) for r in sys.argv[1:]]
print("ratio shootout-load / wrk of requests per client CPU-second, per pair:",
      ", ".join(f"{r:.2f}" for r in ratios))
print(f"median ratio: {statistics.median(ratios):.2f}  (floor 1.0, goal 1.3)")
EOF

if (( MANY > 0 )); then
  echo "$MANY connections, one run each:"
  for tool in wrk shootout-load; do
    read -r requests rps cpu rss < <(measure "$tool" "$MANY")
    kill -0 "$server_pid" || { echo "the server exited" >&2; exit 1; }
    printf '  %-14s %10s req/s  CPU %6ss  peak RSS %s MB\n' "$tool" "$rps" "$cpu" "$(python3 -c "print(round($rss / 1024, 1))")"
  done
fi
