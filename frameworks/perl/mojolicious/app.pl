#!/usr/bin/env perl
# The webshootout workloads on Mojolicious (docs/workloads.md), served by hypnotoad, its production
# preforking server (Mojolicious::Guides::Cookbook, "Hypnotoad"): WORKERS worker processes, each one
# Mojo::IOLoop event loop (EV) serving many connections, PostgreSQL through Mojo::Pg's non-blocking
# queries.
use Mojolicious::Lite -signatures, -async_await;
use Mojo::File qw(curfile);
use lib curfile->dirname->child('lib')->to_string, curfile->dirname->sibling('common')->child('lib')->to_string;

use Digest::SHA qw(sha256_hex);
use Mojo::Cache;
use Mojo::JSON qw(decode_json encode_json);
use Mojo::Pg;
use Mojo::URL;
use PgLimit;
use Shootout::Env qw(env_value db_pool workers);
use Shootout::Hashing qw(parse_n iterated_sha256);
use Shootout::Items qw(json_string json_int32 int32_id item page_window);
use Shootout::JsonComp qw(json_comp_items);
use Shootout::Sessions qw(VISIT_SQL INSERT_SQL new_uid first_data count_of);
use Shootout::TechEmpower qw(count random_id world fortunes_sorted);

my $run_dir = env_value('RUN_DIR');
app->config(hypnotoad => {
    listen   => [listen_url()],
    workers  => workers(),
    pid_file => "$run_dir/hypnotoad.pid",
});
# Warnings and errors only: Mojolicious logs each request at trace/debug level, so no access log.
app->log->level('warn');
app->secrets([env_value('SECRET_KEY')]);
app->static->paths([env_value('STATIC_DIR')]);
# upload's limit: Mojolicious's own request size limit (Mojolicious, "max_request_size"; 16 MiB by default,
# Mojo::Message's max_message_size), 2 MiB of request line, headers and body. Past it the request ends
# with is_limit_exceeded set and the connection is closed after the answer (Mojo::Server::Daemon).
app->max_request_size(2 * 1024 * 1024);
# json-comp's compression is the renderer's own: Mojolicious::Renderer's compress, on by default in 9.31,
# gzips rendered output of min_compress_size (860) bytes or more for requests that accept gzip, at
# IO::Compress::Gzip's default level, and adds Vary: Accept-Encoding. Set here so that it is explicit.
app->renderer->compress(1);

# TLS by Mojo::Server::Daemon itself (IO::Socket::SSL) when the harness gives a certificate.
sub listen_url {
    my $url = Mojo::URL->new->scheme('http')->host(env_value('HOST'))->port(env_value('PORT'));
    my ($cert, $key) = @ENV{qw(TLS_CERT TLS_KEY)};
    return $url->to_string unless $cert || $key;
    die "TLS_CERT and TLS_KEY must be set together\n" unless $cert && $key;
    return $url->scheme('https')->query(cert => $cert, key => $key)->to_string;
}

my $pg = Mojo::Pg->new(env_value('DATABASE_URL'))->max_connections(db_pool());
my $limit = PgLimit->new(pg => $pg, size => db_pool());
helper db => sub ($c, $work) { $limit->run($work) };

# cached's rows: every world row in Mojolicious's own in-memory cache, read once before hypnotoad forks
# its workers (Mojo::Pg drops the handle in each child, so none crosses the fork).
my $world_cache = Mojo::Cache->new(max_keys => 10_000);
$world_cache->set($_->[0] => world(@$_)) for @{$pg->db->query('SELECT id, randomnumber FROM world')->arrays};

my $hash_file = env_value('HASH_FILE');

# Mojo::Pg's query with a callback, resolving to the rows (or, for a statement without columns, the row
# count) instead of a Mojo::Pg::Results. query_p resolves to the Results, which shares the cached
# statement handle and calls finish on it when the last Results of that handle is destroyed: awaited in a
# loop, the previous row's Results is freed only after the next identical query has started on the same
# handle, and its finish discards that query (the request hangs). Here the Results dies inside the callback.
sub query_rows_p ($db, $sql, @args) {
    my $done = Mojo::Promise->new;
    $db->query($sql, @args, sub ($db, $err, $results) {
        return $done->reject($err) if $err;
        $done->resolve($results->sth->{NUM_OF_FIELDS} ? $results->arrays : $results->rows);
    });
    return $done;
}

# Mojo::Pg's SQL::Abstract methods (select, insert, update, delete) with a callback, resolving as
# query_rows_p does, the rows as hashes: their _p forms resolve to a Results, as query_p does.
sub abstract_p ($db, $method, @args) {
    my $done = Mojo::Promise->new;
    $db->$method(@args, sub ($db, $err, $results) {
        return $done->reject($err) if $err;
        $done->resolve($results->sth->{NUM_OF_FIELDS} ? $results->hashes->to_array : $results->rows);
    });
    return $done;
}

async sub read_world ($db, $id) {
    my $rows = await query_rows_p($db, 'SELECT id, randomnumber FROM world WHERE id = ?', $id);
    return world(@{$rows->[0]});
}

get '/plaintext' => sub ($c) { $c->render(text => 'Hello, World!', format => 'txt') };

# The wait is a timer on this worker's Mojo::IOLoop: the action returns its promise and the loop serves
# other connections until the timer fires.
get '/async' => async sub ($c) {
    await Mojo::Promise->timer(0.015);
    $c->render(text => 'Hello, World!', format => 'txt');
};

get '/json' => sub ($c) { $c->render(json => {message => 'Hello, World!'}) };

# Gzipped by the renderer (compress, above) when the request accepts it.
get '/json-comp' => sub ($c) { $c->render(json => json_comp_items($c->param('n'))) };

# The body as Mojolicious has read it (chunked bodies decoded; in memory, or a temporary file past
# max_buffer_size), whole before the action runs. A body over max_request_size arrives cut short with
# is_limit_exceeded set, the check the Tutorial's "File uploads" makes; answered 413 here.
post '/upload' => sub ($c) {
    my $req = $c->req;
    return $c->render(text => 'request too large', format => 'txt', status => 413) if $req->is_limit_exceeded;
    my $body = $req->body;
    $c->render(text => length($body) . ' ' . sha256_hex($body), format => 'txt');
};

get '/db' => async sub ($c) {
    my $row = await $c->db(async sub ($db) { await read_world($db, random_id()) });
    $c->render(json => $row);
};

get '/queries' => async sub ($c) {
    my $n = count($c->param('queries'));
    my $rows = await $c->db(async sub ($db) {
        my @rows;
        for my $i (1 .. $n) { push @rows, await read_world($db, random_id()) }
        return \@rows;
    });
    $c->render(json => $rows);
};

# Each row read by a query of its own, then one autocommitted UPDATE per row, in id order so that
# concurrent requests never wait on each other's rows in a cycle.
get '/updates' => async sub ($c) {
    my $n = count($c->param('queries'));
    my $rows = await $c->db(async sub ($db) {
        my @rows;
        for my $i (1 .. $n) { push @rows, await read_world($db, random_id()) }
        $_->{randomNumber} = random_id() for @rows;
        for my $row (sort { $a->{id} <=> $b->{id} } @rows) {
            await query_rows_p($db, 'UPDATE world SET randomnumber = ? WHERE id = ?', $row->{randomNumber}, $row->{id});
        }
        return \@rows;
    });
    $c->render(json => $rows);
};

# Every fortune by one query; EP's <%= %> escapes the HTML. The template is not named after the route:
# an async action has not rendered when it returns its promise, so Mojolicious first tries the route's
# own name as a template, which would render it before the rows are there.
get '/fortunes' => async sub ($c) {
    my $rows = await $c->db(async sub ($db) { await query_rows_p($db, 'SELECT id, message FROM fortune') });
    my @fortunes = map { {id => $_->[0], message => $_->[1]} } @$rows;
    $c->render('fortune_table', fortunes => fortunes_sorted(\@fortunes));
};

get '/cached-queries' => sub ($c) {
    my $n = count($c->param('count'));
    $c->render(json => [map { $world_cache->get(random_id()) } 1 .. $n]);
};

# The visitor's uid rides in Mojolicious's own session, a cookie signed with SECRET_KEY; the counter
# lives in PostgreSQL (usersessions), as the contract wants. A forged or unknown uid starts at 1.
get '/session' => async sub ($c) {
    my $uid = $c->session('uid');
    my $count = await $c->db(async sub ($db) {
        if (defined $uid) {
            my $rows = await query_rows_p($db, VISIT_SQL, $uid);
            return count_of($rows->[0][0]) if @$rows;
        }
        $uid = new_uid();
        await query_rows_p($db, INSERT_SQL, $uid, first_data());
        return 1;
    });
    $c->session(uid => $uid);
    $c->render(text => "Count is $count", format => 'txt');
};

# The file is read on every request; n up to 100,000 digests runs on the event loop.
get '/hash' => sub ($c) {
    my $n = eval { parse_n($c->param('n')) };
    return $c->render(text => $@, format => 'txt', status => 400) unless defined $n;
    $c->render(text => iterated_sha256($hash_file, $n), format => 'txt');
};

# crud: the items REST API on Mojolicious's router, a route per method; the body checked by Mojolicious's
# validator; the rows through Mojo::Pg's SQL::Abstract methods, each write answered with the row as stored
# (RETURNING), a new id from the table's identity column.
my @item_columns = qw(id name quantity);

# Mojolicious's validator is made for form values, all strings; these checks add JSON's types. A member
# given as an array is refused whole: the validator would check its elements one by one.
app->validator->add_check(json_string => sub ($v, $name, $value, @) { ref $v->input->{$name} || !json_string($value) });
app->validator->add_check(json_int32 => sub ($v, $name, $value, @) { ref $v->input->{$name} || !json_int32($value) });

sub no_item ($c) { $c->render(json => {error => 'no such item'}, status => 404) }

# A POST or PUT body as the item's columns, or undef once the refusal is rendered: 400 when it is not
# JSON, 422 when it is not an object with a string name and a 32-bit integer quantity.
sub item_fields ($c) {
    my $body = eval { decode_json($c->req->body) };
    if ($@) {
        $c->render(json => {error => 'the body is not JSON'}, status => 400);
        return undef;
    }
    my $v = $c->validation->input(ref $body eq 'HASH' ? $body : {});
    $v->required('name')->json_string;
    $v->required('quantity')->json_int32;
    if ($v->has_error) {
        $c->render(json => {errors => $v->failed}, status => 422);
        return undef;
    }
    return {name => $v->param('name'), quantity => $v->param('quantity')};
}

get '/items/:id' => [id => qr/[0-9]+/] => async sub ($c) {
    my $id = int32_id($c->param('id')) // return no_item($c);
    my $rows = await $c->db(sub ($db) { abstract_p($db, select => items => \@item_columns, {id => $id}) });
    return no_item($c) unless @$rows;
    $c->render(json => item($rows->[0]));
} => 'item';

get '/items' => async sub ($c) {
    my $v = $c->validation;
    $v->optional('page')->num(1);
    $v->optional('size')->num(1, 100);
    return $c->render(json => {errors => $v->failed}, status => 400) if $v->has_error;
    my ($limit, $offset) = page_window($v->param('page') // 1, $v->param('size') // 10);
    my $rows = await $c->db(sub ($db) {
        abstract_p($db, select => items => \@item_columns, undef, {order_by => 'id', limit => $limit, offset => $offset});
    });
    $c->render(json => [map { item($_) } @$rows]);
};

post '/items' => async sub ($c) {
    my $fields = item_fields($c) // return;
    my $rows = await $c->db(sub ($db) { abstract_p($db, insert => items => $fields, {returning => \@item_columns}) });
    my $item = item($rows->[0]);
    $c->res->headers->location($c->url_for(item => id => $item->{id})->to_string);
    $c->render(json => $item, status => 201);
};

put '/items/:id' => [id => qr/[0-9]+/] => async sub ($c) {
    my $id = int32_id($c->param('id')) // return no_item($c);
    my $fields = item_fields($c) // return;
    my $rows = await $c->db(sub ($db) {
        abstract_p($db, update => items => $fields, {id => $id}, {returning => \@item_columns});
    });
    return no_item($c) unless @$rows;
    $c->render(json => item($rows->[0]));
};

del '/items/:id' => [id => qr/[0-9]+/] => async sub ($c) {
    my $id = int32_id($c->param('id')) // return no_item($c);
    my $deleted = await $c->db(sub ($db) { abstract_p($db, delete => items => {id => $id}) });
    return no_item($c) unless $deleted > 0;
    $c->rendered(204);
};

# Mojolicious's own WebSocket: each text message is sent back as it came (bytes, no re-encoding).
websocket '/ws' => sub ($c) {
    $c->on(text => sub ($c, $bytes) { $c->send({text => $bytes}) });
};

app->start;
