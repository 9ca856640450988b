//! What a thread records: valid answers as throughput and latency, invalid ones by kind, and requests
//! without an answer (timed out, or in flight or unsent when the window closes) at their age then.

use std::time::{Duration, Instant};

use super::{Driver, Worker};
use crate::conn::InFlight;
use crate::stats::ErrorKind;

fn micros(d: Duration) -> u64 {
    u64::try_from(d.as_micros()).unwrap_or(u64::MAX)
}

impl<D: Driver> Worker<D> {
    pub(super) fn recording(&self, now: Instant) -> bool {
        self.measuring && self.end.is_some_and(|end| now < end)
    }

    /// The window's second `at` falls in (a time at the very end belongs to the last second).
    pub(super) fn second(&self, at: Instant) -> usize {
        let measure = self.measure.unwrap_or(self.window.start);
        let into = at.saturating_duration_since(measure);
        let last = self.window.duration.saturating_sub(Duration::from_nanos(1));
        into.min(last).as_secs() as usize
    }

    pub(super) fn error(&mut self, kind: ErrorKind, now: Instant) {
        if self.recording(now) {
            self.stats.error(self.second(now), kind);
        }
    }

    /// An answered request: a valid answer is throughput and latency, an invalid one an error of its
    /// kind; an answer after the window closed was still in flight at the close. What counts is when the
    /// answer came, not when its request went out: leaving out the answers to requests sent before the
    /// window opened would take the connections' count of answers off every window (a 7 % loss at 64
    /// connections, 3 s and 320 req/s). Valid answers of the warm-up make its curve.
    pub(super) fn record_answer(&mut self, request: InFlight, status: u16, outcome: Result<(), ErrorKind>, now: Instant) {
        if let Some(step) = request.step {
            self.stats.mix[step].answered(outcome.is_ok());
        }
        if !self.measuring {
            if outcome.is_ok() {
                self.window.warm_answer();
            }
            return;
        }
        match self.end {
            Some(end) if now >= end => self.record_unfinished(request, end),
            _ => {
                let second = self.second(now);
                self.stats.answered(status);
                let latency = micros(now.saturating_duration_since(request.intended));
                if let Some(step) = request.step {
                    self.stats.mix[step].in_window(outcome.is_ok().then_some(latency));
                }
                match outcome {
                    Ok(()) => self.stats.valid(second, latency, micros(now.saturating_duration_since(request.sent))),
                    Err(kind) => self.stats.error(second, kind),
                }
            }
        }
    }

    /// A request without an answer at `at` (its timeout, or the window's end) goes into the latency
    /// at its age then, so overload shows in the tail instead of vanishing from it.
    pub(super) fn record_unfinished(&mut self, request: InFlight, at: Instant) {
        if self.measuring {
            let latency = micros(at.saturating_duration_since(request.intended));
            let service = micros(at.saturating_duration_since(request.sent));
            self.stats.unfinished(self.second(at), latency, Some(service));
        }
    }

    /// The window closed: requests in flight, and (open loop) requests due but unsent, at their age.
    pub(super) fn finish(&mut self, end: Instant) {
        for idx in 0..self.conns.len() {
            let unanswered = std::mem::take(&mut self.conns[idx].in_flight);
            // A server that queued many requests (pipelined, at thousands of connections) would answer
            // them into closed sockets for minutes, into the next trial; a reset drops those it has not read.
            if let (false, Some(stream)) = (unanswered.is_empty(), &self.conns[idx].stream) {
                crate::sys::reset_on_close(stream);
            }
            for request in unanswered {
                self.record_unfinished(request, end);
            }
        }
        if let (true, Some(pacing)) = (self.measuring, &self.pacing) {
            let second = self.second(end);
            for due in pacing.unsent_before(end) {
                self.stats.unfinished(second, micros(end.saturating_duration_since(due)), None);
            }
        }
    }
}
