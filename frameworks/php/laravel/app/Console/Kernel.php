<?php

namespace App\Console;

use Illuminate\Foundation\Console\Kernel as ConsoleKernel;

// Artisan with the framework's own commands (config:cache, route:cache, migrate); the application
// adds none.
class Kernel extends ConsoleKernel
{
}
