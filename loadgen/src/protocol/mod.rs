//! A connection's protocol, above its transport: HTTP/1.1, HTTP/2 or WebSocket, the same for every
//! connection of a run. It writes what opens the connection and each request into the transport's writer,
//! and reads the transport's plaintext one `Unit` at a time, keeping what does not make a whole one yet for
//! the next read. Sans-I/O, like the transport: the worker moves the bytes and records the answers.

mod http1;
mod http2;
mod input;
mod websocket;

use http1::Http1;
use http2::Http2;
pub use input::{Answer, Cookies, Input, Unit};
use websocket::WebSocket;

use crate::cli::Config;
use crate::request::Template;
use crate::visitor::Visitor;

pub enum Protocol {
    Http1(Http1),
    Http2(Http2),
    WebSocket(WebSocket),
}

/// What a protocol sent first, and whether the connection takes requests after it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Opening {
    /// Nothing: requests go out as the load wants them.
    Open,
    /// HTTP/2's preface: requests may follow right behind it.
    Preface,
    /// WebSocket's upgrade: requests once the server has taken it.
    Upgrade,
}

impl Protocol {
    /// A connection slot's protocol, kept across its connections; `rng` picks a WebSocket slot's mask.
    pub fn new(config: &Config, rng: &mut fastrand::Rng) -> Self {
        let http1 = Http1::new(config.head_request, config.validates_body());
        match &config.websocket {
            Some((_, message)) => Protocol::WebSocket(WebSocket::new(http1, message, rng.u32(..).to_be_bytes())),
            None if config.http2 => Protocol::Http2(Http2::new(config.validates_body())),
            None => Protocol::Http1(http1),
        }
    }

    /// The connection is up (TCP, and its transport): what opens it goes into `out`.
    pub fn start(&mut self, config: &Config, secure: bool, out: &mut Vec<u8>) -> Opening {
        match self {
            Protocol::Http1(_) => Opening::Open,
            Protocol::Http2(h2) => {
                h2.start(secure, out);
                Opening::Preface
            }
            Protocol::WebSocket(ws) => {
                ws.start(config.websocket.as_ref().map_or(&[][..], |(handshake, _)| handshake), out);
                Opening::Upgrade
            }
        }
    }

    /// Requests the connection may have in flight (`pipeline` asked for); None once the server takes no
    /// new ones (HTTP/2's GOAWAY).
    pub fn room(&self, pipeline: usize) -> Option<usize> {
        match self {
            Protocol::Http2(h2) => h2.room(pipeline),
            Protocol::Http1(_) | Protocol::WebSocket(_) => Some(pipeline),
        }
    }

    /// Writes the visitor's next request into `out` (HTTP/2 via `http1`, where the visitor writes it
    /// first); returns the stream it goes on (0 where answers come in order).
    pub fn request(
        &mut self,
        visitor: &Visitor,
        template: &Template,
        rng: &mut fastrand::Rng,
        http1: &mut Vec<u8>,
        out: &mut Vec<u8>,
    ) -> Result<u32, String> {
        match self {
            Protocol::Http1(_) => visitor.write_request(template, out, rng),
            Protocol::Http2(h2) => return h2.request(visitor, template, rng, http1, out),
            Protocol::WebSocket(ws) => ws.request(out),
        }
        Ok(0)
    }

    /// Sends a request written as HTTP/1.1 already (a --mix step or --grpc call); returns its stream as `request`.
    pub fn send(&mut self, written: &[u8], out: &mut Vec<u8>) -> Result<u32, String> {
        match self {
            Protocol::Http2(h2) => h2.send(written, out),
            Protocol::Http1(_) | Protocol::WebSocket(_) => {
                out.extend_from_slice(written);
                Ok(0)
            }
        }
    }

    /// Bytes the transport gave (none and `eof` when the server has closed), to read with `next`; what
    /// the protocol answers on its own as it reads goes to `out`.
    pub fn input<'d>(&mut self, data: &'d [u8], eof: bool, out: &mut Vec<u8>) -> Input<'d> {
        match self {
            Protocol::Http1(h1) => h1.input(data, eof),
            Protocol::Http2(h2) => h2.input(data, eof, out),
            Protocol::WebSocket(ws) => ws.input(data, eof),
        }
    }

    /// The next unit of `input`. `decoded` takes a chunked body that is checked; `out` the protocol's own
    /// answers, such as pongs, bounded together with the `queued` bytes that wait beyond it.
    pub fn next<'a>(&'a mut self, input: &'a mut Input, decoded: &'a mut Vec<u8>, out: &mut Vec<u8>, queued: usize) -> Unit<'a> {
        match self {
            Protocol::Http1(h1) => h1.next(input, decoded),
            Protocol::Http2(h2) => h2.next(input),
            Protocol::WebSocket(ws) => ws.next(input, decoded, out, queued),
        }
    }

    /// Keeps what `input` had left for the next read (the connection reads on).
    pub fn keep(&mut self, input: Input) {
        match self {
            Protocol::Http1(h1) => h1.keep(input),
            Protocol::Http2(_) => {}
            Protocol::WebSocket(ws) => ws.keep(input),
        }
    }

    /// The connection is closed: what it had read and not used goes.
    pub fn close(&mut self) {
        match self {
            Protocol::Http1(h1) => h1.close(),
            Protocol::Http2(h2) => h2.close(),
            Protocol::WebSocket(ws) => ws.close(),
        }
    }
}
