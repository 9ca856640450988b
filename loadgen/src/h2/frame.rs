//! HTTP/2 frames (RFC 9113 section 4 and 6): the nine-byte header, and the few frames a client writes.

pub const PREFACE: &[u8] = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n";
pub const HEADER_LEN: usize = 9;

pub const DATA: u8 = 0;
pub const HEADERS: u8 = 1;
pub const RST_STREAM: u8 = 3;
pub const SETTINGS: u8 = 4;
pub const PUSH_PROMISE: u8 = 5;
pub const PING: u8 = 6;
pub const GOAWAY: u8 = 7;
pub const CONTINUATION: u8 = 9;

pub const END_STREAM: u8 = 0x1;
pub const ACK: u8 = 0x1;
pub const END_HEADERS: u8 = 0x4;
pub const PADDED: u8 = 0x8;
pub const PRIORITY: u8 = 0x20;

pub const SETTINGS_HEADER_TABLE_SIZE: u16 = 0x1;
pub const SETTINGS_ENABLE_PUSH: u16 = 0x2;
pub const SETTINGS_MAX_CONCURRENT_STREAMS: u16 = 0x3;
pub const SETTINGS_INITIAL_WINDOW_SIZE: u16 = 0x4;
pub const SETTINGS_MAX_FRAME_SIZE: u16 = 0x5;

/// The smallest frame payload every peer must accept, and the window every stream starts with.
pub const DEFAULT_MAX_FRAME: usize = 16_384;
pub const DEFAULT_WINDOW: u32 = 65_535;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Header {
    pub length: usize,
    pub kind: u8,
    pub flags: u8,
    pub stream: u32,
}

impl Header {
    pub fn parse(bytes: &[u8]) -> Option<Header> {
        let b = bytes.get(..HEADER_LEN)?;
        Some(Header {
            length: usize::from(b[0]) << 16 | usize::from(b[1]) << 8 | usize::from(b[2]),
            kind: b[3],
            flags: b[4],
            stream: u32::from_be_bytes([b[5], b[6], b[7], b[8]]) & 0x7fff_ffff,
        })
    }
}

/// Appends a frame header; `length` is the payload's.
pub fn write_header(out: &mut Vec<u8>, length: usize, kind: u8, flags: u8, stream: u32) {
    let len = (length as u32).to_be_bytes();
    out.extend_from_slice(&len[1..]);
    out.push(kind);
    out.push(flags);
    out.extend_from_slice(&stream.to_be_bytes());
}

pub fn write_settings(out: &mut Vec<u8>, settings: &[(u16, u32)]) {
    write_header(out, 6 * settings.len(), SETTINGS, 0, 0);
    for &(id, value) in settings {
        out.extend_from_slice(&id.to_be_bytes());
        out.extend_from_slice(&value.to_be_bytes());
    }
}

pub fn write_window_update(out: &mut Vec<u8>, stream: u32, increment: u32) {
    write_header(out, 4, 8, 0, stream);
    out.extend_from_slice(&increment.to_be_bytes());
}

/// A payload without its padding (and, for HEADERS, its priority fields); None if they do not fit.
pub fn unpadded(payload: &[u8], flags: u8, priority_len: usize) -> Option<&[u8]> {
    let (pad, rest) = if flags & PADDED != 0 { (usize::from(*payload.first()?), &payload[1..]) } else { (0, payload) };
    let rest = rest.get(priority_len..)?;
    rest.get(..rest.len().checked_sub(pad)?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_header_reads_back_what_was_written() {
        let mut out = Vec::new();
        write_header(&mut out, 70_000, HEADERS, END_HEADERS | END_STREAM, 0x8000_0003);
        let h = Header::parse(&out).unwrap();
        assert_eq!((h.length, h.kind, h.flags, h.stream), (70_000, HEADERS, 5, 3)); // the reserved bit is ignored
        assert!(Header::parse(&out[..8]).is_none());
    }

    #[test]
    fn padding_and_priority_are_taken_off() {
        assert_eq!(unpadded(b"\x02abcXX", PADDED, 0), Some(&b"abc"[..]));
        assert_eq!(unpadded(b"\x01PPPPPab!", PADDED | PRIORITY, 5), Some(&b"ab"[..]));
        assert_eq!(unpadded(b"abc", 0, 0), Some(&b"abc"[..]));
        assert_eq!(unpadded(b"\x09abc", PADDED, 0), None);
    }
}
