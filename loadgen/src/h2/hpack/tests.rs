//! The decoder against httlib-hpack's, a complete HPACK implementation, on blocks its encoder writes in
//! every representation; and against blocks that break the format.

use super::*;
use httlib_hpack::{Decoder as Reference, Encoder};
use proptest::prelude::*;

/// What the reference decoder makes of a block, reduced to what the client checks.
fn reference(decoder: &mut Reference, block: &[u8]) -> Fields {
    let mut fields = Vec::new();
    decoder.decode(&mut block.to_vec(), &mut fields).expect("the reference decodes its own encoder's block");
    let mut expected = Fields::default();
    for (name, value, _) in fields {
        match name.as_slice() {
            b":status" => expected.status = std::str::from_utf8(&value).ok().and_then(|s| s.parse().ok()),
            b"set-cookie" => expected.cookies.push(value),
            _ => {}
        }
    }
    expected
}

fn field() -> impl Strategy<Value = (Vec<u8>, Vec<u8>, u8)> {
    let name = prop_oneof![
        Just(b"set-cookie".to_vec()),
        Just(b"date".to_vec()),
        Just(b"content-type".to_vec()),
        Just(b"server".to_vec()),
        "x-[a-z]{1,12}".prop_map(String::into_bytes),
    ];
    // Long values fill the 4,096-byte table, so entries are evicted; the same values come again, as a server
    // repeats its own, so that lengths are also taken from what the decoder remembers.
    let value = prop_oneof![
        "[ -~]{0,40}".prop_map(String::into_bytes),
        "[a-z]{200,900}".prop_map(String::into_bytes),
        prop::sample::select(vec![&b"nginx/1.22.1"[..], b"Fri, 27 Nov 2026 08:30:00 GMT", b"13", b"text/plain"])
            .prop_map(<[u8]>::to_vec),
    ];
    let status = "[1-5][0-9]{2}".prop_map(|code| (b":status".to_vec(), code.into_bytes()));
    let flags = prop_oneof![
        Just(0),
        Just(Encoder::HUFFMAN_VALUE),
        Just(Encoder::HUFFMAN_NAME | Encoder::HUFFMAN_VALUE),
        Just(Encoder::WITH_INDEXING),
        Just(Encoder::WITH_INDEXING | Encoder::HUFFMAN_NAME | Encoder::HUFFMAN_VALUE),
        Just(Encoder::NEVER_INDEXED | Encoder::HUFFMAN_VALUE),
        Just(Encoder::BEST_FORMAT | Encoder::WITH_INDEXING | Encoder::HUFFMAN_VALUE),
        Just(Encoder::BEST_FORMAT),
    ];
    (prop_oneof![status, (name, value)], flags).prop_map(|((name, value), flags)| (name, value, flags))
}

proptest! {
    #[test]
    fn blocks_of_every_representation_decode_as_the_reference_decodes_them(
        blocks in prop::collection::vec(prop::collection::vec(field(), 1..8), 1..12),
    ) {
        let (mut encoder, mut reference_decoder, mut decoder) = (Encoder::default(), Reference::default(), Decoder::default());
        for fields in blocks {
            let mut block = Vec::new();
            for (name, value, flags) in fields {
                encoder.encode((name, value, flags), &mut block).unwrap();
            }
            prop_assert_eq!(decoder.decode(&block).unwrap(), reference(&mut reference_decoder, &block));
        }
    }
}

#[test]
fn a_size_update_evicts_and_one_above_our_setting_is_refused() {
    let mut decoder = Decoder::default();
    // set-cookie (static name 55) with incremental indexing, then the new entry by index 62.
    let fields = decoder.decode(&[0x40 | 55, 3, b'a', b'=', b'1', 0x80 | 62]).unwrap();
    assert_eq!(fields.cookies, [b"a=1".to_vec(), b"a=1".to_vec()]);
    decoder.decode(&[0x20]).unwrap(); // size 0: the entry goes
    assert!(decoder.decode(&[0x80 | 62]).unwrap_err().contains("out of range"));
    let above = [0x3f, 0xe1, 0x1f]; // 31 + 4,065 = 4,096 is the limit; one more is refused
    assert!(decoder.decode(&above).is_ok());
    assert!(decoder.decode(&[0x3f, 0xe2, 0x1f]).unwrap_err().contains("above"));
}

#[test]
fn broken_blocks_are_errors_not_panics() {
    for block in [&[0x80][..], &[0x80 | 70], &[0x40 | 55, 9, b'a'], &[0x00, 0x7f], &[0x0f], &[0x88 | 0x80, 0xff]] {
        let result = Decoder::default().decode(block);
        assert!(result.is_err(), "{block:02x?} decoded");
    }
    Decoder::default().decode(&[0x08, 2, b'o', b'k']).unwrap_err(); // :status "ok"
    assert_eq!(Decoder::default().decode(&[0x88]).map(|fields| fields.status), Ok(Some(200)));
}

#[test]
fn a_remembered_length_fills_the_table_to_the_byte() {
    const DATE: &[u8] = b"Fri, 27 Nov 2026 08:30:00 GMT"; // entries of 4 + 29 + 32 bytes
    // The cookie's entry (10 + 3 + 32 bytes) goes first, then one of padding (1 + pad + 32), then the date
    // three times, Huffman-coded: the second and third take their length from the first. At 3,823 bytes of
    // padding the table holds 4,096 bytes and still the cookie; at 3,824 the cookie is evicted.
    for (pad, kept) in [(3823, true), (3824, false)] {
        let mut block = Vec::new();
        let mut encoder = Encoder::default();
        encoder.encode((b"set-cookie".to_vec(), b"a=1".to_vec(), Encoder::WITH_INDEXING), &mut block).unwrap();
        encoder.encode((b"x".to_vec(), vec![b'p'; pad], Encoder::WITH_INDEXING), &mut block).unwrap();
        for _ in 0..3 {
            let flags = Encoder::WITH_INDEXING | Encoder::HUFFMAN_VALUE;
            encoder.encode((b"date".to_vec(), DATE.to_vec(), flags), &mut block).unwrap();
        }
        let mut decoder = Decoder::default();
        decoder.decode(&block).unwrap();
        let cookie = decoder.decode(&[0x80 | 66]).map(|fields| fields.cookies);
        assert_eq!(cookie.is_ok(), kept, "{pad} bytes of padding: {cookie:?}");
    }
}
