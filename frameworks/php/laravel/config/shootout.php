<?php

// The benchmark's inputs that are not Laravel settings; read through config() so they survive config:cache.
return [
    'hash_file' => env('HASH_FILE'),
];
