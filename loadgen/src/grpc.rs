//! gRPC calls (--grpc): each a POST of one length-prefixed protobuf message on an HTTP/2 stream, whose answer must
//! be `application/grpc`, carry exactly the expected messages (compared as bytes: the harness encodes them, this
//! never parses protobuf) and end with `grpc-status: 0`. The calls are a mix of one step each, so every connection
//! sends a seeded shuffle of them and every answer is checked against its own call.

use serde::Deserialize;

use crate::mix::{Mix, Step};
use crate::request::Template;
use crate::stats::ErrorKind;

/// Distinct calls a spec may have.
pub const MAX_CALLS: usize = 1000;
/// A message's prefix: the compressed flag and the length (big-endian).
const PREFIX: usize = 5;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Spec {
    calls: Vec<CallSpec>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CallSpec {
    /// The request message, in hex.
    request: String,
    /// The messages the answer must carry, in order, in hex.
    replies: Vec<String>,
}

/// How a gRPC answer ended: its content type and its grpc-status (from the trailers, or a trailers-only answer).
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct End {
    pub grpc_type: bool,
    pub status: Option<u32>,
}

/// The calls of `json` to `path` as a mix; `host` and `headers` are what every request carries.
pub fn parse(json: &str, path: &str, host: &str, headers: &[u8]) -> Result<Mix, String> {
    let spec: Spec = serde_json::from_str(json).map_err(|e| format!("--grpc: not a gRPC spec ({e})"))?;
    if spec.calls.is_empty() || spec.calls.len() > MAX_CALLS {
        return Err(format!("--grpc: expected 1 to {MAX_CALLS} calls, got {}", spec.calls.len()));
    }
    let mut lines = headers.to_vec();
    lines.extend_from_slice(b"content-type: application/grpc\r\nte: trailers\r\n");
    let mut steps = Vec::new();
    for (i, call) in spec.calls.iter().enumerate() {
        let request = hex(&call.request).map_err(|e| format!("--grpc calls[{i}].request: {e}"))?;
        let mut replies = Vec::new();
        for (j, reply) in call.replies.iter().enumerate() {
            replies.push(hex(reply).map_err(|e| format!("--grpc calls[{i}].replies[{j}]: {e}"))?);
        }
        let template = Template::new("POST", path, host, &lines, &framed(&[request]), None)?;
        steps.push(Step::exact(format!("call {i}"), template, framed(&replies)));
    }
    Ok(Mix::of_calls(steps))
}

/// Messages as gRPC frames them on a stream: each uncompressed, behind its length.
pub fn framed(messages: &[Vec<u8>]) -> Vec<u8> {
    let mut out = Vec::new();
    for message in messages {
        out.push(0);
        out.extend_from_slice(&(message.len() as u32).to_be_bytes());
        out.extend_from_slice(message);
    }
    out
}

/// Checks a call's answer: 200, application/grpc, the expected messages byte for byte, then grpc-status 0. A
/// non-zero status is the answer's status error; anything else wrong is a validation error.
pub fn check(status: u16, body: &[u8], end: End, want: &[u8]) -> Result<(), ErrorKind> {
    if status != 200 || end.status.is_some_and(|s| s != 0) {
        return Err(ErrorKind::Status);
    }
    if !end.grpc_type || end.status.is_none() || body != want {
        return Err(ErrorKind::Validation);
    }
    Ok(())
}

/// The messages of a valid body (what a harness counts beside the calls).
pub fn messages(mut body: &[u8]) -> usize {
    let mut count = 0;
    while body.len() >= PREFIX {
        let length = u32::from_be_bytes([body[1], body[2], body[3], body[4]]) as usize;
        body = body.get(PREFIX + length..).unwrap_or_default();
        count += 1;
    }
    count
}

fn hex(text: &str) -> Result<Vec<u8>, String> {
    let digit = |b: u8| (b as char).to_digit(16).map(|d| d as u8);
    if !text.len().is_multiple_of(2) {
        return Err(format!("not hex: {} digits", text.len()));
    }
    text.as_bytes()
        .chunks(2)
        .map(|pair| match (digit(pair[0]), digit(pair[1])) {
            (Some(high), Some(low)) => Ok(high << 4 | low),
            _ => Err(format!("not hex: {:?}", String::from_utf8_lossy(pair))),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    const OK: End = End { grpc_type: true, status: Some(0) };

    #[test]
    fn messages_are_framed_behind_their_length_and_counted_back() {
        let body = framed(&[vec![8, 3], vec![]]);
        assert_eq!(body, [0, 0, 0, 0, 2, 8, 3, 0, 0, 0, 0, 0]);
        assert_eq!(messages(&body), 2);
    }

    #[test]
    fn an_answer_counts_only_with_every_message_and_grpc_status_0() {
        let want = framed(&[vec![8, 3]]);
        assert_eq!(check(200, &want, OK, &want), Ok(()));
        assert_eq!(check(200, &framed(&[vec![8, 4]]), OK, &want), Err(ErrorKind::Validation)); // a wrong sum
        assert_eq!(check(200, &framed(&[vec![8, 3], vec![8, 3]]), OK, &want), Err(ErrorKind::Validation)); // one more
        assert_eq!(check(200, b"", OK, &want), Err(ErrorKind::Validation)); // none
        let mut compressed = want.clone();
        compressed[0] = 1;
        assert_eq!(check(200, &compressed, OK, &want), Err(ErrorKind::Validation));
        assert_eq!(check(200, &want, End { status: Some(13), ..OK }, &want), Err(ErrorKind::Status));
        assert_eq!(check(200, &want, End { status: None, ..OK }, &want), Err(ErrorKind::Validation)); // no trailers
        assert_eq!(check(200, &want, End { grpc_type: false, ..OK }, &want), Err(ErrorKind::Validation));
        assert_eq!(check(503, &want, OK, &want), Err(ErrorKind::Status));
    }

    #[test]
    fn a_spec_becomes_one_post_per_call_and_bad_ones_are_named() {
        let mix = parse(r#"{"calls": [{"request": "0801", "replies": ["0801", ""]}]}"#, "/p.S/M", "h", b"").unwrap();
        assert_eq!(mix.steps.len(), 1);
        let mut out = Vec::new();
        mix.write(&mut mix.turn(0), &mut out);
        let text = String::from_utf8_lossy(&out);
        assert!(text.starts_with("POST /p.S/M HTTP/1.1\r\n") && text.contains("content-type: application/grpc\r\n"), "{text}");
        assert!(out.ends_with(&[0, 0, 0, 0, 2, 8, 1]), "{out:?}");
        assert!(parse(r#"{"calls": [{"request": "0g", "replies": []}]}"#, "/", "h", b"").unwrap_err().contains("calls[0].request"));
        assert!(parse(r#"{"calls": [{"request": "", "replies": ["1"]}]}"#, "/", "h", b"").unwrap_err().contains("calls[0].replies[0]"));
        assert!(parse(r#"{"calls": []}"#, "/", "h", b"").unwrap_err().contains("1 to 1000 calls"));
        assert!(parse("[", "/", "h", b"").unwrap_err().contains("--grpc"));
    }
}
