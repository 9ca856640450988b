<?php

namespace App\Exceptions;

use Illuminate\Foundation\Exceptions\Handler as ExceptionHandler;
use Throwable;

class Handler extends ExceptionHandler
{
    // The items API answers its errors in JSON whatever the client's Accept header says: Laravel answers JSON
    // only to a client that asks for it, and otherwise redirects a failed validation back to a form.
    protected function shouldReturnJson($request, Throwable $e)
    {
        return $request->routeIs('items.*') || parent::shouldReturnJson($request, $e);
    }
}
