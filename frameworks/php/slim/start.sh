#!/usr/bin/env bash
# Prepares the run (php.ini, php-fpm and nginx configs, Slim's route cache) under $RUN_DIR, then runs
# nginx and php-fpm in the foreground in this process group.
set -euo pipefail
cd "$(dirname "$0")"

source ../common/php.sh
write_php_ini
write_fpm_conf

mkdir -p "$RUN_DIR/cache/twig"
php -c "$RUN_DIR/php.ini" cache-routes.php
if [ "$(id -u)" = 0 ]; then chown -R www-data: "$RUN_DIR/cache"; fi

serve_nginx_and_fpm conf/nginx.conf.template "$PWD/public"
