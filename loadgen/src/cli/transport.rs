//! The transport flags (`--http`, `--streams`, `--tls` and its options): what they allow together, and
//! the TLS settings they make. `Args` takes them in whole, so they are checked here without it.

use std::path::PathBuf;

use crate::tls;
use crate::url::Url;

#[derive(clap::Args, Debug, Clone)]
pub struct TransportArgs {
    /// TLS (rustls): the server's certificate is checked against --ca for the URL's host (an https://
    /// or wss:// URL means the same).
    #[arg(long)]
    pub tls: bool,
    /// PEM file of the CA certificates to trust, with --tls.
    #[arg(long, value_name = "PATH")]
    pub ca: Option<PathBuf>,
    /// Offer only this TLS version (default: 1.2 and 1.3; servers that have 1.3 choose it).
    #[arg(long, value_enum)]
    pub tls_version: Option<tls::Version>,
    /// Resume TLS sessions when connections are opened again (default: every handshake is a full one).
    #[arg(long)]
    pub tls_resume: bool,
    /// HTTP version: 2 is h2 by ALPN with --tls, h2c with prior knowledge without.
    #[arg(long, value_enum, default_value = "1.1")]
    pub http: HttpVersion,
    /// Requests in flight on each HTTP/2 connection, each on a stream of its own (--pipeline is HTTP/1.1's).
    #[arg(long, default_value_t = 1)]
    pub streams: usize,
}

/// `--http`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum HttpVersion {
    #[value(name = "1.1")]
    Http1,
    #[value(name = "2")]
    Http2,
}

/// The flags of how requests are sent that the HTTP version rules out.
pub struct RequestFlags {
    pub pipeline: usize,
    pub websocket: bool,
    pub sessions: bool,
    pub no_keepalive: bool,
}

impl TransportArgs {
    /// Whether the run speaks HTTP/2, once the flags that cannot go with the version are refused.
    pub fn check_http(&self, requests: &RequestFlags) -> Result<bool, String> {
        let http2 = self.http == HttpVersion::Http2;
        if self.streams == 0 {
            return Err("--streams: expected at least 1, got 0".into());
        }
        if !http2 && self.streams > 1 {
            return Err("--streams needs --http 2 (with HTTP/1.1, --pipeline keeps requests in flight)".into());
        }
        if http2 {
            // A session's counter needs its requests in order; a connection per request has one stream.
            let many = self.streams > 1 && (requests.sessions || requests.no_keepalive);
            let clash = [
                ("--pipeline above 1", requests.pipeline > 1),
                ("--websocket", requests.websocket),
                ("--streams above 1 with --sessions or --no-keepalive", many),
            ];
            if let Some((flag, _)) = clash.iter().find(|(_, set)| *set) {
                return Err(format!("--http 2 cannot be combined with {flag}"));
            }
        }
        Ok(http2)
    }

    /// The TLS settings of the run, None for cleartext; the TLS options without TLS are refused.
    pub fn tls(&self, url: &Url, http2: bool) -> Result<Option<tls::Settings>, String> {
        if !(self.tls || url.secure) {
            let stray = [("--ca", self.ca.is_some()), ("--tls-version", self.tls_version.is_some()), ("--tls-resume", self.tls_resume)];
            return match stray.iter().find(|(_, set)| *set) {
                Some((flag, _)) => Err(format!("{flag} needs --tls")),
                None => Ok(None),
            };
        }
        let ca = self.ca.as_ref().ok_or("--tls needs --ca, the PEM file of the CA that signed the server's certificate")?;
        let alpn: &'static [u8] = if http2 { b"h2" } else { b"http/1.1" };
        tls::Settings::new(ca, &url.host, self.tls_version, self.tls_resume, alpn).map(Some)
    }
}
