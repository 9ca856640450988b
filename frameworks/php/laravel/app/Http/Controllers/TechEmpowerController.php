<?php

namespace App\Http\Controllers;

use App\Models\Fortune;
use App\Models\World;
use Illuminate\Http\JsonResponse;
use Illuminate\Http\Request;
use Illuminate\Http\Response;
use Illuminate\Support\Facades\Cache;

// The count clamp, the new-number draw and the fortune sort are shared with the plain php stack.
require_once __DIR__ . '/../../../../common/techempower/count.php';
require_once __DIR__ . '/../../../../common/techempower/fortunes.php';

// TechEmpower's database test types through Eloquent, Blade and Laravel's cache.
class TechEmpowerController
{
    public function queries(Request $request): JsonResponse
    {
        $rows = [];
        for ($n = techempower_count($request->query('queries')); $n > 0; $n--) {
            $world = World::find(techempower_random_id());
            $rows[] = ['id' => $world->id, 'randomNumber' => $world->randomnumber];
        }
        return response()->json($rows);
    }

    public function updates(Request $request): JsonResponse
    {
        $worlds = [];
        for ($n = techempower_count($request->query('queries')); $n > 0; $n--) {
            $worlds[] = World::find(techempower_random_id());
        }
        $rows = [];
        // save() autocommits one UPDATE per row; each locks one row, so requests cannot deadlock.
        foreach ($worlds as $world) {
            $world->randomnumber = techempower_new_number($world->randomnumber);
            $world->save();
            $rows[] = ['id' => $world->id, 'randomNumber' => $world->randomnumber];
        }
        return response()->json($rows);
    }

    public function fortunes(): Response
    {
        $fortunes = techempower_fortunes(Fortune::all()->pluck('message', 'id')->all());
        return response()->view('fortunes', ['fortunes' => $fortunes])
            ->header('Content-Type', 'text/html; charset=utf-8');
    }

    public function cached(Request $request): JsonResponse
    {
        $ids = [];
        for ($n = techempower_count($request->query('count')); $n > 0; $n--) {
            $ids[] = techempower_random_id();
        }
        // The apc store (config/cache.php): one key per row in APCu, which php-fpm's children share.
        $numbers = Cache::many(array_map(fn (int $id) => "world.$id", $ids));
        if (in_array(null, $numbers, true)) {
            $numbers = World::all()->mapWithKeys(fn (World $w) => ["world.$w->id" => $w->randomnumber])->all();
            Cache::putMany($numbers);
        }
        return response()->json(array_map(fn (int $id) => ['id' => $id, 'randomNumber' => $numbers["world.$id"]], $ids));
    }
}
