<?php

return [
    // APCu through Laravel's apc driver: an in-memory store every php-fpm child of one master shares.
    'default' => 'apc',

    'stores' => [
        'apc' => ['driver' => 'apc'],
    ],

    'prefix' => 'webshootout',
];
