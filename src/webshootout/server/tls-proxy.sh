#!/usr/bin/env bash
# Usage: tls-proxy.sh APP_COMMAND
# TLS for a stack whose production form sits behind a TLS-terminating nginx (its manifest's [transport]
# proxy = "nginx"): nginx serves TLS (and h2 by ALPN when TLS_PROXY_H2 is 1) on HOST:PORT and passes
# every request over kept HTTP/1.1 connections to the app, which runs APP_COMMAND on 127.0.0.1:APP_PORT in
# cleartext, without the certificate. Both stay in this process group, on the server's CPUs, so the
# harness measures, stops and accounts for them as one server.
set -euo pipefail
: "${HOST:?} ${PORT:?} ${APP_PORT:?} ${WORKERS:?} ${RUN_DIR:?} ${TLS_CERT:?} ${TLS_KEY:?}"
if ! command -v nginx > /dev/null; then
    echo "tls-proxy.sh: nginx is not installed; a stack with [transport] proxy = \"nginx\" lists it in" \
         "its setup's apt and requires" >&2
    exit 1
fi

conf="$RUN_DIR/tls-proxy"
mkdir -p "$conf"
http2=""
if [ "${TLS_PROXY_H2:-}" = 1 ]; then http2=" http2"; fi
# The upstream settings are nginx's documented ones for kept connections to an app (proxy_http_version 1.1,
# an empty Connection, `keepalive` in the upstream); Upgrade and Connection pass through for WebSocket.
# nginx answers with its own Server and Date, as it does in production. As root its workers drop to www-data.
user=""
if [ "$(id -u)" = 0 ]; then user="user www-data;"; fi
cat > "$conf/nginx.conf" <<EOF
$user
worker_processes $WORKERS;
pid $conf/nginx.pid;
error_log stderr warn;
events {
    worker_connections 40000;
}
http {
    access_log off;
    # The stacks' own request body limit (upload's contract: 1 MiB accepted, 16 MiB refused), not nginx's 1 MiB.
    client_max_body_size 2m;
    client_body_temp_path $conf/client_body;
    proxy_temp_path $conf/proxy;
    fastcgi_temp_path $conf/fastcgi;
    uwsgi_temp_path $conf/uwsgi;
    scgi_temp_path $conf/scgi;
    map \$http_upgrade \$connection_upgrade {
        default upgrade;
        '' '';
    }
    upstream app {
        server 127.0.0.1:$APP_PORT;
        keepalive 256;
    }
    server {
        listen $HOST:$PORT ssl$http2;
        ssl_certificate $TLS_CERT;
        ssl_certificate_key $TLS_KEY;
        ssl_protocols TLSv1.2 TLSv1.3;
        ssl_session_cache shared:SSL:10m;
        location / {
            proxy_pass http://app;
            proxy_http_version 1.1;
            proxy_set_header Host \$http_host;
            proxy_set_header Upgrade \$http_upgrade;
            proxy_set_header Connection \$connection_upgrade;
            proxy_set_header X-Forwarded-For \$proxy_add_x_forwarded_for;
            proxy_set_header X-Forwarded-Proto https;
            proxy_read_timeout 300s;
        }
    }
}
EOF
nginx -t -q -p "$conf" -e stderr -c "$conf/nginx.conf"
nginx -p "$conf" -e stderr -c "$conf/nginx.conf" -g 'daemon off;' &
export HOST=127.0.0.1 PORT=$APP_PORT
unset TLS_CERT TLS_KEY APP_PORT TLS_PROXY_H2
exec bash -c "$1"
