<?php
// Composer's autoloader, as Debian lays it out: each php-symfony-*, php-twig and php-doctrine-*
// package ships its own under /usr/share/php (on PHP's include_path), pulling in its dependencies.
require_once 'Symfony/Bundle/FrameworkBundle/autoload.php';
require_once 'Symfony/Bundle/TwigBundle/autoload.php';
require_once 'Symfony/Component/Console/autoload.php';
require_once 'Doctrine/ORM/autoload.php';

// symfony-tuned: Composer's autoloader, dumped into $RUN_DIR/vendor by start.sh --tuned with
// `composer dump-autoload --no-dev --classmap-authoritative` (composer.json): one class map of App\ and
// the Debian libraries, registered in front of the loaders above, and no file-system lookups for App\.
// The Debian loaders stay for the files they include (polyfills, functions). Symfony's container dumper
// writes the opcache.preload class list only when a Composer ClassLoader maps its classes.
if (getenv('SYMFONY_TUNED') === '1') {
    require getenv('RUN_DIR') . '/vendor/autoload.php';
    return;
}

// PSR-4 for the App\ namespace, the mapping a Symfony skeleton's composer.json gives.
spl_autoload_register(function (string $class): void {
    if (str_starts_with($class, 'App\\')) {
        $file = __DIR__ . '/src/' . str_replace('\\', '/', substr($class, 4)) . '.php';
        if (is_file($file)) {
            require $file;
        }
    }
});
