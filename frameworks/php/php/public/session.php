<?php
require __DIR__ . '/../lib/db.php';

// PHP's own session names the visitor (cookie PHPSESSID, strict mode so an unknown id gets a fresh
// one); the counter itself lives in usersessions. The session holds no data, so it is closed at once
// instead of keeping its file locked for the rest of the request.
session_start(['read_and_close' => true]);
$uid = session_id();

$db = db();
$read = $db->prepare('SELECT data FROM usersessions WHERE uid = ?');
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

header('Content-Type: text/plain');
echo "Count is $count";
