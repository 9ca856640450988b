# The webshootout workloads on Dancer2 (docs/workloads.md): its routes, send_as JSON, Template Toolkit
# views, cookies, and Dancer2::Plugin::Database for PostgreSQL. Served by Starman behind nginx
# (Dancer2::Manual::Deployment, "Using Nginx"; ../common/starman.sh), preloaded in Starman's master.
package Shootout;
use Dancer2;
use Dancer2::Plugin::Database;
use Digest::SHA qw(sha256_hex);
use Plack::Builder;
use Shootout::DBIQueries qw(read_world random_worlds updated_worlds fortunes all_worlds);
use Shootout::Env qw(env_value);
use Shootout::Hashing qw(parse_n iterated_sha256);
use Shootout::JsonComp qw(json_comp_items);
use Shootout::ServerHeader qw(with_server_header);
use Shootout::Sessions qw(visit_dbi);
use Shootout::TechEmpower qw(count random_id world);

set public_dir => env_value('STATIC_DIR');
my $hash_file = env_value('HASH_FILE');

# cached's rows, read before Starman forks; the master's connection is closed again, and the plugin keeps
# a connection per process id, so each worker opens its own on its first database request.
my %world_cache = map { $_->[0] => world(@$_) } @{all_worlds(database())};
database()->disconnect;

# Dancer2's JSON serializer (JSON::MaybeXS, Cpanel::JSON::XS underneath) through its encode_json keyword.
# Not send_as: it answers through send_file, a streamed response without Content-Length and without
# Dancer2's Server header.
sub json_of {
    my ($value) = @_;
    content_type 'application/json';
    return encode_json($value);
}

sub text {
    my ($body) = @_;
    content_type 'text/plain';
    return $body;
}

get '/plaintext' => sub { text('Hello, World!') };

get '/json' => sub { json_of({message => 'Hello, World!'}) };

# Gzipped by Plack::Middleware::Deflater (below) when the request accepts it.
get '/json-comp' => sub { json_of(json_comp_items(query_parameters->get('n'))) };

get '/db' => sub { json_of(read_world(database(), random_id())) };

get '/queries' => sub { json_of(random_worlds(database(), count(query_parameters->get('queries')))) };

get '/updates' => sub { json_of(updated_worlds(database(), count(query_parameters->get('queries')))) };

get '/cached-queries' => sub {
    my $n = count(query_parameters->get('count'));
    json_of([map { $world_cache{random_id()} } 1 .. $n]);
};

# Template Toolkit escapes with its html filter (views/fortunes.tt).
get '/fortunes' => sub { template fortunes => {fortunes => fortunes(database())}, {layout => undef} };

# Dancer2's session engines keep data in memory, YAML files or (Dancer2::Session::Cookie, not in Debian)
# cookies; the counter must live in PostgreSQL, so the uid is a cookie of its own and the count a row of
# usersessions, read and written on every visit.
get '/session' => sub {
    my $uid = cookie('uid');
    my ($id, $visits, $new) = visit_dbi(database(), defined $uid ? $uid->value : undef);
    cookie uid => $id, path => '/', http_only => 1, same_site => 'Lax' if $new;
    text("Count is $visits");
};

get '/hash' => sub {
    my $n = eval { parse_n(query_parameters->get('n')) };
    unless (defined $n) {
        status 400;
        return text($@);
    }
    text(iterated_sha256($hash_file, $n));
};

# Dancer2's request->body (Plack::Request's content, psgi.input read to its end). nginx in front has read
# the body whole (chunked or not), refused it past client_max_body_size 2m (../common/nginx.conf.template)
# and passes it on with a Content-Length.
post '/upload' => sub {
    my $body = request->body;
    text(length($body) . ' ' . sha256_hex($body));
};

# Compression as Dancer2's Deployment manual enables it ("Enabling content compression"): Plack's
# Deflater middleware around the app, at its defaults (every content type, gzip or deflate as
# Accept-Encoding asks, zlib's default level, no minimum size, Vary: Accept-Encoding). Dancer2's own
# Server value, also on the static files its public_dir handler serves.
builder {
    enable sub { with_server_header($_[0], 'Perl Dancer2 ' . Dancer2->VERSION) };
    enable 'Deflater';
    to_app;
};
