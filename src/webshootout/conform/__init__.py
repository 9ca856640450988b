"""`shootout conform`'s probes: raw HTTP/1.1 byte sequences sent to a stack, each with the answer the RFCs
require and the rule that grades the one it got (docs/conform.md). Only the standard library and sockets:
a client library would refuse to send most of these requests."""
