// Play's sbt plugin, as every Play project adds it: it brings Play's modules at its own version (PlayScala,
// the routes and Twirl compilers, the Pekko HTTP server backend, sbt-native-packager's stage/dist).
//
// Its version is pinned once, in ../pom.xml (<play.version>), the file the harness reads for the stack's
// version and `shootout ab play@VERSION` rewrites; sbt runs from the stack's folder, so it is read from there.
val playVersion: String =
  """<play\.version>([^<]+)</play\.version>""".r
    .findFirstMatchIn(IO.read(file("pom.xml")))
    .map(_.group(1))
    .getOrElse(sys.error("pom.xml pins no <play.version>"))

addSbtPlugin("org.playframework" % "sbt-plugin" % playVersion)
