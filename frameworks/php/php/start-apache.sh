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

# TLS on PORT when the harness gives a certificate: mod_ssl, Apache's own TLS, for the whole server (one
# site, so no virtual host), with the session cache its docs recommend. HTTP/1.1 only: mod_http2 under
# prefork serves a connection's streams one at a time.
export APACHE_TLS=""
if [ -n "${TLS_CERT:-}" ] || [ -n "${TLS_KEY:-}" ]; then
    APACHE_TLS="LoadModule socache_shmcb_module /usr/lib/apache2/modules/mod_socache_shmcb.so
LoadModule ssl_module /usr/lib/apache2/modules/mod_ssl.so
SSLEngine on
SSLCertificateFile ${TLS_CERT:?TLS_CERT and TLS_KEY must be set together}
SSLCertificateKeyFile ${TLS_KEY:?TLS_CERT and TLS_KEY must be set together}
SSLProtocol -all +TLSv1.2 +TLSv1.3
SSLSessionCache shmcb:$RUN_DIR/apache/ssl_scache(512000)
Protocols http/1.1"
fi

envsubst '${RUN_DIR} ${HOST} ${PORT} ${APACHE_USER} ${PHP_VERSION} ${PUBLIC_DIR} ${STATIC_DIR} ${APACHE_TLS}' \
    < conf/apache2.conf.template > "$RUN_DIR/apache2.conf"
exec apache2 -d "$RUN_DIR" -f "$RUN_DIR/apache2.conf" -DFOREGROUND
