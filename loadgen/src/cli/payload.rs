//! The request body and the answer's encoding (`--body`, `--body-size`, `--chunk-size`, `--expect-encoding`):
//! the bytes sent, how they are framed, and what every answer must say it is encoded with.

#[derive(clap::Args, Debug, Clone)]
pub struct PayloadArgs {
    /// Request body: a string, or @path to read it from a file.
    #[arg(long, conflicts_with = "body_size")]
    pub body: Option<String>,
    /// Request body of this many bytes, byte i being i mod 251 (what webshootout's upload workload expects).
    #[arg(long, value_name = "BYTES")]
    pub body_size: Option<usize>,
    /// Send the body with Transfer-Encoding: chunked, in chunks of this many bytes.
    #[arg(long, value_name = "BYTES", value_parser = clap::value_parser!(u64).range(1..))]
    pub chunk_size: Option<u64>,
    /// Every answer must carry this Content-Encoding (gzip); the body checks apply to it decoded, on one answer
    /// in 16 per thread.
    #[arg(long, value_name = "ENCODING")]
    pub expect_encoding: Option<String>,
}

impl PayloadArgs {
    /// The body's bytes (empty without one).
    pub fn body(&self) -> Result<Vec<u8>, String> {
        if self.chunk_size.is_some() && self.body.is_none() && self.body_size.is_none() {
            return Err("--chunk-size needs a body (--body or --body-size)".into());
        }
        Ok(match &self.body {
            Some(spec) if spec.starts_with('@') => {
                std::fs::read(&spec[1..]).map_err(|e| format!("--body {spec:?}: cannot read {:?}: {e}", &spec[1..]))?
            }
            Some(text) => text.as_bytes().to_vec(),
            None => self.body_size.map(crate::request::pattern).unwrap_or_default(),
        })
    }

    /// The chunk size of a chunked body; None: Content-Length.
    pub fn chunk(&self) -> Option<usize> {
        self.chunk_size.map(|n| usize::try_from(n).unwrap_or(usize::MAX))
    }

    /// The Content-Encoding every answer must carry, where it can be read and decoded.
    pub fn encoding(&self, http2: bool, websocket: bool) -> Result<Option<Vec<u8>>, String> {
        match self.expect_encoding.as_deref() {
            None => Ok(None),
            Some("gzip") if http2 => Err("--expect-encoding: HTTP/2 answers' Content-Encoding is not read yet (use --http 1.1)".into()),
            Some("gzip") if websocket => Err("--expect-encoding cannot be combined with --websocket".into()),
            Some("gzip") => Ok(Some(b"gzip".to_vec())),
            Some(other) => Err(format!("--expect-encoding {other:?}: only gzip can be decoded")),
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::cli::{Args, Config};
    use clap::Parser;

    fn config(args: &[&str]) -> Result<Config, String> {
        let mut argv = vec!["shootout-load"];
        argv.extend_from_slice(args);
        Args::try_parse_from(argv).map_err(|e| e.to_string())?.into_config()
    }

    #[test]
    fn bodies_encodings_and_requests_per_connection_are_checked() {
        let c = config(&["--body-size", "3", "--chunk-size", "2", "-m", "POST", "http://127.0.0.1:1/u"]).unwrap();
        let mut request = Vec::new();
        c.template.write(&mut request, b"", &mut fastrand::Rng::with_seed(1));
        assert!(request.ends_with(b"Transfer-Encoding: chunked\r\n\r\n2\r\n\x00\x01\r\n1\r\n\x02\r\n0\r\n\r\n"));
        assert!(config(&["--chunk-size", "2", "http://127.0.0.1:1/"]).unwrap_err().contains("needs a body"));
        assert!(config(&["--body", "x", "--body-size", "3", "http://127.0.0.1:1/"]).is_err());
        assert_eq!(config(&["--expect-encoding", "gzip", "http://127.0.0.1:1/"]).unwrap().expect_encoding, Some(b"gzip".to_vec()));
        assert!(config(&["--expect-encoding", "br", "http://127.0.0.1:1/"]).unwrap_err().contains("only gzip"));
        assert!(config(&["--expect-encoding", "gzip", "--http", "2", "http://127.0.0.1:1/"]).unwrap_err().contains("HTTP/2"));
        let c = config(&["--requests-per-connection", "10", "http://127.0.0.1:1/"]).unwrap();
        assert_eq!((c.requests_per_connection, c.keepalive), (Some(10), true));
        assert!(config(&["--requests-per-connection", "0", "http://127.0.0.1:1/"]).is_err());
        assert!(config(&["--requests-per-connection", "5", "--no-keepalive", "http://127.0.0.1:1/"]).is_err());
        assert!(config(&["--requests-per-connection", "5", "--pipeline", "2", "http://127.0.0.1:1/"]).unwrap_err().contains("--pipeline"));
    }
}
