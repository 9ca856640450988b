//! The thread's view of time: when the shared window opens (after the connect phase and the warm-up),
//! and which burst step's connections should be open.

use std::time::Instant;

use super::{Driver, Worker};
use crate::schedule;

impl<D: Driver> Worker<D> {
    /// Learns the window's start once every thread has settled, and opens it when it comes.
    pub(super) fn follow_window(&mut self, now: Instant) {
        if self.measure.is_none() {
            self.measure = self.window.measure();
            self.end = self.measure.map(|m| m + self.window.duration);
        }
        if let (false, Some(measure)) = (self.measuring, self.measure.filter(|&m| now >= m)) {
            self.measuring = true;
            if let Some(pacing) = self.pacing.as_mut() {
                pacing.restart(measure);
            }
        }
    }

    /// A burst: opens this thread's share of the current step's connections; returns when the next
    /// step begins.
    pub(super) fn release(&mut self, now: Instant) -> Option<Instant> {
        if self.config.burst.is_empty() {
            return None;
        }
        let (total, next) = schedule::burst_step(&self.config.burst, self.config.step, self.measure, now);
        let wanted = schedule::share(total, self.index, self.threads).min(self.conns.len());
        while self.released < wanted {
            self.to_connect.push_back(self.released);
            self.released += 1;
        }
        next
    }
}
