package PgLimit;
# At most `size` Mojo::Pg database handles in use at once in this process.
#
# Mojo::Pg hands out a new connection for every concurrent non-blocking query and caches up to
# max_connections idle ones; it has no upper bound. The fairness rule gives each hypnotoad worker
# DB_POOL connections (docs/fairness.md), so requests beyond that wait here, in arrival order, for a
# handle another request gives back. With max_connections = size as well, Mojo::Pg keeps the handles
# open between requests and this process never holds more than `size`.
use Mojo::Base -base, -signatures;
use Mojo::Promise;

has 'pg';
has 'size';

# run($work): a promise of what $work->($db) resolves to; the handle goes back when it settles.
sub run ($self, $work) {
    return $self->_acquire->then(sub ($db) {
        my $done = eval { $work->($db) } // Mojo::Promise->reject($@);
        return $done->finally(sub { $self->_release($db) });
    });
}

sub _acquire ($self) {
    $self->{free} //= $self->size;
    if ($self->{free} > 0) {
        $self->{free}--;
        return Mojo::Promise->resolve($self->pg->db);
    }
    my $waiting = Mojo::Promise->new;
    push @{$self->{waiting}}, $waiting;
    return $waiting;
}

sub _release ($self, $db) {
    if (my $next = shift @{$self->{waiting} // []}) {
        $next->resolve($db);
    } else {
        $self->{free}++;
    }
}

1;
