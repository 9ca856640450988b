#!/usr/bin/env bash
# Usage: start.sh [--tuned]
# Renders php.ini, php-fpm.conf and nginx.conf into $RUN_DIR, then runs nginx and php-fpm in the
# foreground in this process group. --tuned (php-tuned) also turns on OPcache's tracing JIT.
set -euo pipefail
cd "$(dirname "$0")"
case "${1:-}" in
    "") ;;
    # Debian's conf.d is scanned after php.ini and its 10-opcache.ini sets opcache.jit=off, so the JIT
    # settings come from a scan directory listed after it (the empty entry before ':' is PHP's default).
    --tuned) export PHP_INI_SCAN_DIR=":$PWD/conf/tuned.d" ;;
    *) echo "start.sh: unknown argument '$1' (expected nothing or --tuned)" >&2; exit 2 ;;
esac
source ../common/php.sh
write_php_ini
write_fpm_conf
serve_nginx_and_fpm conf/nginx.conf.template "$PWD/public"
