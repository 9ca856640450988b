<?php

namespace App\Http\Controllers;

use Illuminate\Http\Response;

// The counter lives in Laravel's own session (database driver, table `sessions` in PostgreSQL):
// StartSession reads the visitor's row before this runs and writes it back after.
class SessionController
{
    public function __invoke(): Response
    {
        $count = session('count', 0) + 1;
        session(['count' => $count]);
        return response("Count is $count")->header('Content-Type', 'text/plain');
    }
}
