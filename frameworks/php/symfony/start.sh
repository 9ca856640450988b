#!/usr/bin/env bash
# Usage: start.sh [--tuned]
# Prepares the run (php.ini, php-fpm and nginx configs, the sessions table, Symfony's cache) under
# $RUN_DIR, then runs nginx and php-fpm in the foreground in this process group. --tuned (symfony-tuned)
# adds the items of Symfony's Performance checklist the base lacks (README.md).
set -euo pipefail
cd "$(dirname "$0")"
case "${1:-}" in
    "") tuned=no ;;
    --tuned) tuned=yes ;;
    *) echo "start.sh: unknown argument '$1' (expected nothing or --tuned)" >&2; exit 2 ;;
esac

source ../common/php.sh
write_php_ini
write_fpm_conf

# Symfony's production form: the prod environment without debug.
export APP_ENV=prod APP_DEBUG=0

if [ "$tuned" = yes ]; then
    # Read by autoload.php and src/Kernel.php, in the console below and in php-fpm (clear_env = no).
    export SYMFONY_TUNED=1
    # Composer's vendor directory goes to the run's directory, as the folder stays read-only. First the
    # deployment guide's `composer install --no-dev` from composer.lock (no packages: they come from
    # Debian), which writes Composer's runtime API (vendor/composer/InstalledVersions.php, installed.php)
    # that Symfony's ContainerBuilder::willBeAvailable() asks and the class map lists; then the Performance
    # page's "Optimize Composer Autoloader" command. Before cache:warmup: the container dumper writes the
    # preload list only when Composer's ClassLoader finds its classes.
    export COMPOSER_VENDOR_DIR="$RUN_DIR/vendor"
    composer install --no-dev --no-autoloader --no-interaction
    composer dump-autoload --no-dev --classmap-authoritative --no-interaction
fi

# What Symfony's deployment guide runs on deploy: the sessions table (PdoSessionHandler's, once) and
# cache:warmup, which compiles the container, the routes and the Twig templates into var/cache/prod,
# here under $RUN_DIR (src/Kernel.php), so no request builds them.
php -c "$RUN_DIR/php.ini" console app:session-table --no-interaction
php -c "$RUN_DIR/php.ini" console cache:warmup --no-interaction
if [ "$(id -u)" = 0 ]; then chown -R www-data: "$RUN_DIR/var"; fi

if [ "$tuned" = yes ]; then
    # conf/tuned.d comes after Debian's conf.d (the empty entry before ':' is PHP's default scan
    # directory), for php-fpm only: the console commands above ran with the base's settings.
    export PHP_INI_SCAN_DIR=":$PWD/conf/tuned.d" SYMFONY_PRELOAD="$PWD/config/preload.php" PRELOAD_USER=""
    if [ "$(id -u)" = 0 ]; then PRELOAD_USER=www-data; chown -R www-data: "$RUN_DIR/vendor"; fi
fi

serve_nginx_and_fpm conf/nginx.conf.template "$PWD/public"
