<?php
// A persistent PDO connection is PHP's documented connection pooling: each php-fpm (or Apache)
// worker process keeps one open PostgreSQL connection across requests.
function db(): PDO
{
    static $pdo = null;
    return $pdo ??= new PDO(
        sprintf('pgsql:host=%s;port=%s;dbname=%s', getenv('PGHOST'), getenv('PGPORT'), getenv('PGDATABASE')),
        getenv('PGUSER'),
        getenv('PGPASSWORD'),
        [PDO::ATTR_PERSISTENT => true, PDO::ATTR_ERRMODE => PDO::ERRMODE_EXCEPTION]
    );
}
