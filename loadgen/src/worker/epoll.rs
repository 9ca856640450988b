//! The mio (epoll) path, the fallback where io_uring is missing or disabled: readiness events, then a
//! `send`/`recv` system call per operation. Reads per readiness event are capped so one flooding server
//! cannot keep the thread from its other connections and its timeout scan.

use std::io::{self, Read, Write};
use std::time::{Duration, Instant};

use mio::net::TcpStream;
use mio::{Events, Interest, Poll, Token};

use super::{Driver, Worker};
use crate::cli::Config;
use crate::conn::{Conn, State};
use crate::stats::ErrorKind;
use crate::timer::Timer;

const READ_BUFFER: usize = 64 * 1024;
/// Reads of one connection per readiness event (each up to the 64 KiB read buffer).
const MAX_READS: usize = 16;
/// The open-loop timer's token; connections are numbered from 0.
const TIMER: Token = Token(usize::MAX);

pub struct Epoll {
    poll: Poll,
    /// Open loop only.
    timer: Option<Timer>,
    scratch: Vec<u8>,
    /// Connections whose reads stopped at the per-event cap with data left.
    unread: Vec<usize>,
}

/// What one read from the socket gave.
enum Received {
    Data(usize),
    End,
    Nothing,
    Failed,
}

impl Driver for Epoll {
    fn new(config: &Config, _connections: usize) -> io::Result<Self> {
        let poll = Poll::new()?;
        // Open loop only: requests fall due between readiness events.
        let timer = if config.rate.is_some() { Some(Timer::new(poll.registry(), TIMER)?) } else { None };
        Ok(Epoll { poll, timer, scratch: vec![0; READ_BUFFER], unread: Vec::new() })
    }

    fn watch(&mut self, idx: usize, stream: &mut TcpStream) -> io::Result<()> {
        self.poll.registry().register(stream, Token(idx), Interest::READABLE | Interest::WRITABLE)
    }

    /// Readiness was asked for at the connect: it reports the reads too.
    fn connected(&mut self, _idx: usize, _conn: &Conn) -> io::Result<()> {
        Ok(())
    }

    /// Writes until done or the socket is full.
    fn send(&mut self, _idx: usize, conn: &mut Conn) -> io::Result<()> {
        let Some(stream) = conn.stream.as_mut() else { return Err(io::ErrorKind::NotConnected.into()) };
        while !conn.out.is_empty() {
            match stream.write(&conn.out) {
                Ok(0) => return Err(io::ErrorKind::WriteZero.into()),
                Ok(n) if n == conn.out.len() => conn.out.clear(),
                Ok(n) => {
                    conn.out.drain(..n);
                }
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => break,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
        Ok(())
    }

    fn forget(&mut self, _idx: usize, stream: &mut TcpStream) {
        let _ = self.poll.registry().deregister(stream);
    }

    fn run(worker: &mut Worker<Self>) {
        worker.run_epoll();
    }
}

/// One read into `scratch`.
fn receive(conn: &mut Conn, scratch: &mut [u8]) -> Received {
    let Some(stream) = conn.stream.as_mut() else { return Received::Failed };
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

impl Worker<Epoll> {
    fn run_epoll(&mut self) {
        let mut events = Events::with_capacity(1024);
        let mut next_scan = self.window.start;
        loop {
            let now = Instant::now();
            let Some(wake) = self.turn(now, &mut next_scan) else { break };
            let due = self.next_due();
            let epoll = &mut self.io;
            if let (Some(due), Some(timer)) = (due, epoll.timer.as_mut()) {
                timer.arm(due, now);
            }
            let wait = if epoll.unread.is_empty() { wake.saturating_duration_since(now) } else { Duration::ZERO };
            if let Err(e) = epoll.poll.poll(&mut events, Some(wait)) {
                if e.kind() == io::ErrorKind::Interrupted {
                    continue;
                }
                self.abandon(e);
                break;
            }
            let now = Instant::now();
            for event in events.iter() {
                if event.token() == TIMER {
                    if let Some(timer) = self.io.timer.as_mut() {
                        timer.fired();
                    }
                    continue;
                }
                let idx = event.token().0;
                match self.conns[idx].state {
                    State::Closed => {}
                    State::Connecting => self.on_connect(idx, event.is_error() || event.is_write_closed(), now),
                    State::Tls | State::Handshake | State::Open => {
                        if event.is_writable() && self.conns[idx].has_output() && !self.flush(idx, now) {
                            continue;
                        }
                        let closing = event.is_read_closed() || event.is_error();
                        if event.is_readable() || closing {
                            self.on_readable(idx, closing, now);
                        }
                    }
                }
            }
            self.read_unread(now);
        }
    }

    /// `closing`: the peer's close was reported with the data, so read on until the end of file shows.
    fn on_readable(&mut self, idx: usize, closing: bool, now: Instant) {
        let mut scratch = std::mem::take(&mut self.io.scratch);
        for reads in 0.. {
            if reads == MAX_READS {
                // Edge-triggered readiness will not report what is left: come back after the others.
                if !std::mem::replace(&mut self.conns[idx].unread, true) {
                    self.io.unread.push(idx);
                }
                break;
            }
            match receive(&mut self.conns[idx], &mut scratch) {
                Received::End => {
                    self.ended(idx, now);
                    break;
                }
                Received::Data(n) => {
                    if !self.received(idx, &scratch[..n], now) {
                        break;
                    }
                    // A short read emptied the socket; edge-triggered readiness reports new data later.
                    if n < scratch.len() && !closing {
                        break;
                    }
                }
                Received::Nothing => break,
                Received::Failed => {
                    self.close(idx, Some(ErrorKind::Read), now);
                    break;
                }
            }
        }
        self.io.scratch = scratch;
        if self.conns[idx].stream.is_some() && self.conns[idx].has_output() {
            self.flush(idx, now);
        }
    }

    /// Connections whose reads hit the cap last time get their next turn.
    fn read_unread(&mut self, now: Instant) {
        for idx in std::mem::take(&mut self.io.unread) {
            if std::mem::replace(&mut self.conns[idx].unread, false) {
                self.on_readable(idx, true, now);
            }
        }
    }
}
