<?php

namespace App;

use Symfony\Bundle\FrameworkBundle\Kernel\MicroKernelTrait;
use Symfony\Component\DependencyInjection\Loader\Configurator\ContainerConfigurator;
use Symfony\Component\HttpKernel\Kernel as BaseKernel;
use Symfony\Component\Routing\Loader\Configurator\RoutingConfigurator;

class Kernel extends BaseKernel
{
    use MicroKernelTrait;

    public function registerBundles(): iterable
    {
        yield new \Symfony\Bundle\FrameworkBundle\FrameworkBundle();
        yield new \Symfony\Bundle\TwigBundle\TwigBundle();
    }

    // The skeleton's config is YAML; Debian's Symfony does not pull in the YAML component, so the same
    // configuration is written in Symfony's PHP format.
    private function configureContainer(ContainerConfigurator $container): void
    {
        $container->import($this->getProjectDir() . '/config/packages/*.php');
        $container->import($this->getProjectDir() . '/config/services.php');
        // symfony-tuned: the Performance page's container setting (config/tuned/), read when
        // cache:warmup compiles the container.
        if (getenv('SYMFONY_TUNED') === '1') {
            $container->import($this->getProjectDir() . '/config/tuned/*.php');
        }
    }

    private function configureRoutes(RoutingConfigurator $routes): void
    {
        $routes->import($this->getProjectDir() . '/config/routes.php');
    }

    // Symfony finds the project by its composer.json, which a Debian-packaged application has none of.
    public function getProjectDir(): string
    {
        return \dirname(__DIR__);
    }

    // The compiled container, routes, Twig templates and logs go to the run's private directory: the
    // folder stays read-only and two runs never share a cache.
    public function getCacheDir(): string
    {
        return getenv('RUN_DIR') . '/var/cache/' . $this->environment;
    }

    public function getLogDir(): string
    {
        return getenv('RUN_DIR') . '/var/log';
    }
}
