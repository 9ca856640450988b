#!/usr/bin/env bash
# Starts a Python server whose command line takes its certificate and key as flags. With TLS_CERT and
# TLS_KEY set (a TLS run) it appends CERT_FLAG "$TLS_CERT" KEY_FLAG "$TLS_KEY" and any further TLS flags to
# the command; with neither it runs the command as given (cleartext). One without the other stops here,
# so a half-set environment can never start a cleartext server that a TLS run would then mistake.
# Usage: tls-exec.sh CERT_FLAG KEY_FLAG [TLS_FLAG ...] -- COMMAND [ARG ...]
set -euo pipefail
flags=()
while [ $# -gt 0 ] && [ "$1" != -- ]; do flags+=("$1"); shift; done
if [ $# -lt 2 ] || [ ${#flags[@]} -lt 2 ]; then
    echo "usage: tls-exec.sh CERT_FLAG KEY_FLAG [TLS_FLAG ...] -- COMMAND [ARG ...]" >&2
    exit 2
fi
shift
if [ -z "${TLS_CERT:-}${TLS_KEY:-}" ]; then
    exec "$@"
fi
if [ -z "${TLS_CERT:-}" ] || [ -z "${TLS_KEY:-}" ]; then
    echo "TLS takes both TLS_CERT and TLS_KEY; only one of them is set" >&2
    exit 1
fi
exec "$@" "${flags[0]}" "$TLS_CERT" "${flags[1]}" "$TLS_KEY" "${flags[@]:2}"
