#!/usr/bin/env bash
# shootout-load against wrk (and h2load when installed) on the same minimal C epoll server, at each of
# CONNECTION_COUNTS: requests/s, client CPU seconds, requests per client CPU-second and peak RSS of each tool,
# PAIRS interleaved rounds, then per connection count the median ratio of each tool to wrk in requests per
# client CPU-second; then one run each with MANY connections. shootout-load runs once per I/O path
# (shootout-load[io_uring] and shootout-load[epoll], its --io). uring-ceiling (bench/uring-ceiling, URING=0
# skips it) is a bare io_uring client that checks nothing: its figure bounds what an io_uring path could give.
#
# The server is pinned to SERVER_CPU and the load tools to CLIENT_CPU (different CPUs), so the client's CPU
# cost per request is what is compared. Usage: bench/loadgen-vs-wrk.sh  (settings below via environment)
set -euo pipefail

PAIRS=${PAIRS:-3}                          # rounds per connection count (every tool once per round)
DURATION=${DURATION:-5}                    # seconds per run
CONNECTION_COUNTS=${CONNECTION_COUNTS:-"64 1000"}
THREADS=${THREADS:-1}
SERVER_CPU=${SERVER_CPU:-0}
CLIENT_CPU=${CLIENT_CPU:-1}
MANY=${MANY:-10000}                        # connections of the last run; 0 skips it

root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
server_pid=""
cleanup() {
  if [[ -n "$server_pid" ]]; then kill "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

# As root on a machine without them, the tools come from Debian: wrk, GNU time, and h2load (nghttp2-client), a
# further well-known generator compared beside wrk (oha is not in Debian).
missing=()
command -v wrk >/dev/null || missing+=(wrk)
[[ -x /usr/bin/time ]] || missing+=(time)
command -v h2load >/dev/null || missing+=(nghttp2-client)
if (( ${#missing[@]} )) && [[ $(id -u) == 0 ]]; then
  apt-get install -y -qq "${missing[@]}" >/dev/null || echo "(apt-get install ${missing[*]} failed)" >&2
fi
command -v wrk >/dev/null || { echo "wrk is not installed (apt-get install wrk)" >&2; exit 1; }
[[ -x /usr/bin/time ]] || { echo "/usr/bin/time is not installed (apt-get install time)" >&2; exit 1; }
tools=("shootout-load[io_uring]" "shootout-load[epoll]" wrk)
if command -v h2load >/dev/null; then tools+=(h2load); else echo "(h2load is not installed: skipped)"; fi
gcc -O2 -Wall -Wextra -o "$work/epoll-server" "$root/bench/epoll-server.c"
(cd "$root" && cargo build --release --quiet -p shootout-load)
load="$root/target/release/shootout-load"
# The bound on what an io_uring path could give shootout-load (bench/uring-ceiling/src/main.rs says why).
if [[ ${URING:-1} == 1 ]]; then
  cargo build --release --quiet --manifest-path "$root/bench/uring-ceiling/Cargo.toml"
  tools+=(uring-ceiling)
fi
ceiling="$root/bench/uring-ceiling/target/release/uring-ceiling"
ulimit -n $((MANY + 1024 > 4096 ? MANY + 1024 : 4096))

port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
# The server's own time limit is only a backstop in case this script is killed; cleanup stops it.
taskset -c "$SERVER_CPU" "$work/epoll-server" "$port" 3600 &
server_pid=$!
sleep 0.5
url="http://127.0.0.1:$port/"

# measure TOOL CONNECTIONS: runs one tool pinned to CLIENT_CPU and prints "requests rps cpu_s peak_rss_kib",
# CPU and peak RSS from /usr/bin/time (the kernel's accounting of the tool's process), the same way for all.
measure() {
  python3 - "$1" "$2" "$load" "$url" "$DURATION" "$THREADS" "$CLIENT_CPU" "$work/time.txt" "$ceiling" <<'EOF'
import json, re, subprocess, sys
tool, conns, load, url, duration, threads, cpu, timing, ceiling = sys.argv[1:]
argv = {
    "uring-ceiling": [ceiling, url.split("/")[2], conns, duration],
    "wrk": ["wrk", "-t", threads, "-c", conns, "-d", f"{duration}s", url],
    **{f"shootout-load[{io}]": [load, "--json", "--io", io, "-t", threads, "-c", conns, "-d", f"{duration}s", url]
       for io in ("io_uring", "epoll")},
    "h2load": ["h2load", "--h1", "-t", threads, "-c", conns, "-D", duration, url],
}[tool]
# time forks from a small C process, so the peak RSS is the tool's, not a forked interpreter's.
done = subprocess.run(["/usr/bin/time", "-o", timing, "-f", "%U %S %M", "taskset", "-c", cpu, *argv],
                      capture_output=True, text=True, timeout=int(duration) + 60)
if done.returncode != 0:
    sys.exit(f"{tool} failed ({done.returncode}): {done.stderr[-400:]}")
errors = None
if tool == "wrk":
    found = re.search(r"(\d+) requests in ([\d.]+)s", done.stdout)
    if not found:
        sys.exit(f"wrk printed no request count: {done.stdout[-400:]}")
    requests, seconds = int(found.group(1)), float(found.group(2))
    problem = re.search(r"Non-2xx or 3xx responses: (\d+)|Socket errors: (.*)", done.stdout)
    errors = problem and problem.group(0)
elif tool == "uring-ceiling":
    found = re.search(r"(\d+) answers in ([\d.]+) s", done.stdout)
    if not found:
        sys.exit(f"uring-ceiling printed no answer count: {done.stdout[-400:]}")
    requests, seconds = int(found.group(1)), float(found.group(2))
elif tool == "h2load":
    found = re.search(r"finished in ([\d.]+)s", done.stdout)
    counts = re.search(r"requests: \d+ total, \d+ started, \d+ done, (\d+) succeeded, (\d+) failed, (\d+) errored",
                       done.stdout)
    if not (found and counts):
        sys.exit(f"h2load printed no request count: {done.stdout[-400:]}")
    requests, seconds = int(counts.group(1)), float(found.group(1))
    errors = (int(counts.group(2)) or int(counts.group(3))) and counts.group(0)
else:
    data = json.loads(done.stdout)
    requests, seconds = data["requests"], data["duration_s"]
    errors = sum(data["errors"].values()) and data["errors"]
if errors:
    print(f"{tool} reported errors: {errors}", file=sys.stderr)
user, system, rss_kib = open(timing).read().split()[-3:]
print(requests, round(requests / seconds), round(float(user) + float(system), 3), rss_kib)
EOF
}

echo "server: bench/epoll-server.c on CPU $SERVER_CPU; clients on CPU $CLIENT_CPU; $THREADS thread(s)," \
     "${DURATION}s per run, $PAIRS rounds per connection count; tools: ${tools[*]}"
summary=()
for conns in $CONNECTION_COUNTS; do
  echo "$conns connections:"
  printf '%-6s %-24s %12s %10s %16s %12s\n' round tool "req/s" "CPU s" "req/CPU-s" "peak RSS MB"
  declare -A ratios=()
  for round in $(seq 1 "$PAIRS"); do
    declare -A per_cpu=()
    # Rotate which tool goes first, so drift on a shared machine does not favour one.
    shift_by=$(( (round - 1) % ${#tools[@]} ))
    order=("${tools[@]:shift_by}" "${tools[@]:0:shift_by}")
    # How far apart the host has the two CPUs this round (docs/method.md): it moves both tools' costs.
    echo "       (CPU $SERVER_CPU to CPU $CLIENT_CPU: $("$root/target/release/shootout-cpulink" "$SERVER_CPU" "$CLIENT_CPU"))"
    for tool in "${order[@]}"; do
      read -r requests rps cpu rss < <(measure "$tool" "$conns")
      kill -0 "$server_pid" || { echo "the server exited" >&2; exit 1; }
      per_cpu[$tool]=$(python3 -c "print(round($requests / max($cpu, 1e-9)))")
      printf '%-6s %-24s %12s %10s %16s %12s\n' "$round" "$tool" "$rps" "$cpu" "${per_cpu[$tool]}" \
        "$(python3 -c "print(round($rss / 1024, 1))")"
    done
    for tool in "${tools[@]}"; do
      [[ $tool == wrk ]] && continue
      ratios[$tool]+="$(python3 -c "print(${per_cpu[$tool]} / max(${per_cpu[wrk]}, 1))") "
    done
    unset per_cpu
  done
  for tool in "${tools[@]}"; do
    [[ $tool == wrk ]] && continue
    summary+=("$(python3 - "$tool" "$conns" ${ratios[$tool]} <<'EOF'
import statistics, sys
tool, conns, ratios = sys.argv[1], sys.argv[2], [float(r) for r in sys.argv[3:]]
print(f"{conns:>6} connections  {tool:24} / wrk: median {statistics.median(ratios):.2f}"
      f"  (rounds: {', '.join(f'{r:.2f}' for r in ratios)})")
EOF
)")
  done
  unset ratios
done
echo "ratio of requests per client CPU-second to wrk's (goal for shootout-load: 2.0 at 64, 1.5 at 1,000):"
printf '%s\n' "${summary[@]}"

if (( MANY > 0 )); then
  echo "$MANY connections, one run each:"
  for tool in "${tools[@]}"; do
    read -r requests rps cpu rss < <(measure "$tool" "$MANY")
    kill -0 "$server_pid" || { echo "the server exited" >&2; exit 1; }
    printf '  %-24s %10s req/s  CPU %6ss  peak RSS %s MB\n' "$tool" "$rps" "$cpu" "$(python3 -c "print(round($rss / 1024, 1))")"
  done
fi
