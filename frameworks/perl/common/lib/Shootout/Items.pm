package Shootout::Items;
# crud's rules that are the contract's rather than a framework's (docs/workloads.md, "crud"): JSON's types
# of an item's members, the table's integer range, the item's shape and the page window.
use strict;
use warnings;
no warnings 'experimental::builtin';
use builtin qw(created_as_number created_as_string);
use Exporter 'import';

our @EXPORT_OK = qw(json_string json_int32 int32_id item page_window);

use constant INT32_MIN => -2**31;
use constant INT32_MAX => 2**31 - 1;
# No table keyed by int4 holds more rows than this many pages of one, so a later page is past the end
# either way; held here, the OFFSET stays an integer inside PostgreSQL's bigint.
use constant LAST_PAGE => 2**32;

# Perl keeps no JSON types, but a decoder leaves their trace: a value decoded from a JSON string was
# created as a string, one from a JSON number as a number (builtin::created_as_*, Perl 5.36). A number
# past Perl's integers comes back from Cpanel::JSON::XS as a string, and is refused as one.
sub json_string {
    my ($value) = @_;
    return defined $value && !ref $value && created_as_string($value);
}

# A JSON number without a fraction, in 32 bits.
sub json_int32 {
    my ($value) = @_;
    return defined $value && !ref $value && created_as_number($value) && $value =~ /\A-?[0-9]+\z/
        && $value >= INT32_MIN && $value <= INT32_MAX;
}

# An id of the table from a path segment, or undef when no row can have it (not digits, or past int4).
sub int32_id {
    my ($raw) = @_;
    return undef unless defined $raw && $raw =~ /\A[0-9]{1,10}\z/ && $raw <= INT32_MAX;
    return 0 + $raw;
}

# A row as the contract's item, numbers forced numeric: drivers hand columns back as strings, which JSON
# encoders would quote.
sub item {
    my ($row) = @_;
    return { id => 0 + $row->{id}, name => $row->{name}, quantity => 0 + $row->{quantity} };
}

# LIMIT and OFFSET of page $page (a validated integer from 1) of $size rows.
sub page_window {
    my ($page, $size) = @_;
    $page = LAST_PAGE if $page > LAST_PAGE;
    return ($size, ($page - 1) * $size);
}

1;
