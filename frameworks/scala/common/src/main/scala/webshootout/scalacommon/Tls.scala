package webshootout.scalacommon

import javax.net.ssl.{KeyManagerFactory, SSLContext}

import webshootout.common.PemKeyStore

/**
 * The harness's TLS_CERT and TLS_KEY as a JDK SSLContext, for the Scala servers whose TLS setup takes one
 * (Pekko HTTP's ConnectionContext.httpsServer, Ember's TLSContext.fromSSLContext). The PEM files become a
 * KeyStore by the Java stacks' PemKeyStore (Java 17 reads no PEM), so both languages parse them one way.
 */
object Tls:
  /** Some context when both variables are set, None for a cleartext server; one alone stops the server. */
  def fromEnv(): Option[SSLContext] =
    Option(PemKeyStore.fromEnv()).map { pem =>
      val keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm)
      keys.init(pem.keyStore, pem.password.toCharArray)
      val context = SSLContext.getInstance("TLS")
      // No trust managers: the server asks for no client certificate.
      context.init(keys.getKeyManagers, null, null)
      context
    }
