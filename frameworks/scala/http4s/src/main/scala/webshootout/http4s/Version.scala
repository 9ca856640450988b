package webshootout.http4s

/** Prints the version of the http4s on the classpath (http4s-core's BuildInfo), for setup's pin check. */
object Version:
  def main(args: Array[String]): Unit = println(org.http4s.BuildInfo.version)
