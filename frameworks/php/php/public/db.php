<?php
require __DIR__ . '/../lib/db.php';

$query = db()->prepare('SELECT id, randomnumber FROM world WHERE id = ?');
$query->execute([random_int(1, 10000)]);
[$id, $randomNumber] = $query->fetch(PDO::FETCH_NUM);

header('Content-Type: application/json');
echo json_encode(['id' => $id, 'randomNumber' => $randomNumber]);
