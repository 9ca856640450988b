#!/usr/bin/env bash
# Renders php.ini, php-fpm.conf and nginx.conf into $RUN_DIR, then runs nginx and php-fpm in the
# foreground in this process group.
set -euo pipefail
cd "$(dirname "$0")"
source ../common/php.sh
write_php_ini
write_fpm_conf
serve_nginx_and_fpm conf/nginx.conf.template "$PWD/public"
