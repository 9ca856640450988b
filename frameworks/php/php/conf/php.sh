# Sourced by the start scripts of php, php-apache and laravel: the PHP version, the run's php.ini and
# the php-fpm pool config, all written into $RUN_DIR.
# Debian installs versioned PHP (php-fpm8.2, libphp8.2.so); the one `php` belongs to is used.
PHP_VERSION=$(php -r 'echo PHP_MAJOR_VERSION, ".", PHP_MINOR_VERSION;')
PHP_CONF=$(dirname "${BASH_SOURCE[0]}")

# Writes $RUN_DIR/php.ini: php.ini-production as Debian ships it, plus conf/php.ini.
write_php_ini() {
    mkdir -p "$RUN_DIR/tmp" "$RUN_DIR/sessions"
    if [ "$(id -u)" = 0 ]; then chown www-data: "$RUN_DIR/tmp" "$RUN_DIR/sessions"; fi
    cat "/usr/lib/php/$PHP_VERSION/php.ini-production" "$PHP_CONF/php.ini" > "$RUN_DIR/php.ini"
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
    # PHP blocks on PostgreSQL: a few children per CPU keep it busy while others wait on a query.
    export FPM_CHILDREN=$((WORKERS * 4))
    # As root, workers drop to www-data like Debian's packaged services; the socket is theirs to share.
    if [ "$(id -u)" = 0 ]; then
        export FPM_USER=$'user = www-data\ngroup = www-data\nlisten.owner = www-data\nlisten.group = www-data\nlisten.mode = 0660'
    else
        export FPM_USER=""
    fi
    envsubst '${RUN_DIR} ${FPM_SOCKET} ${FPM_USER} ${FPM_CHILDREN}' < "$PHP_CONF/php-fpm.conf.template" \
        > "$RUN_DIR/php-fpm.conf"
}

# The nginx `user` line: workers drop root like a packaged nginx; the directive is only valid as root.
nginx_user() {
    if [ "$(id -u)" = 0 ]; then echo "user www-data;"; fi
}
