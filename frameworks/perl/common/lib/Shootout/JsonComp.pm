package Shootout::JsonComp;
# json-comp's array, built on every request for the framework's own JSON encoder to serialize (and its
# compression to gzip).
use strict;
use warnings;
use Exporter 'import';

our @EXPORT_OK = qw(json_comp_items);

use constant MAX_ITEMS => 1000;

# ?n=: missing, empty or not an integer means 1, and n is held to 1..1000 (the contract asks for no
# other). Long digit strings are clamped before Perl turns them into floats.
sub json_comp_items {
    my ($raw) = @_;
    my $n = defined $raw && $raw =~ /\A[0-9]+\z/ ? (length($raw) > 4 ? MAX_ITEMS : 0 + $raw) : 1;
    $n = $n < 1 ? 1 : $n > MAX_ITEMS ? MAX_ITEMS : $n;
    return [ map { +{ id => $_, message => 'Hello, World!' } } 1 .. $n ];
}

1;
