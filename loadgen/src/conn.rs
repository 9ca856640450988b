//! One connection slot: its socket, buffers and requests in flight, and the visitor it carries across
//! reconnects.

use std::collections::VecDeque;
use std::io;
use std::time::Instant;

use mio::net::TcpStream;

use crate::h2;
use crate::transport::Transport;
use crate::visitor::Visitor;

/// Bytes of pongs we may queue for a server that pings but does not read.
pub const MAX_OUT: usize = 1024 * 1024;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum State {
    /// No socket; queued for (re)connection or waiting out a back-off.
    Closed,
    Connecting,
    /// TLS: the handshake is under way.
    Tls,
    /// WebSocket: upgrade request sent, 101 not yet seen.
    Handshake,
    Open,
}

#[derive(Debug, Clone, Copy)]
pub struct InFlight {
    /// When the request should have gone out (open loop), did (closed loop), or, one connection per
    /// request, when its connection was wanted (so the connect is part of its latency).
    pub intended: Instant,
    pub sent: Instant,
    /// HTTP/2: the stream that carries it (0 over HTTP/1.1, where answers come in order).
    pub stream: u32,
}

pub struct Conn {
    pub stream: Option<TcpStream>,
    pub state: State,
    /// When the current connect or handshake began (for its timeout).
    pub since: Instant,
    /// When the slot last asked for a connection (for the latency of a connection per request).
    pub wanted: Instant,
    /// Back-off: consecutive connections that ended before any answer.
    pub failures: u32,
    pub retry_at: Option<Instant>,
    pub answered: bool,
    /// The connection has been open at least once (the connect phase waits for every first one).
    pub opened_once: bool,
    pub idle_queued: bool,
    /// A read stopped at the per-event cap while the socket still had data.
    pub unread: bool,
    /// Received bytes not yet making up a whole response.
    pub pending: Vec<u8>,
    /// Bytes not yet accepted by the socket.
    pub out: Vec<u8>,
    pub transport: Transport,
    /// With HTTP/2: the connection's streams and header compression.
    pub h2: Option<Box<h2::Client>>,
    pub in_flight: VecDeque<InFlight>,
    pub visitor: Visitor,
    /// WebSocket: the masked message frame, the mask, and a message being reassembled from fragments.
    pub frame: Vec<u8>,
    pub mask: [u8; 4],
    pub message: Vec<u8>,
}

impl Conn {
    pub fn new(now: Instant, transport: Transport, visitor: Visitor, mask: [u8; 4], frame: Vec<u8>) -> Self {
        Conn {
            stream: None,
            state: State::Closed,
            since: now,
            wanted: now,
            failures: 0,
            retry_at: None,
            answered: false,
            opened_once: false,
            idle_queued: false,
            unread: false,
            pending: Vec::new(),
            out: Vec::new(),
            transport,
            h2: None,
            in_flight: VecDeque::new(),
            visitor,
            frame,
            mask,
            message: Vec::new(),
        }
    }

    /// Where the protocol above the transport writes.
    pub fn outgoing(&mut self) -> &mut Vec<u8> {
        self.writers().2
    }

    /// What writes requests (the visitor, and HTTP/2's framing) beside where it writes, borrowed apart.
    pub fn writers(&mut self) -> (&mut Visitor, Option<&mut h2::Client>, &mut Vec<u8>) {
        (&mut self.visitor, self.h2.as_deref_mut(), self.transport.writer(&mut self.out))
    }

    /// Anything waits to be sent: bytes, or what the transport has to seal first.
    pub fn has_output(&self) -> bool {
        !self.out.is_empty() || self.transport.unsealed()
    }

    /// Moves everything the transport holds into `out`, for the socket.
    pub fn seal(&mut self) -> io::Result<()> {
        self.transport.seal(&mut self.out)
    }
}
