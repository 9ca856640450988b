package Shootout::Sessions;
# The session workload's statements on usersessions(uid, data), data being {"count":N}
# (docs/workloads.md). A known visitor's row is read and rewritten by one UPDATE ... RETURNING, which
# holds the row lock for the increment, so concurrent visits of one visitor never lose a count; an
# unknown or missing uid gets a fresh random one and a row with count 1.
use strict;
use warnings;
use Exporter 'import';

our @EXPORT_OK = qw(VISIT_SQL INSERT_SQL new_uid first_data count_of visit_dbi);

use constant VISIT_SQL =>
    q{UPDATE usersessions SET data = json_build_object('count', (data::json ->> 'count')::int + 1)::text }
  . q{WHERE uid = $1 RETURNING data};
use constant INSERT_SQL => q{INSERT INTO usersessions (uid, data) VALUES ($1, $2)};

# The JSON text of a new visitor's row (exactly {"count":1}).
sub first_data { '{"count":1}' }

# 128 random bits from the kernel, hex: an unguessable visitor id.
sub new_uid {
    open my $fh, '<:raw', '/dev/urandom' or die "cannot open /dev/urandom: $!\n";
    sysread($fh, my $bytes, 16) == 16 or die "short read from /dev/urandom\n";
    return unpack 'H*', $bytes;
}

# The count out of a row's data, {"count": N} as PostgreSQL's json_build_object writes it.
sub count_of {
    my ($data) = @_;
    $data =~ /"count"\s*:\s*([0-9]+)/ or die "usersessions data '$data' is not {\"count\": N}\n";
    return 0 + $1;
}

# One visit on a DBI handle (DBD::Pg, AutoCommit on: each statement is its own transaction).
# Returns (uid, count, is_new).
sub visit_dbi {
    my ($dbh, $uid) = @_;
    if (defined $uid && length $uid) {
        my ($data) = $dbh->selectrow_array($dbh->prepare_cached(VISIT_SQL), undef, $uid);
        return ($uid, count_of($data), 0) if defined $data;
    }
    my $fresh = new_uid();
    $dbh->prepare_cached(INSERT_SQL)->execute($fresh, first_data());
    return ($fresh, 1, 1);
}

1;
