#!/usr/bin/env bash
# Renders h2o.conf (YAML) into $RUN_DIR from the environment and runs h2o in the foreground.
set -euo pipefail
cd "$(dirname "$0")"

conf="$RUN_DIR/h2o.conf"
{
    # h2o drops root only through `user`; it is only meaningful when started as root.
    if [ "$(id -u)" = 0 ]; then echo "user: www-data"; fi
    cat <<YAML
num-threads: ${WORKERS}
# h2o writes no access log unless access-log is configured; errors go to stderr.
listen:
  host: "${HOST}"
  port: ${PORT}
YAML
    # TLS on PORT when the harness gives a certificate: h2o's listen ssl, which offers h2 and http/1.1 by ALPN.
    if [ -n "${TLS_CERT:-}" ] || [ -n "${TLS_KEY:-}" ]; then
        cat <<YAML
  ssl:
    certificate-file: "${TLS_CERT:?TLS_CERT and TLS_KEY must be set together}"
    key-file: "${TLS_KEY:?TLS_CERT and TLS_KEY must be set together}"
    minimum-version: TLSv1.2
YAML
    fi
    cat <<YAML
hosts:
  default:
    paths:
      /plaintext:
        # h2o's counterpart of nginx's "return 200": an inline mruby handler.
        mruby.handler: |
          Proc.new do |env|
            [200, {"content-type" => "text/plain; charset=utf-8"}, ["Hello, World!"]]
          end
      /static:
        file.dir: "${STATIC_DIR}"
YAML
} > "$conf"

exec h2o -c "$conf"
