#!/usr/bin/env bash
# Usage: start.sh [--no-cache]
# Prepares the run (php.ini, php-fpm and nginx configs, the sessions table, Laravel's caches) under
# $RUN_DIR, then runs nginx and php-fpm in the foreground in this process group.
set -euo pipefail
cd "$(dirname "$0")"
case "${1:-}" in
    "") caches=yes ;;
    --no-cache) caches=no ;;
    *) echo "start.sh: unknown argument '$1' (expected nothing or --no-cache)" >&2; exit 2 ;;
esac

source ../php/conf/php.sh
write_php_ini
write_fpm_conf

export APP_ENV=production APP_DEBUG=false
# Laravel wants a 32-byte key for AES-256-CBC; derive it from the run's secret.
APP_KEY="base64:$(php -r 'echo base64_encode(hash("sha256", getenv("SECRET_KEY"), true));')"
export APP_KEY
# Every file Laravel caches goes to this run's directory (see README.md): the folder stays read-only
# and two runs never read each other's database settings.
export APP_CONFIG_CACHE="$RUN_DIR/cache/config.php" APP_ROUTES_CACHE="$RUN_DIR/cache/routes.php" \
       APP_PACKAGES_CACHE="$RUN_DIR/cache/packages.php" APP_SERVICES_CACHE="$RUN_DIR/cache/services.php" \
       APP_EVENTS_CACHE="$RUN_DIR/cache/events.php"
mkdir -p "$RUN_DIR/cache" "$RUN_DIR/storage/framework/views" "$RUN_DIR/storage/logs"

# The database session driver's table, as `php artisan migrate` creates it on deploy.
php artisan migrate --force --no-interaction
if [ "$caches" = yes ]; then
    php artisan config:cache --no-interaction
    php artisan route:cache --no-interaction
fi
if [ "$(id -u)" = 0 ]; then chown -R www-data: "$RUN_DIR/cache" "$RUN_DIR/storage"; fi

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
