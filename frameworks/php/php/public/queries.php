<?php
require __DIR__ . '/../lib/db.php';
require __DIR__ . '/../../common/techempower/count.php';

$count = techempower_count($_GET['queries'] ?? null);
$query = db()->prepare('SELECT id, randomnumber FROM world WHERE id = ?');
$rows = [];
for ($i = 0; $i < $count; $i++) {
    $query->execute([techempower_random_id()]);
    [$id, $randomNumber] = $query->fetch(PDO::FETCH_NUM);
    $rows[] = ['id' => $id, 'randomNumber' => $randomNumber];
}

header('Content-Type: application/json');
echo json_encode($rows);
