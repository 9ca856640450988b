#!/usr/bin/env bash
# Renders nginx.conf into $RUN_DIR and runs nginx, with the Lua module, in the foreground as the
# process-group leader.
set -euo pipefail
cd "$(dirname "$0")"
STACK_DIR=$(pwd)
COMMON_DIR=$(cd ../common && pwd)
export STACK_DIR COMMON_DIR

# Workers drop root, as in a packaged nginx; the user directive is only valid when started as root.
if [ "$(id -u)" = 0 ]; then NGINX_USER="user www-data;"; else NGINX_USER=""; fi
export NGINX_USER

# A cosocket connects to an address, or to a name only through nginx's `resolver` (DNS alone, no
# /etc/hosts): a PGHOST that names a host is looked up here, once, the way libpq would.
if [[ ${PGHOST:?} != /* && ! ${PGHOST} =~ ^[0-9.]+$ && ${PGHOST} != *:* ]]; then
    addr=$(getent ahostsv4 "$PGHOST" | awk 'NR == 1 { print $1 }')
    [ -n "$addr" ] || { echo "start.sh: cannot resolve PGHOST=$PGHOST" >&2; exit 1; }
    export PGHOST=$addr
fi

# TLS on PORT when the harness gives a certificate: nginx's own ssl module, h2 offered by ALPN through the
# listen's http2 parameter (nginx 1.22 predates the `http2 on;` directive). Cleartext stays HTTP/1.1 only:
# http2 on a cleartext listen makes 1.22 take prior-knowledge h2 alone and refuse HTTP/1.1.
TLS_LISTEN=""
TLS_CONFIG=""
if [ -n "${TLS_CERT:-}" ] || [ -n "${TLS_KEY:-}" ]; then
    TLS_LISTEN=" ssl http2"
    # The session cache as nginx's "Configuring HTTPS servers" guide sets it: one cache for all workers.
    TLS_CONFIG="        ssl_certificate ${TLS_CERT:?TLS_CERT and TLS_KEY must be set together};
        ssl_certificate_key ${TLS_KEY:?TLS_CERT and TLS_KEY must be set together};
        ssl_protocols TLSv1.2 TLSv1.3;
        ssl_session_cache shared:SSL:10m;"
fi
export TLS_LISTEN TLS_CONFIG

envsubst '${NGINX_USER} ${WORKERS} ${RUN_DIR} ${HOST} ${PORT} ${STATIC_DIR} ${STACK_DIR} ${COMMON_DIR} ${TLS_LISTEN} ${TLS_CONFIG}' \
    < nginx.conf.template > "$RUN_DIR/nginx.conf"
# -p and -e keep nginx from touching its compiled-in prefix and /var/log/nginx before it reads the config.
exec nginx -p "$RUN_DIR" -e stderr -c "$RUN_DIR/nginx.conf" -g 'daemon off;'
