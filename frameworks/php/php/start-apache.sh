#!/usr/bin/env bash
# Renders php.ini and apache2.conf into $RUN_DIR, then runs Apache (prefork + mod_php) in the
# foreground as the process-group leader.
set -euo pipefail
cd "$(dirname "$0")"
source ../common/php.sh
write_php_ini

export PHP_VERSION PUBLIC_DIR="$PWD/public"
mkdir -p "$RUN_DIR/apache"
# As root, children drop to www-data like Debian's packaged Apache.
if [ "$(id -u)" = 0 ]; then
    export APACHE_USER=$'User www-data\nGroup www-data'
    chown www-data: "$RUN_DIR/apache"
else
    export APACHE_USER=""
fi

envsubst '${RUN_DIR} ${HOST} ${PORT} ${APACHE_USER} ${PHP_VERSION} ${PUBLIC_DIR} ${STATIC_DIR}' \
    < conf/apache2.conf.template > "$RUN_DIR/apache2.conf"
exec apache2 -d "$RUN_DIR" -f "$RUN_DIR/apache2.conf" -DFOREGROUND
