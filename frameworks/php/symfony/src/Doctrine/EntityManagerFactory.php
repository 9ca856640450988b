<?php

namespace App\Doctrine;

use Doctrine\DBAL\Connection;
use Doctrine\DBAL\DriverManager;
use Doctrine\ORM\EntityManager;
use Doctrine\ORM\EntityManagerInterface;
use Doctrine\ORM\ORMSetup;
use Psr\Cache\CacheItemPoolInterface;

// What DoctrineBundle's doctrine.dbal and doctrine.orm configuration would build.
final class EntityManagerFactory
{
    public static function connection(): Connection
    {
        return DriverManager::getConnection([
            'driver' => 'pdo_pgsql',
            'host' => getenv('PGHOST'),
            'port' => (int) getenv('PGPORT'),
            'dbname' => getenv('PGDATABASE'),
            'user' => getenv('PGUSER'),
            'password' => getenv('PGPASSWORD'),
            // PHP's connection pooling: a php-fpm child keeps its connection across requests.
            'persistent' => true,
        ]);
    }

    // Production settings as Doctrine documents them: metadata and parsed queries cached (Symfony's
    // system cache), proxies never generated at run time.
    public static function entityManager(Connection $connection, string $entityDir, string $proxyDir, CacheItemPoolInterface $cache): EntityManagerInterface
    {
        $config = ORMSetup::createAttributeMetadataConfiguration([$entityDir], false, $proxyDir, $cache);
        return new EntityManager($connection, $config);
    }
}
