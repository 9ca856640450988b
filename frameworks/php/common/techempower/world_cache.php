<?php
// The world rows in APCu, PHP's shared in-memory cache: php-fpm children share no PHP memory, but
// APCu's segment belongs to the master, so every child reads the one copy. One key per row keeps a
// fetch to one row; a miss loads the whole table once (a few children may race to do it at start).
function world_cache_get(PDO $pdo, int $id): int
{
    $number = apcu_fetch("world:$id");
    if ($number === false) {
        $all = [];
        foreach ($pdo->query('SELECT id, randomnumber FROM world') as [$rowId, $randomNumber]) {
            $all["world:$rowId"] = $randomNumber;
        }
        apcu_store($all);
        $number = $all["world:$id"];
    }
    return $number;
}
