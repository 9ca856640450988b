<?php
// upload and upload-chunked: the body through php://input, PHP's raw request-body stream, hashed as it
// is read. Under nginx both framings arrive alike: nginx reads the whole body (413 past
// client_max_body_size) and hands php-fpm a CONTENT_LENGTH; under Apache mod_php reads it from Apache's
// input filters, which enforce LimitRequestBody (conf/apache2.conf.template).
$hash = hash_init('sha256');
$bytes = hash_update_stream($hash, fopen('php://input', 'rb'));
header('Content-Type: text/plain');
echo $bytes, ' ', hash_final($hash);
