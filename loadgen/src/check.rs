//! Whether an answer is what the run expects: status, body, session counter, WebSocket echo. Only
//! answers that pass count as throughput and latency; the others are counted by what was wrong.

use std::io::Read;

use crate::cli::Config;
use crate::http::MAX_BODY;
use crate::stats::ErrorKind;
use crate::visitor::counter_value;

/// With --expect-encoding, every answer's Content-Encoding is checked, and one in this many (per thread, the
/// first included) is decoded and its body checked: decoding them all would cost the client more CPU than the
/// server spends compressing.
pub const DECODE_EVERY: u32 = 16;

/// Checks one HTTP response. `count` is the visitor's last counter value; it is moved to what the
/// server said, so one lost answer is one error rather than all that follow. With an expected encoding,
/// `decode` holds the buffer to decode this answer's body into, or None to check its encoding alone.
pub fn response(
    config: &Config,
    status: u16,
    body: &[u8],
    encoding: &[u8],
    count: &mut u64,
    decode: Option<&mut Vec<u8>>,
) -> Result<(), ErrorKind> {
    if status != config.expect_status {
        return Err(ErrorKind::Status);
    }
    let body = match &config.expect_encoding {
        None => body,
        Some(want) if !encoding.trim_ascii().eq_ignore_ascii_case(want) => return Err(ErrorKind::Validation),
        Some(_) => match decode {
            None => return Ok(()),
            Some(out) => {
                gunzip(body, out)?;
                &out[..]
            }
        },
    };
    let mut ok = config.expect_body.as_deref().is_none_or(|want| body == want)
        && config.expect_body_regex.as_ref().is_none_or(|re| re.is_match(body));
    if config.expect_counter {
        let seen = counter_value(body);
        ok &= seen == Some(*count + 1);
        *count = seen.unwrap_or(*count);
    }
    if ok {
        Ok(())
    } else {
        Err(ErrorKind::Validation)
    }
}

/// A gzip body decoded into `out`, at most MAX_BODY bytes of it.
fn gunzip(body: &[u8], out: &mut Vec<u8>) -> Result<(), ErrorKind> {
    out.clear();
    match flate2::read::GzDecoder::new(body).take(MAX_BODY as u64 + 1).read_to_end(out) {
        Ok(n) if n <= MAX_BODY => Ok(()),
        _ => Err(ErrorKind::Validation),
    }
}

/// Checks one WebSocket message against the one sent.
pub fn echo(config: &Config, message: &[u8]) -> Result<(), ErrorKind> {
    match &config.websocket {
        Some((_, sent)) if sent == message => Ok(()),
        _ => Err(ErrorKind::Validation),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::Args;
    use clap::Parser;

    fn config(args: &[&str]) -> Config {
        let mut argv = vec!["shootout-load"];
        argv.extend_from_slice(args);
        Args::try_parse_from(argv).unwrap().into_config().unwrap()
    }

    #[test]
    fn status_then_body() {
        let c = config(&["--expect-body", "ok", "http://127.0.0.1:1/"]);
        assert_eq!(response(&c, 200, b"ok", b"", &mut 0, None), Ok(()));
        assert_eq!(response(&c, 500, b"ok", b"", &mut 0, None), Err(ErrorKind::Status));
        assert_eq!(response(&c, 200, b"no", b"", &mut 0, None), Err(ErrorKind::Validation));
        let re = config(&["--expect-status", "201", "--expect-body-regex", "^[0-9]+$", "http://127.0.0.1:1/"]);
        assert_eq!(response(&re, 201, b"42", b"", &mut 0, None), Ok(()));
        assert_eq!(response(&re, 201, b"4x", b"", &mut 0, None), Err(ErrorKind::Validation));
    }

    #[test]
    fn an_expected_encoding_is_checked_on_every_answer_and_decoded_when_asked() {
        use std::io::Write;
        let c = config(&["--expect-encoding", "gzip", "--expect-body", "hello", "http://127.0.0.1:1/"]);
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        gz.write_all(b"hello").unwrap();
        let body = gz.finish().unwrap();
        let mut out = Vec::new();
        assert_eq!(response(&c, 200, &body, b"gzip", &mut 0, Some(&mut out)), Ok(()));
        assert_eq!(response(&c, 200, b"hello", b"", &mut 0, None), Err(ErrorKind::Validation));
        assert_eq!(response(&c, 200, b"not gzip", b"gzip", &mut 0, None), Ok(()));
        assert_eq!(response(&c, 200, b"not gzip", b"gzip", &mut 0, Some(&mut out)), Err(ErrorKind::Validation));
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        gz.write_all(b"goodbye").unwrap();
        assert_eq!(response(&c, 200, &gz.finish().unwrap(), b" GZIP", &mut 0, Some(&mut out)), Err(ErrorKind::Validation));
    }

    #[test]
    fn counter_resynchronises_after_a_gap() {
        let c = config(&["--sessions", "--expect-counter", "http://127.0.0.1:1/"]);
        let mut count = 0;
        assert_eq!(response(&c, 200, b"Count is 1", b"", &mut count, None), Ok(()));
        assert_eq!(response(&c, 200, b"Count is 3", b"", &mut count, None), Err(ErrorKind::Validation));
        assert_eq!(response(&c, 200, b"Count is 4", b"", &mut count, None), Ok(()));
        assert_eq!(response(&c, 200, b"nonsense", b"", &mut count, None), Err(ErrorKind::Validation));
        assert_eq!(count, 4);
    }

    #[test]
    fn echoes_must_match() {
        let c = config(&["--websocket", "--message", "hi", "ws://127.0.0.1:1/"]);
        assert_eq!(echo(&c, b"hi"), Ok(()));
        assert_eq!(echo(&c, b"ih"), Err(ErrorKind::Validation));
    }
}
