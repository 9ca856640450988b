//! The transport flags (`--http`, `--streams`, `--tls` and its options): what they allow together, and
//! the TLS settings they make.

use crate::cli::Args;
use crate::tls;
use crate::url::Url;

/// `--http`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum HttpVersion {
    #[value(name = "1.1")]
    Http1,
    #[value(name = "2")]
    Http2,
}

/// Whether the run speaks HTTP/2, once the flags that cannot go with the version are refused.
pub fn check_http(args: &Args) -> Result<bool, String> {
    let http2 = args.http == HttpVersion::Http2;
    if args.streams == 0 {
        return Err("--streams: expected at least 1, got 0".into());
    }
    if !http2 && args.streams > 1 {
        return Err("--streams needs --http 2 (with HTTP/1.1, --pipeline keeps requests in flight)".into());
    }
    if http2 {
        // A session's counter needs its requests in order; a connection per request has one stream.
        let many = args.streams > 1 && (args.sessions || args.no_keepalive);
        let clash = [
            ("--pipeline above 1", args.pipeline > 1),
            ("--websocket", args.websocket),
            ("--streams above 1 with --sessions or --no-keepalive", many),
        ];
        if let Some((flag, _)) = clash.iter().find(|(_, set)| *set) {
            return Err(format!("--http 2 cannot be combined with {flag}"));
        }
    }
    Ok(http2)
}

/// The TLS settings of the run, None for cleartext; the TLS options without TLS are refused.
pub fn tls(args: &Args, url: &Url, http2: bool) -> Result<Option<tls::Settings>, String> {
    if !(args.tls || url.secure) {
        let stray = [("--ca", args.ca.is_some()), ("--tls-version", args.tls_version.is_some()), ("--tls-resume", args.tls_resume)];
        return match stray.iter().find(|(_, set)| *set) {
            Some((flag, _)) => Err(format!("{flag} needs --tls")),
            None => Ok(None),
        };
    }
    let ca = args.ca.as_ref().ok_or("--tls needs --ca, the PEM file of the CA that signed the server's certificate")?;
    let alpn: &'static [u8] = if http2 { b"h2" } else { b"http/1.1" };
    tls::Settings::new(ca, &url.host, args.tls_version, args.tls_resume, alpn).map(Some)
}
