//! The result: one JSON document (schemas/shootout-load.schema.json) and a human summary.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use hdrhistogram::Histogram;
use serde::Serialize;

use crate::cli::Config;
use crate::connect::Phase;
use crate::io::IoPath;
use crate::stats::{self, Handshakes, Stats, ERROR_KINDS};

/// Below this share of the target rate an open-loop run is flagged as not having kept up.
const RATE_FLOOR: f64 = 0.99;

#[derive(Debug, Clone, Serialize)]
pub struct Latency {
    pub p50: Option<f64>,
    pub p75: Option<f64>,
    pub p90: Option<f64>,
    pub p99: Option<f64>,
    pub p99_9: Option<f64>,
    pub p99_99: Option<f64>,
    pub max: Option<f64>,
    pub mean: Option<f64>,
    pub stdev: Option<f64>,
}

impl Latency {
    fn of(h: &Histogram<u64>) -> Self {
        if h.is_empty() {
            return Latency { p50: None, p75: None, p90: None, p99: None, p99_9: None, p99_99: None, max: None, mean: None, stdev: None };
        }
        let q = |q: f64| Some(h.value_at_quantile(q) as f64);
        Latency {
            p50: q(0.5),
            p75: q(0.75),
            p90: q(0.9),
            p99: q(0.99),
            p99_9: q(0.999),
            p99_99: q(0.9999),
            max: Some(h.max() as f64),
            mean: Some(h.mean()),
            stdev: Some(h.stdev()),
        }
    }
}

#[derive(Debug, Clone, Serialize)]
pub struct Second {
    pub second: usize,
    pub requests: u64,
    pub errors: u64,
    pub p99_us: Option<u64>,
}

#[derive(Debug, Clone, Serialize)]
pub struct Burst {
    pub steps: Vec<usize>,
    pub step_s: f64,
}

/// One --mix step: its requests over the whole run (warm-up and window: what the server was asked to do) and its
/// answers in the measured window.
#[derive(Debug, Clone, Serialize)]
pub struct MixStep {
    pub name: String,
    pub sent: u64,
    pub done: u64,
    pub failed: u64,
    pub unanswered: u64,
    pub requests: u64,
    pub errors: u64,
    pub latency_us: Latency,
}

/// How the requests travelled: the HTTP version, streams per connection, and what TLS negotiated.
#[derive(Debug, Clone, Serialize)]
pub struct Transport {
    pub http: &'static str,
    pub streams: usize,
    pub tls: Option<Negotiated>,
}

#[derive(Debug, Clone, Serialize)]
pub struct Report {
    pub version: &'static str,
    pub mode: &'static str,
    /// Valid answers in the measured window: the throughput.
    pub requests: u64,
    /// Every complete answer in the window, valid or not.
    pub responses_total: u64,
    /// Requests in the latency histogram without an answer (timed out, in flight or unsent at the end).
    pub unfinished: u64,
    pub duration_s: f64,
    /// From the start until the connect phase ended (every connection open, or the deadline); not measured.
    pub connect_s: f64,
    /// The connect phase, null with a connection per request (each connect is then part of its request).
    pub connect: Option<Phase>,
    /// From the start until the measured window opened (connects and warm-up included), so a harness that
    /// samples the server can take the window's share of what it sampled.
    pub window_start_s: f64,
    /// With a warm-up: from the start until measuring began (connects included).
    pub warmup_s: Option<f64>,
    /// With a warm-up: valid answers in each whole second of it, i.e. its requests per second.
    pub warmup_curve: Option<Vec<u64>>,
    pub rps: f64,
    pub bytes_read: u64,
    /// With --requests-per-connection: connections the client closed after their last request and opened
    /// again, in the measured window.
    pub reconnects: u64,
    pub requests_per_connection: Option<u32>,
    pub connections: usize,
    pub threads: usize,
    pub pipeline: usize,
    pub keepalive: bool,
    pub sessions: bool,
    pub validated: bool,
    pub websocket: bool,
    pub target_rate: Option<f64>,
    pub achieved_rate: f64,
    /// Open loop only: whether the achieved rate stayed at or above 99 % of the target.
    pub rate_kept: Option<bool>,
    pub latency_us: Latency,
    pub service_time_us: Latency,
    pub errors: BTreeMap<&'static str, u64>,
    pub status_counts: BTreeMap<String, u64>,
    pub timeline: Vec<Second>,
    /// A burst run: the connection count of each step and how long each lasted.
    pub burst: Option<Burst>,
    pub histogram: Vec<(u64, u64)>,
    pub client_cpu_s: f64,
    pub client_peak_rss_kib: u64,
    /// The I/O path the run used, and why `--io auto` fell back to epoll if it did.
    pub io: &'static str,
    pub io_fallback: Option<String>,
    pub transport: Transport,
    /// With --mix: each step, in the mix's order.
    pub mix: Option<Vec<MixStep>>,
}

impl Report {
    /// `connect_s` and `window_start_s` count from the start; `warmup_curve` is there when there was a warm-up.
    pub fn new(
        config: &Config,
        stats: Stats,
        connect_s: f64,
        window_start_s: f64,
        warmup_curve: Option<Vec<u64>>,
        client_cpu_s: f64,
    ) -> Self {
        let duration_s = config.duration.as_secs_f64();
        let rps = stats.requests as f64 / duration_s;
        let empty = stats::Second::default();
        let timeline = (0..duration_s.ceil() as usize)
            .map(|second| {
                let s = stats.timeline.get(second).unwrap_or(&empty);
                let mut h = stats::histogram();
                for &(value, count) in &s.buckets {
                    h.saturating_record_n(value, count);
                }
                let p99_us = (!h.is_empty()).then(|| h.value_at_quantile(0.99));
                Second { second, requests: s.requests, errors: s.errors, p99_us }
            })
            .collect();
        let mix = config.mix.as_ref().filter(|mix| !mix.calls).map(|mix| {
            mix.steps
                .iter()
                .zip(&stats.mix)
                .map(|(step, counts)| MixStep {
                    name: step.name.clone(),
                    sent: counts.sent,
                    done: counts.done,
                    failed: counts.failed,
                    unanswered: counts.unanswered(),
                    requests: counts.requests,
                    errors: counts.errors,
                    latency_us: Latency::of(&counts.latency),
                })
                .collect()
        });
        Report {
            version: env!("CARGO_PKG_VERSION"),
            mode: if config.rate.is_some() { "open" } else { "closed" },
            requests: stats.requests,
            responses_total: stats.responses_total,
            unfinished: stats.unfinished,
            duration_s,
            connect_s,
            connect: None,
            window_start_s,
            warmup_s: warmup_curve.is_some().then_some(window_start_s),
            warmup_curve,
            rps,
            bytes_read: stats.bytes_read,
            reconnects: stats.reconnects,
            requests_per_connection: config.requests_per_connection,
            connections: config.connections,
            threads: config.threads,
            pipeline: config.pipeline,
            keepalive: config.keepalive,
            sessions: config.sessions,
            validated: config.validates_body() || config.websocket.is_some(),
            websocket: config.websocket.is_some(),
            target_rate: config.rate,
            achieved_rate: rps,
            rate_kept: config.rate.map(|rate| rps >= RATE_FLOOR * rate),
            latency_us: Latency::of(&stats.latency),
            service_time_us: Latency::of(&stats.service),
            errors: ERROR_KINDS.iter().map(|&(kind, name)| (name, stats.errors[kind as usize])).collect(),
            status_counts: stats
                .status_counts
                .iter()
                .enumerate()
                .filter(|&(code, &n)| code >= 100 && n > 0)
                .map(|(code, &n)| (code.to_string(), n))
                .collect(),
            timeline,
            burst: (!config.burst.is_empty())
                .then(|| Burst { steps: config.burst.clone(), step_s: config.step.as_secs_f64() }),
            histogram: stats::buckets(&stats.latency),
            client_cpu_s,
            client_peak_rss_kib: crate::sys::peak_rss_kib(),
            io: IoPath::Epoll.name(),
            io_fallback: None,
            transport: Transport {
                http: if config.http2 { "2" } else { "1.1" },
                streams: if config.http2 { config.streams } else { 1 },
                tls: config.tls.as_ref().map(|_| Negotiated::of(&stats.handshakes)),
            },
            mix,
        }
    }

    /// Names the I/O path the run took.
    pub fn on(mut self, path: IoPath, fallback: Option<String>) -> Self {
        self.io = path.name();
        self.io_fallback = fallback;
        self
    }

    /// The connect phase, where the run had one.
    pub fn with_connect(mut self, phase: Option<Phase>) -> Self {
        self.connect = phase;
        self
    }

    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("a report always serialises")
    }

    pub fn error_total(&self) -> u64 {
        self.errors.values().sum()
    }

    pub fn summary(&self) -> String {
        let ms = |v: Option<f64>| v.map_or("-".to_string(), |v| format!("{:.2}ms", v / 1000.0));
        let mut out = String::new();
        let _ = writeln!(
            out,
            "{} loop, {} connections{}, {} threads, {:.1}s after {:.2}s of connects: {} valid of {} responses, {:.0} req/s, {:.1} MB read",
            self.mode,
            self.connections,
            if self.keepalive { "" } else { " (one per request)" },
            self.threads,
            self.duration_s,
            self.connect_s,
            self.requests,
            self.responses_total,
            self.rps,
            self.bytes_read as f64 / 1e6
        );
        if let Some(phase) = &self.connect {
            let _ = writeln!(out, "  connect phase: {}", phase.describe());
        }
        if let (Some(seconds), Some(curve)) = (self.warmup_s, &self.warmup_curve) {
            let _ = writeln!(out, "  warm-up {seconds:.2}s, req/s per second: {curve:?}");
        }
        if self.unfinished > 0 {
            let _ = writeln!(out, "  unfinished {} (timed out, or in flight or unsent at the end): in the latency at their age", self.unfinished);
        }
        if let (Some(target), Some(kept)) = (self.target_rate, self.rate_kept) {
            let _ = writeln!(
                out,
                "  rate: target {target:.0}/s, achieved {:.0}/s ({:.1} %){}",
                self.achieved_rate,
                100.0 * self.achieved_rate / target,
                if kept { "" } else { "  BELOW 99 % OF TARGET" }
            );
        }
        for (name, l) in [("latency", &self.latency_us), ("service", &self.service_time_us)] {
            let _ = writeln!(
                out,
                "  {name:8} p50 {}  p90 {}  p99 {}  p99.9 {}  max {}",
                ms(l.p50),
                ms(l.p90),
                ms(l.p99),
                ms(l.p99_9),
                ms(l.max)
            );
        }
        let errors: Vec<String> = self.errors.iter().filter(|(_, &n)| n > 0).map(|(k, n)| format!("{k} {n}")).collect();
        let _ = writeln!(out, "  errors: {}", if errors.is_empty() { "none".into() } else { errors.join(", ") });
        let statuses: Vec<String> = self.status_counts.iter().map(|(k, n)| format!("{k}: {n}")).collect();
        if !statuses.is_empty() {
            let _ = writeln!(out, "  status: {}", statuses.join(", "));
        }
        let _ = writeln!(out, "  transport: {}", self.transport.describe());
        let _ = writeln!(out, "  client CPU {:.2}s, peak RSS {:.1} MB", self.client_cpu_s, self.client_peak_rss_kib as f64 / 1024.0);
        match &self.io_fallback {
            Some(why) => {
                let _ = writeln!(out, "  I/O: {} (io_uring unavailable: {why})", self.io);
            }
            None => {
                let _ = writeln!(out, "  I/O: {}", self.io);
            }
        }
        out
    }
}

impl Transport {
    fn describe(&self) -> String {
        let mut text = format!("HTTP/{}", self.http);
        if self.http == "2" {
            let _ = write!(text, ", {} streams per connection", self.streams);
        }
        match &self.tls {
            None => text.push_str(", cleartext"),
            Some(tls) => {
                let _ = write!(
                    text,
                    ", {} {} ALPN {}, {} handshakes ({} resumed)",
                    tls.version.as_deref().unwrap_or("TLS"),
                    tls.cipher.as_deref().unwrap_or("-"),
                    tls.alpn.as_deref().unwrap_or("none"),
                    tls.handshakes,
                    tls.resumed
                );
                if let Some(ms) = &tls.handshake_ms {
                    let _ = write!(text, ", handshake p50 {:.2}ms p99 {:.2}ms", ms.p50, ms.p99);
                }
            }
        }
        text
    }
}

/// The `tls` object of the JSON report.
#[derive(Debug, Clone, Serialize)]
pub struct Negotiated {
    pub version: Option<String>,
    pub cipher: Option<String>,
    pub alpn: Option<String>,
    pub handshakes: u64,
    pub resumed: u64,
    pub handshake_ms: Option<HandshakeMs>,
}

#[derive(Debug, Clone, Serialize)]
pub struct HandshakeMs {
    pub mean: f64,
    pub p50: f64,
    pub p99: f64,
    pub max: f64,
}

impl Negotiated {
    pub fn of(h: &Handshakes) -> Self {
        let ms = |us: u64| us as f64 / 1000.0;
        let handshake_ms = (!h.micros.is_empty()).then(|| HandshakeMs {
            mean: h.micros.mean() / 1000.0,
            p50: ms(h.micros.value_at_quantile(0.5)),
            p99: ms(h.micros.value_at_quantile(0.99)),
            max: ms(h.micros.max()),
        });
        Negotiated {
            version: h.version.clone(),
            cipher: h.cipher.clone(),
            alpn: h.alpn.clone(),
            handshakes: h.full + h.resumed,
            resumed: h.resumed,
            handshake_ms,
        }
    }
}
