<?php

// A new application's auth setup. No route logs anyone in, but the database session driver asks the
// guard for the user id on every session write, as it does in any Laravel application.
return [
    'defaults' => ['guard' => 'web', 'passwords' => 'users'],
    'guards' => [
        'web' => ['driver' => 'session', 'provider' => 'users'],
    ],
    'providers' => [
        'users' => ['driver' => 'eloquent', 'model' => App\Models\User::class],
    ],
    'passwords' => [],
];
