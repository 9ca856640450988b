<?php
// opcache.preload of symfony-tuned (conf/tuned.d/performance.ini): the file Symfony Flex's recipe puts in
// config/, which loads the list of classes cache:warmup wrote beside the compiled container. The cache
// lives under the run's RUN_DIR (src/Kernel.php); a missing list fails php-fpm's start instead of
// leaving the variant without preloading.
require getenv('RUN_DIR') . '/var/cache/prod/App_KernelProdContainer.preload.php';
