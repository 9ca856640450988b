//! WebSocket: an HTTP/1.1 upgrade, then the message sent as one masked frame and its echo read back,
//! reassembled from fragments; pings are answered here, pongs ignored, a close ends the connection.

use super::http1::Http1;
use super::input::{Input, Unit};
use crate::stats::ErrorKind;
use crate::ws;

/// Bytes of pongs we may queue for a server that pings but does not read.
pub const MAX_OUT: usize = 1024 * 1024;

pub struct WebSocket {
    /// The upgrade's answer is an HTTP/1.1 response; what a read leaves unparsed is kept here too.
    http: Http1,
    upgraded: bool,
    /// The message, framed and masked once for every request of this connection slot.
    frame: Vec<u8>,
    mask: [u8; 4],
    /// The message being reassembled; handed out whole, then cleared at the next call.
    message: Vec<u8>,
    echoed: bool,
}

impl WebSocket {
    pub fn new(http: Http1, message: &[u8], mask: [u8; 4]) -> Self {
        let frame = ws::frame(ws::OP_TEXT, message, mask);
        WebSocket { http, upgraded: false, frame, mask, message: Vec::new(), echoed: false }
    }

    pub fn start(&mut self, handshake: &[u8], out: &mut Vec<u8>) {
        self.upgraded = false;
        out.extend_from_slice(handshake);
    }

    pub fn request(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.frame);
    }

    pub fn input<'d>(&mut self, data: &'d [u8], eof: bool) -> Input<'d> {
        self.http.input(data, eof)
    }

    pub fn keep(&mut self, input: Input) {
        self.http.keep(input);
    }

    pub fn close(&mut self) {
        self.http.close();
        self.message.clear();
        self.echoed = false;
    }

    /// `queued`: bytes waiting for the socket beyond `out`, which count against the bound on pongs.
    pub fn next<'a>(&'a mut self, input: &'a mut Input, decoded: &mut Vec<u8>, out: &mut Vec<u8>, queued: usize) -> Unit<'a> {
        if std::mem::take(&mut self.echoed) {
            self.message.clear();
        }
        if !self.upgraded {
            return match self.http.response(input, decoded) {
                // The upgrade was refused: the connection failed to open.
                Ok(Some(response)) if response.status != 101 => Unit::Close(ErrorKind::Status),
                Ok(Some(_)) => {
                    self.upgraded = true;
                    Unit::Upgraded
                }
                Ok(None) if input.eof && input.at == input.bytes().len() => Unit::End,
                Ok(None) => Unit::More,
                Err(kind) => Unit::Close(kind),
            };
        }
        loop {
            let rest = &input.bytes()[input.at..];
            if rest.is_empty() {
                return if input.eof { Unit::End } else { Unit::More };
            }
            let frame = match ws::parse_frame(rest) {
                Ok(Some(frame)) => frame,
                Ok(None) if input.eof => return Unit::Close(ErrorKind::Read),
                Ok(None) => return Unit::More,
                Err(_) => return Unit::Close(ErrorKind::Parse),
            };
            match frame.opcode {
                ws::OP_PING => {
                    if out.len() + queued > MAX_OUT {
                        return Unit::Close(ErrorKind::Write);
                    }
                    let mut payload = Vec::new();
                    // A control frame's payload is at most 125 bytes (parse_frame checked), far below the limit.
                    let _ = ws::append_payload(rest, &frame, &mut payload);
                    // Sent once the reads of this event are done: a burst of pings costs one write.
                    out.extend_from_slice(&ws::frame(ws::OP_PONG, &payload, self.mask));
                }
                ws::OP_PONG => {}
                ws::OP_CLOSE => return Unit::End,
                _ => {
                    if ws::append_payload(rest, &frame, &mut self.message).is_err() {
                        return Unit::Close(ErrorKind::Parse);
                    }
                    if frame.fin {
                        input.at += frame.consumed;
                        self.echoed = true;
                        return Unit::Echo(&self.message);
                    }
                }
            }
            input.at += frame.consumed;
        }
    }
}
