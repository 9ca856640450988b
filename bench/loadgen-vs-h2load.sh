#!/usr/bin/env bash
# shootout-load against h2load (nghttp2) over HTTP/2 and TLS, on the same nginx: requests per client
# CPU-second of each, PAIRS interleaved rounds per case, then the median ratio shootout-load / h2load per
# case. Cases: h2c with prior knowledge, h2 over TLS (1 and 10 streams per connection), HTTP/1.1 over TLS.
# The HTTP/2 cases also run bench/h2-crate (a client on the h2 crate, tokio and rustls, one thread, reading
# and checking every body like shootout-load): is our own HTTP/2 framing cheaper than the field's Rust
# library? Its median ratio shootout-load / h2-crate is printed too.
# No connection-per-request case: h2load keeps its connections (given "Connection: close" it spins at 100 %
# CPU without finishing).
#
# nginx (Debian's, one worker) is pinned to SERVER_CPU and the tools to CLIENT_CPU, so the client's cost per
# request is what is compared; both tools get the same connections, streams and duration, and both verify
# nothing but the status (shootout-load also checks the body, which costs it a little). h2load does not check
# the certificate, shootout-load does. Usage: bench/loadgen-vs-h2load.sh  (settings below via environment)
set -euo pipefail

PAIRS=${PAIRS:-3}
DURATION=${DURATION:-5}
CONNECTIONS=${CONNECTIONS:-64}
SERVER_CPU=${SERVER_CPU:-0}
CLIENT_CPU=${CLIENT_CPU:-1}

root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
cleanup() {
  if [[ -f "$work/nginx.pid" ]]; then kill "$(cat "$work/nginx.pid")" 2>/dev/null || true; sleep 0.2; fi
  rm -rf "$work"
}
trap cleanup EXIT

missing=()
command -v nginx >/dev/null || [[ -x /usr/sbin/nginx ]] || missing+=(nginx)
command -v h2load >/dev/null || missing+=(nghttp2-client)
[[ -x /usr/bin/time ]] || missing+=(time)
if (( ${#missing[@]} )) && [[ $(id -u) == 0 ]]; then
  apt-get install -y -qq "${missing[@]}" >/dev/null || echo "(apt-get install ${missing[*]} failed)" >&2
fi
nginx=$(command -v nginx || echo /usr/sbin/nginx)
command -v h2load >/dev/null || { echo "h2load is not installed (apt-get install nghttp2-client)" >&2; exit 1; }
(cd "$root" && cargo build --release --quiet -p shootout-load)
load="$root/target/release/shootout-load"
(cd "$root/bench/h2-crate" && cargo build --release --quiet)
crate="$root/bench/h2-crate/target/release/h2-crate-client"

# A throwaway CA and a certificate for 127.0.0.1, made for this run and removed with it.
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 1 -subj /CN=bench-ca \
  -keyout "$work/ca.key" -out "$work/ca.pem" 2>/dev/null
openssl req -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -subj /CN=127.0.0.1 \
  -keyout "$work/server.key" -out "$work/server.csr" 2>/dev/null
printf 'subjectAltName=IP:127.0.0.1\n' > "$work/ext"
openssl x509 -req -in "$work/server.csr" -CA "$work/ca.pem" -CAkey "$work/ca.key" -CAcreateserial -days 1 \
  -extfile "$work/ext" -out "$work/server.pem" 2>/dev/null

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
tls_port=$(free_port)
h2c_port=$(free_port)
cat > "$work/nginx.conf" <<CONF
worker_processes 1;
pid $work/nginx.pid;
error_log $work/error.log warn;
events { worker_connections 4096; }
http {
  access_log off;
  keepalive_requests 1000000;
  http2_max_concurrent_streams 128;
  server {
    # Debian's nginx 1.22 predates 'http2 on': http2 is a listen parameter (on cleartext, prior knowledge only).
    listen 127.0.0.1:$tls_port ssl http2;
    listen 127.0.0.1:$h2c_port http2;
    ssl_certificate $work/server.pem;
    ssl_certificate_key $work/server.key;
    ssl_session_tickets off;
    location / { default_type text/plain; return 200 "Hello, World!"; }
  }
}
CONF
taskset -c "$SERVER_CPU" "$nginx" -c "$work/nginx.conf" -p "$work"
sleep 0.5

# case -> "url|shootout-load flags|h2load flags|h2-crate's streams per connection (- : not HTTP/2)"
declare -A cases=(
  ["h2c"]="http://127.0.0.1:$h2c_port/|--http 2||1"
  ["h2+tls"]="https://127.0.0.1:$tls_port/|--http 2||1"
  ["h2+tls 10 streams"]="https://127.0.0.1:$tls_port/|--http 2 --streams 10|-m 10|10"
  ["h1+tls"]="https://127.0.0.1:$tls_port/|--http 1.1|--h1|-"
)
order=("h2c" "h2+tls" "h2+tls 10 streams" "h1+tls")

# measure TOOL CASE: "requests cpu_s" of one run pinned to CLIENT_CPU (CPU from the kernel's accounting).
measure() {
  local tool=$1 spec=${cases[$2]}
  local url ours theirs streams
  IFS='|' read -r url ours theirs streams <<< "$spec"
  if [[ $tool == shootout-load ]]; then
    argv=("$load" --json -t 1 -c "$CONNECTIONS" -d "${DURATION}s" --expect-body "Hello, World!" $ours)
    [[ $url == https* ]] && argv+=(--tls --ca "$work/ca.pem")
    argv+=("$url")
  elif [[ $tool == h2-crate ]]; then
    local address=${url#*://}
    argv=("$crate" "${address%/}" / "$CONNECTIONS" "$streams" "$DURATION" "Hello, World!")
    if [[ $url == https* ]]; then argv+=("$work/ca.pem"); fi
  else
    argv=(h2load -t 1 -c "$CONNECTIONS" -D "$DURATION" $theirs "$url")
  fi
  /usr/bin/time -o "$work/time" -f "%U %S" taskset -c "$CLIENT_CPU" "${argv[@]}" > "$work/out" 2> "$work/err" || {
    echo "$tool ($2) failed: $(tail -c 400 "$work/err")" >&2; return 1; }
  python3 "$root/bench/counts.py" "$tool" "$work/out" "$work/time"
}

echo "server: nginx (1 worker) on CPU $SERVER_CPU; tools on CPU $CLIENT_CPU, 1 thread, $CONNECTIONS connections," \
     "${DURATION}s per run, $PAIRS rounds"
printf '%-26s %-6s %-14s %10s %8s %12s\n' case round tool "req/s" "CPU s" "req/CPU-s"
summary=()
median() { python3 "$root/bench/median.py" "$@"; }
for name in "${order[@]}"; do
  ratios=() crate_ratios=()
  tools=(shootout-load h2load)
  if [[ ${cases[$name]##*|} != - ]]; then tools+=(h2-crate); fi
  for round in $(seq 1 "$PAIRS"); do
    # Who goes first turns each round.
    shift_by=$(( (round - 1) % ${#tools[@]} ))
    ordered=("${tools[@]:shift_by}" "${tools[@]:0:shift_by}")
    declare -A per_cpu=()
    for tool in "${ordered[@]}"; do
      read -r requests cpu < <(measure "$tool" "$name")
      per_cpu[$tool]=$(python3 -c "print(round($requests / max($cpu, 1e-9)))")
      printf '%-26s %-6s %-14s %10s %8s %12s\n' "$name" "$round" "$tool" \
        "$(python3 -c "print(round($requests / $DURATION))")" "$cpu" "${per_cpu[$tool]}"
    done
    ratios+=("$(python3 -c "print(${per_cpu[shootout-load]} / max(${per_cpu[h2load]}, 1))")")
    if [[ -n ${per_cpu[h2-crate]:-} ]]; then
      crate_ratios+=("$(python3 -c "print(${per_cpu[shootout-load]} / max(${per_cpu[h2-crate]}, 1))")")
    fi
    unset per_cpu
  done
  summary+=("$(median "$name / h2load" "${ratios[@]}")")
  if (( ${#crate_ratios[@]} )); then summary+=("$(median "$name / h2-crate" "${crate_ratios[@]}")"); fi
done
echo "shootout-load's requests per client CPU-second / the other tool's (goal: at least 1.0):"
printf '%s\n' "${summary[@]}"
