<?php
header('Content-Type: text/plain');

$n = filter_var($_GET['n'] ?? null, FILTER_VALIDATE_INT, ['options' => ['min_range' => 1, 'max_range' => 100000]]);
if ($n === false) {
    http_response_code(400);
    echo "n must be an integer from 1 to 100000\n";
    return;
}

$digest = hash('sha256', file_get_contents(getenv('HASH_FILE')), true);
for ($i = 1; $i < $n; $i++) {
    $digest = hash('sha256', $digest, true);
}
echo bin2hex($digest);
