//! HTTP/1.1 response parsing over whatever bytes a server sent so far.
//!
//! The parser is stateless: it is handed the unconsumed bytes of a connection and either finds one whole
//! response at their start, asks for more, or names what is wrong. Nothing a server sends may panic it;
//! every limit below turns an abusive response into a `ParseError` instead of unbounded memory.

use std::fmt;

/// Longest status line plus headers we wait for before calling the response malformed.
pub const MAX_HEAD: usize = 64 * 1024;
/// Most headers one response may carry.
pub const MAX_HEADERS: usize = 64;
/// Largest body we are prepared to buffer (Content-Length, the sum of chunks, or a body ended by the
/// close), and the largest WebSocket message. Every workload answers far less; the bound keeps a hostile
/// server from growing a connection's buffers without end.
pub const MAX_BODY: usize = 4 * 1024 * 1024;
/// Longest chunk-size line (size, extensions and CRLF) we wait for.
pub const MAX_CHUNK_LINE: usize = 4 * 1024;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseError(pub String);

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

fn bad(what: impl Into<String>) -> ParseError {
    ParseError(what.into())
}

/// Where a complete response's body is: inside the input, or decoded from chunks into the caller's buffer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Body {
    Slice(usize, usize),
    Decoded,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Response {
    pub status: u16,
    /// Bytes of the input this response occupies (head and body).
    pub consumed: usize,
    pub body: Body,
    /// The server will close the connection after this response.
    pub close: bool,
    /// Values of the Set-Cookie headers, as byte ranges of the input.
    pub set_cookies: Vec<(usize, usize)>,
    /// The Content-Encoding header's value, as a byte range of the input (empty: none).
    pub encoding: (usize, usize),
    /// The Location header's value, likewise.
    pub location: (usize, usize),
}

impl Response {
    pub fn body<'a>(&self, input: &'a [u8], decoded: &'a [u8]) -> &'a [u8] {
        match self.body {
            Body::Slice(start, end) => &input[start..end],
            Body::Decoded => decoded,
        }
    }
}

enum Framing {
    Length(usize),
    Chunked,
    UntilClose,
    Empty,
}

/// Finds one response at the start of `input`.
///
/// `eof` says the server closed its side, which completes a body framed by the close. `head_request` says
/// the request was HEAD (no body follows whatever the headers claim). Chunked bodies are decoded into
/// `decoded` only when `keep_body` is set, so load without validation does not copy bodies.
/// Interim 1xx responses are reported like any other; the caller skips them.
pub fn parse(
    input: &[u8],
    eof: bool,
    head_request: bool,
    keep_body: bool,
    decoded: &mut Vec<u8>,
) -> Result<Option<Response>, ParseError> {
    let mut headers = [httparse::EMPTY_HEADER; MAX_HEADERS];
    let mut parsed = httparse::Response::new(&mut headers);
    let head_len = match parsed.parse(input) {
        Ok(httparse::Status::Complete(n)) => n,
        Ok(httparse::Status::Partial) if input.len() > MAX_HEAD => {
            return Err(bad(format!("response head longer than {MAX_HEAD} bytes")))
        }
        Ok(httparse::Status::Partial) if eof => return Err(bad("connection closed inside a response head")),
        Ok(httparse::Status::Partial) => return Ok(None),
        Err(e) => return Err(bad(format!("malformed response head: {e}"))),
    };
    if head_len > MAX_HEAD {
        return Err(bad(format!("response head longer than {MAX_HEAD} bytes")));
    }
    let status = parsed.code.unwrap_or(0);
    // HTTP/1.0 closes unless asked not to; HTTP/1.1 keeps alive unless told to close.
    let mut close = parsed.version == Some(0);
    let mut length: Option<usize> = None;
    let mut chunked = false;
    let mut set_cookies = Vec::new();
    let mut encoding = (0, 0);
    let mut location = (0, 0);
    for header in parsed.headers.iter() {
        let name = header.name;
        if name.eq_ignore_ascii_case("content-length") {
            let value = content_length(header.value)?;
            if length.is_some_and(|seen| seen != value) {
                return Err(bad("conflicting Content-Length headers"));
            }
            length = Some(value);
        } else if name.eq_ignore_ascii_case("transfer-encoding") {
            chunked = last_token(header.value).eq_ignore_ascii_case(b"chunked");
            if !chunked {
                return Err(bad(format!("unsupported Transfer-Encoding {:?}", String::from_utf8_lossy(header.value))));
            }
        } else if name.eq_ignore_ascii_case("connection") {
            for token in header.value.split(|&b| b == b',') {
                let token = token.trim_ascii();
                if token.eq_ignore_ascii_case(b"close") {
                    close = true;
                } else if token.eq_ignore_ascii_case(b"keep-alive") {
                    close = false;
                }
            }
        } else if name.eq_ignore_ascii_case("set-cookie") {
            set_cookies.push(range_of(input, header.value));
        } else if name.eq_ignore_ascii_case("content-encoding") {
            encoding = range_of(input, header.value);
        } else if name.eq_ignore_ascii_case("location") {
            location = range_of(input, header.value);
        }
    }
    let framing = if head_request || status / 100 == 1 || status == 204 || status == 304 {
        Framing::Empty
    } else if chunked {
        Framing::Chunked
    } else if let Some(n) = length {
        Framing::Length(n)
    } else {
        Framing::UntilClose
    };
    let (body, consumed) = match framing {
        Framing::Empty => (Body::Slice(head_len, head_len), head_len),
        Framing::Length(n) => {
            if n > MAX_BODY {
                return Err(bad(format!("Content-Length {n} exceeds the {MAX_BODY}-byte limit")));
            }
            if input.len() - head_len < n {
                if eof {
                    return Err(bad(format!(
                        "connection closed after {} of {n} body bytes",
                        input.len() - head_len
                    )));
                }
                return Ok(None);
            }
            (Body::Slice(head_len, head_len + n), head_len + n)
        }
        Framing::UntilClose => {
            if input.len() - head_len > MAX_BODY {
                return Err(bad(format!("body without length exceeds the {MAX_BODY}-byte limit")));
            }
            if !eof {
                return Ok(None);
            }
            close = true;
            (Body::Slice(head_len, input.len()), input.len())
        }
        Framing::Chunked => {
            decoded.clear();
            match dechunk(&input[head_len..], keep_body.then_some(decoded))? {
                Some(n) => (Body::Decoded, head_len + n),
                None if eof => return Err(bad("connection closed inside a chunked body")),
                None => return Ok(None),
            }
        }
    };
    Ok(Some(Response { status, consumed, body, close, set_cookies, encoding, location }))
}

/// Where a header value borrowed from `input` lies in it.
fn range_of(input: &[u8], value: &[u8]) -> (usize, usize) {
    let start = value.as_ptr() as usize - input.as_ptr() as usize;
    (start, start + value.len())
}

fn content_length(value: &[u8]) -> Result<usize, ParseError> {
    let digits = value.trim_ascii();
    if digits.is_empty() || digits.len() > 18 || !digits.iter().all(u8::is_ascii_digit) {
        return Err(bad(format!("bad Content-Length {:?}", String::from_utf8_lossy(value))));
    }
    Ok(digits.iter().fold(0usize, |n, d| n * 10 + usize::from(d - b'0')))
}

fn last_token(value: &[u8]) -> &[u8] {
    value.rsplit(|&b| b == b',').next().unwrap_or(value).trim_ascii()
}

/// Walks a chunked body; returns how many bytes it spans once the last chunk and trailers are in.
fn dechunk(input: &[u8], mut out: Option<&mut Vec<u8>>) -> Result<Option<usize>, ParseError> {
    let mut at = 0;
    let mut total = 0usize;
    loop {
        let (size_len, size) = match httparse::parse_chunk_size(&input[at..]) {
            Ok(httparse::Status::Complete(found)) => found,
            Ok(httparse::Status::Partial) if input.len() - at > MAX_CHUNK_LINE => {
                return Err(bad(format!("chunk size line longer than {MAX_CHUNK_LINE} bytes")))
            }
            Ok(httparse::Status::Partial) => return Ok(None),
            Err(_) => return Err(bad("malformed chunk size line")),
        };
        at += size_len;
        // Many small chunks with long extensions: the framing, not just the data, is bounded.
        if at > MAX_BODY + MAX_HEAD {
            return Err(bad(format!("chunked body framing exceeds {} bytes", MAX_BODY + MAX_HEAD)));
        }
        if size == 0 {
            return trailers(input, at);
        }
        total = usize::try_from(size)
            .ok()
            .and_then(|s| total.checked_add(s))
            .filter(|&t| t <= MAX_BODY)
            .ok_or_else(|| bad(format!("chunked body exceeds the {MAX_BODY}-byte limit")))?;
        let size = size as usize;
        if input.len() - at < size + 2 {
            return Ok(None);
        }
        if &input[at + size..at + size + 2] != b"\r\n" {
            return Err(bad("chunk data not followed by CRLF"));
        }
        if let Some(out) = out.as_deref_mut() {
            out.extend_from_slice(&input[at..at + size]);
        }
        at += size + 2;
    }
}

/// After the last chunk: trailer lines until an empty line.
fn trailers(input: &[u8], mut at: usize) -> Result<Option<usize>, ParseError> {
    loop {
        let rest = &input[at..];
        let Some(line_end) = rest.windows(2).position(|w| w == b"\r\n") else {
            if rest.len() > MAX_HEAD {
                return Err(bad("chunked trailers too long"));
            }
            return Ok(None);
        };
        at += line_end + 2;
        if line_end == 0 {
            return Ok(Some(at));
        }
        if at > MAX_HEAD + MAX_BODY {
            return Err(bad("chunked trailers too long"));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn one(input: &[u8]) -> Result<Option<Response>, ParseError> {
        parse(input, false, false, true, &mut Vec::new())
    }

    #[test]
    fn content_length_body() {
        let input = b"HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhelloHTTP/1.1";
        let r = one(input).unwrap().unwrap();
        assert_eq!((r.status, r.consumed, r.close), (200, input.len() - 8, false));
        assert_eq!(r.body(input, &[]), b"hello");
    }

    #[test]
    fn incomplete_then_complete() {
        assert_eq!(one(b"HTTP/1.1 200 OK\r\nContent-Len").unwrap(), None);
        assert_eq!(one(b"HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhel").unwrap(), None);
    }

    #[test]
    fn chunked_is_decoded_with_trailers() {
        let input = b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n2;x=y\r\nde\r\n0\r\nT: 1\r\n\r\n";
        let mut decoded = Vec::new();
        let r = parse(input, false, false, true, &mut decoded).unwrap().unwrap();
        assert_eq!(r.consumed, input.len());
        assert_eq!(r.body(input, &decoded), b"abcde");
    }

    #[test]
    fn broken_chunks_are_errors() {
        assert!(one(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n").is_err());
        assert!(one(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabcX\r\n").is_err());
    }

    #[test]
    fn close_and_until_close() {
        let input = b"HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 0\r\n\r\n";
        assert!(one(input).unwrap().unwrap().close);
        let input = b"HTTP/1.0 200 OK\r\n\r\nbody";
        assert_eq!(one(input).unwrap(), None);
        let r = parse(input, true, false, true, &mut Vec::new()).unwrap().unwrap();
        assert!(r.close);
        assert_eq!(r.body(input, &[]), b"body");
    }

    #[test]
    fn malformed_heads_are_errors() {
        assert!(one(b"HTTX/1.1 200 OK\r\n\r\n").is_err());
        assert!(one(b"HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n").is_err());
        assert!(one(b"HTTP/1.1 200 OK\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n").is_err());
        let mut huge = b"HTTP/1.1 200 OK\r\nX: ".to_vec();
        huge.resize(MAX_HEAD + 10, b'a');
        assert!(one(&huge).is_err());
        let many: String = (0..100).map(|i| format!("H{i}: v\r\n")).collect();
        assert!(one(format!("HTTP/1.1 200 OK\r\n{many}\r\n").as_bytes()).is_err());
    }

    #[test]
    fn unbounded_bodies_and_chunk_lines_are_errors() {
        let mut endless = b"HTTP/1.1 200 OK\r\n\r\n".to_vec();
        endless.resize(endless.len() + MAX_BODY + 1, b'x');
        assert!(one(&endless).unwrap_err().0.contains("without length"));
        let mut extension = b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5;x=".to_vec();
        extension.resize(extension.len() + MAX_CHUNK_LINE, b'y');
        assert!(one(&extension).unwrap_err().0.contains("chunk size line"));
        let mut many = b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n".to_vec();
        let chunk = format!("1;{}\r\na\r\n", "e".repeat(MAX_CHUNK_LINE - 16));
        while many.len() <= MAX_BODY + MAX_HEAD + chunk.len() {
            many.extend_from_slice(chunk.as_bytes());
        }
        assert!(one(&many).unwrap_err().0.contains("framing"));
    }

    #[test]
    fn the_content_encoding_is_located() {
        let input = b"HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\nContent-Length: 0\r\n\r\n";
        let (s, e) = one(input).unwrap().unwrap().encoding;
        assert_eq!(&input[s..e], b"gzip");
        assert_eq!(one(b"HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n").unwrap().unwrap().encoding, (0, 0));
    }

    #[test]
    fn cookies_are_located() {
        let input = b"HTTP/1.1 200 OK\r\nSet-Cookie: a=1; Path=/\r\nContent-Length: 0\r\n\r\n";
        let r = one(input).unwrap().unwrap();
        let (s, e) = r.set_cookies[0];
        assert_eq!(&input[s..e], b"a=1; Path=/");
    }
}
