//! shootout-cpulink: how far apart two CPUs are right now, as the time one cache line takes to go from
//! CPU A to CPU B and back. In a virtual machine the host may run two virtual CPUs on cores that share a
//! cache or on cores that do not, and move them while a benchmark runs; on this project's 2-CPU KVM
//! machine the round trip went from about 100 ns to about 450 ns for tens of seconds at a time, and a
//! server and its load generator exchanging packets across the two CPUs lost 10-15 % of their throughput
//! meanwhile (docs/method.md). The harness probes before and after each trial.
//!
//! Usage: shootout-cpulink CPU_A CPU_B [MILLISECONDS]  (prints {"round_trip_ns": ...} on stdout)

use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The shared counter on a cache line of its own, so nothing else moves with it.
#[repr(align(128))]
struct Line(AtomicU64);

fn pin(cpu: usize) -> Result<(), String> {
    if cpu >= libc::CPU_SETSIZE as usize {
        return Err(format!("cannot run on CPU {cpu}: a CPU set holds CPUs 0 to {}", libc::CPU_SETSIZE - 1));
    }
    // SAFETY: an all-zero cpu_set_t is the empty set; CPU_SET and sched_setaffinity only touch the set we own.
    unsafe {
        let mut set: libc::cpu_set_t = std::mem::zeroed();
        libc::CPU_SET(cpu, &mut set);
        if libc::sched_setaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &set) != 0 {
            return Err(format!("cannot run on CPU {cpu}: {}", std::io::Error::last_os_error()));
        }
    }
    Ok(())
}

/// Round trips are timed in slices this long; the fastest slice is the answer, as a thread that shares a CPU
/// with a busy process loses whole slices to it (the placement slows every slice alike).
const SLICE: Duration = Duration::from_millis(2);

/// Nanoseconds per round trip of the line between `a` (this thread) and `b`: the fastest slice of `span`.
fn round_trip_ns(a: usize, b: usize, span: Duration) -> Result<f64, String> {
    let line = Arc::new(Line(AtomicU64::new(0)));
    let stop = Arc::new(AtomicBool::new(false));
    // The peer turns every odd value even; this thread turns even values odd. One round trip per two steps.
    let peer = {
        let (line, stop) = (Arc::clone(&line), Arc::clone(&stop));
        std::thread::spawn(move || -> Result<(), String> {
            pin(b)?;
            while !stop.load(Ordering::Relaxed) {
                let v = line.0.load(Ordering::Acquire);
                if v & 1 == 1 {
                    line.0.store(v + 1, Ordering::Release);
                }
            }
            Ok(())
        })
    };
    let measured = pin(a).map(|()| {
        // A peer that could not be pinned never answers: the deadlines below still end the loop.
        let start = Instant::now();
        let mut fastest = f64::INFINITY;
        while start.elapsed() < span {
            let slice = Instant::now();
            let mut trips = 0u64;
            while slice.elapsed() < SLICE {
                for _ in 0..64 {
                    let mut v = line.0.load(Ordering::Acquire);
                    while v & 1 == 1 && !peer.is_finished() {
                        v = line.0.load(Ordering::Acquire);
                    }
                    line.0.store(v + 1, Ordering::Release);
                }
                trips += 64;
            }
            fastest = fastest.min(slice.elapsed().as_nanos() as f64 / trips as f64);
        }
        fastest
    });
    stop.store(true, Ordering::Relaxed);
    peer.join().map_err(|_| "the probe's second thread panicked".to_string())??;
    measured
}

fn parse(arg: Option<String>, what: &str) -> Result<u64, String> {
    let raw = arg.ok_or_else(|| "usage: shootout-cpulink CPU_A CPU_B [MILLISECONDS]".to_string())?;
    raw.parse().map_err(|_| format!("{what} {raw:?} is not a non-negative integer"))
}

fn probe(mut args: impl Iterator<Item = String>) -> Result<f64, String> {
    let a = parse(args.next(), "CPU_A")? as usize;
    let b = parse(args.next(), "CPU_B")? as usize;
    let ms = match args.next() {
        Some(raw) => parse(Some(raw), "MILLISECONDS")?,
        None => 20,
    };
    if a == b {
        return Err(format!("CPU_A and CPU_B are both {a}: the probe needs two CPUs"));
    }
    round_trip_ns(a, b, Duration::from_millis(ms.clamp(1, 10_000)))
}

fn main() -> ExitCode {
    match probe(std::env::args().skip(1)) {
        Ok(ns) => {
            println!("{{\"round_trip_ns\": {ns:.1}}}");
            ExitCode::SUCCESS
        }
        Err(message) => {
            eprintln!("shootout-cpulink: {message}");
            ExitCode::from(2)
        }
    }
}
