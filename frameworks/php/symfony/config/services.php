<?php

use App\Doctrine\EntityManagerFactory;
use Doctrine\DBAL\Connection;
use Doctrine\ORM\EntityManagerInterface;
use Symfony\Component\DependencyInjection\Loader\Configurator\ContainerConfigurator;
use Symfony\Component\HttpFoundation\Session\Storage\Handler\PdoSessionHandler;

use function Symfony\Component\DependencyInjection\Loader\Configurator\service;

return static function (ContainerConfigurator $container): void {
    $services = $container->services()->defaults()->autowire()->autoconfigure();

    $services->load('App\\', '../src/')->exclude(['../src/Entity/', '../src/Kernel.php']);
    $services->load('App\\Controller\\', '../src/Controller/')->tag('controller.service_arguments');

    // DoctrineBundle is not packaged by Debian, so the DBAL connection and the entity manager it would
    // define are defined here (src/Doctrine/EntityManagerFactory.php).
    $services->set(Connection::class)->factory([EntityManagerFactory::class, 'connection']);
    $services->set(EntityManagerInterface::class)
        ->factory([EntityManagerFactory::class, 'entityManager'])
        ->args([service(Connection::class), '%kernel.project_dir%/src/Entity', '%kernel.cache_dir%/doctrine', service('cache.system')]);

    // Sessions share the request's one persistent connection (a php-fpm child holds one). The table is
    // named apart from PdoSessionHandler's default, "sessions", which Laravel's session table also takes in
    // the run's one database, with other columns.
    $services->set('app.session_pdo', PDO::class)
        ->factory([service(Connection::class), 'getNativeConnection']);
    $services->set(PdoSessionHandler::class)->args([service('app.session_pdo'), ['db_table' => 'symfony_sessions']]);
};
