<?php
// The session workload's counter in usersessions (docs/workloads.md), for stacks whose framework has no
// database session store of its own: one transaction with the visitor's row locked, so two concurrent
// requests of one visitor count one after the other. Should a statement throw, PDO rolls the open
// transaction back when the request ends, before the persistent connection serves another one.
function session_counter_increment(PDO $db, string $uid): int
{
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
    return $count;
}
