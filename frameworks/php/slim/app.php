<?php
// The Slim application: settings, the container's services and the routes (routes.php).
use Slim\App;
use Slim\Container;
use Twig\Environment;
use Twig\Loader\FilesystemLoader;

require __DIR__ . '/autoload.php';

$container = new Container(['settings' => [
    // Slim's production settings: errors answered without details, FastRoute's dispatch data cached
    // in a file (built by cache-routes.php before php-fpm starts).
    'displayErrorDetails' => false,
    'routerCacheFile' => getenv('RUN_DIR') . '/cache/routes.php',
]]);

// A persistent PDO connection is PHP's connection pooling: a php-fpm child keeps one across requests.
$container['db'] = fn () => new PDO(
    sprintf('pgsql:host=%s;port=%s;dbname=%s', getenv('PGHOST'), getenv('PGPORT'), getenv('PGDATABASE')),
    getenv('PGUSER'),
    getenv('PGPASSWORD'),
    [PDO::ATTR_PERSISTENT => true, PDO::ATTR_ERRMODE => PDO::ERRMODE_EXCEPTION]
);

// Twig, what Slim's slim/twig-view wraps (that package is not in Debian): HTML autoescaping on, the
// compiled templates under the run's directory, never recompiled while the server runs.
$container['view'] = fn () => new Environment(new FilesystemLoader(__DIR__ . '/templates'), [
    'cache' => getenv('RUN_DIR') . '/cache/twig',
    'auto_reload' => false,
]);

$app = new App($container);
require __DIR__ . '/routes.php';
return $app;
