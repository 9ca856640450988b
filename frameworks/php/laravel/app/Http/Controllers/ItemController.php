<?php

namespace App\Http\Controllers;

use App\Http\Requests\ItemRequest;
use App\Models\Item;
use Illuminate\Http\JsonResponse;
use Illuminate\Http\Request;
use Illuminate\Http\Response;
use Illuminate\Support\Facades\Validator;

// crud: the items REST API as Laravel's API resource controller (Route::apiResource): Eloquent, route model
// binding (404 for an unknown id), a form request for the body (422).
class ItemController
{
    // No table keyed by int4 holds more rows than this many pages of one, so a later page is past the end
    // either way; held here, the OFFSET stays an integer.
    private const LAST_PAGE = 2 ** 32;

    public function index(Request $request): JsonResponse
    {
        // Laravel's validator, its failure answered 400 rather than the 422 of $request->validate(): a bad
        // page is a bad query, not a body of the wrong shape.
        $validator = Validator::make($request->query(), [
            'page' => ['integer', 'min:1'],
            'size' => ['integer', 'between:1,100'],
        ]);
        if ($validator->fails()) {
            return response()->json(['errors' => $validator->errors()], 400);
        }
        $page = min((int) $request->query('page', 1), self::LAST_PAGE);
        return response()->json(Item::orderBy('id')->forPage($page, (int) $request->query('size', 10))->get());
    }

    public function show(Item $item): JsonResponse
    {
        return response()->json($item);
    }

    public function store(ItemRequest $request): JsonResponse
    {
        $item = Item::create($request->validated());
        return response()->json($item, 201, ['Location' => route('items.show', $item)]);
    }

    public function update(ItemRequest $request, Item $item): JsonResponse
    {
        $item->update($request->validated());
        return response()->json($item);
    }

    public function destroy(Item $item): Response
    {
        $item->delete();
        return response()->noContent();
    }
}
