<?php
// Run by start.sh before php-fpm starts: dispatching one request makes FastRoute write the route cache
// file, so php-fpm's children only read it (none of them writes it while another reads).
use Slim\Http\Environment;
use Slim\Http\Request;

$app = require __DIR__ . '/app.php';
$app->getContainer()->get('router')->dispatch(Request::createFromEnvironment(Environment::mock(['REQUEST_URI' => '/plaintext'])));
