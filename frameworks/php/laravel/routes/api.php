<?php

use App\Http\Controllers\BenchmarkController;
use Illuminate\Support\Facades\Route;

Route::get('/plaintext', [BenchmarkController::class, 'plaintext']);
Route::get('/json', [BenchmarkController::class, 'json']);
Route::get('/db', [BenchmarkController::class, 'db']);
Route::get('/hash', [BenchmarkController::class, 'hash']);
