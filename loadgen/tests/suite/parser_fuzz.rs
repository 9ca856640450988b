//! Property tests of the response and frame parsers: arbitrary bytes never panic them, whatever they
//! report as consumed lies within the input, and bytes arriving in pieces parse as they do whole.
//! Bounded by the case count, so it runs in cargo test.

use proptest::prelude::*;
use shootout_load::{http, ws};

const VALID: &[&[u8]] = &[
    b"HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello",
    b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n",
    b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3;ext=1\r\nabc\r\n2\r\nde\r\n0\r\nTrailer: x\r\n\r\n",
    b"HTTP/1.0 404 Not Found\r\nSet-Cookie: a=b\r\n\r\ngone",
    b"HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 204 No Content\r\n\r\n",
    b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nokHTTP/1.1 500 Oops\r\nConnection: close\r\nContent-Length: 0\r\n\r\n",
];

fn check(input: &[u8]) {
    for eof in [false, true] {
        for keep in [false, true] {
            let mut decoded = Vec::new();
            if let Ok(Some(r)) = http::parse(input, eof, false, keep, &mut decoded) {
                assert!(r.consumed <= input.len());
                let _ = r.body(input, &decoded);
                for &(s, e) in &r.set_cookies {
                    assert!(s <= e && e <= input.len());
                }
            }
        }
    }
    if let Ok(Some(f)) = ws::parse_frame(input) {
        assert!(f.consumed <= input.len() && f.payload.1 <= input.len());
        let _ = ws::append_payload(input, &f, &mut Vec::new());
    }
}

/// What a connection makes of the bytes: each response's status, body and close, or an error.
type Outcome = Result<(u16, Vec<u8>, bool), ()>;

/// Feeds `pieces` to the parser the way a connection does: whole responses are taken off the front of
/// what has arrived, the rest waits for more bytes, and the end of input comes last.
fn parse_pieces(pieces: &[&[u8]]) -> Vec<Outcome> {
    let mut buffer = Vec::new();
    let mut out = Vec::new();
    let mut ended = false;
    for (i, piece) in pieces.iter().enumerate() {
        buffer.extend_from_slice(piece);
        ended |= take_responses(&mut buffer, false, &mut out);
        if ended {
            return out;
        }
        if i == pieces.len() - 1 {
            take_responses(&mut buffer, true, &mut out);
        }
    }
    out
}

/// Takes the whole responses at the front of `buffer`; true once the connection is over.
fn take_responses(buffer: &mut Vec<u8>, eof: bool, out: &mut Vec<Outcome>) -> bool {
    let mut decoded = Vec::new();
    while !buffer.is_empty() {
        match http::parse(buffer, eof, false, true, &mut decoded) {
            Ok(Some(r)) => {
                out.push(Ok((r.status, r.body(buffer, &decoded).to_vec(), r.close)));
                buffer.drain(..r.consumed);
                if r.close {
                    return true;
                }
            }
            Ok(None) => return false,
            Err(_) => {
                out.push(Err(()));
                return true;
            }
        }
    }
    false
}

/// A valid response with a few bytes overwritten, inserted or cut.
fn mutated() -> impl Strategy<Value = Vec<u8>> {
    (0..VALID.len(), prop::collection::vec((any::<u16>(), any::<u8>(), 0u8..3), 0..6), any::<u16>()).prop_map(
        |(which, edits, cut)| {
            let mut bytes = VALID[which].to_vec();
            for (at, byte, op) in edits {
                let at = usize::from(at) % (bytes.len() + 1);
                match op {
                    0 if at < bytes.len() => bytes[at] = byte,
                    1 => bytes.insert(at, byte),
                    _ if at < bytes.len() => {
                        bytes.remove(at);
                    }
                    _ => {}
                }
            }
            bytes.truncate(usize::from(cut) % (bytes.len() + 1) + bytes.len() / 2);
            bytes
        },
    )
}

/// Two cut points, in order, within `len`.
fn cuts(len: usize, a: u16, b: u16) -> (usize, usize) {
    let (a, b) = (usize::from(a) % (len + 1), usize::from(b) % (len + 1));
    (a.min(b), a.max(b))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 3000, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_bytes_never_panic(input in prop::collection::vec(any::<u8>(), 0..512)) {
        check(&input);
    }

    #[test]
    fn mutated_responses_never_panic(input in mutated()) {
        check(&input);
    }

    #[test]
    fn valid_responses_split_anywhere_parse_as_whole(which in 0..VALID.len(), a in any::<u16>(), b in any::<u16>()) {
        let input = VALID[which];
        let (a, b) = cuts(input.len(), a, b);
        let whole = parse_pieces(&[input]);
        prop_assert!(!whole.is_empty() && whole.iter().all(Result::is_ok), "{:?}", whole);
        prop_assert_eq!(parse_pieces(&[&input[..a], &input[a..b], &input[b..]]), whole);
    }

    #[test]
    fn mutated_responses_split_anywhere_parse_as_whole(input in mutated(), a in any::<u16>(), b in any::<u16>()) {
        let (a, b) = cuts(input.len(), a, b);
        prop_assert_eq!(parse_pieces(&[&input[..a], &input[a..b], &input[b..]]), parse_pieces(&[&input]));
    }
}
