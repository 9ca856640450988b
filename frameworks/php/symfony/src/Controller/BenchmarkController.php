<?php

namespace App\Controller;

use App\Entity\World;
use Doctrine\ORM\EntityManagerInterface;
use Symfony\Bundle\FrameworkBundle\Controller\AbstractController;
use Symfony\Component\HttpFoundation\JsonResponse;
use Symfony\Component\HttpFoundation\Request;
use Symfony\Component\HttpFoundation\Response;

class BenchmarkController extends AbstractController
{
    public function plaintext(): Response
    {
        return new Response('Hello, World!', 200, ['Content-Type' => 'text/plain']);
    }

    // The async workload: PHP has no event loop under php-fpm, so the wait holds this child.
    public function async(): Response
    {
        usleep(15000);
        return new Response('Hello, World!', 200, ['Content-Type' => 'text/plain']);
    }

    public function jsonMessage(): JsonResponse
    {
        return $this->json(['message' => 'Hello, World!']);
    }

    public function db(EntityManagerInterface $em): JsonResponse
    {
        $world = $em->find(World::class, random_int(1, 10000));
        return $this->json(['id' => $world->id, 'randomNumber' => $world->randomNumber]);
    }

    // The counter lives in Symfony's session, stored in PostgreSQL by PdoSessionHandler: the row is
    // read with SELECT ... FOR UPDATE when the session starts and written when it is saved.
    public function session(Request $request): Response
    {
        $session = $request->getSession();
        $count = $session->get('count', 0) + 1;
        $session->set('count', $count);
        return new Response("Count is $count", 200, ['Content-Type' => 'text/plain']);
    }

    public function hash(Request $request): Response
    {
        $n = filter_var($request->query->get('n'), FILTER_VALIDATE_INT,
            ['options' => ['min_range' => 1, 'max_range' => 100000]]);
        if ($n === false) {
            return new Response("n must be an integer from 1 to 100000\n", 400, ['Content-Type' => 'text/plain']);
        }
        $digest = hash('sha256', file_get_contents(getenv('HASH_FILE')), true);
        for ($i = 1; $i < $n; $i++) {
            $digest = hash('sha256', $digest, true);
        }
        return new Response(bin2hex($digest), 200, ['Content-Type' => 'text/plain']);
    }

    // Built and encoded on every request; nginx's gzip filter (conf/nginx.conf.template) compresses it, as
    // Symfony leaves compression to the web server.
    public function jsonComp(Request $request): Response
    {
        $n = filter_var($request->query->get('n'), FILTER_VALIDATE_INT,
            ['options' => ['min_range' => 1, 'max_range' => 1000]]);
        if ($n === false) {
            return new Response("n must be an integer from 1 to 1000\n", 400, ['Content-Type' => 'text/plain']);
        }
        $items = [];
        for ($i = 1; $i <= $n; $i++) {
            $items[] = ['id' => $i, 'message' => 'Hello, World!'];
        }
        return $this->json($items);
    }

    // upload and upload-chunked: the raw body by Request::getContent() (php://input). nginx has read all of
    // it, either framing, before php-fpm runs this, and answers 413 itself past client_max_body_size
    // (conf/nginx.conf.template).
    public function upload(Request $request): Response
    {
        $body = $request->getContent();
        return new Response(strlen($body) . ' ' . hash('sha256', $body), 200, ['Content-Type' => 'text/plain']);
    }
}
