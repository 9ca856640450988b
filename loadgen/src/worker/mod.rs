//! One thread's event loop: its share of the connections, its own histograms, no shared state but the
//! window. This file keeps what every turn of the loop does and the requests (send, time out);
//! `opening` the connections' life cycle and the connect phase, `epoll` and `uring` the two drivers (event
//! loop and socket I/O), `secure` the transport between socket and protocol, `receive` turns what the
//! protocol reads into answers, `record` counts them, `steps` follows the window and bursts.

pub(crate) mod bufring;
pub mod epoll;
mod opening;
mod receive;
mod record;
mod secure;
mod steps;
pub mod uring;

use std::collections::VecDeque;
use std::io;
use std::sync::Arc;
use std::time::{Duration, Instant};

use mio::net::TcpStream;

use crate::cli::Config;
use crate::conn::{Conn, InFlight, State};
use crate::protocol::Protocol;
use crate::schedule::{self, Pacing, Window};
use crate::stats::{ErrorKind, Stats};
use crate::transport::Transport;
use crate::visitor::Visitor;

/// How often connections are checked for timeouts and back-offs.
const SCAN: Duration = Duration::from_millis(20);

/// The event loop and the socket I/O of a run's path (`epoll::Epoll`, `uring::Uring`): what the worker
/// asks of the kernel for its connections. The rest of the worker is the same code on either path.
pub trait Driver: Sized {
    fn new(config: &Config, connections: usize) -> io::Result<Self>;
    /// A connect is under way on the slot's new socket: its end is to be reported.
    fn watch(&mut self, idx: usize, stream: &mut TcpStream) -> io::Result<()>;
    /// The connection is up: what it receives is to be reported.
    fn connected(&mut self, idx: usize, conn: &Conn) -> io::Result<()>;
    /// Hands the connection's buffered bytes to the socket; an error if the connection failed.
    fn send(&mut self, idx: usize, conn: &mut Conn) -> io::Result<()>;
    /// The slot's socket is about to be closed: nothing more is to be reported of it.
    fn forget(&mut self, idx: usize, stream: &mut TcpStream);
    /// Turns the worker's loop until its window has closed.
    fn run(worker: &mut Worker<Self>);
}

pub struct Worker<D> {
    config: Arc<Config>,
    window: Arc<Window>,
    index: usize,
    threads: usize,
    io: D,
    conns: Vec<Conn>,
    stats: Stats,
    rng: fastrand::Rng,
    to_connect: VecDeque<usize>,
    /// Connections handed to `to_connect` so far; a burst releases more at each step.
    released: usize,
    /// Connections being opened (connect or WebSocket upgrade), and how many may be at once.
    opening: usize,
    stage: usize,
    /// Connections that have been open at least once.
    first_opened: usize,
    /// Connections the connect phase opens before any request (none with a connection per request).
    phase_target: usize,
    /// This thread's connect phase is over (all open, or the deadline passed).
    phase_over: bool,
    /// Requests go out (every thread starts at once, after the connect phase).
    loading: bool,
    /// The window's start and end once every thread has settled.
    measure: Option<Instant>,
    end: Option<Instant>,
    measuring: bool,
    /// Open loop: connections able to take a request, and the schedule.
    idle: VecDeque<usize>,
    pacing: Option<Pacing>,
    /// A refused cookie was reported already (once per thread is enough to name the problem).
    warned: bool,
    /// Scratch: a request as HTTP/1.1 before HTTP/2 frames it, plaintext the transport gave, a chunked
    /// body decoded to check it.
    request: Vec<u8>,
    plain_in: Vec<u8>,
    decoded: Vec<u8>,
    /// A compressed body decoded to check it, and how many answers until the next one is (check::DECODE_EVERY).
    inflated: Vec<u8>,
    decode_in: u32,
}

impl<D: Driver> Worker<D> {
    pub fn new(config: Arc<Config>, window: Arc<Window>, index: usize, threads: usize, connections: usize) -> io::Result<Self> {
        let released = match config.burst.first() {
            Some(&first) => schedule::share(first, index, threads),
            None => connections,
        };
        let mut rng = fastrand::Rng::new();
        let conns = (0..connections)
            .map(|i| {
                let visitor = Visitor::new(&config.template, &mut rng);
                let protocol = Protocol::new(&config, &mut rng);
                // The slot's place in the run (thread, then connection), so its mix is the same every run.
                let turn = config.mix.as_ref().map(|mix| mix.turn(((index as u64) << 32) | i as u64));
                Conn::new(window.start, Transport::new(config.tls.is_some()), protocol, visitor, turn)
            })
            .collect();
        Ok(Worker {
            io: D::new(&config, connections)?,
            pacing: config.rate.map(|rate| Pacing::new(rate, index, threads, window.start)),
            conns,
            stats: Stats::with_steps(config.mix.as_ref().map_or(0, |mix| mix.steps.len())),
            rng,
            // With a connection per request, each connect belongs to its request: none is opened ahead.
            phase_target: if config.keepalive { released } else { 0 },
            to_connect: (0..released).collect(),
            released,
            opening: 0,
            stage: schedule::share(config.connect_concurrency, index, threads).max(1),
            first_opened: 0,
            phase_over: false,
            loading: false,
            measure: None,
            end: None,
            measuring: false,
            idle: VecDeque::new(),
            warned: false,
            request: Vec::new(),
            plain_in: Vec::new(),
            decoded: Vec::new(),
            inflated: Vec::new(),
            decode_in: 0,
            config,
            window,
            index,
            threads,
        })
    }

    pub fn run(mut self) -> Stats {
        D::run(&mut self);
        self.stats.flush();
        self.stats
    }

    /// What every turn of either loop does before it waits: follows the window, scans, opens
    /// connections and sends what is due. None once the window has closed (and was recorded), else
    /// when the loop must wake at the latest.
    fn turn(&mut self, now: Instant, next_scan: &mut Instant) -> Option<Instant> {
        let deadline = self.follow_phase(now);
        if self.window.short() || self.window.failed() {
            return None; // too few connections opened, or the server does not speak what was asked: no load
        }
        self.follow_window(now);
        if let Some(end) = self.end.filter(|&end| now >= end) {
            self.finish(end);
            return None;
        }
        if now >= *next_scan {
            self.scan(now);
            *next_scan = now + SCAN;
        }
        let next_step = self.release(now);
        self.start_connects(now);
        let mut wake = *next_scan;
        let load_start = self.window.load_start().filter(|_| !self.loading);
        for at in [deadline, load_start, next_step, self.end, self.measure.filter(|_| !self.measuring)].into_iter().flatten() {
            wake = wake.min(at);
        }
        if self.pacing.is_some() {
            self.dispatch(now);
        }
        Some(wake)
    }

    /// Open loop: when the next request falls due, if a connection is idle to take it.
    fn next_due(&self) -> Option<Instant> {
        self.pacing.as_ref().filter(|_| !self.idle.is_empty()).map(Pacing::due)
    }

    /// The loop failed: the other threads must not wait for this one's connections to open the window.
    fn abandon(&mut self, error: io::Error) {
        eprintln!("shootout-load: thread {}: the event loop failed: {error}", self.index);
        self.end_phase(Instant::now());
    }

    /// A connection can take requests: queue them in closed loop, offer it to the schedule in open loop.
    /// The caller flushes: a read's answers all queue their successors first, so they go out in one write
    /// (and one TLS record) rather than one each, which cost the server a record and a packet per request.
    /// False if the connection was closed instead.
    pub(super) fn ready(&mut self, idx: usize, now: Instant) -> bool {
        if !self.loading || self.end.is_some_and(|end| now >= end) {
            return true; // the load has not started (its start sends), or its answer could not be recorded any more
        }
        if self.pacing.is_some() {
            let conn = &mut self.conns[idx];
            if !conn.idle_queued {
                conn.idle_queued = true;
                self.idle.push_back(idx);
            }
            return true;
        }
        // A connection per request, or the first on one reopened after --requests-per-connection: the request
        // began when its slot asked for the connection, so the connect is in its latency.
        let reopened = std::mem::replace(&mut self.conns[idx].reopened, false);
        let intended = if self.config.keepalive && !reopened { now } else { self.conns[idx].wanted };
        (0..self.room(idx)).all(|_| self.queue_request(idx, intended, now))
    }

    /// Requests the connection can take now: its pipeline or streams, as many as the server allows.
    fn room(&self, idx: usize) -> usize {
        let conn = &self.conns[idx];
        conn.protocol.room(self.config.pipeline).unwrap_or(0).saturating_sub(conn.in_flight.len())
    }

    /// Open loop: every request whose time has come goes to the next idle connection.
    fn dispatch(&mut self, now: Instant) {
        while let (Some(&idx), Some(pacing)) = (self.idle.front(), self.pacing.as_mut()) {
            if pacing.due() > now {
                break;
            }
            self.idle.pop_front();
            let conn = &mut self.conns[idx];
            conn.idle_queued = false;
            if conn.state != State::Open || self.room(idx) == 0 {
                continue;
            }
            let Some(intended) = self.pacing.as_mut().map(Pacing::take) else { break };
            if !self.queue_request(idx, intended, now) {
                continue;
            }
            if self.flush(idx, now) && self.room(idx) > 0 {
                self.conns[idx].idle_queued = true;
                self.idle.push_back(idx);
            }
        }
    }

    /// Queues one request; false if the connection was closed instead.
    fn queue_request(&mut self, idx: usize, intended: Instant, now: Instant) -> bool {
        let conn = &mut self.conns[idx];
        let (out, _) = conn.transport.writer(&mut conn.out);
        let sent = match (&self.config.mix, conn.turn.as_mut()) {
            (Some(mix), Some(turn)) => {
                self.request.clear();
                let step = mix.write(turn, &mut self.request);
                self.stats.mix[step].sent += 1;
                conn.protocol.send(&self.request, out).map(|s| (s, Some(step)))
            }
            _ => conn.protocol.request(&conn.visitor, &self.config.template, &mut self.rng, &mut self.request, out).map(|s| (s, None)),
        };
        match sent {
            Ok((stream, step)) => {
                conn.in_flight.push_back(InFlight { intended, sent: now, stream, step });
                true
            }
            Err(why) => {
                self.window.fail(format!("cannot send a request over HTTP/2: {why}"));
                self.close(idx, None, now);
                false
            }
        }
    }

    /// Writes what is buffered (encrypted first with TLS); false if the connection failed.
    pub(super) fn flush(&mut self, idx: usize, now: Instant) -> bool {
        let conn = &mut self.conns[idx];
        if conn.seal().is_err() {
            self.close(idx, Some(ErrorKind::Write), now);
            return false;
        }
        if self.io.send(idx, conn).is_err() {
            self.close(idx, Some(ErrorKind::Write), now);
            return false;
        }
        true
    }

    /// Timeouts of connects, handshakes and requests; back-offs that have run out.
    fn scan(&mut self, now: Instant) {
        let timeout = self.config.timeout;
        for idx in 0..self.conns.len() {
            let conn = &self.conns[idx];
            let (state, since, retry_at) = (conn.state, conn.since, conn.retry_at);
            let overdue = conn.in_flight.front().is_some_and(|r| now.saturating_duration_since(r.sent) > timeout);
            match state {
                State::Connecting | State::Tls | State::Handshake if now.saturating_duration_since(since) > timeout => {
                    self.close(idx, Some(ErrorKind::Timeout), now);
                }
                State::Open if overdue => {
                    for request in std::mem::take(&mut self.conns[idx].in_flight) {
                        self.record_unfinished(request, now);
                    }
                    self.close(idx, Some(ErrorKind::Timeout), now);
                }
                State::Closed if retry_at.is_some_and(|at| at <= now) => {
                    self.conns[idx].retry_at = None;
                    self.reconnect(idx, now);
                }
                _ => {}
            }
        }
    }
}
