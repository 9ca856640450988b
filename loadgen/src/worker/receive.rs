//! Plaintext read becomes answers: the connection's protocol parses it one unit at a time, and each
//! answer is checked and recorded here, whichever protocol brought it and whichever path read it.

use std::time::Instant;

use super::{Driver, Worker};
use crate::check;
use crate::grpc;
use crate::cli::Config;
use crate::conn::{InFlight, State};
use crate::protocol::Unit;
use crate::stats::ErrorKind;
use crate::visitor::Visitor;

/// What a unit asks of the worker once the protocol has let go of the bytes it was read from.
enum Step {
    Answered { request: InFlight, status: u16, outcome: Verdict, close: bool },
    Upgraded,
    Reset(u32),
    End,
    Close(ErrorKind),
    Broken(String),
    Next,
}

impl<D: Driver> Worker<D> {
    /// The protocol's bytes (none with `eof` once the server has closed its side); false once the
    /// connection was closed.
    pub(super) fn on_plaintext(&mut self, idx: usize, data: &[u8], eof: bool, now: Instant) -> bool {
        let conn = &mut self.conns[idx];
        // Bytes that came with the handshake's end, after opening the connection failed.
        if !eof && !matches!(conn.state, State::Handshake | State::Open) {
            return false;
        }
        let (out, _) = conn.transport.writer(&mut conn.out);
        let mut input = conn.protocol.input(data, eof, out);
        loop {
            let conn = &mut self.conns[idx];
            let (out, queued) = conn.transport.writer(&mut conn.out);
            let step = match conn.protocol.next(&mut input, &mut self.decoded, out, queued) {
                Unit::More => break,
                Unit::Answer(answer) => {
                    let request = match answer.stream {
                        0 => conn.in_flight.pop_front(),
                        stream => conn.in_flight.iter().position(|r| r.stream == stream).and_then(|at| conn.in_flight.remove(at)),
                    };
                    match request {
                        Some(request) => {
                            (conn.answered, conn.failures) = (true, 0);
                            let cookies = answer.cookies.iter();
                            let decode = self.config.expect_encoding.is_some() && {
                                let turn = self.decode_in;
                                self.decode_in = (turn + 1) % check::DECODE_EVERY;
                                turn == 0
                            };
                            let checked = Checked { status: answer.status, body: answer.body, encoding: answer.encoding };
                            let decode = decode.then_some(&mut self.inflated);
                            let outcome = match (request.step, &self.config.mix, conn.turn.as_mut()) {
                                (Some(step), Some(mix), Some(turn)) => Verdict::Checked(match mix.exact(step) {
                                    Some(want) => grpc::check(answer.status, answer.body, answer.grpc, want),
                                    None => mix.check(step, turn, answer.status, answer.body, answer.location),
                                }),
                                _ => verdict(&self.config, &mut conn.visitor, &mut self.rng, checked, decode, cookies),
                            };
                            Step::Answered { request, status: answer.status, outcome, close: answer.close }
                        }
                        None => Step::Close(ErrorKind::Parse),
                    }
                }
                Unit::Echo(message) => match conn.in_flight.pop_front() {
                    Some(request) => {
                        (conn.answered, conn.failures) = (true, 0);
                        let outcome = Verdict::Checked(check::echo(&self.config, message));
                        Step::Answered { request, status: 0, outcome, close: false }
                    }
                    None => Step::Close(ErrorKind::Parse),
                },
                Unit::Upgraded => Step::Upgraded,
                Unit::Reset(stream) => Step::Reset(stream),
                Unit::GoAway(last) => {
                    // Streams above `last` were never processed: like requests not sent, they are dropped;
                    // the connection closes once the others are answered.
                    conn.in_flight.retain(|r| r.stream <= last);
                    Step::Next
                }
                Unit::End => Step::End,
                Unit::Close(kind) => Step::Close(kind),
                Unit::Broken(why) => Step::Broken(why),
            };
            if !self.take(idx, step, now) {
                return false;
            }
        }
        let conn = &mut self.conns[idx];
        conn.protocol.keep(input);
        // HTTP/2 after a GOAWAY: done once the streams it still processes are answered.
        if conn.protocol.room(self.config.pipeline).is_none() && conn.in_flight.is_empty() {
            self.close(idx, None, now);
            return false;
        }
        true
    }

    /// The server closed its side: what the protocol kept is all there will be.
    pub(super) fn ended(&mut self, idx: usize, now: Instant) {
        self.on_plaintext(idx, &[], true, now);
    }

    /// Does what a unit asked; false once the connection was closed.
    fn take(&mut self, idx: usize, step: Step, now: Instant) -> bool {
        match step {
            Step::Answered { request, status, outcome, close } => {
                let outcome = self.refusal_reported(outcome);
                self.record_answer(request, status, outcome, now);
                let conn = &mut self.conns[idx];
                conn.served += 1;
                let spent = self.config.requests_per_connection.is_some_and(|n| conn.served >= n);
                if spent {
                    conn.reopened = true;
                    if self.measuring {
                        self.stats.reconnects += 1;
                    }
                }
                // A connection per request closes after its answer, whatever the server would do.
                if close || !self.config.keepalive || spent {
                    self.close(idx, None, now);
                    return false;
                }
                self.ready(idx, now)
            }
            Step::Upgraded => {
                self.conns[idx].answered = true;
                self.opened(idx, now);
                self.conns[idx].state == State::Open
            }
            Step::Reset(stream) => {
                // The request has no answer: a read error like a connection cut short.
                let in_flight = &mut self.conns[idx].in_flight;
                if let Some(at) = in_flight.iter().position(|r| r.stream == stream) {
                    in_flight.remove(at);
                    self.error(ErrorKind::Read, now);
                }
                if !self.config.keepalive {
                    self.close(idx, None, now);
                    return false;
                }
                self.ready(idx, now)
            }
            Step::End => {
                let kind = if self.conns[idx].in_flight.is_empty() { None } else { Some(ErrorKind::Read) };
                self.close(idx, kind, now);
                false
            }
            Step::Close(kind) => {
                self.close(idx, Some(kind), now);
                false
            }
            Step::Broken(why) => {
                if !std::mem::replace(&mut self.warned, true) {
                    eprintln!("shootout-load: an HTTP/2 connection broke the protocol: {why}");
                }
                self.close(idx, Some(ErrorKind::Parse), now);
                false
            }
            Step::Next => true,
        }
    }

    /// An answer whose cookies the visitor cannot keep breaks the session: it is not a valid one. The
    /// first refusal of the thread is printed, to name the problem.
    fn refusal_reported(&mut self, outcome: Verdict) -> Result<(), ErrorKind> {
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
}

enum Verdict {
    Checked(Result<(), ErrorKind>),
    CookieRefused(String),
}

/// What of an answer is checked.
struct Checked<'b> {
    status: u16,
    body: &'b [u8],
    encoding: &'b [u8],
}

/// One answer, whatever carried it: the visitor keeps its cookies, then the status and body are checked
/// (decoded into `decode` first when given, see check::response).
fn verdict<'a>(
    config: &Config,
    visitor: &mut Visitor,
    rng: &mut fastrand::Rng,
    answer: Checked,
    decode: Option<&mut Vec<u8>>,
    cookies: impl Iterator<Item = &'a [u8]>,
) -> Verdict {
    let mut refused = None;
    if config.sessions {
        let mut changed = false;
        for cookie in cookies {
            match visitor.set_cookie(cookie) {
                Ok(c) => changed |= c,
                Err(full) => refused = Some(full.0),
            }
        }
        if changed {
            visitor.cookies_changed(&config.template, rng);
        }
    }
    let outcome = check::response(config, answer.status, answer.body, answer.encoding, &mut visitor.count, decode);
    match refused {
        Some(message) => Verdict::CookieRefused(message),
        None => Verdict::Checked(outcome),
    }
}
