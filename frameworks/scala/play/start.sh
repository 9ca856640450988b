#!/usr/bin/env bash
# Play's production form: the start script `sbt stage` wrote (Play's "Deploying your application", "Running a
# production server in place"), given the application secret and the address by system properties as its pages
# show. The JVM flags are the Java stacks' (frameworks/java/jetty's manifest says why): ParallelGC, heap 512 MiB
# growing to 2 GiB for the many-connection suites; GC and JIT threads follow the CPUs the harness pins the JVM to.
# No pid file (-Dpidfile.path=/dev/null, as Deploying.md shows): the harness owns the process, and the folder
# is read-only to the server.
set -euo pipefail
cd "$(dirname "$0")"

args=(
  -J-server -J-XX:+UseParallelGC -J-Xms512m -J-Xmx2g
  -Dpidfile.path=/dev/null
  "-Dplay.http.secret.key=$SECRET_KEY"
)
if [[ -n "${TLS_CERT:-}" || -n "${TLS_KEY:-}" ]]; then
  # HTTPS only on PORT ("Configuring HTTPS": https.port, http.port=disabled), keys from the PEM files.
  args+=(-Dhttp.port=disabled "-Dhttps.port=$PORT" "-Dhttps.address=$HOST"
         -Dplay.server.https.engineProvider=transport.PemSSLEngineProvider)
else
  args+=("-Dhttp.port=$PORT" "-Dhttp.address=$HOST")
fi
# Through bash: sbt-native-packager stages the script executable by its owner only (the building user), and the
# server may run as another.
exec bash target/universal/stage/bin/play-server "${args[@]}"
