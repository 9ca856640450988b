<?php
// The async workload: PHP has no event loop under php-fpm (or mod_php), so the wait holds this child.
usleep(15000);
header('Content-Type: text/plain');
echo 'Hello, World!';
