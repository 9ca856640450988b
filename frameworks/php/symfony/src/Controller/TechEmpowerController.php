<?php

namespace App\Controller;

use App\Entity\Fortune;
use App\Entity\World;
use Psr\Cache\CacheItemPoolInterface;
use Doctrine\ORM\EntityManagerInterface;
use Symfony\Bundle\FrameworkBundle\Controller\AbstractController;
use Symfony\Component\HttpFoundation\JsonResponse;
use Symfony\Component\HttpFoundation\Request;
use Symfony\Component\HttpFoundation\Response;

// The count clamp, the new-number draw and the fortune sort are shared with the other PHP stacks.
require_once __DIR__ . '/../../../common/techempower/count.php';
require_once __DIR__ . '/../../../common/techempower/fortunes.php';

// TechEmpower's database test types through Doctrine ORM, Twig and Symfony's cache.
class TechEmpowerController extends AbstractController
{
    // $worldCache is the world.cache pool (config/packages/framework.php), autowired by its name.
    public function __construct(private EntityManagerInterface $em, private CacheItemPoolInterface $worldCache)
    {
    }

    public function queries(Request $request): JsonResponse
    {
        $repository = $this->em->getRepository(World::class);
        $rows = [];
        for ($n = techempower_count($request->query->get('queries')); $n > 0; $n--) {
            // findOneBy queries every time; find() would answer a repeated id from the identity map.
            $world = $repository->findOneBy(['id' => techempower_random_id()]);
            $rows[] = ['id' => $world->id, 'randomNumber' => $world->randomNumber];
        }
        return $this->json($rows);
    }

    public function updates(Request $request): JsonResponse
    {
        // flush() writes every changed entity in one transaction, one UPDATE per row, in the order
        // they were loaded: loading by ascending id makes concurrent requests lock rows in the same
        // order, so they cannot deadlock. Distinct ids, since the unit of work writes a row once.
        $ids = techempower_distinct_random_ids(techempower_count($request->query->get('queries')));
        sort($ids);
        $repository = $this->em->getRepository(World::class);
        $worlds = [];
        foreach ($ids as $id) {
            $worlds[] = $repository->findOneBy(['id' => $id]);
        }
        foreach ($worlds as $world) {
            $world->randomNumber = techempower_new_number($world->randomNumber);
        }
        $this->em->flush();
        return $this->json(array_map(fn (World $w) => ['id' => $w->id, 'randomNumber' => $w->randomNumber], $worlds));
    }

    public function fortunes(): Response
    {
        $messages = [];
        foreach ($this->em->getRepository(Fortune::class)->findAll() as $fortune) {
            $messages[$fortune->id] = $fortune->message;
        }
        $response = $this->render('fortunes.html.twig', ['fortunes' => techempower_fortunes($messages)]);
        $response->headers->set('Content-Type', 'text/html; charset=utf-8');
        return $response;
    }

    // One APCu key per row, filled from world on the first miss.
    public function cached(Request $request): JsonResponse
    {
        $ids = [];
        for ($n = techempower_count($request->query->get('count')); $n > 0; $n--) {
            $ids[] = techempower_random_id();
        }
        $numbers = [];
        $missing = false;
        foreach ($this->worldCache->getItems(array_map(fn (int $id) => "world.$id", $ids)) as $key => $item) {
            $missing = $missing || !$item->isHit();
            $numbers[$key] = $item->get();
        }
        if ($missing) {
            foreach ($this->em->getRepository(World::class)->findAll() as $world) {
                $item = $this->worldCache->getItem("world.$world->id")->set($world->randomNumber);
                $this->worldCache->saveDeferred($item);
                $numbers["world.$world->id"] = $world->randomNumber;
            }
            $this->worldCache->commit();
        }
        return $this->json(array_map(fn (int $id) => ['id' => $id, 'randomNumber' => $numbers["world.$id"]], $ids));
    }
}
