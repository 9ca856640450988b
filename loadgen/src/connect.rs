//! The connect phase: every connection of the run is opened (and upgraded) before any sends its first
//! request, a limited number at a time, and what that took is a result of its own, never a request's.

use std::io;

use serde::Serialize;

/// Why one attempt to open a connection failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cause {
    /// The server's port answered the SYN with a reset (nothing listening, or a full queue with
    /// tcp_abort_on_overflow).
    Refused,
    /// The TCP connect or the WebSocket upgrade took longer than --timeout.
    TimedOut,
    /// Anything else: a reset or close before the upgrade's answer, an upgrade answered with another
    /// status than 101, a local error (ports or descriptors).
    Failed,
}

impl Cause {
    /// The cause an error of a failed connect names.
    pub fn of(error: &io::Error) -> Cause {
        match error.raw_os_error() {
            Some(libc::ECONNREFUSED) => Cause::Refused,
            Some(libc::ETIMEDOUT) => Cause::TimedOut,
            _ => Cause::Failed,
        }
    }
}

/// One thread's counts of its connect phase, added up over the threads at the end.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Counts {
    /// Connections open (upgraded) when the thread's phase ended.
    pub opened: u64,
    pub refused: u64,
    pub timed_out: u64,
    pub failed: u64,
    /// Attempts after a failed one.
    pub retried: u64,
    /// Connects that succeeded only after the kernel sent their SYN again: the server's listen queue was
    /// full (Linux drops a SYN then) or the SYN was lost, and the connect waited a second or more for it.
    pub syn_retransmitted: u64,
}

impl Counts {
    pub fn failure(&mut self, cause: Cause) {
        match cause {
            Cause::Refused => self.refused += 1,
            Cause::TimedOut => self.timed_out += 1,
            Cause::Failed => self.failed += 1,
        }
    }

    pub fn merge(&mut self, other: &Counts) {
        self.opened += other.opened;
        self.refused += other.refused;
        self.timed_out += other.timed_out;
        self.failed += other.failed;
        self.retried += other.retried;
        self.syn_retransmitted += other.syn_retransmitted;
    }
}

/// The connect phase as the JSON reports it.
#[derive(Debug, Clone, Serialize)]
pub struct Phase {
    /// Connections asked for at the start (a burst's first step).
    pub connections: usize,
    pub opened: u64,
    /// From the start until every connection was open, or until the deadline.
    pub seconds: f64,
    pub per_second: f64,
    /// Every connection opened before the deadline.
    pub complete: bool,
    pub deadline_s: f64,
    /// Opens (connect and upgrade) in progress at once, all threads together.
    pub in_progress: usize,
    pub refused: u64,
    pub timed_out: u64,
    pub failed: u64,
    pub retried: u64,
    pub syn_retransmitted: u64,
}

impl Phase {
    pub fn new(counts: &Counts, connections: usize, seconds: f64, deadline_s: f64, in_progress: usize) -> Self {
        Phase {
            connections,
            opened: counts.opened,
            seconds,
            per_second: if seconds > 0.0 { counts.opened as f64 / seconds } else { 0.0 },
            complete: counts.opened >= connections as u64,
            deadline_s,
            in_progress,
            refused: counts.refused,
            timed_out: counts.timed_out,
            failed: counts.failed,
            retried: counts.retried,
            syn_retransmitted: counts.syn_retransmitted,
        }
    }

    /// One line: how many opened in how long, and what failed on the way.
    pub fn describe(&self) -> String {
        let mut out = format!("{} of {} open in {:.2}s ({:.0}/s)", self.opened, self.connections, self.seconds, self.per_second);
        let parts: Vec<String> = [
            ("refused", self.refused),
            ("timed out", self.timed_out),
            ("failed", self.failed),
            ("retried", self.retried),
            ("SYN sent again", self.syn_retransmitted),
        ]
        .iter()
        .filter(|(_, n)| *n > 0)
        .map(|(name, n)| format!("{name} {n}"))
        .collect();
        if !parts.is_empty() {
            out += &format!(": {}", parts.join(", "));
        }
        out
    }
}

/// Connections that must be open at the deadline for the run to go on: `percent` of `connections`.
pub fn required(connections: usize, percent: f64) -> u64 {
    (connections as f64 * percent / 100.0).ceil() as u64
}

/// The error of a run whose connect phase opened fewer than `required` connections.
pub fn shortfall(phase: &Phase, required: u64) -> String {
    let deadline = if phase.deadline_s.fract() == 0.0 { format!("{:.0}", phase.deadline_s) } else { format!("{:.1}", phase.deadline_s) };
    format!(
        "only {} of {} connections opened within the {deadline}s connect deadline, {required} needed (--connect-min): {}",
        phase.opened,
        phase.connections,
        phase.describe()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_add_up_and_describe_themselves() {
        let mut a = Counts { opened: 10, ..Counts::default() };
        a.failure(Cause::Refused);
        a.failure(Cause::TimedOut);
        let b = Counts { opened: 5, retried: 2, ..Counts::default() };
        a.merge(&b);
        assert_eq!((a.opened, a.refused, a.timed_out, a.retried), (15, 1, 1, 2));
        let phase = Phase::new(&a, 20, 2.0, 60.0, 64);
        assert!(!phase.complete);
        assert_eq!(phase.describe(), "15 of 20 open in 2.00s (8/s): refused 1, timed out 1, retried 2");
        assert_eq!(required(10_000, 99.0), 9_900);
        assert_eq!(required(3, 50.0), 2);
        assert!(shortfall(&phase, 19).contains("only 15 of 20 connections opened within the 60s connect deadline, 19 needed"));
    }

    #[test]
    fn causes_come_from_the_error() {
        assert_eq!(Cause::of(&io::Error::from_raw_os_error(libc::ECONNREFUSED)), Cause::Refused);
        assert_eq!(Cause::of(&io::Error::from_raw_os_error(libc::ETIMEDOUT)), Cause::TimedOut);
        assert_eq!(Cause::of(&io::Error::from_raw_os_error(libc::ECONNRESET)), Cause::Failed);
    }
}
