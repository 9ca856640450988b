//! Property tests of the response and frame parsers: arbitrary bytes never panic them, and whatever
//! they report as consumed lies within the input. Bounded by the case count, so it runs in cargo test.

use proptest::prelude::*;
use shootout_load::{http, ws};

const VALID: &[&[u8]] = &[
    b"HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello",
    b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n",
    b"HTTP/1.0 404 Not Found\r\nSet-Cookie: a=b\r\n\r\ngone",
    b"HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 204 No Content\r\n\r\n",
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
        ws::append_payload(input, &f, &mut Vec::new());
    }
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
    fn responses_split_anywhere_parse_the_same(which in 0..VALID.len(), split in any::<u16>()) {
        let input = VALID[which];
        let split = usize::from(split) % input.len();
        let mut decoded = Vec::new();
        let whole = http::parse(input, true, false, true, &mut decoded).unwrap().unwrap();
        // A prefix either is incomplete or already holds a whole (interim) response.
        match http::parse(&input[..split], false, false, true, &mut decoded) {
            Ok(None) => {}
            Ok(Some(r)) => prop_assert!(r.consumed <= split && r.status / 100 == 1),
            Err(e) => prop_assert!(false, "prefix of a valid response rejected: {}", e),
        }
        prop_assert!(whole.consumed <= input.len());
    }
}
