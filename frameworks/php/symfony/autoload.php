<?php
// Composer's autoloader, as Debian lays it out: each php-symfony-*, php-twig and php-doctrine-*
// package ships its own under /usr/share/php (on PHP's include_path), pulling in its dependencies.
require_once 'Symfony/Bundle/FrameworkBundle/autoload.php';
require_once 'Symfony/Bundle/TwigBundle/autoload.php';
require_once 'Symfony/Component/Console/autoload.php';
require_once 'Doctrine/ORM/autoload.php';

// PSR-4 for the App\ namespace, the mapping a Symfony skeleton's composer.json gives.
spl_autoload_register(function (string $class): void {
    if (str_starts_with($class, 'App\\')) {
        $file = __DIR__ . '/src/' . str_replace('\\', '/', substr($class, 4)) . '.php';
        if (is_file($file)) {
            require $file;
        }
    }
});
