package Shootout::ServerHeader;
# A PSGI wrapper that names the server on every answer that lacks a Server header (Plack sets none, and
# Dancer2 none on the files it serves); nginx in front passes it on (proxy_pass_header Server) and
# adds Date.
use strict;
use warnings;
use Plack::Util;
use Exporter 'import';

our @EXPORT_OK = qw(with_server_header);

sub with_server_header {
    my ($app, $name) = @_;
    return sub {
        Plack::Util::response_cb($app->(@_), sub {
            my ($res) = @_;
            push @{$res->[1]}, Server => $name unless Plack::Util::header_exists($res->[1], 'Server');
        });
    };
}

1;
