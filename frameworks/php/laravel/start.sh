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

source ../common/php.sh
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

serve_nginx_and_fpm conf/nginx.conf.template "$PWD/public"
