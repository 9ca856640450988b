//! TLS on the client side: one rustls configuration per run (the run's CA, the ALPN protocol the
//! point asks for, the versions offered, resumption on or off), and the handshake counts and
//! times a run reports. rustls is sans-I/O, so either event loop feeds it the bytes it moved.

use std::path::Path;
use std::sync::Arc;

use hdrhistogram::Histogram;
use rustls::client::Resumption;
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, ServerName};
use rustls::{ClientConfig, ClientConnection, HandshakeKind, RootCertStore};
use serde::Serialize;

use crate::stats;

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

/// One thread's handshakes, added up over the threads at the end.
#[derive(Debug, Clone)]
pub struct Handshakes {
    pub full: u64,
    pub resumed: u64,
    /// From the TCP connection being up to the handshake being done.
    pub micros: Histogram<u64>,
    /// What the first handshake negotiated (every connection of a run asks for the same).
    pub version: Option<String>,
    pub cipher: Option<String>,
    pub alpn: Option<String>,
}

impl Default for Handshakes {
    fn default() -> Self {
        Handshakes { full: 0, resumed: 0, micros: stats::histogram(), version: None, cipher: None, alpn: None }
    }
}

impl Handshakes {
    pub fn done(&mut self, conn: &ClientConnection, micros: u64) {
        match conn.handshake_kind() {
            Some(HandshakeKind::Resumed) => self.resumed += 1,
            _ => self.full += 1,
        }
        self.micros.saturating_record(micros.max(stats::LOWEST_US));
        if self.version.is_none() {
            self.version = conn.protocol_version().map(|v| format!("{v:?}"));
            self.cipher = conn.negotiated_cipher_suite().map(|s| format!("{:?}", s.suite()));
            self.alpn = conn.alpn_protocol().map(|p| String::from_utf8_lossy(p).into_owned());
        }
    }

    pub fn merge(&mut self, other: &Handshakes) {
        self.full += other.full;
        self.resumed += other.resumed;
        let _ = self.micros.add(&other.micros);
        if self.version.is_none() {
            self.version.clone_from(&other.version);
            self.cipher.clone_from(&other.cipher);
            self.alpn.clone_from(&other.alpn);
        }
    }
}

/// The `tls` object of the JSON report.
#[derive(Debug, Clone, Serialize)]
pub struct Negotiated {
    pub version: Option<String>,
    pub cipher: Option<String>,
    pub alpn: Option<String>,
    pub handshakes: u64,
    pub resumed: u64,
    pub handshake_ms: Option<HandshakeMs>,
}

#[derive(Debug, Clone, Serialize)]
pub struct HandshakeMs {
    pub mean: f64,
    pub p50: f64,
    pub p99: f64,
    pub max: f64,
}

impl Negotiated {
    pub fn of(h: &Handshakes) -> Self {
        let ms = |us: u64| us as f64 / 1000.0;
        let handshake_ms = (!h.micros.is_empty()).then(|| HandshakeMs {
            mean: h.micros.mean() / 1000.0,
            p50: ms(h.micros.value_at_quantile(0.5)),
            p99: ms(h.micros.value_at_quantile(0.99)),
            max: ms(h.micros.max()),
        });
        Negotiated {
            version: h.version.clone(),
            cipher: h.cipher.clone(),
            alpn: h.alpn.clone(),
            handshakes: h.full + h.resumed,
            resumed: h.resumed,
            handshake_ms,
        }
    }
}
