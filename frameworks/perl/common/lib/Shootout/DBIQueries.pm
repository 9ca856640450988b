package Shootout::DBIQueries;
# TechEmpower's database test types on a DBI handle of DBD::Pg (TechEmpower's "raw": the driver's own
# API). Statements go through prepare_cached, so each is prepared once per connection (DBD::Pg prepares
# server-side) and executed with a bound id.
use strict;
use warnings;
use Exporter 'import';
use Shootout::TechEmpower qw(random_id world fortunes_sorted);

our @EXPORT_OK = qw(dbi_connect read_world random_worlds updated_worlds fortunes all_worlds);

use constant WORLD_SQL   => 'SELECT id, randomnumber FROM world WHERE id = ?';
use constant UPDATE_SQL  => 'UPDATE world SET randomnumber = ? WHERE id = ?';
use constant FORTUNE_SQL => 'SELECT id, message FROM fortune';

# libpq takes host, port, user, password and database from the harness's PG* variables. AutoCommit on:
# each statement is its own transaction. pg_enable_utf8 hands text back as Perl characters.
sub dbi_connect {
    require DBI;
    return DBI->connect('dbi:Pg:', '', '', {
        AutoCommit => 1, RaiseError => 1, PrintError => 0, AutoInactiveDestroy => 1, pg_enable_utf8 => 1,
    });
}

sub read_world {
    my ($dbh, $id) = @_;
    my $sth = $dbh->prepare_cached(WORLD_SQL);
    $sth->execute($id);
    my $row = $sth->fetchrow_arrayref;
    $sth->finish;
    return world(@$row);
}

sub random_worlds {
    my ($dbh, $n) = @_;
    return [ map { read_world($dbh, random_id()) } 1 .. $n ];
}

# Each row read by a query of its own, then one autocommitted UPDATE per row, in id order so that
# concurrent requests never wait on each other's rows in a cycle.
sub updated_worlds {
    my ($dbh, $n) = @_;
    my $rows = random_worlds($dbh, $n);
    $_->{randomNumber} = random_id() for @$rows;
    my $update = $dbh->prepare_cached(UPDATE_SQL);
    for my $row (sort { $a->{id} <=> $b->{id} } @$rows) {
        # Copies are bound: binding stringifies a value in place, and JSON::XS would then quote the number.
        my ($number, $id) = @$row{qw(randomNumber id)};
        $update->execute($number, $id);
    }
    return $rows;
}

# Every fortune by one query, plus the request-time one, sorted by message.
sub fortunes {
    my ($dbh) = @_;
    my $rows = $dbh->selectall_arrayref($dbh->prepare_cached(FORTUNE_SQL));
    return fortunes_sorted([ map { { id => $_->[0], message => $_->[1] } } @$rows ]);
}

# Every world row as [id, randomNumber], for an in-process cache.
sub all_worlds {
    my ($dbh) = @_;
    return $dbh->selectall_arrayref('SELECT id, randomnumber FROM world');
}

1;
