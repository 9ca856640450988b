<?php
require __DIR__ . '/../lib/db.php';
require __DIR__ . '/../../common/techempower/fortunes.php';

$fortunes = techempower_fortunes(
    db()->query('SELECT id, message FROM fortune')->fetchAll(PDO::FETCH_KEY_PAIR)
);

header('Content-Type: text/html; charset=utf-8');
// PHP is its own template engine; htmlspecialchars is its escaping (quotes included, UTF-8).
?>
<!DOCTYPE html><html><head><title>Fortunes</title></head><body><table><tr><th>id</th><th>message</th></tr><?php foreach ($fortunes as $id => $message): ?><tr><td><?= $id ?></td><td><?= htmlspecialchars($message, ENT_QUOTES, 'UTF-8') ?></td></tr><?php endforeach ?></table></body></html>
