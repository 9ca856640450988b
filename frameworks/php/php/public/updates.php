<?php
require __DIR__ . '/../lib/db.php';
require __DIR__ . '/../../common/techempower/count.php';

$count = techempower_count($_GET['queries'] ?? null);
$select = db()->prepare('SELECT id, randomnumber FROM world WHERE id = ?');
// One autocommitted UPDATE per row: each locks a single row, so concurrent requests cannot deadlock.
$update = db()->prepare('UPDATE world SET randomnumber = ? WHERE id = ?');
$rows = [];
for ($i = 0; $i < $count; $i++) {
    $select->execute([techempower_random_id()]);
    [$id] = $select->fetch(PDO::FETCH_NUM);
    $rows[] = ['id' => $id, 'randomNumber' => techempower_random_id()];
}
foreach ($rows as $row) {
    $update->execute([$row['randomNumber'], $row['id']]);
}

header('Content-Type: application/json');
echo json_encode($rows);
