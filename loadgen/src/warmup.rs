//! The warm-up as the main thread sees it: valid answers per whole second (the curve) and, with a
//! steadiness threshold, the decision to end it once the server's throughput has settled.

use std::time::{Duration, Instant};

use crate::schedule::{Window, LEAD};

/// One-second counts compared with the same number before them to tell whether throughput still rises.
pub const STEADY_SECONDS: usize = 3;
/// How often the main thread looks at the window while it waits.
const TICK: Duration = Duration::from_millis(5);

/// Whether the server is warm: the mean of the last `STEADY_SECONDS` counts is within `pct` % of the mean
/// of the `STEADY_SECONDS` before them, either way. Means, not seconds, so a stack whose seconds stay noisy
/// is warm once its level holds (Jetty's db workload swings 5-11k req/s from one to the next); three
/// seconds that agree while a JIT still speeds up by a few percent a second are not (Jetty plaintext:
/// 47.7k, 48.1k, 49.8k, then trials at 58-76k); nor is a dip, when a JIT on the server's one CPU compiles
/// or collects (Jetty db: 7.5k, 7.7k, 7.2k, 5.4k, then a first trial at 3.4k, 5.2k, 6.8k a second). A mean
/// of zero is not steady: a server that answers nothing valid is not warm.
pub fn is_steady(counts: &[u64], pct: f64) -> bool {
    let Some(from) = counts.len().checked_sub(2 * STEADY_SECONDS) else { return false };
    let mean = |seconds: &[u64]| seconds.iter().sum::<u64>() as f64 / STEADY_SECONDS as f64;
    let (before, now) = (mean(&counts[from..from + STEADY_SECONDS]), mean(&counts[from + STEADY_SECONDS..]));
    now > 0.0 && (now - before).abs() <= before * pct / 100.0
}

/// What the warm-up was: when measuring began and the valid answers of each whole warm-up second.
pub struct Warmup {
    pub measure: Instant,
    pub curve: Vec<u64>,
}

/// Waits until the measured window opens, recording the curve from the load's start; with `steady` (a
/// percentage) ends the warm-up once its seconds are steady, or at its cap. `stopped` says a load thread
/// ended early, and a connect phase that opened too few connections ends the run: then it returns at once.
pub fn watch(window: &Window, steady: Option<f64>, stopped: impl Fn() -> bool) -> Warmup {
    let mut curve = Vec::new();
    let mut counted = 0;
    loop {
        let now = Instant::now();
        if window.short() {
            return Warmup { measure: now, curve };
        }
        let elapsed = now.saturating_duration_since(window.start);
        let measure = window.measure();
        let mut nap = TICK;
        if let (Some(load), Some(cap)) = (window.load_start(), window.warmup_cap()) {
            // Every whole second of load that closed before measuring began is a point of the curve.
            let loaded = measure.map_or(now, |m| m.min(now)).saturating_duration_since(load);
            while Duration::from_secs(curve.len() as u64 + 1) <= loaded {
                let total = window.warm_answers();
                curve.push(total - counted);
                counted = total;
                if steady.is_some_and(|pct| is_steady(&curve, pct)) {
                    window.end_warmup(elapsed + LEAD);
                }
            }
            // The cap is announced LEAD ahead, like every start of the window; a late look moves it.
            let announce = cap.saturating_sub(LEAD);
            if steady.is_some() && elapsed >= announce {
                window.end_warmup(if elapsed <= announce + LEAD / 2 { cap } else { elapsed + LEAD });
            } else if steady.is_some() {
                nap = nap.min(announce - elapsed);
            }
        }
        if let Some(m) = measure {
            nap = nap.min(m.saturating_duration_since(now));
        }
        match measure {
            Some(m) if now >= m => return Warmup { measure: m, curve },
            _ if stopped() => return Warmup { measure: now, curve },
            _ => std::thread::sleep(nap),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn warm_means_the_last_three_seconds_hold_the_level_of_the_three_before() {
        assert!(!is_steady(&[100, 100, 100, 100, 100], 3.0), "five seconds are not enough");
        assert!(is_steady(&[10, 100, 100, 100, 100, 100, 102], 3.0), "only the last six count");
        assert!(!is_steady(&[100, 100, 100, 104, 104, 104], 3.0), "4 % up is still rising");
        assert!(is_steady(&[100, 100, 100, 104, 104, 104], 5.0));
        assert!(!is_steady(&[0, 0, 0, 0, 0, 0], 3.0), "nothing valid is not warm");
        let jetty_db = [3231, 5091, 6041, 5870, 7489, 5691, 5568, 7411];
        assert!(!is_steady(&jetty_db[..6], 3.0), "6,350 after 4,788: still rising");
        assert!(!is_steady(&jetty_db[..7], 3.0), "6,249 after 5,667: still rising");
        assert!(!is_steady(&jetty_db, 3.0), "6,223 after 6,467: 3.8 % down");
        assert!(is_steady(&[5000, 7400, 6200, 7300, 5100, 6300], 3.0), "seconds 20 % apart, level means: warm");
        let jetty_db_dip = [7111, 7063, 7390, 7133, 7497, 7664, 7201, 5447];
        assert!(!is_steady(&jetty_db_dip, 3.0), "6,771 after 7,340: a dip is not warm");
        assert!(!is_steady(&[100, 100, 100, 96, 96, 96], 3.0), "4 % down is not level either");
        let jetty_plaintext = [37729, 38165, 45379, 47722, 48129, 49779];
        assert!(!is_steady(&jetty_plaintext, 3.0), "the last three agree within 3 %, but 20 % above the three before");
    }

    #[test]
    fn a_fixed_warmup_is_watched_to_its_end() {
        let w = Window::new(Instant::now(), Duration::from_millis(1100), Duration::from_secs(1), 1);
        w.settled(w.start, 1);
        for _ in 0..40 {
            w.warm_answer();
        }
        let seen = watch(&w, None, || false);
        assert_eq!(seen.measure, w.start + LEAD + Duration::from_millis(1100), "the warm-up follows the load's start");
        assert_eq!(seen.curve, vec![40], "one whole second before measuring");
    }

    #[test]
    fn a_steady_warmup_stops_at_its_cap() {
        let w = Window::new(Instant::now(), Duration::from_millis(1500), Duration::from_secs(1), 1).until_steady();
        w.settled(w.start, 1);
        let seen = watch(&w, Some(3.0), || false);
        assert_eq!(seen.measure, w.start + LEAD + Duration::from_millis(1500), "nothing answered: never steady");
        assert_eq!(seen.curve, vec![0]);
    }

    #[test]
    fn a_short_connect_phase_ends_the_watch() {
        let w = Window::new(Instant::now(), Duration::from_secs(30), Duration::from_secs(1), 1).requiring(2);
        w.settled(w.start, 1);
        let seen = watch(&w, Some(3.0), || false);
        assert!(seen.curve.is_empty() && seen.measure < w.start + Duration::from_secs(1));
    }
}
