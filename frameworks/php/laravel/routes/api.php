<?php

use App\Http\Controllers\BenchmarkController;
use App\Http\Controllers\ItemController;
use App\Http\Controllers\TechEmpowerController;
use Illuminate\Support\Facades\Route;

Route::get('/plaintext', [BenchmarkController::class, 'plaintext']);
Route::get('/json', [BenchmarkController::class, 'json']);
Route::get('/db', [BenchmarkController::class, 'db']);
Route::get('/hash', [BenchmarkController::class, 'hash']);
Route::get('/json-comp', [BenchmarkController::class, 'jsonComp']);
Route::post('/upload', [BenchmarkController::class, 'upload']);
Route::get('/queries', [TechEmpowerController::class, 'queries']);
Route::get('/updates', [TechEmpowerController::class, 'updates']);
Route::get('/fortunes', [TechEmpowerController::class, 'fortunes']);
Route::get('/cached-queries', [TechEmpowerController::class, 'cached']);
// index, store, show, update (PUT and PATCH) and destroy on /items.
Route::apiResource('items', ItemController::class);
