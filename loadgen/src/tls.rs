//! TLS on the client side: one rustls configuration per run (the run's CA, the ALPN protocol the
//! point asks for, the versions offered, resumption on or off), and why a handshake failed. rustls is
//! sans-I/O, so either event loop feeds it the bytes it moved; `stats` counts the handshakes.

use std::path::Path;
use std::sync::Arc;

use rustls::client::Resumption;
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, ServerName};
use rustls::{ClientConfig, ClientConnection, RootCertStore};

/// `--tls-version`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Version {
    #[value(name = "1.2")]
    V12,
    #[value(name = "1.3")]
    V13,
}

/// What every connection of the run is opened with.
#[derive(Debug, Clone)]
pub struct Settings {
    pub config: Arc<ClientConfig>,
    pub name: ServerName<'static>,
    /// The ALPN protocol the run needs the server to select.
    pub alpn: &'static [u8],
    /// The --ca file, for messages.
    pub ca: String,
}

impl Settings {
    /// `host` is the URL's host: an IP address is checked against the certificate's IP SANs.
    pub fn new(ca: &Path, host: &str, version: Option<Version>, resume: bool, alpn: &'static [u8]) -> Result<Self, String> {
        let mut roots = RootCertStore::empty();
        let certs = CertificateDer::pem_file_iter(ca).map_err(|e| format!("--ca {}: {e}", ca.display()))?;
        for cert in certs {
            let cert = cert.map_err(|e| format!("--ca {}: {e}", ca.display()))?;
            roots.add(cert).map_err(|e| format!("--ca {}: not a usable CA certificate: {e}", ca.display()))?;
        }
        if roots.is_empty() {
            return Err(format!("--ca {}: holds no certificate", ca.display()));
        }
        let versions: &[&rustls::SupportedProtocolVersion] = match version {
            Some(Version::V12) => &[&rustls::version::TLS12],
            Some(Version::V13) => &[&rustls::version::TLS13],
            None => rustls::DEFAULT_VERSIONS,
        };
        let provider = Arc::new(rustls::crypto::ring::default_provider());
        let mut config = ClientConfig::builder_with_provider(provider)
            .with_protocol_versions(versions)
            .map_err(|e| format!("--tls-version: {e}"))?
            .with_root_certificates(roots)
            .with_no_client_auth();
        config.alpn_protocols = vec![alpn.to_vec()];
        config.resumption = if resume { Resumption::default() } else { Resumption::disabled() };
        let name = ServerName::try_from(host.trim_matches(['[', ']']).to_string())
            .map_err(|e| format!("URL host {host:?} is not a name TLS can check: {e}"))?;
        Ok(Settings { config: Arc::new(config), name, alpn, ca: ca.display().to_string() })
    }

    pub fn connect(&self) -> Result<ClientConnection, rustls::Error> {
        ClientConnection::new(Arc::clone(&self.config), self.name.clone())
    }
}

/// Why a handshake failed, when no retry can succeed (the server's certificate or protocols are not what
/// the run needs); None for a failure of this connection only.
pub fn fatal(error: &rustls::Error, settings: &Settings, addr: std::net::SocketAddr) -> Option<String> {
    match error {
        rustls::Error::InvalidCertificate(why) => {
            Some(format!("the certificate of the server at {addr} does not verify against --ca {}: {why:?}", settings.ca))
        }
        rustls::Error::AlertReceived(rustls::AlertDescription::NoApplicationProtocol) => Some(format!(
            "the server at {addr} did not select {} by ALPN (it refused it with a no_application_protocol alert)",
            alpn_name(Some(settings.alpn))
        )),
        rustls::Error::PeerIncompatible(why) => Some(format!("the server at {addr} cannot speak TLS with us: {why:?}")),
        _ => None,
    }
}

/// The name of what ALPN gave, for messages ("none" when the server selected nothing).
pub fn alpn_name(alpn: Option<&[u8]>) -> String {
    alpn.map_or_else(|| "none".to_string(), |p| String::from_utf8_lossy(p).into_owned())
}
