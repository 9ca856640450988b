//! shootout-load: closed- and open-loop HTTP/1.1, HTTP/2 and WebSocket load, over TCP or TLS, with
//! corrected latency. A connection is a `protocol` over a `transport` over its socket; each thread's
//! `worker` drives its share of them on io_uring or epoll (`io` picks which).

pub mod check;
pub mod cli;
pub mod conn;
pub mod connect;
pub mod h2;
pub mod http;
pub mod io;
pub mod grpc;
pub mod mix;
pub mod output;
pub mod protocol;
pub mod request;
pub mod schedule;
pub mod stats;
pub mod sys;
pub mod tls;
pub mod timer;
pub mod transport;
pub mod url;
pub mod visitor;
pub mod warmup;
pub mod worker;
pub mod ws;

use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Instant;

use cli::Config;
use io::IoPath;
use output::Report;
use schedule::Window;
use stats::Stats;
use worker::epoll::Epoll;
use worker::uring::Uring;
use worker::{Driver, Worker};

/// File descriptors kept free beyond one per connection (std streams, poll instances or rings, the binary itself).
const SPARE_FDS: u64 = 256;

/// Runs the load described by `config` and returns what was measured.
pub fn run(config: Config) -> Result<Report, String> {
    let limit = sys::raise_nofile(config.connections as u64 + SPARE_FDS)?;
    if limit < config.connections as u64 + 16 {
        return Err(format!(
            "--connections {} needs more file descriptors than RLIMIT_NOFILE allows ({limit})",
            config.connections
        ));
    }
    let (path, fallback) = io::choose(config.io, &io::support())?;
    let config = Arc::new(config);
    let threads = config.threads;
    // The connect phase opens the first step's connections; one connection per request opens none ahead.
    let first = if config.keepalive { config.burst.first().copied().unwrap_or(config.connections) } else { 0 };
    let required = connect::required(first, config.connect_min);
    let window = Window::new(Instant::now(), config.warmup, config.duration, threads).requiring(required);
    let window = Arc::new(if config.warmup_steady.is_some() { window.until_steady() } else { window });
    let mut workers = Vec::with_capacity(threads);
    for index in 0..threads {
        let (config, window) = (Arc::clone(&config), Arc::clone(&window));
        workers.push(match path {
            IoPath::Epoll => start::<Epoll>(config, window, index)?,
            IoPath::IoUring => start::<Uring>(config, window, index)?,
        });
    }
    // A thread that ended early (its poll failed) opens the window at once: join reports what it had.
    let warm = warmup::watch(&window, config.warmup_steady, || workers.iter().any(|w| w.is_finished()));
    // The client's CPU is taken over the measured window only, like everything else reported.
    let cpu_before = sys::cpu_seconds();
    let mut stats = Stats::new();
    for handle in workers {
        stats.merge(handle.join().map_err(|_| "a load thread panicked".to_string())?);
    }
    let cpu = sys::cpu_seconds() - cpu_before;
    if let Some(reason) = window.failure() {
        return Err(reason);
    }
    let connect_s = window.connect_time().unwrap_or_default().as_secs_f64();
    let phase = (first > 0).then(|| {
        let (deadline, stage) = (config.connect_deadline.as_secs_f64(), config.connect_concurrency);
        connect::Phase::new(&stats.connect, first, connect_s, deadline, stage)
    });
    if let Some(phase) = phase.as_ref().filter(|_| window.short()) {
        return Err(connect::shortfall(phase, required));
    }
    let window_start_s = warm.measure.saturating_duration_since(window.start).as_secs_f64();
    let curve = (!config.warmup.is_zero()).then_some(warm.curve);
    Ok(Report::new(&config, stats, connect_s, window_start_s, curve, cpu).on(path, fallback).with_connect(phase))
}

/// Load thread `index` of the run, on the I/O path `D`.
fn start<D: Driver + Send + 'static>(config: Arc<Config>, window: Arc<Window>, index: usize) -> Result<JoinHandle<Stats>, String> {
    let threads = config.threads;
    let share = schedule::share(config.connections, index, threads);
    let worker = Worker::<D>::new(config, window, index, threads, share).map_err(|e| format!("cannot create an event loop: {e}"))?;
    std::thread::Builder::new()
        .name(format!("load-{index}"))
        .spawn(move || worker.run())
        .map_err(|e| format!("cannot start a thread: {e}"))
}
