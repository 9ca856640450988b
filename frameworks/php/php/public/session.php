<?php
require __DIR__ . '/../lib/db.php';

// PHP's own session names the visitor (cookie PHPSESSID, strict mode so an unknown id gets a fresh
// one); the counter itself lives in usersessions. The session holds no data, so it is closed at once
// instead of keeping its file locked for the rest of the request.
session_start(['read_and_close' => true]);
$uid = session_id();

// One transaction with the row locked, so two concurrent requests of one visitor count one after the
// other. Should a statement throw, PDO rolls the open transaction back when the request ends, before
// the persistent connection serves another one.
$db = db();
$db->beginTransaction();
$read = $db->prepare('SELECT data FROM usersessions WHERE uid = ? FOR UPDATE');
$read->execute([$uid]);
$data = $read->fetchColumn();

if ($data === false) {
    $count = 1;
    $write = $db->prepare('INSERT INTO usersessions (uid, data) VALUES (?, ?)');
} else {
    $count = json_decode($data, true)['count'] + 1;
    $write = $db->prepare('UPDATE usersessions SET data = ? WHERE uid = ?');
}
$json = json_encode(['count' => $count]);
$write->execute($data === false ? [$uid, $json] : [$json, $uid]);
$db->commit();

header('Content-Type: text/plain');
echo "Count is $count";
