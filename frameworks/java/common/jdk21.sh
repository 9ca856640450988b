#!/usr/bin/env bash
# Prints the home of a JDK of Java 21 or later, the first found of: JDK21_HOME, then the JDKs under /usr/lib/jvm
# (newest first), for the stacks whose framework needs Java 21 (Helidon 4's virtual threads, http4k 6's class
# files); Debian bookworm's own JDK is 17, and the machines this project runs on carry a Temurin 25 JDK in
# /usr/lib/jvm beside it. Fails, naming the stack ($1), when there is none. Usage: jdk21.sh STACK
set -euo pipefail
major() { sed -n 's/^JAVA_VERSION="\([0-9]*\).*/\1/p' "$1/release" 2>/dev/null; }
for home in ${JDK21_HOME:-} $(ls -d /usr/lib/jvm/*/ 2>/dev/null | sort -rV); do
  home=${home%/}
  v=$(major "$home")
  if [ -n "$v" ] && [ "$v" -ge 21 ] && [ -x "$home/bin/javac" ]; then
    echo "$home"
    exit 0
  fi
done
echo "${1:-this stack} needs a JDK of Java 21 or later (JDK21_HOME, or one under /usr/lib/jvm); found none" >&2
exit 1
