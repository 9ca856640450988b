<?php
// TechEmpower's count rule (docs/workloads.md): missing, empty, not an integer or below 1 is 1;
// above 500 is 500.
function techempower_count(mixed $raw): int
{
    $n = is_string($raw) ? filter_var($raw, FILTER_VALIDATE_INT) : false;
    if ($n === false || $n < 1) {
        return 1;
    }
    return min($n, 500);
}

// Distinct-or-not ids are both allowed; uniform over the seeded world table.
function techempower_random_id(): int
{
    return random_int(1, 10000);
}

// A new randomNumber that differs from the old one, so an ORM that writes only changed attributes
// (Eloquent's save()) still writes every row.
function techempower_new_number(int $old): int
{
    do {
        $new = random_int(1, 10000);
    } while ($new === $old);
    return $new;
}

// $n distinct ids, for an ORM's unit of work: it holds one object per row and writes each changed
// row once, so a repeated id would be read from its identity map and written once, not twice.
function techempower_distinct_random_ids(int $n): array
{
    $ids = [];
    while (count($ids) < $n) {
        $ids[random_int(1, 10000)] = true;
    }
    return array_keys($ids);
}
