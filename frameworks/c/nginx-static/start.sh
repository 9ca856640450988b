#!/usr/bin/env bash
# Renders nginx.conf into $RUN_DIR and runs nginx in the foreground as the process-group leader.
set -euo pipefail
cd "$(dirname "$0")"

# Workers drop root, as in a packaged nginx; the user directive is only valid when started as root.
if [ "$(id -u)" = 0 ]; then NGINX_USER="user www-data;"; else NGINX_USER=""; fi
export NGINX_USER

envsubst '${NGINX_USER} ${WORKERS} ${RUN_DIR} ${HOST} ${PORT} ${STATIC_DIR}' \
    < nginx.conf.template > "$RUN_DIR/nginx.conf"
# -p and -e keep nginx from touching its compiled-in prefix and /var/log/nginx before it reads the config.
exec nginx -p "$RUN_DIR" -e stderr -c "$RUN_DIR/nginx.conf" -g 'daemon off;'
