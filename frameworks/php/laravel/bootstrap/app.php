<?php

$app = new Illuminate\Foundation\Application(dirname(__DIR__));

// Everything the application writes at run time (compiled views, logs) goes to the run's private
// directory, so two servers started from this folder never share a file.
if ($runDir = getenv('RUN_DIR')) {
    $app->useStoragePath($runDir . '/storage');
}

$app->singleton(Illuminate\Contracts\Http\Kernel::class, App\Http\Kernel::class);
$app->singleton(Illuminate\Contracts\Console\Kernel::class, App\Console\Kernel::class);
$app->singleton(Illuminate\Contracts\Debug\ExceptionHandler::class, App\Exceptions\Handler::class);

return $app;
