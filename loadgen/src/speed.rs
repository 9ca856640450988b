//! shootout-speed: the machine's speed right now, as the rate of a fixed mix of work on one CPU: a walk over a
//! random cycle through 8 MiB (each step a cache miss, so the host's shared cache and memory show) and an
//! integer loop (the core). On this project's 2-CPU virtual machine both CPUs slow down and speed up together
//! by up to 1.5 x in phases of tens of seconds, with the cache and memory the host's other guests use; the
//! db and session workloads follow it (docs/method.md). The harness measures it beside every trial.
//!
//! It stays up for a run: the cycle is built once, then each line read from stdin holding a number of
//! milliseconds runs the mix that long and answers one line, {"steps_per_s": ...}. It ends at end of input.
//! The harness pins it to a CPU.

use std::io::{BufRead, Write};
use std::process::ExitCode;
use std::time::{Duration, Instant};

const CYCLE_BYTES: usize = 8 << 20;
/// Steps of the walk and rounds of the integer loop between two looks at the clock: about a millisecond.
const WALK: usize = 20_000;
const LOOP: u64 = 200_000;

/// A random cyclic permutation (Sattolo's algorithm), so the walk visits every slot before it repeats one.
fn cycle() -> Vec<usize> {
    let n = CYCLE_BYTES / std::mem::size_of::<usize>();
    let mut next: Vec<usize> = (0..n).collect();
    let mut rng = fastrand::Rng::with_seed(0x5eed);
    for i in (1..n).rev() {
        next.swap(i, rng.usize(..i));
    }
    next
}

/// Walk steps per second over `span`, and where the walk stopped (kept, so the work cannot be left out).
fn run(next: &[usize], mut at: usize, span: Duration) -> (f64, usize) {
    let start = Instant::now();
    let (mut steps, mut h) = (0u64, 1u64);
    while start.elapsed() < span {
        for _ in 0..WALK {
            at = next[at];
        }
        for k in 0..LOOP {
            h = h.wrapping_mul(6364136223846793005).wrapping_add(k);
        }
        steps += WALK as u64;
    }
    (steps as f64 / start.elapsed().as_secs_f64(), at ^ (h as usize & 1))
}

fn main() -> ExitCode {
    let next = cycle();
    let mut at = 0;
    let stdout = std::io::stdout();
    for line in std::io::stdin().lock().lines() {
        let Ok(line) = line else { return ExitCode::FAILURE };
        let Ok(ms) = line.trim().parse::<u64>() else {
            eprintln!("shootout-speed: expected milliseconds, got {line:?}");
            return ExitCode::FAILURE;
        };
        let (rate, stopped) = run(&next, at, Duration::from_millis(ms));
        at = stopped % next.len();
        let mut out = stdout.lock();
        if writeln!(out, "{{\"steps_per_s\": {rate:.0}}}").and_then(|()| out.flush()).is_err() {
            return ExitCode::FAILURE;
        }
    }
    ExitCode::SUCCESS
}
