<?php

namespace App\Providers;

use Illuminate\Foundation\Support\Providers\RouteServiceProvider as ServiceProvider;
use Illuminate\Support\Facades\Route;

class RouteServiceProvider extends ServiceProvider
{
    public function boot(): void
    {
        // An item's id is digits; anything else is no route (404), not a query PostgreSQL would refuse.
        Route::pattern('item', '[0-9]+');
        $this->routes(function () {
            // No /api prefix: the paths are the benchmark's.
            Route::middleware('api')->group(base_path('routes/api.php'));
            Route::middleware('web')->group(base_path('routes/web.php'));
        });
    }
}
