//! Per-thread counters and HDR histograms, merged once at the end; memory is fixed per thread plus a
//! compact list of non-empty buckets per second for the timeline, and the TLS handshakes.

use hdrhistogram::Histogram;
use rustls::{ClientConnection, HandshakeKind};

use crate::connect;

pub const LOWEST_US: u64 = 1;
pub const HIGHEST_US: u64 = 60_000_000;
pub const SIGFIGS: u8 = 3;

pub fn histogram() -> Histogram<u64> {
    Histogram::new_with_bounds(LOWEST_US, HIGHEST_US, SIGFIGS).expect("valid histogram bounds")
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorKind {
    Connect,
    Read,
    Write,
    Timeout,
    Status,
    Validation,
    Parse,
}

pub const ERROR_KINDS: [(ErrorKind, &str); 7] = [
    (ErrorKind::Connect, "connect"),
    (ErrorKind::Read, "read"),
    (ErrorKind::Write, "write"),
    (ErrorKind::Timeout, "timeout"),
    (ErrorKind::Status, "status"),
    (ErrorKind::Validation, "validation"),
    (ErrorKind::Parse, "parse"),
];

/// One second of the timeline: counts and the latency buckets seen in it.
#[derive(Debug, Clone, Default)]
pub struct Second {
    pub requests: u64,
    pub errors: u64,
    pub buckets: Vec<(u64, u64)>,
}

pub struct Stats {
    pub latency: Histogram<u64>,
    pub service: Histogram<u64>,
    /// Valid answers: the throughput.
    pub requests: u64,
    /// Every complete answer, valid or not.
    pub responses_total: u64,
    /// Requests in the latency histogram without an answer: timed out, or in flight or unsent at the end.
    pub unfinished: u64,
    pub bytes_read: u64,
    /// Connections closed by the client after --requests-per-connection answers, and opened again.
    pub reconnects: u64,
    pub errors: [u64; 7],
    pub status_counts: Vec<u64>,
    pub timeline: Vec<Second>,
    /// The connect phase, apart from everything above (which is the measured window's).
    pub connect: connect::Counts,
    /// TLS handshakes of the whole run (connect phase and window), also apart.
    pub handshakes: Handshakes,
    /// With --mix: each step's counts, in the steps' order.
    pub mix: Vec<StepCounts>,
    current: Histogram<u64>,
    /// Index in `timeline` the `current` histogram belongs to.
    current_second: usize,
}

/// Non-empty buckets as (highest equivalent value, count): enough to rebuild or merge histograms exactly.
pub fn buckets(h: &Histogram<u64>) -> Vec<(u64, u64)> {
    h.iter_recorded().map(|v| (h.highest_equivalent(v.value_iterated_to()), v.count_at_value())).collect()
}

/// One --mix step: what became of its requests over the whole run (warm-up and window), so a harness can compare
/// them with what the server holds after it, and its answers in the measured window.
#[derive(Debug, Clone)]
pub struct StepCounts {
    pub sent: u64,
    /// Answered as expected.
    pub done: u64,
    /// Answered otherwise.
    pub failed: u64,
    /// In the window: valid answers, their latency, and the invalid ones.
    pub requests: u64,
    pub errors: u64,
    pub latency: Histogram<u64>,
}

impl Default for StepCounts {
    fn default() -> Self {
        StepCounts { sent: 0, done: 0, failed: 0, requests: 0, errors: 0, latency: histogram() }
    }
}

impl StepCounts {
    pub fn answered(&mut self, valid: bool) {
        if valid {
            self.done += 1;
        } else {
            self.failed += 1;
        }
    }

    /// An answer in the measured window: valid with its latency, or invalid.
    pub fn in_window(&mut self, valid_latency_us: Option<u64>) {
        match valid_latency_us {
            Some(us) => {
                self.requests += 1;
                self.latency.saturating_record(us.max(LOWEST_US));
            }
            None => self.errors += 1,
        }
    }

    /// Sent and not answered: in flight when the run stopped, timed out, or on a connection that broke.
    pub fn unanswered(&self) -> u64 {
        self.sent.saturating_sub(self.done + self.failed)
    }

    fn merge(&mut self, other: &StepCounts) {
        (self.sent, self.done, self.failed) = (self.sent + other.sent, self.done + other.done, self.failed + other.failed);
        (self.requests, self.errors) = (self.requests + other.requests, self.errors + other.errors);
        self.latency.add(&other.latency).expect("same histogram bounds");
    }
}

impl Default for Stats {
    fn default() -> Self {
        Self::new()
    }
}

impl Stats {
    pub fn new() -> Self {
        Stats {
            latency: histogram(),
            service: histogram(),
            requests: 0,
            responses_total: 0,
            unfinished: 0,
            bytes_read: 0,
            reconnects: 0,
            errors: [0; 7],
            status_counts: vec![0; 1000],
            timeline: Vec::new(),
            connect: connect::Counts::default(),
            handshakes: Handshakes::default(),
            mix: Vec::new(),
            current: histogram(),
            current_second: 0,
        }
    }

    /// Stats of a run whose --mix has `steps` steps.
    pub fn with_steps(steps: usize) -> Self {
        Stats { mix: vec![StepCounts::default(); steps], ..Stats::new() }
    }

    fn second(&mut self, second: usize) -> &mut Second {
        if second != self.current_second {
            self.flush();
            self.current_second = second;
        }
        if self.timeline.len() <= second {
            self.timeline.resize_with(second + 1, Second::default);
        }
        &mut self.timeline[second]
    }

    /// Moves the current second's buckets into the timeline.
    pub fn flush(&mut self) {
        if !self.current.is_empty() {
            if self.timeline.len() <= self.current_second {
                self.timeline.resize_with(self.current_second + 1, Second::default);
            }
            let found = buckets(&self.current);
            self.timeline[self.current_second].buckets.extend(found);
            self.current.reset();
        }
    }

    /// A complete answer, valid or not (status 0: a WebSocket echo).
    pub fn answered(&mut self, status: u16) {
        self.responses_total += 1;
        if let Some(n) = self.status_counts.get_mut(usize::from(status)) {
            *n += 1;
        }
    }

    /// A valid answer: `latency_us` from the intended send, `service_us` from the actual send.
    pub fn valid(&mut self, second: usize, latency_us: u64, service_us: u64) {
        self.requests += 1;
        self.second(second).requests += 1;
        self.record(latency_us, Some(service_us));
    }

    /// A request without an answer, at its age then; `service_us` is None if it was never sent.
    pub fn unfinished(&mut self, second: usize, latency_us: u64, service_us: Option<u64>) {
        self.unfinished += 1;
        self.second(second);
        self.record(latency_us, service_us);
    }

    fn record(&mut self, latency_us: u64, service_us: Option<u64>) {
        let latency_us = latency_us.max(LOWEST_US);
        self.latency.saturating_record(latency_us);
        if let Some(service_us) = service_us {
            self.service.saturating_record(service_us.max(LOWEST_US));
        }
        self.current.saturating_record(latency_us);
    }

    pub fn error(&mut self, second: usize, kind: ErrorKind) {
        self.errors[kind as usize] += 1;
        self.second(second).errors += 1;
    }

    /// Adds another thread's counts.
    pub fn merge(&mut self, mut other: Stats) {
        other.flush();
        self.flush();
        self.latency.add(&other.latency).expect("same histogram bounds");
        self.service.add(&other.service).expect("same histogram bounds");
        self.requests += other.requests;
        self.responses_total += other.responses_total;
        self.unfinished += other.unfinished;
        self.bytes_read += other.bytes_read;
        self.reconnects += other.reconnects;
        self.connect.merge(&other.connect);
        self.handshakes.merge(&other.handshakes);
        if self.mix.len() < other.mix.len() {
            self.mix.resize_with(other.mix.len(), StepCounts::default);
        }
        for (mine, theirs) in self.mix.iter_mut().zip(&other.mix) {
            mine.merge(theirs);
        }
        for (mine, theirs) in self.errors.iter_mut().zip(other.errors) {
            *mine += theirs;
        }
        for (mine, theirs) in self.status_counts.iter_mut().zip(other.status_counts) {
            *mine += theirs;
        }
        if self.timeline.len() < other.timeline.len() {
            self.timeline.resize_with(other.timeline.len(), Second::default);
        }
        for (mine, theirs) in self.timeline.iter_mut().zip(other.timeline) {
            mine.requests += theirs.requests;
            mine.errors += theirs.errors;
            mine.buckets.extend(theirs.buckets);
        }
    }
}

/// One thread's handshakes, added up over the threads at the end.
#[derive(Debug, Clone)]
pub struct Handshakes {
    pub full: u64,
    pub resumed: u64,
    /// From the TCP connection being up to the handshake being done.
    pub micros: Histogram<u64>,
    /// What the first handshake negotiated (every connection of a run asks for the same).
    pub version: Option<String>,
    pub cipher: Option<String>,
    pub alpn: Option<String>,
}

impl Default for Handshakes {
    fn default() -> Self {
        Handshakes { full: 0, resumed: 0, micros: histogram(), version: None, cipher: None, alpn: None }
    }
}

impl Handshakes {
    pub fn done(&mut self, conn: &ClientConnection, micros: u64) {
        match conn.handshake_kind() {
            Some(HandshakeKind::Resumed) => self.resumed += 1,
            _ => self.full += 1,
        }
        self.micros.saturating_record(micros.max(LOWEST_US));
        if self.version.is_none() {
            self.version = conn.protocol_version().map(|v| format!("{v:?}"));
            self.cipher = conn.negotiated_cipher_suite().map(|s| format!("{:?}", s.suite()));
            self.alpn = conn.alpn_protocol().map(|p| String::from_utf8_lossy(p).into_owned());
        }
    }

    pub fn merge(&mut self, other: &Handshakes) {
        self.full += other.full;
        self.resumed += other.resumed;
        let _ = self.micros.add(&other.micros);
        if self.version.is_none() {
            self.version.clone_from(&other.version);
            self.cipher.clone_from(&other.cipher);
            self.alpn.clone_from(&other.alpn);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn merged_threads_add_up() {
        let mut a = Stats::new();
        let mut b = Stats::new();
        a.answered(200);
        a.valid(0, 100, 50);
        a.answered(200);
        a.valid(1, 1000, 50);
        b.answered(500);
        b.error(1, ErrorKind::Status);
        b.unfinished(2, 1_000_000, Some(1_000_000));
        b.error(2, ErrorKind::Timeout);
        a.merge(b);
        assert_eq!((a.requests, a.responses_total, a.unfinished), (2, 3, 1));
        assert_eq!((a.status_counts[200], a.status_counts[500]), (2, 1));
        assert_eq!(a.errors[ErrorKind::Timeout as usize], 1);
        let counts: Vec<_> = a.timeline.iter().map(|s| (s.requests, s.errors)).collect();
        assert_eq!(counts, vec![(1, 0), (1, 1), (0, 1)]);
        assert_eq!(a.timeline[2].buckets.iter().map(|b| b.1).sum::<u64>(), 1, "the timed-out request");
        assert_eq!(buckets(&a.latency).iter().map(|b| b.1).sum::<u64>(), 3, "valid and unfinished, not invalid");
        assert!(a.latency.value_at_quantile(1.0) >= 1_000_000);
    }

    #[test]
    fn buckets_rebuild_the_same_percentiles() {
        let mut h = histogram();
        for v in [3, 17, 250, 251, 9_999, 1_234_567] {
            h.record(v).unwrap();
        }
        let mut again = histogram();
        for (v, n) in buckets(&h) {
            again.record_n(v, n).unwrap();
        }
        for q in [0.5, 0.9, 0.99, 1.0] {
            assert_eq!(h.value_at_quantile(q), again.value_at_quantile(q));
        }
    }
}
