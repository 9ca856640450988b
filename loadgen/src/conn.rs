//! One connection slot: its socket, buffers and requests in flight, the visitor it carries across
//! reconnects, and the socket I/O on it (bounded, so neither side can grow a buffer without end).

use std::collections::VecDeque;
use std::io::{self, Read, Write};
use std::time::Instant;

use mio::net::TcpStream;

use crate::visitor::Visitor;

/// Bytes of pongs we may queue for a server that pings but does not read.
pub const MAX_OUT: usize = 1024 * 1024;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum State {
    /// No socket; queued for (re)connection or waiting out a back-off.
    Closed,
    Connecting,
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
}

/// What one read from the socket gave.
#[derive(Debug, PartialEq, Eq)]
pub enum Received {
    Data(usize),
    End,
    Nothing,
    Failed,
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
    pub in_flight: VecDeque<InFlight>,
    pub visitor: Visitor,
    /// WebSocket: the masked message frame, the mask, and a message being reassembled from fragments.
    pub frame: Vec<u8>,
    pub mask: [u8; 4],
    pub message: Vec<u8>,
}

impl Conn {
    pub fn new(now: Instant, visitor: Visitor, mask: [u8; 4], frame: Vec<u8>) -> Self {
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
            in_flight: VecDeque::new(),
            visitor,
            frame,
            mask,
            message: Vec::new(),
        }
    }

    /// Writes what is buffered until done or the socket is full; an error if the connection failed.
    pub fn flush(&mut self) -> io::Result<()> {
        let Some(stream) = self.stream.as_mut() else { return Err(io::ErrorKind::NotConnected.into()) };
        while !self.out.is_empty() {
            match stream.write(&self.out) {
                Ok(0) => return Err(io::ErrorKind::WriteZero.into()),
                Ok(n) if n == self.out.len() => self.out.clear(),
                Ok(n) => {
                    self.out.drain(..n);
                }
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => break,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
        Ok(())
    }

    /// One read into `scratch`.
    pub fn receive(&mut self, scratch: &mut [u8]) -> Received {
        let Some(stream) = self.stream.as_mut() else { return Received::Failed };
        loop {
            return match stream.read(scratch) {
                Ok(0) => Received::End,
                Ok(n) => Received::Data(n),
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => Received::Nothing,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(_) => Received::Failed,
            };
        }
    }
}
