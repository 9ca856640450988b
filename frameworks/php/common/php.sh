# Sourced by the start scripts of php, php-apache and laravel: the PHP version, and the functions that
# render the run's php.ini, php-fpm pool and nginx config into $RUN_DIR and start the servers.
# Debian installs versioned PHP (php-fpm8.2, libphp8.2.so); the one `php` belongs to is used.
PHP_VERSION=$(php -r 'echo PHP_MAJOR_VERSION, ".", PHP_MINOR_VERSION;')
PHP_COMMON=$(dirname "${BASH_SOURCE[0]}")

# Writes $RUN_DIR/php.ini: php.ini-production as Debian ships it, plus this folder's php.ini.
write_php_ini() {
    mkdir -p "$RUN_DIR/tmp" "$RUN_DIR/sessions"
    if [ "$(id -u)" = 0 ]; then chown www-data: "$RUN_DIR/tmp" "$RUN_DIR/sessions"; fi
    cat "/usr/lib/php/$PHP_VERSION/php.ini-production" "$PHP_COMMON/php.ini" > "$RUN_DIR/php.ini"
}

# Writes $RUN_DIR/php-fpm.conf and sets FPM_SOCKET, the unix socket nginx passes requests to.
write_fpm_conf() {
    export FPM_SOCKET="$RUN_DIR/php-fpm.sock"
    # sun_path holds 108 bytes; a longer path would fail later with a vaguer error from php-fpm.
    if [ ${#FPM_SOCKET} -gt 107 ]; then
        echo "php-fpm socket path $FPM_SOCKET is ${#FPM_SOCKET} bytes, over the 107 a unix socket allows:" \
             "use a shorter --out directory" >&2
        exit 1
    fi
    if ! [[ "${DB_POOL:-}" =~ ^[1-9][0-9]*$ && "${WORKERS:-}" =~ ^[1-9][0-9]*$ ]]; then
        echo "php.sh: WORKERS='${WORKERS:-}' and DB_POOL='${DB_POOL:-}' must both be positive integers" >&2
        exit 1
    fi
    # A child serves one request at a time and keeps one persistent PostgreSQL connection, so the
    # children are sized like a pool: WORKERS x DB_POOL of them hold the connections the fairness rule
    # gives WORKERS processes of DB_POOL each (docs/fairness.md), and keep the CPU busy while some wait
    # on a query.
    export FPM_CHILDREN=$((WORKERS * DB_POOL))
    # As root, workers drop to www-data like Debian's packaged services; the socket is theirs to share.
    if [ "$(id -u)" = 0 ]; then
        export FPM_USER=$'user = www-data\ngroup = www-data\nlisten.owner = www-data\nlisten.group = www-data\nlisten.mode = 0660'
    else
        export FPM_USER=""
    fi
    envsubst '${RUN_DIR} ${FPM_SOCKET} ${FPM_USER} ${FPM_CHILDREN}' < "$PHP_COMMON/php-fpm.conf.template" \
        > "$RUN_DIR/php-fpm.conf"
}

# Usage: serve_nginx_and_fpm TEMPLATE PUBLIC_DIR. Renders the nginx config template (PUBLIC_DIR is its
# document root) into $RUN_DIR, then runs nginx and php-fpm in the foreground in this process group;
# call write_php_ini and write_fpm_conf first.
serve_nginx_and_fpm() {
    local template=$1
    export NGINX_USER PUBLIC_DIR=$2
    # The `user` directive is only valid as root: workers then drop root like a packaged nginx.
    if [ "$(id -u)" = 0 ]; then NGINX_USER="user www-data;"; else NGINX_USER=""; fi
    # TLS on PORT when the harness gives a certificate, by nginx's ssl module as the stacks' deployment guides
    # set it up. HTTP/1.1 only: a connection's HTTP/2 streams would be only as concurrent as the php-fpm pool
    # (the manifests' [transport] notes say why none claims h2).
    export TLS_LISTEN="" TLS_CONFIG=""
    if [ -n "${TLS_CERT:-}" ] || [ -n "${TLS_KEY:-}" ]; then
        TLS_LISTEN=" ssl"
        TLS_CONFIG="        ssl_certificate ${TLS_CERT:?TLS_CERT and TLS_KEY must be set together};
        ssl_certificate_key ${TLS_KEY:?TLS_CERT and TLS_KEY must be set together};
        ssl_protocols TLSv1.2 TLSv1.3;
        ssl_session_cache shared:SSL:10m;"
    fi
    envsubst '${NGINX_USER} ${WORKERS} ${RUN_DIR} ${HOST} ${PORT} ${PUBLIC_DIR} ${STATIC_DIR} ${FPM_SOCKET} ${TLS_LISTEN} ${TLS_CONFIG}' \
        < "$template" > "$RUN_DIR/nginx.conf"
    # -p and -e keep nginx from touching its compiled-in prefix and /var/log/nginx before it reads the
    # config. nginx runs in the background, where a bad config would only show as a server that never
    # gets ready: test it first so the start fails at once with nginx's message.
    nginx -t -q -p "$RUN_DIR" -e stderr -c "$RUN_DIR/nginx.conf"
    nginx -p "$RUN_DIR" -e stderr -c "$RUN_DIR/nginx.conf" -g 'daemon off;' &
    # php-fpm calls setsid() even in the foreground; as the leader of this process group (exec) that
    # call fails, so php-fpm stays in the group the harness stops.
    exec "php-fpm$PHP_VERSION" -F -c "$RUN_DIR/php.ini" -y "$RUN_DIR/php-fpm.conf"
}
