<?php
// Composer's autoloader, as Debian lays it out: Debian's php-laravel-framework ships one for Laravel and
// its dependencies (Symfony, Carbon, Monolog, ...) under /usr/share/php, which is on PHP's include_path.
require_once 'Illuminate/autoload.php';

// PSR-4 for the App\ namespace, the mapping composer.json gives a Laravel application.
spl_autoload_register(function (string $class): void {
    if (str_starts_with($class, 'App\\')) {
        $file = __DIR__ . '/../app/' . str_replace('\\', '/', substr($class, 4)) . '.php';
        if (is_file($file)) {
            require $file;
        }
    }
});
