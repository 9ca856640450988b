package Shootout::TechEmpower;
# What TechEmpower's database test types share, whatever the framework and database layer
# (docs/workloads.md): the count clamp, random ids, the row shape, the fortune list.
use strict;
use warnings;
use Exporter 'import';

our @EXPORT_OK = qw(count random_id world fortunes_sorted);

use constant WORLD_ROWS => 10_000;
use constant MAX_COUNT  => 500;

# queries' and updates' ?queries=, cached's ?count=: missing, empty, not an integer or below 1 means 1,
# above 500 means 500. Long digit strings are clamped before Perl turns them into floats.
sub count {
    my ($raw) = @_;
    return 1 unless defined $raw && $raw =~ /\A\s*(-?[0-9]+)\s*\z/;
    my $digits = $1;
    return MAX_COUNT if $digits !~ /^-/ && length($digits) > 3;
    return $digits < 1 ? 1 : $digits > MAX_COUNT ? MAX_COUNT : 0 + $digits;
}

# Uniform in 1..10000; ids may repeat, as TechEmpower's may.
sub random_id { 1 + int rand WORLD_ROWS }

# Numbers forced numeric: drivers hand columns back as strings, which JSON encoders would quote.
sub world {
    my ($id, $number) = @_;
    return { id => 0 + $id, randomNumber => 0 + $number };
}

# The table's rows ({id, message} hashes, messages decoded to characters) plus the one added at request
# time, sorted by message: Perl's cmp compares character strings by code point outside `use locale`.
sub fortunes_sorted {
    my ($rows) = @_;
    my @all = (@$rows, { id => 0, message => 'Additional fortune added at request time.' });
    return [ sort { $a->{message} cmp $b->{message} } @all ];
}

1;
