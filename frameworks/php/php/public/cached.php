<?php
require __DIR__ . '/../lib/db.php';
require __DIR__ . '/../../common/techempower/count.php';
require __DIR__ . '/../../common/techempower/world_cache.php';

$count = techempower_count($_GET['count'] ?? null);
$rows = [];
for ($i = 0; $i < $count; $i++) {
    $id = techempower_random_id();
    $rows[] = ['id' => $id, 'randomNumber' => world_cache_get(db(), $id)];
}

header('Content-Type: application/json');
echo json_encode($rows);
