//! One connection slot: its socket and life cycle, its requests in flight, the visitor it carries across
//! reconnects, and its layers: the bytes for the socket, the transport above them, the protocol on top.

use std::collections::VecDeque;
use std::io;
use std::time::Instant;

use mio::net::TcpStream;

use crate::mix::Turn;
use crate::protocol::Protocol;
use crate::transport::Transport;
use crate::visitor::Visitor;

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
    /// With --mix: the step it is.
    pub step: Option<usize>,
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
    /// Answers on the current connection (--requests-per-connection closes it at that many).
    pub served: u32,
    /// The client closed the last connection after its requests: the next one's first request waited for it.
    pub reopened: bool,
    /// The connection has been open at least once (the connect phase waits for every first one).
    pub opened_once: bool,
    pub idle_queued: bool,
    /// A read stopped at the per-event cap while the socket still had data.
    pub unread: bool,
    pub in_flight: VecDeque<InFlight>,
    pub visitor: Visitor,
    /// With --mix: where the slot is in it.
    pub turn: Option<Turn>,
    /// Bytes not yet accepted by the socket.
    pub out: Vec<u8>,
    pub transport: Transport,
    pub protocol: Protocol,
}

impl Conn {
    pub fn new(now: Instant, transport: Transport, protocol: Protocol, visitor: Visitor, turn: Option<Turn>) -> Self {
        Conn {
            stream: None,
            state: State::Closed,
            since: now,
            wanted: now,
            failures: 0,
            retry_at: None,
            answered: false,
            served: 0,
            reopened: false,
            opened_once: false,
            idle_queued: false,
            unread: false,
            in_flight: VecDeque::new(),
            visitor,
            turn,
            out: Vec::new(),
            transport,
            protocol,
        }
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
