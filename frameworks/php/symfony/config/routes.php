<?php

use App\Controller\BenchmarkController;
use App\Controller\TechEmpowerController;
use Symfony\Component\Routing\Loader\Configurator\RoutingConfigurator;

return static function (RoutingConfigurator $routes): void {
    $routes->add('plaintext', '/plaintext')->controller([BenchmarkController::class, 'plaintext'])->methods(['GET']);
    $routes->add('async', '/async')->controller([BenchmarkController::class, 'async'])->methods(['GET']);
    $routes->add('json', '/json')->controller([BenchmarkController::class, 'jsonMessage'])->methods(['GET']);
    $routes->add('db', '/db')->controller([BenchmarkController::class, 'db'])->methods(['GET']);
    $routes->add('session', '/session')->controller([BenchmarkController::class, 'session'])->methods(['GET']);
    $routes->add('hash', '/hash')->controller([BenchmarkController::class, 'hash'])->methods(['GET']);
    $routes->add('json_comp', '/json-comp')->controller([BenchmarkController::class, 'jsonComp'])->methods(['GET']);
    $routes->add('upload', '/upload')->controller([BenchmarkController::class, 'upload'])->methods(['POST']);
    $routes->add('queries', '/queries')->controller([TechEmpowerController::class, 'queries'])->methods(['GET']);
    $routes->add('updates', '/updates')->controller([TechEmpowerController::class, 'updates'])->methods(['GET']);
    $routes->add('fortunes', '/fortunes')->controller([TechEmpowerController::class, 'fortunes'])->methods(['GET']);
    $routes->add('cached', '/cached-queries')->controller([TechEmpowerController::class, 'cached'])->methods(['GET']);
};
