# The webshootout workloads as a plain PSGI app (docs/workloads.md): Plack's request and builder,
# Router::Simple for dispatch, JSON::XS, Text::Xslate for fortunes, DBI with DBD::Pg. Served by
# Starman behind nginx (../common/starman.sh), the app preloaded in Starman's master.
use strict;
use warnings;
use Digest::SHA qw(sha256_hex);
use Encode qw(encode_utf8);
use File::Basename qw(dirname);
use File::Spec;
use JSON::XS ();
use Plack::App::File;
use Plack::Builder;
use Plack::Request;
use Router::Simple;
use Text::Xslate;
use Shootout::DBIQueries qw(dbi_connect read_world random_worlds updated_worlds fortunes all_worlds);
use Shootout::Env qw(env_value);
use Shootout::Hashing qw(parse_n iterated_sha256);
use Shootout::JsonComp qw(json_comp_items);
use Shootout::ServerHeader qw(with_server_header);
use Shootout::Sessions qw(visit_dbi);
use Shootout::TechEmpower qw(count random_id world);

my $here = dirname(File::Spec->rel2abs(__FILE__));
my $hash_file = env_value('HASH_FILE');
my $json = JSON::XS->new->utf8;

# Compiled templates cached under RUN_DIR (the folder is read-only to the server); cache => 2 skips the
# freshness check, Xslate's production setting. Loaded once here, before the fork.
my $xslate = Text::Xslate->new(
    path      => ["$here/templates"],
    cache_dir => env_value('RUN_DIR') . '/xslate',
    cache     => 2,
);
$xslate->load_file('fortunes.tx');

# One connection per worker, opened on its first database request and kept: a Starman worker serves one
# request at a time. The pid check keeps a handle from crossing a fork.
my ($dbh, $dbh_pid) = (undef, 0);
sub dbh {
    ($dbh, $dbh_pid) = (dbi_connect(), $$) unless $dbh && $dbh_pid == $$;
    return $dbh;
}

# cached's rows, read in the master on a connection closed again before Starman forks.
my %world_cache = do {
    my $master = dbi_connect();
    my %rows = map { $_->[0] => world(@$_) } @{all_worlds($master)};
    $master->disconnect;
    %rows;
};

sub text {
    my ($body, $status) = @_;
    return [$status // 200, ['Content-Type' => 'text/plain; charset=utf-8'], [$body]];
}

sub json {
    my ($value) = @_;
    return [200, ['Content-Type' => 'application/json'], [$json->encode($value)]];
}

my %actions = (
    plaintext => sub { text('Hello, World!') },
    json      => sub { json({message => 'Hello, World!'}) },
    json_comp => sub { json(json_comp_items($_[0]->query_parameters->get('n'))) },
    db        => sub { json(read_world(dbh(), random_id())) },
    queries   => sub { json(random_worlds(dbh(), count($_[0]->query_parameters->get('queries')))) },
    updates   => sub { json(updated_worlds(dbh(), count($_[0]->query_parameters->get('queries')))) },
    cached    => sub {
        my $n = count($_[0]->query_parameters->get('count'));
        json([map { $world_cache{random_id()} } 1 .. $n]);
    },
    fortunes => sub {
        my $html = $xslate->render('fortunes.tx', {fortunes => fortunes(dbh())});
        [200, ['Content-Type' => 'text/html; charset=utf-8'], [encode_utf8($html)]];
    },
    # A random uid in a plain cookie (Plack has no session store in PostgreSQL); the counter lives in
    # usersessions, read and written on every visit.
    session => sub {
        my ($req) = @_;
        my ($uid, $visits, $new) = visit_dbi(dbh(), $req->cookies->{uid});
        my $res = text("Count is $visits");
        push @{$res->[1]}, 'Set-Cookie' => "uid=$uid; Path=/; HttpOnly; SameSite=Lax" if $new;
        return $res;
    },
    hash => sub {
        my $n = eval { parse_n($_[0]->query_parameters->get('n')) };
        return text($@, 400) unless defined $n;
        return text(iterated_sha256($hash_file, $n));
    },
    # Plack::Request's content: psgi.input read to its end. nginx in front has read the body whole (chunked
    # or not), refused it past client_max_body_size 2m (../common/nginx.conf.template) and passes it on
    # with a Content-Length.
    upload => sub {
        my $body = $_[0]->content;
        return text(length($body) . ' ' . sha256_hex($body));
    },
);

my $router = Router::Simple->new;
$router->connect("/$_", {action => $_}, {method => 'GET'}) for qw(plaintext json db queries updates fortunes session hash);
$router->connect('/cached-queries', {action => 'cached'}, {method => 'GET'});
$router->connect('/json-comp', {action => 'json_comp'}, {method => 'GET'});
$router->connect('/upload', {action => 'upload'}, {method => 'POST'});

my $app = sub {
    my ($env) = @_;
    my $match = $router->match($env) or return [404, ['Content-Type' => 'text/plain'], ['not found']];
    return $actions{$match->{action}}->(Plack::Request->new($env));
};

builder {
    enable sub { with_server_header($_[0], 'Starman') };
    enable 'ContentLength';
    # Plack's gzip middleware (Plack::Middleware::Deflater), its defaults: every content type, gzip (or
    # deflate) as Accept-Encoding asks, zlib's default level, no minimum size, Vary: Accept-Encoding.
    enable 'Deflater';
    mount '/static' => Plack::App::File->new(root => env_value('STATIC_DIR'))->to_app;
    mount '/' => $app;
};
