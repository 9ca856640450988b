<?php

use Monolog\Handler\StreamHandler;

// Errors go to stderr, which php-fpm passes to the server log the harness keeps.
return [
    'default' => 'stderr',
    'channels' => [
        'stderr' => [
            'driver' => 'monolog',
            'level' => 'warning',
            'handler' => StreamHandler::class,
            'with' => ['stream' => 'php://stderr'],
        ],
    ],
];
