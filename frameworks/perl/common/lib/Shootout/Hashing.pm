package Shootout::Hashing;
# The hash workload: SHA-256 of HASH_FILE, read from disk on every request, then iterated n - 1 times
# over the 32 raw bytes of the previous digest.
use strict;
use warnings;
use Digest::SHA qw(sha256);
use Exporter 'import';

our @EXPORT_OK = qw(parse_n iterated_sha256);

use constant MAX_N => 100_000;

# The query's n, or dies with the one-line reason the 400 answer carries (ending in "\n", so Perl
# appends no "at FILE line N").
sub parse_n {
    my ($raw) = @_;
    die "missing query parameter n\n" unless defined $raw;
    die "n must be an integer\n" unless $raw =~ /\A-?[0-9]+\z/;
    die "n must be between 1 and " . MAX_N . "\n" unless length($raw) <= 7 && $raw >= 1 && $raw <= MAX_N;
    return 0 + $raw;
}

sub iterated_sha256 {
    my ($path, $n) = @_;
    open my $fh, '<:raw', $path or die "cannot read $path: $!\n";
    my $bytes = do { local $/; <$fh> };
    close $fh;
    my $digest = sha256($bytes);
    $digest = sha256($digest) for 2 .. $n;
    return unpack 'H*', $digest;
}

1;
