<?php

use Symfony\Component\DependencyInjection\Loader\Configurator\ContainerConfigurator;
use Symfony\Component\HttpFoundation\Session\Storage\Handler\PdoSessionHandler;

return static function (ContainerConfigurator $container): void {
    $container->extension('framework', [
        'secret' => '%env(SECRET_KEY)%',
        'http_method_override' => false,
        // Symfony's session in PostgreSQL through PdoSessionHandler (config/services.php).
        'session' => [
            'handler_id' => PdoSessionHandler::class,
            'cookie_secure' => 'auto',
            'cookie_samesite' => 'lax',
            'storage_factory_id' => 'session.storage.factory.native',
        ],
        'php_errors' => ['log' => true],
        'router' => ['utf8' => true, 'strict_requirements' => null],
        'cache' => [
            // TechEmpower's cached type: world rows in APCu, which php-fpm's children share.
            'pools' => ['world.cache' => ['adapter' => 'cache.adapter.apcu']],
        ],
    ]);
};
