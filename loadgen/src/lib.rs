//! shootout-load: closed- and open-loop HTTP/1.1 and WebSocket load with corrected latency.

pub mod cli;
pub mod conn;
pub mod http;
pub mod output;
pub mod request;
pub mod stats;
pub mod sys;
pub mod timer;
pub mod worker;
pub mod ws;

use std::sync::Arc;
use std::time::Instant;

use cli::Config;
use output::Report;
use stats::Stats;
use worker::{Clock, Worker};

/// File descriptors kept free beyond one per connection (std streams, poll instances, the binary itself).
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
    let config = Arc::new(config);
    let start = Instant::now();
    let clock = Clock { start, measure: start + config.warmup, end: start + config.warmup + config.duration };
    let threads = config.threads;
    let mut workers = Vec::with_capacity(threads);
    for index in 0..threads {
        let share = worker::share(config.connections, index, threads);
        let worker = Worker::new(Arc::clone(&config), clock, index, threads, share)
            .map_err(|e| format!("cannot create an event loop: {e}"))?;
        let handle = std::thread::Builder::new()
            .name(format!("load-{index}"))
            .spawn(move || worker.run())
            .map_err(|e| format!("cannot start a thread: {e}"))?;
        workers.push(handle);
    }
    std::thread::sleep(clock.measure.saturating_duration_since(Instant::now()));
    let cpu_before = sys::cpu_seconds();
    let mut stats = Stats::new();
    for handle in workers {
        stats.merge(handle.join().map_err(|_| "a load thread panicked".to_string())?);
    }
    let cpu = sys::cpu_seconds() - cpu_before;
    Ok(Report::new(&config, stats, config.duration, cpu))
}
