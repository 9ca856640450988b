//! The client side of WebSocket framing (RFC 6455): masked frames out, unmasked frames in.

use crate::http::{ParseError, MAX_BODY};

pub const OP_CONTINUATION: u8 = 0x0;
pub const OP_TEXT: u8 = 0x1;
pub const OP_BINARY: u8 = 0x2;
pub const OP_CLOSE: u8 = 0x8;
pub const OP_PING: u8 = 0x9;
pub const OP_PONG: u8 = 0xA;

/// The opening handshake. The key is fixed: it only has to be well-formed, and the accept value is not
/// checked (a server that answers 101 and then echoes frames has done the upgrade).
pub fn handshake(host: &str, path: &str, extra_headers: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(256);
    out.extend_from_slice(format!("GET {path} HTTP/1.1\r\nHost: {host}\r\n").as_bytes());
    out.extend_from_slice(
        b"Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n",
    );
    out.extend_from_slice(extra_headers);
    out.extend_from_slice(b"\r\n");
    out
}

/// One client frame (FIN set), masked with `mask` as clients must.
pub fn frame(opcode: u8, payload: &[u8], mask: [u8; 4]) -> Vec<u8> {
    let mut out = Vec::with_capacity(payload.len() + 14);
    out.push(0x80 | opcode);
    match payload.len() {
        n @ 0..=125 => out.push(0x80 | n as u8),
        n @ 126..=0xFFFF => {
            out.push(0x80 | 126);
            out.extend_from_slice(&(n as u16).to_be_bytes());
        }
        n => {
            out.push(0x80 | 127);
            out.extend_from_slice(&(n as u64).to_be_bytes());
        }
    }
    out.extend_from_slice(&mask);
    out.extend(payload.iter().enumerate().map(|(i, b)| b ^ mask[i % 4]));
    out
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Frame {
    pub fin: bool,
    pub opcode: u8,
    /// Bytes of the input this frame occupies.
    pub consumed: usize,
    pub payload: (usize, usize),
    /// Servers must not mask; if one does anyway, its payload is unmasked into the caller's buffer.
    pub masked: Option<[u8; 4]>,
}

/// Finds one frame at the start of `input`, or `None` until all of it has arrived.
pub fn parse_frame(input: &[u8]) -> Result<Option<Frame>, ParseError> {
    if input.len() < 2 {
        return Ok(None);
    }
    let (b0, b1) = (input[0], input[1]);
    if b0 & 0x70 != 0 {
        return Err(ParseError("WebSocket frame with reserved bits set".into()));
    }
    let opcode = b0 & 0x0F;
    if !matches!(opcode, OP_CONTINUATION | OP_TEXT | OP_BINARY | OP_CLOSE | OP_PING | OP_PONG) {
        return Err(ParseError(format!("WebSocket frame with unknown opcode {opcode:#x}")));
    }
    let mut at = 2;
    let len = match b1 & 0x7F {
        126 => {
            let Some(bytes) = input.get(2..4) else { return Ok(None) };
            at = 4;
            u64::from(u16::from_be_bytes([bytes[0], bytes[1]]))
        }
        127 => {
            let Some(bytes) = input.get(2..10) else { return Ok(None) };
            at = 10;
            u64::from_be_bytes(bytes.try_into().expect("slice of 8"))
        }
        n => u64::from(n),
    };
    // RFC 6455 5.5: control frames carry at most 125 bytes and are never fragmented.
    if opcode >= OP_CLOSE && (len > 125 || b0 & 0x80 == 0) {
        return Err(ParseError(format!("WebSocket control frame {opcode:#x} fragmented or longer than 125 bytes")));
    }
    if len > MAX_BODY as u64 {
        return Err(ParseError(format!("WebSocket frame of {len} bytes exceeds the {MAX_BODY}-byte limit")));
    }
    let masked = if b1 & 0x80 != 0 {
        let Some(key) = input.get(at..at + 4) else { return Ok(None) };
        at += 4;
        Some([key[0], key[1], key[2], key[3]])
    } else {
        None
    };
    let end = at + len as usize;
    if input.len() < end {
        return Ok(None);
    }
    Ok(Some(Frame { fin: b0 & 0x80 != 0, opcode, consumed: end, payload: (at, end), masked }))
}

/// Appends a frame's payload to `out`, unmasking it if the server masked it; a message reassembled
/// from fragments may not grow beyond the one-frame limit.
pub fn append_payload(input: &[u8], frame: &Frame, out: &mut Vec<u8>) -> Result<(), ParseError> {
    let data = &input[frame.payload.0..frame.payload.1];
    if out.len() + data.len() > MAX_BODY {
        return Err(ParseError(format!("WebSocket message exceeds the {MAX_BODY}-byte limit")));
    }
    match frame.masked {
        None => out.extend_from_slice(data),
        Some(key) => out.extend(data.iter().enumerate().map(|(i, b)| b ^ key[i % 4])),
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn masked_frame_roundtrips() {
        let bytes = frame(OP_TEXT, b"hello", [1, 2, 3, 4]);
        let f = parse_frame(&bytes).unwrap().unwrap();
        assert!(f.fin && f.opcode == OP_TEXT && f.consumed == bytes.len());
        let mut out = Vec::new();
        append_payload(&bytes, &f, &mut out).unwrap();
        assert_eq!(out, b"hello");
    }

    #[test]
    fn long_lengths_and_partial_input() {
        let payload = vec![7u8; 70_000];
        let bytes = frame(OP_BINARY, &payload, [9, 9, 9, 9]);
        assert_eq!(parse_frame(&bytes[..bytes.len() - 1]).unwrap(), None);
        assert_eq!(parse_frame(&bytes).unwrap().unwrap().payload.1 - 14, 70_000);
    }

    #[test]
    fn bad_frames_are_errors() {
        assert!(parse_frame(&[0x83, 0]).is_err());
        assert!(parse_frame(&[0xC1, 0]).is_err());
        assert!(parse_frame(&[0x81, 127, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]).is_err());
        assert!(parse_frame(&[0x89, 126, 0, 200]).is_err(), "a ping longer than 125 bytes");
        assert!(parse_frame(&[0x09, 0]).is_err(), "a fragmented ping");
    }

    #[test]
    fn fragments_cannot_outgrow_the_limit() {
        let piece = vec![b'a'; MAX_BODY / 2 + 1];
        let bytes = frame(OP_CONTINUATION, &piece, [0; 4]);
        let f = parse_frame(&bytes).unwrap().unwrap();
        let mut message = Vec::new();
        append_payload(&bytes, &f, &mut message).unwrap();
        assert!(append_payload(&bytes, &f, &mut message).unwrap_err().0.contains("message exceeds"));
    }
}
