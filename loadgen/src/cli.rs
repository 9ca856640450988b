//! Command-line flags and their validation into a `Config`; every bad value is named in the error.

pub mod payload;
pub mod transport;

use std::net::{SocketAddr, ToSocketAddrs};
use std::time::Duration;

use clap::Parser;
use regex::bytes::{Regex, RegexBuilder};

/// What a compiled --expect-body-regex may take: json-comp's array of 1,000 items, each a bounded sub-pattern,
/// compiles past the crate's default 10 MB.
const REGEX_SIZE_LIMIT: usize = 256 << 20;

use crate::io::IoMode;
use crate::grpc;
use crate::mix::Mix;
use crate::request::Template;
use crate::tls;
use crate::url;
use payload::PayloadArgs;
use transport::{RequestFlags, TransportArgs};

#[derive(Parser, Debug, Clone)]
#[command(name = "shootout-load", version, about = "HTTP/1.1, HTTP/2 and WebSocket load generator with honest latency")]
pub struct Args {
    /// Connections (visitors) kept open in total.
    #[arg(short = 'c', long, default_value_t = 64)]
    pub connections: usize,
    /// Threads, each with its own event loop (default: the CPUs this process may use).
    #[arg(short = 't', long)]
    pub threads: Option<usize>,
    /// Measured time, e.g. 5s, 500ms, 1m.
    #[arg(short = 'd', long, default_value = "5s", value_parser = parse_duration)]
    pub duration: Duration,
    /// Load before measuring starts (not recorded; its curve is); with --warmup-steady, its cap.
    #[arg(long, default_value = "0s", value_parser = parse_duration)]
    pub warmup: Duration,
    /// End the warm-up as soon as the valid answers of the last 3 one-second windows are on average within
    /// this percentage of the 3 before them, up or down (throughput holds its level); --warmup is its cap.
    #[arg(long, value_name = "PCT")]
    pub warmup_steady: Option<f64>,
    /// How long one request (or one attempt to open a connection) may take before it counts as a timeout.
    #[arg(long, default_value = "5s", value_parser = parse_duration)]
    pub timeout: Duration,
    /// The connect phase, before any request, ends at the latest this long after the start.
    #[arg(long, default_value = "60s", value_parser = parse_duration)]
    pub connect_deadline: Duration,
    /// Percent of the connections that must be open at the connect deadline (the run goes on with those), else it fails.
    #[arg(long, default_value_t = 100.0, value_name = "PCT")]
    pub connect_min: f64,
    /// Connections being opened (TCP connect and WebSocket upgrade) at once, all threads together.
    #[arg(long, default_value_t = 64, value_parser = clap::value_parser!(u64).range(1..))]
    pub connect_concurrency: u64,
    /// Extra request header "Name: value" (repeatable).
    #[arg(short = 'H', long = "header")]
    pub headers: Vec<String>,
    #[arg(short = 'm', long, default_value = "GET")]
    pub method: String,
    #[command(flatten)]
    pub payload: PayloadArgs,
    /// Open loop at this many requests per second in total (closed loop without it).
    #[arg(short = 'R', long)]
    pub rate: Option<f64>,
    /// Closed loop whose connection count steps up during one run, e.g. 100,500,1000; each step lasts
    /// --step, so the run lasts steps x --step (-c and -d are taken from the steps).
    #[arg(long, value_delimiter = ',', conflicts_with = "rate")]
    pub burst: Vec<usize>,
    /// How long each --burst step lasts.
    #[arg(long, default_value = "5s", value_parser = parse_duration)]
    pub step: Duration,
    /// Every connection is one visitor with its own cookie jar.
    #[arg(long, conflicts_with = "cookieless")]
    pub sessions: bool,
    /// No cookies are kept (the default).
    #[arg(long)]
    pub cookieless: bool,
    #[arg(long, default_value_t = 200)]
    pub expect_status: u16,
    /// Every response body must equal this.
    #[arg(long)]
    pub expect_body: Option<String>,
    /// Every response body must match this regular expression.
    #[arg(long)]
    pub expect_body_regex: Option<String>,
    /// The body must be "Count is N", N rising by exactly one per request of the visitor.
    #[arg(long, requires = "sessions")]
    pub expect_counter: bool,
    /// Open WebSocket connections and measure echo round trips of --message.
    #[arg(long, requires = "message")]
    pub websocket: bool,
    #[arg(long, requires = "websocket")]
    pub message: Option<String>,
    /// Print the result as one JSON document on stdout.
    #[arg(long)]
    pub json: bool,
    /// Requests in flight per connection (HTTP/1.1 pipelining).
    #[arg(long, default_value_t = 1)]
    pub pipeline: usize,
    /// A new TCP connection for every request, sent with "Connection: close"; the connect is part of
    /// the request's latency (closed loop only).
    #[arg(long)]
    pub no_keepalive: bool,
    /// Close each connection after this many answers and open a new one (kept-alive otherwise); the first
    /// request on the new one carries the connect in its latency.
    #[arg(long, value_name = "N", conflicts_with = "no_keepalive", value_parser = clap::value_parser!(u32).range(1..))]
    pub requests_per_connection: Option<u32>,
    #[command(flatten)]
    pub transport: TransportArgs,
    /// A mix of requests instead of one (JSON: {"seed", "steps": [{"name", "count", "method", "path", "status",
    /// "headers", "body", "body_regex", "capture"}]}); each connection sends a seeded shuffle of the steps' cycle,
    /// each answer checked against its step, and the report keeps each step's counts and latency. The URL gives
    /// the address only. HTTP/1.1, one request in flight per connection.
    #[arg(long, value_name = "JSON")]
    pub mix: Option<String>,
    /// gRPC calls to the URL's method path over HTTP/2 (JSON: {"calls": [{"request", "replies": [...]}]}, each
    /// message's protobuf bytes in hex): every answer must carry exactly the replies and grpc-status 0.
    #[arg(long, value_name = "JSON", conflicts_with = "mix")]
    pub grpc: Option<String>,
    /// I/O path: io_uring where the kernel allows it, else epoll (auto); forcing one that cannot work is an error.
    #[arg(long, value_enum, default_value = "auto")]
    pub io: IoMode,
    /// http://host[:port]/path (ws:// with --websocket); {rand:A:B} in it is replaced per request.
    pub url: String,
}

/// What the workers need, checked and prepared once.
#[derive(Debug)]
pub struct Config {
    pub addr: SocketAddr,
    pub connections: usize,
    pub threads: usize,
    pub duration: Duration,
    /// The warm-up's length, or its cap when `warmup_steady` is set.
    pub warmup: Duration,
    /// The warm-up ends once throughput is steady within this percentage.
    pub warmup_steady: Option<f64>,
    pub timeout: Duration,
    pub connect_deadline: Duration,
    pub connect_min: f64,
    pub connect_concurrency: usize,
    pub rate: Option<f64>,
    /// Connections open in each step of a burst (empty: all of them for the whole run).
    pub burst: Vec<usize>,
    pub step: Duration,
    pub pipeline: usize,
    /// Connections are kept for further requests (false: one connection per request).
    pub keepalive: bool,
    pub requests_per_connection: Option<u32>,
    pub sessions: bool,
    pub expect_status: u16,
    pub expect_body: Option<Vec<u8>>,
    pub expect_body_regex: Option<Regex>,
    /// Every answer's Content-Encoding, lower case.
    pub expect_encoding: Option<Vec<u8>>,
    pub expect_counter: bool,
    pub head_request: bool,
    pub template: Template,
    pub mix: Option<Mix>,
    /// The handshake to send and the message to echo, in WebSocket mode.
    pub websocket: Option<(Vec<u8>, Vec<u8>)>,
    pub json: bool,
    pub io: IoMode,
    /// Every connection is opened with TLS.
    pub tls: Option<tls::Settings>,
    pub http2: bool,
    /// HTTP/2 streams per connection (`pipeline` holds the same number: requests in flight per connection).
    pub streams: usize,
}

impl Config {
    /// Whether response bodies have to be kept to check them.
    pub fn validates_body(&self) -> bool {
        self.expect_body.is_some() || self.expect_body_regex.is_some() || self.expect_counter
            || self.mix.as_ref().is_some_and(Mix::validates_body)
    }
}

pub fn parse_duration(text: &str) -> Result<Duration, String> {
    let text = text.trim();
    let split = text.find(|c: char| !(c.is_ascii_digit() || c == '.')).unwrap_or(text.len());
    let (number, unit) = text.split_at(split);
    let value: f64 = number.parse().map_err(|_| format!("expected a duration like 5s, 500ms or 1m, got {text:?}"))?;
    let seconds = match unit {
        "" | "s" => value,
        "ms" => value / 1000.0,
        "m" => value * 60.0,
        "h" => value * 3600.0,
        _ => return Err(format!("unknown unit {unit:?} in duration {text:?} (use ms, s, m or h)")),
    };
    Duration::try_from_secs_f64(seconds).map_err(|_| format!("duration {text:?} is out of range"))
}

impl Args {
    /// --mix and --grpc set every request and its check (`flag` names which): the flags that would set them, or
    /// (--mix) put several in flight, are refused.
    fn steps_alone(&self, flag: &str) -> Result<(), String> {
        let (p, mix, http2) = (&self.payload, flag == "--mix", self.transport.http == transport::HttpVersion::Http2);
        if !mix && !http2 {
            return Err(format!("{flag} needs --http 2 (gRPC is HTTP/2 only)"));
        }
        let clash = [
            ("--websocket", self.websocket),
            ("--sessions", self.sessions),
            ("--http 2", mix && http2),
            ("--pipeline above 1", mix && self.pipeline > 1),
            ("--no-keepalive", !mix && self.no_keepalive),
            ("--method", self.method != "GET"),
            ("--body, --body-size or --chunk-size", p.body.is_some() || p.body_size.is_some() || p.chunk_size.is_some()),
            ("--expect-body, --expect-body-regex or --expect-encoding", self.expect_body.is_some() || self.expect_body_regex.is_some() || p.expect_encoding.is_some()),
            ("--expect-status", self.expect_status != 200),
        ];
        match clash.iter().find(|(_, set)| *set) {
            Some((other, _)) => Err(format!("{flag} cannot be combined with {other} (each {} says its own)", if mix { "step" } else { "call" })),
            None => Ok(()),
        }
    }

    pub fn into_config(self) -> Result<Config, String> {
        if self.connections == 0 {
            return Err("--connections: expected at least 1, got 0".into());
        }
        if self.duration.is_zero() {
            return Err("--duration: expected more than 0s".into());
        }
        if self.timeout.is_zero() {
            return Err("--timeout: expected more than 0s".into());
        }
        if self.connect_deadline.is_zero() {
            return Err("--connect-deadline: expected more than 0s".into());
        }
        if !(self.connect_min.is_finite() && self.connect_min > 0.0 && self.connect_min <= 100.0) {
            return Err(format!("--connect-min: expected a percentage above 0 and at most 100, got {}", self.connect_min));
        }
        if self.pipeline == 0 {
            return Err("--pipeline: expected at least 1, got 0".into());
        }
        if self.pipeline > 1 && (self.sessions || self.websocket) {
            return Err("--pipeline above 1 cannot be combined with --sessions or --websocket".into());
        }
        let requests =
            RequestFlags { pipeline: self.pipeline, websocket: self.websocket, sessions: self.sessions, no_keepalive: self.no_keepalive };
        let http2 = self.transport.check_http(&requests)?;
        if self.no_keepalive {
            // Open loop would connect ahead of the due time and hide the connect; pipelining and
            // WebSocket need a kept connection by definition.
            let clash = [("--rate", self.rate.is_some()), ("--pipeline above 1", self.pipeline > 1), ("--websocket", self.websocket)];
            if let Some((flag, _)) = clash.iter().find(|(_, set)| *set) {
                return Err(format!("--no-keepalive cannot be combined with {flag}"));
            }
        }
        if let Some(rate) = self.rate {
            if !(rate.is_finite() && rate > 0.0) {
                return Err(format!("--rate: expected requests per second above 0, got {rate}"));
            }
        }
        if let Some(pct) = self.warmup_steady {
            if !(pct.is_finite() && pct > 0.0 && pct < 100.0) {
                return Err(format!("--warmup-steady: expected a percentage above 0 and below 100, got {pct}"));
            }
            if self.warmup < Duration::from_secs(1) {
                return Err(format!(
                    "--warmup-steady needs --warmup (its cap) of at least 1s, got {:?}",
                    self.warmup
                ));
            }
        }
        if self.burst.contains(&0) || self.burst.windows(2).any(|w| w[1] < w[0]) {
            return Err(format!("--burst {:?}: expected rising connection counts of at least 1", self.burst));
        }
        if !self.burst.is_empty() && self.step.is_zero() {
            return Err("--step: a burst step must last longer than 0s".into());
        }
        let (connections, duration) = match self.burst.iter().max() {
            Some(&most) => (most, self.step * self.burst.len() as u32),
            None => (self.connections, self.duration),
        };
        let cpus = std::thread::available_parallelism().map_or(1, |n| n.get());
        let threads = match self.threads {
            Some(0) => return Err("--threads: expected at least 1, got 0".into()),
            Some(n) => n,
            None => cpus,
        }
        .min(connections);
        let url = url::parse(&self.url, self.websocket)?;
        let tls = self.transport.tls(&url, http2)?;
        let addr = (url.host.trim_matches(['[', ']']), url.port)
            .to_socket_addrs()
            .map_err(|e| format!("URL {:?}: cannot resolve {:?}: {e}", self.url, url.host))?
            .next()
            .ok_or_else(|| format!("URL {:?}: {:?} resolves to no address", self.url, url.host))?;
        let default_port = if url.secure { 443 } else { 80 };
        let host = if url.port == default_port { url.host.clone() } else { format!("{}:{}", url.host, url.port) };
        let mut headers = url::header_lines(&self.headers)?;
        if self.no_keepalive {
            headers.extend_from_slice(b"Connection: close\r\n");
        }
        let body = self.payload.body()?;
        let expect_encoding = self.payload.encoding(http2, self.websocket)?;
        if self.requests_per_connection.is_some() && (self.pipeline > 1 || self.transport.streams > 1 || self.websocket) {
            return Err("--requests-per-connection cannot be combined with --pipeline or --streams above 1, or --websocket".into());
        }
        if self.method.is_empty() || !self.method.bytes().all(|b| b.is_ascii_alphabetic()) {
            return Err(format!("--method {:?}: expected a token like GET or POST", self.method));
        }
        let regex = match &self.expect_body_regex {
            Some(re) => Some(RegexBuilder::new(re).size_limit(REGEX_SIZE_LIMIT).build().map_err(|e| format!("--expect-body-regex {re:?}: {e}"))?),
            None => None,
        };
        let template = Template::new(&self.method, &url.path, &host, &headers, &body, self.payload.chunk())?;
        if template.captures() {
            return Err(format!("URL {:?}: {{captured}} is a --mix step's template", self.url));
        }
        let mix = match (&self.mix, &self.grpc) {
            (Some(json), _) => Some(self.steps_alone("--mix").and_then(|()| Mix::parse(json, &host, &headers, REGEX_SIZE_LIMIT))?),
            (None, Some(json)) => Some(self.steps_alone("--grpc").and_then(|()| grpc::parse(json, &url.path, &host, &headers))?),
            (None, None) => None,
        };
        let websocket = if self.websocket {
            if !template.is_static() {
                return Err(format!("URL {:?}: templates are not supported with --websocket", self.url));
            }
            let message = self.message.clone().unwrap_or_default().into_bytes();
            Some((crate::ws::handshake(&host, &url.path, &headers), message))
        } else {
            None
        };
        Ok(Config {
            addr,
            connections,
            threads,
            duration,
            warmup: self.warmup,
            warmup_steady: self.warmup_steady,
            timeout: self.timeout,
            connect_deadline: self.connect_deadline,
            connect_min: self.connect_min,
            connect_concurrency: self.connect_concurrency as usize,
            rate: self.rate,
            burst: self.burst,
            step: self.step,
            pipeline: if http2 { self.transport.streams } else { self.pipeline },
            keepalive: !self.no_keepalive,
            requests_per_connection: self.requests_per_connection,
            sessions: self.sessions,
            expect_status: self.expect_status,
            expect_body: self.expect_body.map(String::into_bytes),
            expect_body_regex: regex,
            expect_encoding,
            expect_counter: self.expect_counter,
            head_request: self.method.eq_ignore_ascii_case("HEAD"),
            template,
            mix,
            websocket,
            json: self.json,
            io: self.io,
            tls,
            http2,
            streams: self.transport.streams,
        })
    }
}

#[cfg(test)]
mod tests;
