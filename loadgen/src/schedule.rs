//! When things happen: the measured window every thread agrees on, the open-loop pacing of requests,
//! and the steps of a burst. Pure timing, testable without sockets.

use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// How far ahead the start of the load (after the last connection opened) and of the window are put, so
/// every thread (each checks the clock at least once per timeout scan) knows the start before it comes.
pub const LEAD: Duration = Duration::from_millis(50);

/// Thread `index`'s share of `total` connections spread over `threads`.
pub fn share(total: usize, index: usize, threads: usize) -> usize {
    total / threads + usize::from(index < total % threads)
}

/// The run's clock: the connect phase ends when every thread's first connections are open (or at the
/// deadline), the load starts `LEAD` after that on every thread at once, the warm-up runs from there, and
/// the measured window opens when it is over and lasts `duration`.
pub struct Window {
    pub start: Instant,
    /// The warm-up's length; for a warm-up that ends when steady, its cap.
    warmup: Duration,
    pub duration: Duration,
    /// Threads whose connect phase has not ended yet.
    unsettled: AtomicUsize,
    /// Nanoseconds from `start` to the end of the connect phase, plus one (0: not yet).
    connected_ns: AtomicU64,
    /// Connections open when their thread's connect phase ended, all threads together.
    opened: AtomicU64,
    /// Fewer than this many open at the end of the connect phase: the run stops.
    required: u64,
    short: AtomicBool,
    /// The warm-up ends when `end_warmup` says so (it ends once the server is steady), not at `warmup`.
    until_steady: bool,
    /// Nanoseconds from `start` to the decided end of the warm-up, plus one (0: not decided yet).
    warm_end_ns: AtomicU64,
    /// Valid answers during the warm-up, all threads together.
    warm_answers: AtomicU64,
    /// Why the run cannot go on (the server does not speak what was asked for): every thread stops.
    failure: Mutex<Option<String>>,
    failed: AtomicBool,
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
            opened: AtomicU64::new(0),
            required: 0,
            short: AtomicBool::new(false),
            until_steady: false,
            warm_end_ns: AtomicU64::new(0),
            warm_answers: AtomicU64::new(0),
            failure: Mutex::new(None),
            failed: AtomicBool::new(false),
        }
    }

    /// Stops the run with this reason (the first one given is kept).
    pub fn fail(&self, reason: String) {
        let mut failure = self.failure.lock().unwrap_or_else(|e| e.into_inner());
        failure.get_or_insert(reason);
        self.failed.store(true, Ordering::Release);
    }

    pub fn failed(&self) -> bool {
        self.failed.load(Ordering::Acquire)
    }

    pub fn failure(&self) -> Option<String> {
        self.failure.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }

    /// The warm-up lasts until `end_warmup` is called, `warmup` being only its cap.
    pub fn until_steady(mut self) -> Self {
        self.until_steady = true;
        self
    }

    /// The run stops after its connect phase if fewer than `required` connections are open.
    pub fn requiring(mut self, required: u64) -> Self {
        self.required = required;
        self
    }

    /// The latest end of the warm-up, from `start`, once the load's start is known.
    pub fn warmup_cap(&self) -> Option<Duration> {
        Some(self.load_offset()? + self.warmup)
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

    /// A thread's connect phase is over with `opened` of its connections open.
    pub fn settled(&self, now: Instant, opened: u64) {
        let total = self.opened.fetch_add(opened, Ordering::AcqRel) + opened;
        if self.unsettled.fetch_sub(1, Ordering::AcqRel) == 1 {
            self.short.store(total < self.required, Ordering::Release);
            self.connected_ns.store(nanos_plus_one(now.saturating_duration_since(self.start)), Ordering::Release);
        }
    }

    /// How long the connect phase took, once it is over.
    pub fn connect_time(&self) -> Option<Duration> {
        match self.connected_ns.load(Ordering::Acquire) {
            0 => None,
            n => Some(Duration::from_nanos(n - 1)),
        }
    }

    /// The connect phase is over and opened too few connections: no load is sent.
    pub fn short(&self) -> bool {
        self.connect_time().is_some() && self.short.load(Ordering::Acquire)
    }

    fn load_offset(&self) -> Option<Duration> {
        self.connect_time().filter(|_| !self.short()).map(|connected| connected + LEAD)
    }

    /// When every thread starts sending, once known: announced `LEAD` ahead so that all start together.
    pub fn load_start(&self) -> Option<Instant> {
        Some(self.start + self.load_offset()?)
    }

    /// When measuring begins, once known.
    pub fn measure(&self) -> Option<Instant> {
        let load = self.load_offset()?;
        let warm_end = match self.until_steady {
            true => Duration::from_nanos(self.warm_end_ns.load(Ordering::Acquire).checked_sub(1)?),
            false => load + self.warmup,
        };
        Some(self.start + warm_end.max(load))
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
    fn the_load_waits_for_the_last_thread_and_the_window_for_the_warmup_after_it() {
        let t0 = Instant::now();
        let w = Window::new(t0, Duration::from_secs(1), Duration::from_secs(5), 2);
        w.settled(t0 + Duration::from_millis(100), 3);
        assert_eq!((w.load_start(), w.measure()), (None, None), "one thread still connecting");
        w.settled(t0 + Duration::from_millis(300), 2);
        assert_eq!(w.connect_time(), Some(Duration::from_millis(300)));
        assert_eq!(w.load_start(), Some(t0 + Duration::from_millis(300) + LEAD));
        assert_eq!(w.measure(), Some(t0 + Duration::from_millis(1300) + LEAD), "the warm-up follows the connects");
        let none = Window::new(t0, Duration::ZERO, Duration::from_secs(5), 1);
        none.settled(t0 + Duration::from_secs(2), 1);
        assert_eq!(none.measure(), none.load_start(), "no warm-up: measuring starts with the load");
    }

    #[test]
    fn too_few_open_connections_start_no_load() {
        let t0 = Instant::now();
        let w = Window::new(t0, Duration::ZERO, Duration::from_secs(5), 2).requiring(10);
        w.settled(t0, 6);
        assert!(!w.short(), "not over yet");
        w.settled(t0 + Duration::from_secs(1), 3);
        assert!(w.short() && w.load_start().is_none() && w.measure().is_none());
        let enough = Window::new(t0, Duration::ZERO, Duration::from_secs(5), 1).requiring(10);
        enough.settled(t0, 10);
        assert!(!enough.short() && enough.measure().is_some());
    }

    #[test]
    fn a_steady_warmup_waits_for_its_decision() {
        let t0 = Instant::now();
        let w = Window::new(t0, Duration::from_secs(30), Duration::from_secs(5), 1).until_steady();
        w.settled(t0 + Duration::from_millis(100), 1);
        assert_eq!(w.measure(), None, "the warm-up's end is not decided yet");
        assert_eq!(w.warmup_cap(), Some(Duration::from_millis(30_100) + LEAD));
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
