<?php
// The front controller of Symfony's skeleton, without symfony/runtime's indirection.
use App\Kernel;
use Symfony\Component\HttpFoundation\Request;

require dirname(__DIR__) . '/autoload.php';

$kernel = new Kernel(getenv('APP_ENV'), (bool) getenv('APP_DEBUG'));
$request = Request::createFromGlobals();
$response = $kernel->handle($request);
$response->send();
$kernel->terminate($request, $response);
