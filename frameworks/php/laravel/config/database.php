<?php

return [
    'default' => 'pgsql',

    'connections' => [
        // The harness hands the database over in libpq's variables.
        'pgsql' => [
            'driver' => 'pgsql',
            'host' => env('PGHOST'),
            'port' => env('PGPORT'),
            'database' => env('PGDATABASE'),
            'username' => env('PGUSER'),
            'password' => env('PGPASSWORD'),
            'charset' => 'utf8',
            'prefix' => '',
            'prefix_indexes' => true,
            'schema' => 'public',
            'sslmode' => 'prefer',
            // PHP's connection pooling: each php-fpm worker keeps its connection across requests
            // instead of opening one per request.
            'options' => [PDO::ATTR_PERSISTENT => true],
        ],
    ],

    'migrations' => 'migrations',
];
