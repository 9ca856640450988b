<?php
require __DIR__ . '/../lib/db.php';
require __DIR__ . '/../../common/session_counter.php';

// PHP's own session names the visitor (cookie PHPSESSID, strict mode so an unknown id gets a fresh
// one); the counter itself lives in usersessions. The session holds no data, so it is closed at once
// instead of keeping its file locked for the rest of the request.
session_start(['read_and_close' => true]);
$uid = session_id();

$count = session_counter_increment(db(), $uid);

header('Content-Type: text/plain');
echo "Count is $count";
