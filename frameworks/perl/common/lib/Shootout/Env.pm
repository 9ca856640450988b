package Shootout::Env;
# The environment the harness gives every server (docs/adding-a-framework.md), with errors that name
# the variable, so a stack started by hand fails at once instead of on its first request.
use strict;
use warnings;
use Exporter 'import';

our @EXPORT_OK = qw(env_value env_positive_int db_pool workers);

sub env_value {
    my ($name) = @_;
    my $value = $ENV{$name};
    die "environment variable $name is not set; the harness sets it (docs/adding-a-framework.md)\n"
        unless defined $value && length $value;
    return $value;
}

sub env_positive_int {
    my ($name) = @_;
    my $raw = env_value($name);
    die "environment variable $name is '$raw': expected a positive integer\n" unless $raw =~ /\A[1-9][0-9]*\z/;
    return 0 + $raw;
}

# Database connections each worker process may open (docs/fairness.md).
sub db_pool { env_positive_int('DB_POOL') }

sub workers { env_positive_int('WORKERS') }

1;
