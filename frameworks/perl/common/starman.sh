#!/usr/bin/env bash
# Usage: starman.sh PSGI_FILE [STARMAN OPTION ...]
# Starman's production form (Starman.pm, NOTES: "It is suggested to put Starman workers behind the
# frontend servers such as nginx, and use HTTP proxy with TCP or UNIX sockets"): renders nginx's config
# into $RUN_DIR, runs nginx on HOST:PORT in the background and Starman, WORKERS preforked workers on a
# unix socket, in the foreground, both in this process group so the harness stops them together.
set -euo pipefail
COMMON=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
: "${RUN_DIR:?}" "${HOST:?}" "${PORT:?}"
if ! [[ "${WORKERS:-}" =~ ^[1-9][0-9]*$ ]]; then
    echo "starman.sh: WORKERS='${WORKERS:-}' must be a positive integer" >&2
    exit 1
fi
# As root, nginx's workers would run as nobody and could not reach the socket Starman makes; the harness
# starts servers as its unprivileged user, and so should anyone running this by hand.
if [ "$(id -u)" = 0 ]; then
    echo "starman.sh: run it as an unprivileged user (the harness uses webshootout)" >&2
    exit 1
fi
export STARMAN_SOCKET="$RUN_DIR/starman.sock"
# sun_path holds 108 bytes; a longer path would fail later with a vaguer error.
if [ ${#STARMAN_SOCKET} -gt 107 ]; then
    echo "starman.sh: socket path $STARMAN_SOCKET is ${#STARMAN_SOCKET} bytes, over the 107 a unix socket allows" >&2
    exit 1
fi
# TLS on PORT when the harness gives a certificate, terminated by the nginx in front.
export TLS_LISTEN="" TLS_CONFIG=""
if [ -n "${TLS_CERT:-}" ] || [ -n "${TLS_KEY:-}" ]; then
    TLS_LISTEN=" ssl"
    TLS_CONFIG="        ssl_certificate ${TLS_CERT:?TLS_CERT and TLS_KEY must be set together};
        ssl_certificate_key ${TLS_KEY:?TLS_CERT and TLS_KEY must be set together};
        ssl_protocols TLSv1.2 TLSv1.3;
        ssl_session_cache shared:SSL:10m;"
fi
envsubst '${WORKERS} ${RUN_DIR} ${HOST} ${PORT} ${STARMAN_SOCKET} ${TLS_LISTEN} ${TLS_CONFIG}' \
    < "$COMMON/nginx.conf.template" > "$RUN_DIR/nginx.conf"
# -p and -e keep nginx from touching its compiled-in prefix and /var/log/nginx; test the config first so
# a bad one fails the start at once with nginx's message.
nginx -t -q -p "$RUN_DIR" -e stderr -c "$RUN_DIR/nginx.conf"
nginx -p "$RUN_DIR" -e stderr -c "$RUN_DIR/nginx.conf" -g 'daemon off;' &
psgi=$1
shift
# --preload-app: the app is compiled once in the master and forked (Starman's option for copy-on-write
# memory), so a worker that Starman replaces after its --max-requests (default 1000) starts at once; the
# apps open their database connections lazily in each worker, never in the master.
exec starman --listen "$STARMAN_SOCKET" --workers "$WORKERS" --preload-app -I"$COMMON/lib" "$@" "$psgi"
