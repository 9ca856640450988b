<?php
// crud's rules that are the contract's rather than a framework's (docs/workloads.md, "crud"), for a stack
// whose framework has no validation of its own (slim): the page window, the table's id range and an item
// body's JSON types.

const ITEMS_INT32_MIN = -2147483648;
const ITEMS_INT32_MAX = 2147483647;
// No table keyed by int4 holds more rows than this many pages of one, so a later page is past the end
// either way; held here, the OFFSET stays an integer.
const ITEMS_LAST_PAGE = 4294967296;

// [limit, offset] of ?page=&size= (1 and 10 when left out), or null when either is not an integer, page is
// below 1 or size outside 1..100. A parameter given empty is not an integer.
function items_page_window(mixed $page, mixed $size): ?array
{
    $page = $page === null ? 1 : items_integer($page);
    $size = $size === null ? 10 : items_integer($size);
    if ($page === null || $size === null || $page < 1 || $size < 1 || $size > 100) {
        return null;
    }
    return [$size, (min($page, ITEMS_LAST_PAGE) - 1) * $size];
}

// An id of the table from a path segment, or null when no row can have it (not digits, or past int4).
function items_id(string $raw): ?int
{
    $id = items_integer($raw);
    return $id !== null && $id >= ITEMS_INT32_MIN && $id <= ITEMS_INT32_MAX ? $id : null;
}

// What is wrong with a body json_decode()d to arrays as an item, by member ([] when nothing is): an object
// whose name is a string and whose quantity an integer in 32 bits (a number with a fraction, or past PHP's
// integers, decodes to a float). A JSON array decodes to a list, which has no "name".
function items_errors(mixed $body): array
{
    if (!is_array($body)) {
        return ['body' => 'must be a JSON object'];
    }
    $errors = [];
    if (!is_string($body['name'] ?? null)) {
        $errors['name'] = 'must be a string';
    }
    $quantity = $body['quantity'] ?? null;
    if (!is_int($quantity) || $quantity < ITEMS_INT32_MIN || $quantity > ITEMS_INT32_MAX) {
        $errors['quantity'] = 'must be an integer in 32 bits';
    }
    return $errors;
}

// A decimal integer string as an int (one past PHP's integers saturates, which the callers' limits cover).
function items_integer(mixed $raw): ?int
{
    return is_string($raw) && preg_match('/\A[+-]?[0-9]+\z/', $raw) ? (int) $raw : null;
}
