//! When things happen: the measured window every thread agrees on, the open-loop pacing of requests,
//! and the steps of a burst. Pure timing, testable without sockets.

use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// How far ahead of the last connection the window is put, so every thread (each checks the clock at
/// least once per timeout scan) knows the start before it comes.
pub const LEAD: Duration = Duration::from_millis(50);

/// Thread `index`'s share of `total` connections spread over `threads`.
pub fn share(total: usize, index: usize, threads: usize) -> usize {
    total / threads + usize::from(index < total % threads)
}

/// The measured window: it opens when the warm-up is over and every thread's first connections have
/// connected or failed, whichever is later, and lasts `duration`.
pub struct Window {
    pub start: Instant,
    /// The warm-up's length; for a warm-up that ends when steady, its cap.
    warmup: Duration,
    pub duration: Duration,
    /// Threads whose first connections are not all settled yet.
    unsettled: AtomicUsize,
    /// Nanoseconds from `start` to the last settled connection, plus one (0: not yet).
    connected_ns: AtomicU64,
    /// The warm-up ends when `end_warmup` says so (it ends once the server is steady), not at `warmup`.
    until_steady: bool,
    /// Nanoseconds from `start` to the decided end of the warm-up, plus one (0: not decided yet).
    warm_end_ns: AtomicU64,
    /// Valid answers during the warm-up, all threads together.
    warm_answers: AtomicU64,
}

fn nanos_plus_one(d: Duration) -> u64 {
    u64::try_from(d.as_nanos()).unwrap_or(u64::MAX - 1) + 1
}

impl Window {
    pub fn new(start: Instant, warmup: Duration, duration: Duration, threads: usize) -> Self {
        Window {
            start,
            warmup,
            duration,
            unsettled: AtomicUsize::new(threads),
            connected_ns: AtomicU64::new(0),
            until_steady: false,
            warm_end_ns: AtomicU64::new(0),
            warm_answers: AtomicU64::new(0),
        }
    }

    /// The warm-up lasts until `end_warmup` is called, `warmup` being only its cap.
    pub fn until_steady(mut self) -> Self {
        self.until_steady = true;
        self
    }

    pub fn warmup_cap(&self) -> Duration {
        self.warmup
    }

    /// Ends a steady-ending warm-up `at` after the start; the first decision stands.
    pub fn end_warmup(&self, at: Duration) {
        let _ = self.warm_end_ns.compare_exchange(0, nanos_plus_one(at), Ordering::AcqRel, Ordering::Acquire);
    }

    /// A valid answer came during the warm-up.
    pub fn warm_answer(&self) {
        if !self.warmup.is_zero() {
            self.warm_answers.fetch_add(1, Ordering::Relaxed);
        }
    }

    pub fn warm_answers(&self) -> u64 {
        self.warm_answers.load(Ordering::Relaxed)
    }

    /// A thread's first connections have all connected or failed.
    pub fn settled(&self, now: Instant) {
        if self.unsettled.fetch_sub(1, Ordering::AcqRel) == 1 {
            self.connected_ns.store(nanos_plus_one(now.saturating_duration_since(self.start)), Ordering::Release);
        }
    }

    /// How long it took until every first connection had connected or failed, once known.
    pub fn connect_time(&self) -> Option<Duration> {
        match self.connected_ns.load(Ordering::Acquire) {
            0 => None,
            n => Some(Duration::from_nanos(n - 1)),
        }
    }

    /// When measuring begins, once known.
    pub fn measure(&self) -> Option<Instant> {
        let connected = self.connect_time()?;
        let warmup = match self.until_steady {
            true => Duration::from_nanos(self.warm_end_ns.load(Ordering::Acquire).checked_sub(1)?),
            false => self.warmup,
        };
        Some(self.start + warmup.max(connected + LEAD))
    }
}

/// Open loop: thread `index` of `threads` sends the global requests index, index + threads, ... of a
/// schedule at `rate` per second from `start`, so the threads together keep the rate.
#[derive(Debug, Clone)]
pub struct Pacing {
    rate: f64,
    index: usize,
    threads: usize,
    start: Instant,
    /// This thread's next request number.
    next: u64,
}

impl Pacing {
    pub fn new(rate: f64, index: usize, threads: usize, start: Instant) -> Self {
        Pacing { rate, index, threads, start, next: 0 }
    }

    /// Starts the schedule over at `at` (the measured window: a warm-up backlog is not carried in).
    pub fn restart(&mut self, at: Instant) {
        self.start = at;
        self.next = 0;
    }

    fn intended(&self, n: u64) -> Instant {
        let global = n as f64 * self.threads as f64 + self.index as f64;
        self.start + Duration::from_secs_f64(global / self.rate)
    }

    /// When the next request is due.
    pub fn due(&self) -> Instant {
        self.intended(self.next)
    }

    /// Takes the next request; returns when it was due.
    pub fn take(&mut self) -> Instant {
        let due = self.due();
        self.next += 1;
        due
    }

    /// The due times of requests not yet taken that fell due before `end`.
    pub fn unsent_before(&self, end: Instant) -> impl Iterator<Item = Instant> + '_ {
        (self.next..).map(|n| self.intended(n)).take_while(move |&due| due < end)
    }
}

/// A burst: which step's connection count applies at `now`, and when the next step begins (None after
/// the last one). Before the window opens the first step applies.
pub fn burst_step(steps: &[usize], step: Duration, measure: Option<Instant>, now: Instant) -> (usize, Option<Instant>) {
    let Some(measure) = measure.filter(|&m| now >= m) else { return (steps[0], measure) };
    let current = (now.duration_since(measure).as_nanos() / step.as_nanos().max(1)) as usize;
    let next = (current + 1 < steps.len()).then(|| measure + step * (current as u32 + 1));
    (steps[current.min(steps.len() - 1)], next)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shares_add_up() {
        assert_eq!((0..3).map(|i| share(10, i, 3)).collect::<Vec<_>>(), vec![4, 3, 3]);
    }

    #[test]
    fn window_waits_for_the_last_thread_and_the_warmup() {
        let t0 = Instant::now();
        let w = Window::new(t0, Duration::from_secs(1), Duration::from_secs(5), 2);
        w.settled(t0 + Duration::from_millis(100));
        assert_eq!(w.measure(), None, "one thread still connecting");
        w.settled(t0 + Duration::from_millis(300));
        assert_eq!(w.connect_time(), Some(Duration::from_millis(300)));
        assert_eq!(w.measure(), Some(t0 + Duration::from_secs(1)), "the warm-up is longer");
        let slow = Window::new(t0, Duration::ZERO, Duration::from_secs(5), 1);
        slow.settled(t0 + Duration::from_secs(2));
        assert_eq!(slow.measure(), Some(t0 + Duration::from_secs(2) + LEAD), "the connects are longer");
    }

    #[test]
    fn a_steady_warmup_waits_for_its_decision() {
        let t0 = Instant::now();
        let w = Window::new(t0, Duration::from_secs(30), Duration::from_secs(5), 1).until_steady();
        w.settled(t0 + Duration::from_millis(100));
        assert_eq!(w.measure(), None, "the warm-up's end is not decided yet");
        w.end_warmup(Duration::from_secs(4));
        w.end_warmup(Duration::from_secs(7));
        assert_eq!(w.measure(), Some(t0 + Duration::from_secs(4)), "the first decision stands, not the cap");
    }

    #[test]
    fn pacing_interleaves_threads_and_lists_the_unsent() {
        let t0 = Instant::now();
        let mut second = Pacing::new(100.0, 1, 2, t0);
        assert_eq!(second.take(), t0 + Duration::from_millis(10));
        assert_eq!(second.due(), t0 + Duration::from_millis(30));
        let unsent: Vec<_> = second.unsent_before(t0 + Duration::from_millis(75)).collect();
        assert_eq!(unsent, vec![t0 + Duration::from_millis(30), t0 + Duration::from_millis(50), t0 + Duration::from_millis(70)]);
        second.restart(t0 + Duration::from_secs(1));
        assert_eq!(second.due(), t0 + Duration::from_millis(1010));
    }

    #[test]
    fn burst_steps_follow_the_window() {
        let t0 = Instant::now();
        let step = Duration::from_secs(2);
        assert_eq!(burst_step(&[2, 6, 9], step, None, t0), (2, None));
        let m = t0 + Duration::from_secs(1);
        assert_eq!(burst_step(&[2, 6, 9], step, Some(m), t0), (2, Some(m)));
        assert_eq!(burst_step(&[2, 6, 9], step, Some(m), m + Duration::from_secs(3)), (6, Some(m + 2 * step)));
        assert_eq!(burst_step(&[2, 6, 9], step, Some(m), m + Duration::from_secs(9)), (9, None));
    }
}
