#!/usr/bin/env bash
# Renders php.ini, php-fpm.conf and nginx.conf into $RUN_DIR, then runs nginx and php-fpm in the
# foreground in this process group.
set -euo pipefail
cd "$(dirname "$0")"
source conf/php.sh
write_php_ini
write_fpm_conf

export NGINX_USER PUBLIC_DIR="$PWD/public"
NGINX_USER=$(nginx_user)
envsubst '${NGINX_USER} ${WORKERS} ${RUN_DIR} ${HOST} ${PORT} ${PUBLIC_DIR} ${STATIC_DIR} ${FPM_SOCKET}' \
    < conf/nginx.conf.template > "$RUN_DIR/nginx.conf"

# -p and -e keep nginx from touching its compiled-in prefix and /var/log/nginx before it reads the config.
# nginx runs in the background, where a bad config would only show as a server that never gets ready:
# test it first so the start fails at once with nginx's message.
nginx -t -q -p "$RUN_DIR" -e stderr -c "$RUN_DIR/nginx.conf"
nginx -p "$RUN_DIR" -e stderr -c "$RUN_DIR/nginx.conf" -g 'daemon off;' &
# php-fpm calls setsid() even in the foreground; as the leader of this process group (exec) that call
# fails, so php-fpm stays in the group the harness stops.
exec "php-fpm$PHP_VERSION" -F -c "$RUN_DIR/php.ini" -y "$RUN_DIR/php-fpm.conf"
