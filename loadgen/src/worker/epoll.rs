//! The mio (epoll) path, the fallback where io_uring is missing or disabled: readiness events, then a
//! `send`/`recv` system call per operation. Reads per readiness event are capped so one flooding server
//! cannot keep the thread from its other connections and its timeout scan.

use std::io;
use std::time::{Duration, Instant};

use mio::net::TcpStream;
use mio::{Events, Interest, Poll, Token};

use super::{Io, Worker};
use crate::conn::{Received, State};
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

impl Epoll {
    pub fn new(open_loop: bool) -> io::Result<Self> {
        let poll = Poll::new()?;
        let timer = if open_loop { Some(Timer::new(poll.registry(), TIMER)?) } else { None };
        Ok(Epoll { poll, timer, scratch: vec![0; READ_BUFFER], unread: Vec::new() })
    }

    pub fn register(&self, stream: &mut TcpStream, idx: usize) -> io::Result<()> {
        self.poll.registry().register(stream, Token(idx), Interest::READABLE | Interest::WRITABLE)
    }

    pub fn deregister(&self, stream: &mut TcpStream) {
        let _ = self.poll.registry().deregister(stream);
    }
}

impl Worker {
    fn epoll(&mut self) -> &mut Epoll {
        match &mut self.io {
            Io::Epoll(epoll) => epoll,
            Io::Uring(_) => unreachable!("the epoll loop runs on the epoll path only"),
        }
    }

    pub(super) fn run_epoll(&mut self) {
        let mut events = Events::with_capacity(1024);
        let mut next_scan = self.window.start;
        loop {
            let now = Instant::now();
            let Some(wake) = self.turn(now, &mut next_scan) else { break };
            let due = self.next_due();
            let epoll = self.epoll();
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
                    if let Some(timer) = self.epoll().timer.as_mut() {
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
        let mut scratch = std::mem::take(&mut self.epoll().scratch);
        for reads in 0.. {
            if reads == MAX_READS {
                // Edge-triggered readiness will not report what is left: come back after the others.
                if !std::mem::replace(&mut self.conns[idx].unread, true) {
                    self.epoll().unread.push(idx);
                }
                break;
            }
            match self.conns[idx].receive(&mut scratch) {
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
        self.epoll().scratch = scratch;
        if self.conns[idx].stream.is_some() && self.conns[idx].has_output() {
            self.flush(idx, now);
        }
    }

    /// Connections whose reads hit the cap last time get their next turn.
    fn read_unread(&mut self, now: Instant) {
        for idx in std::mem::take(&mut self.epoll().unread) {
            if std::mem::replace(&mut self.conns[idx].unread, false) {
                self.on_readable(idx, true, now);
            }
        }
    }
}
