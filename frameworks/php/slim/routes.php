<?php
// Route callables in Slim 3's form: ($request, $response, $args), with $this the container.
use Slim\Http\Request;
use Slim\Http\Response;

require_once __DIR__ . '/../common/session_counter.php';
require_once __DIR__ . '/../common/techempower/count.php';
require_once __DIR__ . '/../common/techempower/fortunes.php';
require_once __DIR__ . '/../common/techempower/world_cache.php';

$app->get('/plaintext', function (Request $request, Response $response) {
    return $response->withHeader('Content-Type', 'text/plain; charset=utf-8')->write('Hello, World!');
});

// The async workload: PHP has no event loop under php-fpm, so the wait holds this child.
$app->get('/async', function (Request $request, Response $response) {
    usleep(15000);
    return $response->withHeader('Content-Type', 'text/plain; charset=utf-8')->write('Hello, World!');
});

$app->get('/json', function (Request $request, Response $response) {
    return $response->withJson(['message' => 'Hello, World!']);
});

$app->get('/db', function (Request $request, Response $response) {
    $query = $this->db->prepare('SELECT id, randomnumber FROM world WHERE id = ?');
    $query->execute([random_int(1, 10000)]);
    [$id, $randomNumber] = $query->fetch(PDO::FETCH_NUM);
    return $response->withJson(['id' => $id, 'randomNumber' => $randomNumber]);
});

// Slim has no session of its own: PHP's session names the visitor (cookie PHPSESSID, strict mode) and
// the counter lives in usersessions. The session holds no data, so it is closed at once.
$app->get('/session', function (Request $request, Response $response) {
    session_start(['read_and_close' => true]);
    $count = session_counter_increment($this->db, session_id());
    return $response->withHeader('Content-Type', 'text/plain; charset=utf-8')->write("Count is $count");
});

$app->get('/hash', function (Request $request, Response $response) {
    $response = $response->withHeader('Content-Type', 'text/plain; charset=utf-8');
    $n = filter_var($request->getQueryParam('n'), FILTER_VALIDATE_INT,
        ['options' => ['min_range' => 1, 'max_range' => 100000]]);
    if ($n === false) {
        return $response->withStatus(400)->write("n must be an integer from 1 to 100000\n");
    }
    $digest = hash('sha256', file_get_contents(getenv('HASH_FILE')), true);
    for ($i = 1; $i < $n; $i++) {
        $digest = hash('sha256', $digest, true);
    }
    return $response->write(bin2hex($digest));
});

// Built and encoded on every request; nginx's gzip filter (conf/nginx.conf.template) compresses it, as
// Slim leaves compression to the web server.
$app->get('/json-comp', function (Request $request, Response $response) {
    $n = filter_var($request->getQueryParam('n'), FILTER_VALIDATE_INT,
        ['options' => ['min_range' => 1, 'max_range' => 1000]]);
    if ($n === false) {
        return $response->withStatus(400)->withHeader('Content-Type', 'text/plain; charset=utf-8')
            ->write("n must be an integer from 1 to 1000\n");
    }
    $items = [];
    for ($i = 1; $i <= $n; $i++) {
        $items[] = ['id' => $i, 'message' => 'Hello, World!'];
    }
    return $response->withJson($items);
});

// upload and upload-chunked: the body as Slim's PSR-7 request gives it (php://input, copied into a
// php://temp stream). nginx has read all of it, either framing, before php-fpm runs this, and answers 413
// itself past client_max_body_size (conf/nginx.conf.template).
$app->post('/upload', function (Request $request, Response $response) {
    $body = (string) $request->getBody();
    return $response->withHeader('Content-Type', 'text/plain; charset=utf-8')
        ->write(strlen($body) . ' ' . hash('sha256', $body));
});

// TechEmpower's database test types, with PDO's prepared statements.
$app->get('/queries', function (Request $request, Response $response) {
    $query = $this->db->prepare('SELECT id, randomnumber FROM world WHERE id = ?');
    $rows = [];
    for ($n = techempower_count($request->getQueryParam('queries')); $n > 0; $n--) {
        $query->execute([techempower_random_id()]);
        [$id, $randomNumber] = $query->fetch(PDO::FETCH_NUM);
        $rows[] = ['id' => $id, 'randomNumber' => $randomNumber];
    }
    return $response->withJson($rows);
});

$app->get('/updates', function (Request $request, Response $response) {
    $select = $this->db->prepare('SELECT id, randomnumber FROM world WHERE id = ?');
    // One autocommitted UPDATE per row: each locks a single row, so concurrent requests cannot deadlock.
    $update = $this->db->prepare('UPDATE world SET randomnumber = ? WHERE id = ?');
    $rows = [];
    for ($n = techempower_count($request->getQueryParam('queries')); $n > 0; $n--) {
        $select->execute([techempower_random_id()]);
        [$id, $old] = $select->fetch(PDO::FETCH_NUM);
        $rows[] = ['id' => $id, 'randomNumber' => techempower_new_number($old)];
    }
    foreach ($rows as $row) {
        $update->execute([$row['randomNumber'], $row['id']]);
    }
    return $response->withJson($rows);
});

$app->get('/fortunes', function (Request $request, Response $response) {
    $fortunes = techempower_fortunes($this->db->query('SELECT id, message FROM fortune')->fetchAll(PDO::FETCH_KEY_PAIR));
    return $response->withHeader('Content-Type', 'text/html; charset=utf-8')
        ->write($this->view->render('fortunes.twig', ['fortunes' => $fortunes]));
});

// From APCu (shared by php-fpm's children), filled from world on the first miss.
$app->get('/cached-queries', function (Request $request, Response $response) {
    $rows = [];
    for ($n = techempower_count($request->getQueryParam('count')); $n > 0; $n--) {
        $id = techempower_random_id();
        $rows[] = ['id' => $id, 'randomNumber' => world_cache_get($this->db, $id)];
    }
    return $response->withJson($rows);
});

// crud: the items REST API on Slim's per-method routes, PDO prepared statements on the child's persistent
// connection, each write answered with the row as stored (RETURNING). Slim has no validation of its own:
// the body is json_decode()d here and checked by ../common/items.php.
require_once __DIR__ . '/../common/items.php';

$noItem = fn (Response $response) => $response->withJson(['error' => 'no such item'], 404);

// A POST or PUT body as the item's columns, or the refusal: 400 when it is not JSON, 422 when it is not an
// object with a string name and a 32-bit integer quantity.
$itemFields = function (Request $request, Response $response): array|Response {
    try {
        $body = json_decode((string) $request->getBody(), true, 512, JSON_THROW_ON_ERROR);
    } catch (JsonException $e) {
        return $response->withJson(['error' => 'the body is not JSON: ' . $e->getMessage()], 400);
    }
    $errors = items_errors($body);
    if ($errors) {
        return $response->withJson(['errors' => $errors], 422);
    }
    return [$body['name'], $body['quantity']];
};

$app->get('/items/{id:[0-9]+}', function (Request $request, Response $response, array $args) use ($noItem) {
    $id = items_id($args['id']);
    if ($id === null) {
        return $noItem($response);
    }
    $query = $this->db->prepare('SELECT id, name, quantity FROM items WHERE id = ?');
    $query->execute([$id]);
    $item = $query->fetch(PDO::FETCH_ASSOC);
    return $item ? $response->withJson($item) : $noItem($response);
})->setName('item');

$app->get('/items', function (Request $request, Response $response) {
    $window = items_page_window($request->getQueryParam('page'), $request->getQueryParam('size'));
    if ($window === null) {
        return $response->withJson(['error' => 'page must be an integer from 1, size one from 1 to 100'], 400);
    }
    $query = $this->db->prepare('SELECT id, name, quantity FROM items ORDER BY id LIMIT ? OFFSET ?');
    $query->execute($window);
    return $response->withJson($query->fetchAll(PDO::FETCH_ASSOC));
});

$app->post('/items', function (Request $request, Response $response) use ($itemFields) {
    $fields = $itemFields($request, $response);
    if ($fields instanceof Response) {
        return $fields;
    }
    $query = $this->db->prepare('INSERT INTO items (name, quantity) VALUES (?, ?) RETURNING id, name, quantity');
    $query->execute($fields);
    $item = $query->fetch(PDO::FETCH_ASSOC);
    return $response->withJson($item, 201)
        ->withHeader('Location', $this->router->pathFor('item', ['id' => $item['id']]));
});

$app->put('/items/{id:[0-9]+}', function (Request $request, Response $response, array $args) use ($noItem, $itemFields) {
    $id = items_id($args['id']);
    if ($id === null) {
        return $noItem($response);
    }
    $fields = $itemFields($request, $response);
    if ($fields instanceof Response) {
        return $fields;
    }
    $query = $this->db->prepare('UPDATE items SET name = ?, quantity = ? WHERE id = ? RETURNING id, name, quantity');
    $query->execute([...$fields, $id]);
    $item = $query->fetch(PDO::FETCH_ASSOC);
    return $item ? $response->withJson($item) : $noItem($response);
});

$app->delete('/items/{id:[0-9]+}', function (Request $request, Response $response, array $args) use ($noItem) {
    $id = items_id($args['id']);
    if ($id === null) {
        return $noItem($response);
    }
    $query = $this->db->prepare('DELETE FROM items WHERE id = ?');
    $query->execute([$id]);
    return $query->rowCount() > 0 ? $response->withStatus(204) : $noItem($response);
});
