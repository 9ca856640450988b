//! One thread's event loop: its share of the connections, its own histograms, no shared state.

use std::collections::VecDeque;
use std::io::{self, Read, Write};
use std::sync::Arc;
use std::time::{Duration, Instant};

use mio::net::TcpStream;
use mio::{Events, Interest, Poll, Token};

use crate::cli::Config;
use crate::conn::{counter_value, Conn, InFlight, State, Visitor};
use crate::http::{self, Response};
use crate::stats::{ErrorKind, Stats};
use crate::timer::Timer;
use crate::ws;

/// How often connections are checked for timeouts and back-offs.
const SCAN: Duration = Duration::from_millis(20);
/// Connects in progress at once per thread, so a listen backlog is not flooded.
const STAGE: usize = 256;
const READ_BUFFER: usize = 64 * 1024;
/// The open-loop timer's token; connections are numbered from 0.
const TIMER: Token = Token(usize::MAX);

/// The run's timing, shared read-only by all workers.
#[derive(Debug, Clone, Copy)]
pub struct Clock {
    pub start: Instant,
    pub measure: Instant,
    pub end: Instant,
}

pub struct Worker {
    config: Arc<Config>,
    clock: Clock,
    index: usize,
    threads: usize,
    poll: Poll,
    conns: Vec<Conn>,
    stats: Stats,
    rng: fastrand::Rng,
    scratch: Vec<u8>,
    decoded: Vec<u8>,
    to_connect: VecDeque<usize>,
    /// Connections handed to `to_connect` so far; a burst releases more at each step.
    released: usize,
    connecting: usize,
    measuring: bool,
    /// Open loop: connections able to take a request, and the next request's number in this thread.
    idle: VecDeque<usize>,
    next: u64,
    schedule_start: Instant,
    timer: Option<Timer>,
}

/// Thread `index`'s share of `total` connections spread over `threads`.
pub fn share(total: usize, index: usize, threads: usize) -> usize {
    total / threads + usize::from(index < total % threads)
}

fn micros(d: Duration) -> u64 {
    u64::try_from(d.as_micros()).unwrap_or(u64::MAX)
}

impl Worker {
    pub fn new(config: Arc<Config>, clock: Clock, index: usize, threads: usize, connections: usize) -> io::Result<Self> {
        let mut rng = fastrand::Rng::new();
        let conns = (0..connections)
            .map(|_| {
                let visitor = Visitor::new(&config.template, &mut rng);
                let mask = rng.u32(..).to_be_bytes();
                let frame = match &config.websocket {
                    Some((_, message)) => ws::frame(ws::OP_TEXT, message, mask),
                    None => Vec::new(),
                };
                Conn::new(clock.start, visitor, mask, frame)
            })
            .collect();
        let poll = Poll::new()?;
        let timer = match config.rate {
            Some(_) => Some(Timer::new(poll.registry(), TIMER)?),
            None => None,
        };
        let released = match config.burst.first() {
            Some(&first) => share(first, index, threads),
            None => connections,
        };
        Ok(Worker {
            poll,
            timer,
            conns,
            stats: Stats::new(),
            rng,
            scratch: vec![0; READ_BUFFER],
            decoded: Vec::new(),
            to_connect: (0..released).collect(),
            released,
            connecting: 0,
            measuring: false,
            idle: VecDeque::new(),
            next: 0,
            schedule_start: clock.start,
            config,
            clock,
            index,
            threads,
        })
    }

    pub fn run(mut self) -> Stats {
        let mut events = Events::with_capacity(1024);
        let mut next_scan = self.clock.start;
        loop {
            let now = Instant::now();
            if now >= self.clock.end {
                break;
            }
            if !self.measuring && now >= self.clock.measure {
                self.begin_measuring();
            }
            if now >= next_scan {
                self.scan(now);
                next_scan = now + SCAN;
            }
            let next_step = self.release(now);
            self.start_connects(now);
            let mut wake = next_scan.min(self.clock.end).min(next_step);
            if !self.measuring {
                wake = wake.min(self.clock.measure);
            }
            if self.config.rate.is_some() {
                self.dispatch(now);
                if !self.idle.is_empty() {
                    let due = self.intended(self.next);
                    if let Some(timer) = self.timer.as_mut() {
                        timer.arm(due, now);
                    }
                }
            }
            if let Err(e) = self.poll.poll(&mut events, Some(wake.saturating_duration_since(now))) {
                if e.kind() == io::ErrorKind::Interrupted {
                    continue;
                }
                eprintln!("shootout-load: thread {}: poll failed: {e}", self.index);
                break;
            }
            let now = Instant::now();
            for event in events.iter() {
                if event.token() == TIMER {
                    if let Some(timer) = self.timer.as_mut() {
                        timer.fired();
                    }
                    continue;
                }
                let idx = event.token().0;
                match self.conns[idx].state {
                    State::Closed => {}
                    State::Connecting => self.on_connect(idx, event.is_error() || event.is_write_closed(), now),
                    State::Handshake | State::Open => {
                        if event.is_writable() && !self.conns[idx].out.is_empty() && !self.flush(idx, now) {
                            continue;
                        }
                        let closing = event.is_read_closed() || event.is_error();
                        if event.is_readable() || closing {
                            self.on_readable(idx, closing, now);
                        }
                    }
                }
            }
        }
        self.stats.flush();
        self.stats
    }

    /// A burst: opens this thread's share of the current step's connections; returns when the next
    /// step begins (the run's end when there is none).
    fn release(&mut self, now: Instant) -> Instant {
        let steps = &self.config.burst;
        if steps.is_empty() {
            return self.clock.end;
        }
        let step = self.config.step;
        let elapsed = now.saturating_duration_since(self.clock.measure);
        let current = if now < self.clock.measure { 0 } else { (elapsed.as_nanos() / step.as_nanos()) as usize };
        let wanted = share(steps[current.min(steps.len() - 1)], self.index, self.threads).min(self.conns.len());
        while self.released < wanted {
            self.to_connect.push_back(self.released);
            self.released += 1;
        }
        if now < self.clock.measure {
            self.clock.measure
        } else {
            self.clock.measure + step * (current as u32 + 1)
        }
    }

    fn begin_measuring(&mut self) {
        self.measuring = true;
        // The open-loop schedule restarts with the measured window, so a warm-up backlog is not carried in.
        self.schedule_start = self.clock.measure;
        self.next = 0;
    }

    /// Open loop: the intended send time of this thread's n-th request, interleaved with the other threads'.
    fn intended(&self, n: u64) -> Instant {
        let rate = self.config.rate.unwrap_or(1.0);
        let global = n as f64 * self.threads as f64 + self.index as f64;
        self.schedule_start + Duration::from_secs_f64(global / rate)
    }

    fn second(&self, now: Instant) -> usize {
        now.saturating_duration_since(self.clock.measure).as_secs() as usize
    }

    fn error(&mut self, kind: ErrorKind, now: Instant) {
        if self.measuring && now < self.clock.end {
            self.stats.error(self.second(now), kind);
        }
    }

    fn start_connects(&mut self, now: Instant) {
        while self.connecting < STAGE {
            let Some(idx) = self.to_connect.pop_front() else { break };
            match TcpStream::connect(self.config.addr) {
                Ok(mut stream) => {
                    if let Err(e) = self.poll.registry().register(&mut stream, Token(idx), Interest::READABLE | Interest::WRITABLE) {
                        eprintln!("shootout-load: cannot register a socket: {e}");
                        self.error(ErrorKind::Connect, now);
                        self.back_off(idx, now);
                        continue;
                    }
                    let conn = &mut self.conns[idx];
                    conn.stream = Some(stream);
                    conn.state = State::Connecting;
                    conn.since = now;
                    conn.answered = false;
                    self.connecting += 1;
                }
                Err(_) => {
                    self.error(ErrorKind::Connect, now);
                    self.back_off(idx, now);
                }
            }
        }
    }

    fn on_connect(&mut self, idx: usize, failed: bool, now: Instant) {
        let Some(stream) = self.conns[idx].stream.as_ref() else { return };
        let connected = match stream.take_error() {
            Ok(None) if !failed => match stream.peer_addr() {
                Ok(_) => stream.set_nodelay(true).is_ok(),
                Err(e) if e.kind() == io::ErrorKind::NotConnected => return,
                Err(_) => false,
            },
            _ => false,
        };
        self.connecting -= 1;
        if !connected {
            self.conns[idx].state = State::Closed;
            self.error(ErrorKind::Connect, now);
            self.drop_socket(idx);
            self.back_off(idx, now);
            return;
        }
        let conn = &mut self.conns[idx];
        match &self.config.websocket {
            Some((handshake, _)) => {
                conn.state = State::Handshake;
                conn.since = now;
                conn.out.extend_from_slice(handshake);
                self.flush(idx, now);
            }
            None => {
                conn.state = State::Open;
                self.ready(idx, now);
            }
        }
    }

    /// A connection can take requests: send in closed loop, offer it to the schedule in open loop.
    fn ready(&mut self, idx: usize, now: Instant) {
        if now >= self.clock.end {
            return; // its answer could not be recorded any more
        }
        if self.config.rate.is_some() {
            let conn = &mut self.conns[idx];
            if !conn.idle_queued {
                conn.idle_queued = true;
                self.idle.push_back(idx);
            }
            return;
        }
        let room = self.config.pipeline.saturating_sub(self.conns[idx].in_flight.len());
        if room > 0 {
            for _ in 0..room {
                self.queue_request(idx, now, now);
            }
            self.flush(idx, now);
        }
    }

    /// Open loop: every request whose time has come goes to the next idle connection.
    fn dispatch(&mut self, now: Instant) {
        while let Some(&idx) = self.idle.front() {
            let intended = self.intended(self.next);
            if intended > now {
                break;
            }
            self.idle.pop_front();
            let conn = &mut self.conns[idx];
            conn.idle_queued = false;
            if conn.state != State::Open || conn.in_flight.len() >= self.config.pipeline {
                continue;
            }
            self.next += 1;
            self.queue_request(idx, intended, now);
            if self.flush(idx, now) && self.conns[idx].in_flight.len() < self.config.pipeline {
                self.conns[idx].idle_queued = true;
                self.idle.push_back(idx);
            }
        }
    }

    fn queue_request(&mut self, idx: usize, intended: Instant, now: Instant) {
        let conn = &mut self.conns[idx];
        if self.config.websocket.is_some() {
            conn.out.extend_from_slice(&conn.frame);
        } else {
            conn.visitor.write_request(&self.config.template, &mut conn.out, &mut self.rng);
        }
        conn.in_flight.push_back(InFlight { intended, sent: now, counted: self.measuring });
    }

    /// Writes what is buffered; false if the connection failed.
    fn flush(&mut self, idx: usize, now: Instant) -> bool {
        let conn = &mut self.conns[idx];
        let Some(stream) = conn.stream.as_mut() else { return false };
        while !conn.out.is_empty() {
            match stream.write(&conn.out) {
                Ok(0) => {
                    self.close(idx, Some(ErrorKind::Write), now);
                    return false;
                }
                Ok(n) if n == conn.out.len() => conn.out.clear(),
                Ok(n) => {
                    conn.out.drain(..n);
                }
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => break,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(_) => {
                    self.close(idx, Some(ErrorKind::Write), now);
                    return false;
                }
            }
        }
        true
    }

    /// `closing`: the peer's close was reported with the data, so read on until the end of file shows.
    fn on_readable(&mut self, idx: usize, closing: bool, now: Instant) {
        let mut scratch = std::mem::take(&mut self.scratch);
        while let Some(stream) = self.conns[idx].stream.as_mut() {
            match stream.read(&mut scratch) {
                Ok(0) => {
                    let pending = std::mem::take(&mut self.conns[idx].pending);
                    self.consume(idx, &pending, true, now);
                    break;
                }
                Ok(n) => {
                    if self.measuring && now < self.clock.end {
                        self.stats.bytes_read += n as u64;
                    }
                    if !self.on_data(idx, &scratch[..n], now) {
                        break;
                    }
                    // A short read emptied the socket; edge-triggered readiness reports new data later.
                    if n < scratch.len() && !closing {
                        break;
                    }
                }
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => break,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(_) => {
                    self.close(idx, Some(ErrorKind::Read), now);
                    break;
                }
            }
        }
        self.scratch = scratch;
    }

    /// New bytes: whole responses are handled straight from the read buffer, only a tail is kept.
    fn on_data(&mut self, idx: usize, data: &[u8], now: Instant) -> bool {
        let mut pending = std::mem::take(&mut self.conns[idx].pending);
        let used = if pending.is_empty() {
            let used = self.consume(idx, data, false, now);
            if let Some(used) = used {
                pending.extend_from_slice(&data[used..]);
            }
            used
        } else {
            pending.extend_from_slice(data);
            let used = self.consume(idx, &pending, false, now);
            if let Some(used) = used {
                pending.drain(..used);
            }
            used
        };
        match used {
            Some(_) => {
                self.conns[idx].pending = pending;
                true
            }
            None => false,
        }
    }

    /// Handles every complete response or frame at the start of `input`; returns the bytes used, or
    /// None once the connection has been closed.
    fn consume(&mut self, idx: usize, input: &[u8], eof: bool, now: Instant) -> Option<usize> {
        let mut at = 0;
        loop {
            let rest = &input[at..];
            if rest.is_empty() {
                if eof {
                    let kind = if self.conns[idx].in_flight.is_empty() { None } else { Some(ErrorKind::Read) };
                    self.close(idx, kind, now);
                    return None;
                }
                return Some(at);
            }
            let state = self.conns[idx].state;
            let used = match state {
                State::Open if self.config.websocket.is_some() => self.on_frame(idx, rest, eof, now),
                State::Handshake | State::Open => self.on_response(idx, rest, eof, now),
                State::Closed | State::Connecting => return None,
            };
            match used {
                Some(0) if eof => {
                    self.close(idx, Some(ErrorKind::Read), now);
                    return None;
                }
                Some(0) => return Some(at),
                Some(n) => at += n,
                None => return None,
            }
        }
    }

    /// One HTTP response (or the WebSocket upgrade answer): Some(bytes used, 0 if incomplete).
    fn on_response(&mut self, idx: usize, input: &[u8], eof: bool, now: Instant) -> Option<usize> {
        let parsed = http::parse(input, eof, self.config.head_request, self.config.validates_body(), &mut self.decoded);
        let response = match parsed {
            Ok(Some(r)) => r,
            Ok(None) => return Some(0),
            Err(_) => {
                // Cut short by the server's close is a read error; bytes that make no sense are a parse error.
                let kind = if eof { ErrorKind::Read } else { ErrorKind::Parse };
                self.close(idx, Some(kind), now);
                return None;
            }
        };
        if self.conns[idx].state == State::Handshake {
            if response.status != 101 {
                self.error(ErrorKind::Status, now);
                self.close(idx, None, now);
                return None;
            }
            let conn = &mut self.conns[idx];
            conn.state = State::Open;
            conn.answered = true;
            self.ready(idx, now);
            return Some(response.consumed);
        }
        if response.status / 100 == 1 {
            return Some(response.consumed);
        }
        if !self.complete(idx, &response, input, now) {
            return None;
        }
        if response.close {
            self.close(idx, None, now);
            return None;
        }
        self.ready(idx, now);
        Some(response.consumed)
    }

    /// Records an answered request and checks it; false if the connection was closed.
    fn complete(&mut self, idx: usize, response: &Response, input: &[u8], now: Instant) -> bool {
        let Some(request) = self.conns[idx].in_flight.pop_front() else {
            self.close(idx, Some(ErrorKind::Parse), now);
            return false;
        };
        let recording = request.counted && self.measuring && now < self.clock.end;
        if recording {
            let second = self.second(now);
            let latency = micros(now.saturating_duration_since(request.intended));
            let service = micros(now.saturating_duration_since(request.sent));
            self.stats.response(second, response.status, latency, service);
        }
        let config = Arc::clone(&self.config);
        let conn = &mut self.conns[idx];
        conn.answered = true;
        conn.failures = 0;
        if config.sessions {
            let mut changed = false;
            for &(start, end) in &response.set_cookies {
                changed |= conn.visitor.set_cookie(&input[start..end]);
            }
            if changed {
                conn.visitor.cookies_changed(&config.template, &mut self.rng);
            }
        }
        let valid = if response.status != config.expect_status {
            Err(ErrorKind::Status)
        } else {
            let body = response.body(input, &self.decoded);
            let mut ok = config.expect_body.as_deref().is_none_or(|want| body == want)
                && config.expect_body_regex.as_ref().is_none_or(|re| re.is_match(body));
            if config.expect_counter {
                let count = counter_value(body);
                ok &= count == Some(conn.visitor.count + 1);
                // Resynchronise, so one lost answer is one error rather than all that follow.
                conn.visitor.count = count.unwrap_or(conn.visitor.count);
            }
            if ok { Ok(()) } else { Err(ErrorKind::Validation) }
        };
        if let (Err(kind), true) = (valid, recording) {
            let second = self.second(now);
            self.stats.error(second, kind);
        }
        true
    }

    /// One WebSocket frame: echoes complete a round trip, pings are answered, close ends the connection.
    fn on_frame(&mut self, idx: usize, input: &[u8], eof: bool, now: Instant) -> Option<usize> {
        let frame = match ws::parse_frame(input) {
            Ok(Some(f)) => f,
            Ok(None) if eof => {
                self.close(idx, Some(ErrorKind::Read), now);
                return None;
            }
            Ok(None) => return Some(0),
            Err(_) => {
                self.close(idx, Some(ErrorKind::Parse), now);
                return None;
            }
        };
        let conn = &mut self.conns[idx];
        match frame.opcode {
            ws::OP_PING => {
                let mut payload = Vec::new();
                ws::append_payload(input, &frame, &mut payload);
                conn.out.extend_from_slice(&ws::frame(ws::OP_PONG, &payload, conn.mask));
                if !self.flush(idx, now) {
                    return None;
                }
            }
            ws::OP_PONG => {}
            ws::OP_CLOSE => {
                let kind = if conn.in_flight.is_empty() { None } else { Some(ErrorKind::Read) };
                self.close(idx, kind, now);
                return None;
            }
            _ => {
                ws::append_payload(input, &frame, &mut conn.message);
                if frame.fin {
                    let Some(request) = conn.in_flight.pop_front() else {
                        self.close(idx, Some(ErrorKind::Parse), now);
                        return None;
                    };
                    let echoed = self.config.websocket.as_ref().is_some_and(|(_, m)| *m == conn.message);
                    conn.message.clear();
                    conn.answered = true;
                    conn.failures = 0;
                    if request.counted && self.measuring && now < self.clock.end {
                        let second = self.second(now);
                        let latency = micros(now.saturating_duration_since(request.intended));
                        let service = micros(now.saturating_duration_since(request.sent));
                        self.stats.response(second, 0, latency, service);
                        if !echoed {
                            self.stats.error(second, ErrorKind::Validation);
                        }
                    }
                    self.ready(idx, now);
                }
            }
        }
        Some(frame.consumed)
    }

    /// Timeouts of connects, handshakes and requests; back-offs that have run out.
    fn scan(&mut self, now: Instant) {
        let timeout = self.config.timeout;
        for idx in 0..self.conns.len() {
            let conn = &self.conns[idx];
            let (state, since, retry_at) = (conn.state, conn.since, conn.retry_at);
            let overdue = conn.in_flight.front().is_some_and(|r| now.saturating_duration_since(r.sent) > timeout);
            match state {
                State::Connecting if now.saturating_duration_since(since) > timeout => {
                    self.connecting -= 1;
                    self.conns[idx].state = State::Closed;
                    self.error(ErrorKind::Connect, now);
                    self.drop_socket(idx);
                    self.back_off(idx, now);
                }
                State::Handshake if now.saturating_duration_since(since) > timeout => {
                    self.close(idx, Some(ErrorKind::Timeout), now);
                }
                State::Open if overdue => {
                    self.close(idx, Some(ErrorKind::Timeout), now);
                }
                State::Closed if retry_at.is_some_and(|at| at <= now) => {
                    self.conns[idx].retry_at = None;
                    self.to_connect.push_back(idx);
                }
                _ => {}
            }
        }
    }

    /// Counts the error if any and closes; reconnects at once if the connection had been answering,
    /// after a growing back-off if not (so a refusing server is not hammered in a tight loop).
    fn close(&mut self, idx: usize, error: Option<ErrorKind>, now: Instant) {
        if let Some(kind) = error {
            self.error(kind, now);
        }
        if self.conns[idx].state == State::Connecting {
            self.connecting -= 1;
        }
        let answered = self.conns[idx].answered;
        self.drop_socket(idx);
        if answered {
            self.to_connect.push_back(idx);
        } else {
            self.back_off(idx, now);
        }
    }

    fn back_off(&mut self, idx: usize, now: Instant) {
        let conn = &mut self.conns[idx];
        conn.failures = conn.failures.saturating_add(1);
        let delay = Duration::from_millis(10u64 << conn.failures.min(7)).min(Duration::from_secs(1));
        conn.retry_at = Some(now + delay);
    }

    fn drop_socket(&mut self, idx: usize) {
        let conn = &mut self.conns[idx];
        if let Some(mut stream) = conn.stream.take() {
            let _ = self.poll.registry().deregister(&mut stream);
        }
        conn.state = State::Closed;
        conn.pending.clear();
        conn.out.clear();
        conn.in_flight.clear();
        conn.message.clear();
    }
}
