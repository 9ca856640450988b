// A Play 3 application in Play's Scala layout (app/, conf/), built by sbt with Play's plugin and run in
// production form from the start script that `sbt stage` writes (Play's "Deploying your application",
// "Running a production server in place"): target/universal/stage/bin/play-server.
lazy val root = (project in file("."))
  // HTTP/2 is switched on in conf/application.conf, not by the PlayPekkoHttp2Support plugin: see there.
  .enablePlugins(PlayScala)
  .settings(
    name := "play-server",
    version := "1",
    // Scala 3.3 LTS, the line Play 3.0.11 is built with (3.3.7), like the other Scala stacks.
    scalaVersion := "3.3.7",
    libraryDependencies ++= Seq(
      guice, // Play's default dependency injection
      jdbc,  // Play's JDBC module: the Database API on a HikariCP pool
      "org.postgresql" % "postgresql" % "42.7.10",
    ),
    // Shared sources, compiled into this application (and listed under the manifest's setup.inputs): the Java
    // stacks' common (hash chain, TechEmpower's rules, JDBC statements and session transaction, PEM key store)
    // and the Scala stacks' common (the PEM files as an SSLContext). sbt's default mixed compile order: the
    // routes compiler writes a Java file (controllers.routes) that refers to the Scala reverse routers.
    Compile / unmanagedSourceDirectories ++= Seq(
      baseDirectory.value / ".." / ".." / "java" / "common" / "src" / "main" / "java",
      baseDirectory.value / ".." / "common" / "src" / "main" / "scala",
    ),
    javacOptions ++= Seq("--release", "17"),
    scalacOptions += "-feature", // -deprecation is set by Play's plugin
    // No API documentation in the distribution (Deploying.md's "no-scaladoc" settings).
    Compile / doc / sources := Seq.empty,
    Compile / packageDoc / publishArtifact := false,
  )
