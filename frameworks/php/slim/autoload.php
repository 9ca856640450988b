<?php
// Composer's autoloaders, as Debian lays them out under /usr/share/php (on PHP's include_path): Slim's
// pulls in FastRoute, Pimple and the PSR interfaces.
require_once 'Slim/autoload.php';
require_once 'Twig/autoload.php';
