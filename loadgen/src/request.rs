//! Request bytes: built once when the path is fixed, or per request when it holds {rand:A:B} or (a --mix step)
//! {captured}.

use std::io::Write;

#[derive(Debug, Clone, PartialEq, Eq)]
enum Part {
    Text(Vec<u8>),
    Rand(u64, u64),
    /// What the connection captured from an earlier answer's Location (mix.rs).
    Captured,
}

#[derive(Debug)]
pub struct Template {
    /// "METHOD " then the path parts.
    parts: Vec<Part>,
    /// " HTTP/1.1\r\nHost: ...\r\n" and the fixed headers.
    head: Vec<u8>,
    body: Vec<u8>,
}

impl Template {
    /// `chunk`: the body goes out with Transfer-Encoding: chunked, in chunks of this size (encoded here, once).
    pub fn new(method: &str, path: &str, host: &str, headers: &[u8], body: &[u8], chunk: Option<usize>) -> Result<Self, String> {
        let mut parts = vec![Part::Text(format!("{method} ").into_bytes())];
        let mut rest = path;
        while let Some(open) = rest.find('{') {
            let close = rest[open..].find('}').map(|i| open + i).ok_or_else(|| format!("URL path {path:?}: unclosed '{{'"))?;
            let spec = &rest[open..=close];
            parts.push(Part::Text(rest.as_bytes()[..open].to_vec()));
            rest = &rest[close + 1..];
            if spec == "{captured}" {
                parts.push(Part::Captured);
                continue;
            }
            let bounds = spec[1..spec.len() - 1]
                .strip_prefix("rand:")
                .and_then(|b| b.split_once(':'))
                .and_then(|(a, b)| Some((a.parse::<u64>().ok()?, b.parse::<u64>().ok()?)))
                .filter(|(a, b)| a <= b)
                .ok_or_else(|| format!("URL path {path:?}: {spec} is not a template (expected {{rand:A:B}} with A <= B)"))?;
            parts.push(Part::Rand(bounds.0, bounds.1));
        }
        parts.push(Part::Text(rest.as_bytes().to_vec()));
        parts.retain(|p| p != &Part::Text(Vec::new()));
        let mut head = format!(" HTTP/1.1\r\nHost: {host}\r\n").into_bytes();
        head.extend_from_slice(headers);
        let body = match chunk {
            Some(size) => {
                head.extend_from_slice(b"Transfer-Encoding: chunked\r\n");
                chunked(body, size)
            }
            None => {
                if !body.is_empty() {
                    head.extend_from_slice(format!("Content-Length: {}\r\n", body.len()).as_bytes());
                }
                body.to_vec()
            }
        };
        Ok(Template { parts, head, body })
    }

    pub fn is_static(&self) -> bool {
        self.parts.iter().all(|p| matches!(p, Part::Text(_)))
    }

    /// Whether the path takes what an earlier answer's Location held.
    pub fn captures(&self) -> bool {
        self.parts.contains(&Part::Captured)
    }

    /// Appends one request; `cookie` is the visitor's "Cookie: ...\r\n" line or empty.
    pub fn write(&self, out: &mut Vec<u8>, cookie: &[u8], rng: &mut fastrand::Rng) {
        self.write_captured(out, cookie, rng, b"");
    }

    /// Appends one request whose {captured} is `captured`.
    pub fn write_captured(&self, out: &mut Vec<u8>, cookie: &[u8], rng: &mut fastrand::Rng, captured: &[u8]) {
        for part in &self.parts {
            match part {
                Part::Text(text) => out.extend_from_slice(text),
                Part::Rand(lo, hi) => {
                    let _ = write!(out, "{}", rng.u64(*lo..=*hi));
                }
                Part::Captured => out.extend_from_slice(captured),
            }
        }
        out.extend_from_slice(&self.head);
        out.extend_from_slice(cookie);
        out.extend_from_slice(b"\r\n");
        out.extend_from_slice(&self.body);
    }
}

/// `body` as chunks of `size` bytes (the last one shorter) and the last, empty chunk.
fn chunked(body: &[u8], size: usize) -> Vec<u8> {
    let mut out = Vec::with_capacity(body.len() + body.len() / size.max(1) * 12 + 5);
    for piece in body.chunks(size.max(1)) {
        let _ = write!(out, "{:x}\r\n", piece.len());
        out.extend_from_slice(piece);
        out.extend_from_slice(b"\r\n");
    }
    out.extend_from_slice(b"0\r\n\r\n");
    out
}

/// A body of `size` bytes whose byte i is i mod 251 (webshootout's upload workload expects the same bytes).
pub fn pattern(size: usize) -> Vec<u8> {
    (0..size).map(|i| (i % 251) as u8).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fixed_request_with_body_and_cookie() {
        let t = Template::new("POST", "/x?a=1", "h:1", b"A: b\r\n", b"hi", None).unwrap();
        assert!(t.is_static());
        let mut out = Vec::new();
        t.write(&mut out, b"Cookie: s=1\r\n", &mut fastrand::Rng::with_seed(1));
        assert_eq!(out, b"POST /x?a=1 HTTP/1.1\r\nHost: h:1\r\nA: b\r\nContent-Length: 2\r\nCookie: s=1\r\n\r\nhi");
    }

    #[test]
    fn a_chunked_body_is_framed_once() {
        let t = Template::new("POST", "/u", "h", b"", &pattern(5), Some(2)).unwrap();
        let mut out = Vec::new();
        t.write(&mut out, b"", &mut fastrand::Rng::with_seed(1));
        assert_eq!(out, b"POST /u HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n\x00\x01\r\n2\r\n\x02\x03\r\n1\r\n\x04\r\n0\r\n\r\n");
        assert_eq!(pattern(253)[250..], [250, 0, 1]);
    }

    #[test]
    fn rand_template_stays_in_bounds() {
        let t = Template::new("GET", "/db?id={rand:3:5}&x", "h", b"", b"", None).unwrap();
        assert!(!t.is_static());
        let mut rng = fastrand::Rng::with_seed(7);
        let mut seen = std::collections::BTreeSet::new();
        for _ in 0..200 {
            let mut out = Vec::new();
            t.write(&mut out, b"", &mut rng);
            let line = String::from_utf8(out).unwrap();
            let id: u64 = line["GET /db?id=".len()..line.find("&x").unwrap()].parse().unwrap();
            seen.insert(id);
        }
        assert_eq!(seen.into_iter().collect::<Vec<_>>(), vec![3, 4, 5]);
    }
}
