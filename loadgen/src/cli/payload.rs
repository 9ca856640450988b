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
    use super::PayloadArgs;
    use clap::Parser;

    #[derive(Parser)]
    struct Flags {
        #[command(flatten)]
        payload: PayloadArgs,
    }

    fn payload(args: &[&str]) -> PayloadArgs {
        Flags::try_parse_from(std::iter::once("shootout-load").chain(args.iter().copied())).unwrap().payload
    }

    #[test]
    fn bodies_and_encodings_are_checked() {
        let p = payload(&["--body-size", "3", "--chunk-size", "2"]);
        assert_eq!((p.body().unwrap(), p.chunk()), (vec![0, 1, 2], Some(2)));
        assert!(payload(&["--chunk-size", "2"]).body().unwrap_err().contains("needs a body"));
        assert!(Flags::try_parse_from(["shootout-load", "--body", "x", "--body-size", "3"]).is_err());
        assert_eq!(payload(&["--expect-encoding", "gzip"]).encoding(false, false).unwrap(), Some(b"gzip".to_vec()));
        assert!(payload(&["--expect-encoding", "br"]).encoding(false, false).unwrap_err().contains("only gzip"));
        assert!(payload(&["--expect-encoding", "gzip"]).encoding(true, false).unwrap_err().contains("HTTP/2"));
        assert!(payload(&[]).encoding(true, true).unwrap().is_none());
    }
}
