package transport

import javax.net.ssl.{SSLContext, SSLEngine}

import play.server.api.SSLEngineProvider

import webshootout.scalacommon.Tls

/**
 * Play's extension point for HTTPS keys (play.server.https.engineProvider, "Configuring HTTPS"): the harness's
 * TLS_CERT and TLS_KEY as the SSLContext Play's Pekko HTTP server serves HTTPS with (the Scala stacks' Tls,
 * through the Java stacks' PemKeyStore: Java 17 reads no PEM key store). start.sh names it only when both are set.
 */
class PemSSLEngineProvider extends SSLEngineProvider:
  private lazy val context: SSLContext =
    Tls.fromEnv().getOrElse(throw IllegalStateException("TLS_CERT and TLS_KEY are not set"))

  override def sslContext(): SSLContext = context

  override def createSSLEngine(): SSLEngine = context.createSSLEngine()
