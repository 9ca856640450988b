#!/usr/bin/env bash
# shootout-load's gRPC calls against ghz (the field's gRPC load tool, Go) and h2load (nghttp2, which sends the same
# HTTP/2 POSTs but reads no gRPC: no trailers or messages checked), on the same grpc-go server: unary calls
# (Bench.Sum) per client CPU-second of each, PAIRS interleaved rounds, then the median ratio shootout-load / other
# tool per case. Cases: h2c at CONNECTIONS connections with 1 stream each, and with 10 streams each.
#
# The server (frameworks/go/grpc-go, built by `./shootout setup --frameworks grpc-go`, WORKERS=1) is pinned to
# SERVER_CPU and the tools to CLIENT_CPU, so the client's cost per call is what is compared. shootout-load cycles
# through the harness's 64 distinct calls and checks each answer's bytes and grpc-status; ghz sends one call
# (its -d) and checks the status; h2load sends one request body and checks the HTTP status only.
# ghz is installed through the Go module proxy into target/ghz (GHZ_VERSION). Usage: bench/loadgen-vs-grpc.sh
set -euo pipefail

PAIRS=${PAIRS:-3}
DURATION=${DURATION:-5}
CONNECTIONS=${CONNECTIONS:-64}
SERVER_CPU=${SERVER_CPU:-0}
CLIENT_CPU=${CLIENT_CPU:-1}
GHZ_VERSION=${GHZ_VERSION:-v0.93.0}

root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
server_pid=""
cleanup() {
  if [[ -n $server_pid ]]; then kill "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

command -v h2load >/dev/null || { echo "h2load is not installed (apt-get install nghttp2-client)" >&2; exit 1; }
server="$root/frameworks/go/grpc-go/bin/server"
[[ -x $server ]] || { echo "grpc-go is not built: ./shootout setup --frameworks grpc-go" >&2; exit 1; }
ghz="$root/target/ghz/ghz"
if [[ ! -x $ghz ]]; then
  GOBIN="$root/target/ghz" go install "github.com/bojand/ghz/cmd/ghz@$GHZ_VERSION" >&2
fi
(cd "$root" && cargo build --release --quiet -p shootout-load)
load="$root/target/release/shootout-load"
py="$root/.venv/bin/python"

port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
HOST=127.0.0.1 PORT=$port WORKERS=1 taskset -c "$SERVER_CPU" "$server" > "$work/server.log" 2>&1 &
server_pid=$!
for _ in $(seq 50); do
  PYTHONPATH="$root/src" "$py" -c "from webshootout.system import ready; import sys; \
sys.exit(ready.problem('http://127.0.0.1:$port', ready.H2, 1) is not None)" 2>/dev/null && break
  sleep 0.2
done

# The harness's own --grpc spec (64 distinct calls), one call's request as h2load's body (framed) and ghz's -d.
PYTHONPATH="$root/src" "$py" - "$port" "$work" <<'PY'
import json, sys
from pathlib import Path
from webshootout.workloads import grpc_unary
from webshootout.workloads.base import Context
port, work = int(sys.argv[1]), Path(sys.argv[2])
spec = grpc_unary.target(Context("127.0.0.1", port, "/webshootout.Bench/Sum", None, None)).grpc
(work / "spec.json").write_text(spec)
request = bytes.fromhex(json.loads(spec)["calls"][7]["request"])
(work / "body").write_bytes(b"\0" + len(request).to_bytes(4, "big") + request)
(work / "ghz.json").write_text(json.dumps({"a": 7, "b": 7000}))
PY

declare -A streams=(["h2c"]=1 ["h2c 10 streams"]=10)
order=("h2c" "h2c 10 streams")

# measure TOOL CASE: "calls cpu_s" of one run pinned to CLIENT_CPU (CPU from the kernel's accounting).
measure() {
  local tool=$1 n=${streams[$2]}
  case $tool in
    shootout-load) argv=("$load" --json -t 1 -c "$CONNECTIONS" -d "${DURATION}s" --http 2 --streams "$n"
                         --grpc "$(cat "$work/spec.json")" "http://127.0.0.1:$port/webshootout.Bench/Sum") ;;
    h2load) argv=(h2load -t 1 -c "$CONNECTIONS" -m "$n" -D "$DURATION" -d "$work/body"
                  -H "content-type: application/grpc" -H "te: trailers" "http://127.0.0.1:$port/webshootout.Bench/Sum") ;;
    ghz) argv=("$ghz" --insecure --proto "$root/proto/bench.proto" --call webshootout.Bench.Sum -D "$work/ghz.json"
               --connections "$CONNECTIONS" -c $((CONNECTIONS * n)) -z "${DURATION}s" --cpus 1 -O json
               "127.0.0.1:$port") ;;
  esac
  /usr/bin/time -o "$work/time" -f "%U %S" taskset -c "$CLIENT_CPU" "${argv[@]}" > "$work/out" 2> "$work/err" || {
    echo "$tool ($2) failed: $(tail -c 400 "$work/err")" >&2; return 1; }
  python3 "$root/bench/counts.py" "$tool" "$work/out" "$work/time"
}

echo "server: grpc-go (GOMAXPROCS 1) on CPU $SERVER_CPU; tools on CPU $CLIENT_CPU, $CONNECTIONS connections," \
     "${DURATION}s per run, $PAIRS rounds"
printf '%-16s %-6s %-14s %10s %8s %14s\n' case round tool "calls/s" "CPU s" "calls/CPU-s"
summary=()
median() { python3 "$root/bench/median.py" "$@"; }
tools=(shootout-load ghz h2load)
for name in "${order[@]}"; do
  declare -A ratios=([ghz]="" [h2load]="")
  for round in $(seq 1 "$PAIRS"); do
    shift_by=$(( (round - 1) % ${#tools[@]} ))  # who goes first turns each round
    ordered=("${tools[@]:shift_by}" "${tools[@]:0:shift_by}")
    declare -A per_cpu=()
    for tool in "${ordered[@]}"; do
      read -r calls cpu < <(measure "$tool" "$name")
      per_cpu[$tool]=$(python3 -c "print(round($calls / max($cpu, 1e-9)))")
      printf '%-16s %-6s %-14s %10s %8s %14s\n' "$name" "$round" "$tool" \
        "$(python3 -c "print(round($calls / $DURATION))")" "$cpu" "${per_cpu[$tool]}"
    done
    for other in ghz h2load; do
      ratios[$other]+=" $(python3 -c "print(${per_cpu[shootout-load]} / max(${per_cpu[$other]}, 1))")"
    done
    unset per_cpu
  done
  for other in ghz h2load; do
    # shellcheck disable=SC2086
    summary+=("$(median "$name / $other" ${ratios[$other]})")
  done
  unset ratios
done
echo "shootout-load's calls per client CPU-second / the other tool's (above 1.0: cheaper per call):"
printf '%s\n' "${summary[@]}"
