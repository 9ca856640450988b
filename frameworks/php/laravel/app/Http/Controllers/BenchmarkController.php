<?php

namespace App\Http\Controllers;

use App\Models\World;
use Illuminate\Http\JsonResponse;
use Illuminate\Http\Request;
use Illuminate\Http\Response;

class BenchmarkController
{
    public function plaintext(): Response
    {
        return response('Hello, World!')->header('Content-Type', 'text/plain');
    }

    public function json(): JsonResponse
    {
        return response()->json(['message' => 'Hello, World!']);
    }

    public function db(): JsonResponse
    {
        $row = World::findOrFail(random_int(1, 10000));
        return response()->json(['id' => $row->id, 'randomNumber' => $row->randomnumber]);
    }

    public function hash(Request $request): Response
    {
        $n = filter_var($request->query('n'), FILTER_VALIDATE_INT,
            ['options' => ['min_range' => 1, 'max_range' => 100000]]);
        if ($n === false) {
            return response("n must be an integer from 1 to 100000\n", 400)->header('Content-Type', 'text/plain');
        }
        // The path comes from config (env() is not read once the config is cached); the bytes are read
        // from disk on every request.
        $digest = hash('sha256', file_get_contents(config('shootout.hash_file')), true);
        for ($i = 1; $i < $n; $i++) {
            $digest = hash('sha256', $digest, true);
        }
        return response(bin2hex($digest))->header('Content-Type', 'text/plain');
    }

    // Built and encoded on every request; nginx's gzip filter (conf/nginx.conf.template) compresses it, as
    // Laravel leaves compression to the web server.
    public function jsonComp(Request $request): Response|JsonResponse
    {
        $n = filter_var($request->query('n'), FILTER_VALIDATE_INT,
            ['options' => ['min_range' => 1, 'max_range' => 1000]]);
        if ($n === false) {
            return response("n must be an integer from 1 to 1000\n", 400)->header('Content-Type', 'text/plain');
        }
        $items = [];
        for ($i = 1; $i <= $n; $i++) {
            $items[] = ['id' => $i, 'message' => 'Hello, World!'];
        }
        return response()->json($items);
    }

    // upload and upload-chunked: the raw body by the request's getContent() (php://input). nginx has read
    // all of it, either framing, before php-fpm runs this, and answers 413 itself past client_max_body_size
    // (conf/nginx.conf.template); ValidatePostSize would refuse past php.ini's post_max_size.
    public function upload(Request $request): Response
    {
        $body = $request->getContent();
        return response(strlen($body) . ' ' . hash('sha256', $body))->header('Content-Type', 'text/plain');
    }
}
