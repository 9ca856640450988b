//! HTTP/2 connections: bytes go to the connection's `h2::Client`, and each stream it finishes is an
//! answer to the request sent on it, checked and recorded like any other, in the order they finish.

use std::time::Instant;

use super::receive::verdict;
use super::{Driver, Worker};
use crate::h2::{Answer, Event};
use crate::stats::ErrorKind;

impl<D: Driver> Worker<D> {
    /// Bytes of an HTTP/2 connection; false once it was closed.
    pub(super) fn on_streams(&mut self, idx: usize, data: &[u8], now: Instant) -> bool {
        let mut events = std::mem::take(&mut self.events);
        let (_, Some(h2), out) = self.conns[idx].writers() else { unreachable!("called for HTTP/2 connections only") };
        let received = h2.receive(data, out, &mut events);
        let mut open = true;
        for event in events.drain(..) {
            open = open
                && match event {
                    Event::Answer(answer) => self.on_answer(idx, answer, now),
                    Event::Reset(stream) => self.on_reset(idx, stream, now),
                    Event::GoAway(last) => {
                        // Streams above `last` were never processed: like requests not sent, they are
                        // dropped; the connection closes once the others are answered.
                        self.conns[idx].in_flight.retain(|r| r.stream <= last);
                        true
                    }
                };
        }
        self.events = events;
        if !open {
            return false;
        }
        if let Err(why) = received {
            if !std::mem::replace(&mut self.warned, true) {
                eprintln!("shootout-load: an HTTP/2 connection broke the protocol: {why}");
            }
            self.close(idx, Some(ErrorKind::Parse), now);
            return false;
        }
        let conn = &self.conns[idx];
        if conn.h2.as_ref().is_some_and(|h2| h2.going_away) && conn.in_flight.is_empty() {
            self.close(idx, None, now);
            return false;
        }
        true
    }

    fn on_answer(&mut self, idx: usize, answer: Answer, now: Instant) -> bool {
        let Some(at) = self.conns[idx].in_flight.iter().position(|r| r.stream == answer.stream) else {
            self.close(idx, Some(ErrorKind::Parse), now);
            return false;
        };
        let request = self.conns[idx].in_flight.remove(at).expect("the position was found");
        let cookies = answer.cookies.iter().map(Vec::as_slice);
        let outcome = verdict(&self.config, &mut self.conns[idx], &mut self.rng, answer.status, &answer.body, cookies);
        let outcome = self.refusal_reported(outcome);
        self.record_answer(request, answer.status, outcome, now);
        self.stream_done(idx, now)
    }

    /// The server reset a stream: its request has no answer, a read error like a connection cut short.
    fn on_reset(&mut self, idx: usize, stream: u32, now: Instant) -> bool {
        if let Some(at) = self.conns[idx].in_flight.iter().position(|r| r.stream == stream) {
            self.conns[idx].in_flight.remove(at);
            self.error(ErrorKind::Read, now);
        }
        self.stream_done(idx, now)
    }

    /// A stream ended: a connection per request closes, a kept one takes the next request.
    fn stream_done(&mut self, idx: usize, now: Instant) -> bool {
        if !self.config.keepalive {
            self.close(idx, None, now);
            return false;
        }
        self.ready(idx, now)
    }
}
