<?php
// The json-comp workload: the array is built and encoded on every request; nginx's gzip filter
// (conf/nginx.conf.template), the production front of php-fpm, compresses it.
$n = filter_var($_GET['n'] ?? null, FILTER_VALIDATE_INT, ['options' => ['min_range' => 1, 'max_range' => 1000]]);
if ($n === false) {
    http_response_code(400);
    header('Content-Type: text/plain');
    echo "n must be an integer from 1 to 1000\n";
    return;
}

$items = [];
for ($i = 1; $i <= $n; $i++) {
    $items[] = ['id' => $i, 'message' => 'Hello, World!'];
}
header('Content-Type: application/json');
echo json_encode($items);
