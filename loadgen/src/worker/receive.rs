//! Bytes read become answers: HTTP responses (and the WebSocket upgrade) or WebSocket frames, each
//! checked and recorded, whichever path read them.

use std::time::Instant;

use super::{Driver, Worker};
use crate::check;
use crate::cli::Config;
use crate::conn::{Conn, State, MAX_OUT};
use crate::http::{self, Response};
use crate::stats::ErrorKind;
use crate::ws;

impl<D: Driver> Worker<D> {
    /// Bytes of the protocol above TLS (or straight from the socket).
    pub(super) fn on_plaintext(&mut self, idx: usize, data: &[u8], now: Instant) -> bool {
        if self.conns[idx].h2.is_some() {
            return self.on_streams(idx, data, now);
        }
        self.on_data(idx, data, now)
    }

    /// The server closed its side: what is pending is all there will be.
    pub(super) fn ended(&mut self, idx: usize, now: Instant) {
        if self.conns[idx].h2.is_some() {
            let kind = if self.conns[idx].in_flight.is_empty() { None } else { Some(ErrorKind::Read) };
            self.close(idx, kind, now);
            return;
        }
        let pending = std::mem::take(&mut self.conns[idx].pending);
        self.consume(idx, &pending, true, now);
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
            let used = match self.conns[idx].state {
                State::Open if self.config.websocket.is_some() => self.on_frame(idx, rest, eof, now),
                State::Handshake | State::Open => self.on_response(idx, rest, eof, now),
                State::Closed | State::Connecting | State::Tls => return None,
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
                // The upgrade was refused: the connection failed to open.
                self.close(idx, Some(ErrorKind::Status), now);
                return None;
            }
            self.conns[idx].answered = true;
            self.opened(idx, now);
            return Some(response.consumed);
        }
        if response.status / 100 == 1 {
            return Some(response.consumed);
        }
        if !self.complete(idx, &response, input, now) {
            return None;
        }
        // A connection per request closes after its answer, whatever the server would do.
        if response.close || !self.config.keepalive {
            self.close(idx, None, now);
            return None;
        }
        self.ready(idx, now).then_some(response.consumed)
    }

    /// Checks and records an answered request; false if the connection was closed.
    fn complete(&mut self, idx: usize, response: &Response, input: &[u8], now: Instant) -> bool {
        let Some(request) = self.conns[idx].in_flight.pop_front() else {
            self.close(idx, Some(ErrorKind::Parse), now);
            return false;
        };
        let cookies = response.set_cookies.iter().map(|&(start, end)| &input[start..end]);
        let body = response.body(input, &self.decoded);
        let outcome = verdict(&self.config, &mut self.conns[idx], &mut self.rng, response.status, body, cookies);
        let outcome = self.refusal_reported(outcome);
        self.record_answer(request, response.status, outcome, now);
        true
    }

    /// An answer whose cookies the visitor cannot keep breaks the session: it is not a valid one. The
    /// first refusal of the thread is printed, to name the problem.
    pub(super) fn refusal_reported(&mut self, outcome: Verdict) -> Result<(), ErrorKind> {
        match outcome {
            Verdict::Checked(outcome) => outcome,
            Verdict::CookieRefused(message) => {
                if !std::mem::replace(&mut self.warned, true) {
                    eprintln!("shootout-load: a response's Set-Cookie was refused: {message}");
                }
                Err(ErrorKind::Validation)
            }
        }
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
                if conn.out.len() + conn.transport.staged() > MAX_OUT {
                    self.close(idx, Some(ErrorKind::Write), now);
                    return None;
                }
                let mut payload = Vec::new();
                // A control frame's payload is at most 125 bytes (parse_frame checked), far below the limit.
                let _ = ws::append_payload(input, &frame, &mut payload);
                // Sent once the reads of this event are done: a burst of pings costs one write. With TLS the
                // pong is sealed like every other frame (written to the socket's bytes, it broke the session).
                let pong = ws::frame(ws::OP_PONG, &payload, conn.mask);
                conn.outgoing().extend_from_slice(&pong);
            }
            ws::OP_PONG => {}
            ws::OP_CLOSE => {
                let kind = if conn.in_flight.is_empty() { None } else { Some(ErrorKind::Read) };
                self.close(idx, kind, now);
                return None;
            }
            _ => {
                if ws::append_payload(input, &frame, &mut conn.message).is_err() {
                    self.close(idx, Some(ErrorKind::Parse), now);
                    return None;
                }
                if frame.fin {
                    let Some(request) = conn.in_flight.pop_front() else {
                        self.close(idx, Some(ErrorKind::Parse), now);
                        return None;
                    };
                    let outcome = check::echo(&self.config, &conn.message);
                    conn.message.clear();
                    conn.answered = true;
                    conn.failures = 0;
                    self.record_answer(request, 0, outcome, now);
                    if !self.ready(idx, now) {
                        return None;
                    }
                }
            }
        }
        Some(frame.consumed)
    }
}

pub(super) enum Verdict {
    Checked(Result<(), ErrorKind>),
    CookieRefused(String),
}

/// One answer, whatever carried it: the visitor keeps its cookies, then the status and body are checked.
pub(super) fn verdict<'a>(
    config: &Config,
    conn: &mut Conn,
    rng: &mut fastrand::Rng,
    status: u16,
    body: &[u8],
    cookies: impl Iterator<Item = &'a [u8]>,
) -> Verdict {
    conn.answered = true;
    conn.failures = 0;
    let mut refused = None;
    if config.sessions {
        let mut changed = false;
        for cookie in cookies {
            match conn.visitor.set_cookie(cookie) {
                Ok(c) => changed |= c,
                Err(full) => refused = Some(full.0),
            }
        }
        if changed {
            conn.visitor.cookies_changed(&config.template, rng);
        }
    }
    let outcome = check::response(config, status, body, &mut conn.visitor.count);
    match refused {
        Some(message) => Verdict::CookieRefused(message),
        None => Verdict::Checked(outcome),
    }
}
