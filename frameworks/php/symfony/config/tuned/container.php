<?php
// symfony-tuned only (src/Kernel.php imports this folder when SYMFONY_TUNED=1). Symfony 5.4's
// Performance page, "Dump the Service Container into a Single File": "Set this parameter to true to
// compile the entire container into a single file, which could improve performance when using
// 'class preloading' in PHP 7.4 or newer versions".

use Symfony\Component\DependencyInjection\Loader\Configurator\ContainerConfigurator;

return static function (ContainerConfigurator $container): void {
    $container->parameters()->set('container.dumper.inline_factories', true);
};
