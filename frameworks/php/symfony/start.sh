#!/usr/bin/env bash
# Prepares the run (php.ini, php-fpm and nginx configs, the sessions table, Symfony's cache) under
# $RUN_DIR, then runs nginx and php-fpm in the foreground in this process group.
set -euo pipefail
cd "$(dirname "$0")"

source ../common/php.sh
write_php_ini
write_fpm_conf

# Symfony's production form: the prod environment without debug.
export APP_ENV=prod APP_DEBUG=0
# What Symfony's deployment guide runs on deploy: the sessions table (PdoSessionHandler's, once) and
# cache:warmup, which compiles the container, the routes and the Twig templates into var/cache/prod,
# here under $RUN_DIR (src/Kernel.php), so no request builds them.
php -c "$RUN_DIR/php.ini" console app:session-table --no-interaction
php -c "$RUN_DIR/php.ini" console cache:warmup --no-interaction
if [ "$(id -u)" = 0 ]; then chown -R www-data: "$RUN_DIR/var"; fi

serve_nginx_and_fpm conf/nginx.conf.template "$PWD/public"
