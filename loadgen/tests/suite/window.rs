//! What counts and when: only valid answers are throughput, each counted when it comes, unanswered
//! requests are in the latency at their age, the window opens once the connections are up, and a
//! connection per request means one.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, PoisonError, RwLock, RwLockReadGuard, RwLockWriteGuard};

use crate::support::{load, many, threaded, url};

const HELLO: &[u8] = b"HTTP/1.1 200 OK\r\nContent-Length: 13\r\n\r\nHello, World!";

/// cargo runs a binary's tests side by side: a test that compares one second's throughput with the next
/// runs alone, or the others would take the CPU from its first second only.
static TURNS: RwLock<()> = RwLock::new(());

fn beside() -> RwLockReadGuard<'static, ()> {
    TURNS.read().unwrap_or_else(PoisonError::into_inner)
}

fn alone() -> RwLockWriteGuard<'static, ()> {
    TURNS.write().unwrap_or_else(PoisonError::into_inner)
}

#[test]
fn only_valid_answers_are_throughput() {
    let _turn = beside();
    let served = Arc::new(AtomicUsize::new(0));
    let server = threaded(move |mut peer| {
        while peer.request().is_some() {
            // Every second answer of the server is a fast 500.
            let answer: &[u8] = if served.fetch_add(1, Ordering::SeqCst).is_multiple_of(2) {
                HELLO
            } else {
                b"HTTP/1.1 500 Oops\r\nContent-Length: 4\r\n\r\noops"
            };
            if !peer.send(answer) {
                return;
            }
        }
    });
    let r = load(&["-c", "4", "-t", "1", "-d", "1s", "--expect-body", "Hello, World!", &url(server.port, "/")]);
    let invalid = r.errors["status"];
    assert!(r.responses_total > 100, "{} responses", r.responses_total);
    assert_eq!(r.responses_total, r.requests + invalid);
    // Half of the answers, give or take the four connections' turns at the window's edges.
    assert!(r.requests.abs_diff(invalid) <= 8, "{} valid, {invalid} invalid", r.requests);
    assert_eq!((r.status_counts["200"], r.status_counts["500"]), (r.requests, invalid));
    assert!((r.rps - r.requests as f64 / r.duration_s).abs() < 1e-6 && r.achieved_rate == r.rps);
    assert_eq!(r.timeline.iter().map(|s| s.requests).sum::<u64>(), r.requests);
    assert_eq!(r.histogram.iter().map(|b| b.1).sum::<u64>(), r.requests + r.unfinished);
}

#[test]
fn timed_out_requests_are_in_the_tail() {
    let _turn = beside();
    let served = Arc::new(AtomicUsize::new(0));
    let server = threaded(move |mut peer| {
        while peer.request().is_some() {
            if served.fetch_add(1, Ordering::SeqCst) % 20 == 19 {
                // Never answer this one: read on until the client gives up on the connection.
                while peer.request().is_some() {}
                return;
            }
            if !peer.send(HELLO) {
                return;
            }
        }
    });
    let r = load(&["-c", "4", "-t", "1", "-d", "4s", "--timeout", "1s", &url(server.port, "/")]);
    let p99 = r.latency_us.p99.unwrap();
    eprintln!("{} valid, {} timeouts, {} unfinished, p99 {p99} us", r.requests, r.errors["timeout"], r.unfinished);
    assert!(r.errors["timeout"] >= 4, "{:?}", r.errors);
    assert!(r.unfinished >= r.errors["timeout"]);
    assert!(p99 >= 1_000_000.0, "p99 {p99} us hides the requests that waited a second and more");
    assert!(r.latency_us.max.unwrap() >= 1_000_000.0);
}

#[test]
fn the_window_opens_after_the_connects() {
    let _turn = alone();
    shootout_load::sys::raise_nofile(5_000).expect("RLIMIT_NOFILE can be raised for the test");
    let server = many(HELLO);
    let r = load(&["-c", "2000", "-t", "2", "-d", "3s", &url(server.server.port, "/")]);
    let per_second: Vec<u64> = r.timeline.iter().map(|s| s.requests).collect();
    eprintln!("2,000 connections: connects {:.3} s, requests per second {per_second:?}", r.connect_s);
    assert_eq!(server.server.accepted.load(Ordering::SeqCst), 2000);
    assert_eq!(r.error_total(), 0, "{:?}", r.errors);
    assert!(r.connect_s > 0.0);
    assert!(r.window_start_s >= r.connect_s + shootout_load::schedule::LEAD.as_secs_f64() - 1e-3, "{}", r.window_start_s);
    let rest = (per_second[1] + per_second[2]) as f64 / 2.0;
    assert!(per_second[0] as f64 >= 0.75 * rest, "the first second is depressed: {per_second:?}");
}

#[test]
fn answers_count_when_they_come_whenever_their_request_went_out() {
    let _turn = beside();
    // 40 connections, each answer after 200-300 ms (250 on average): 160 answers a second, in the window
    // too. Counting only requests sent inside a 1 s window would leave out the 40 in flight as it opens.
    let served = Arc::new(AtomicUsize::new(0));
    let server = threaded(move |mut peer| {
        while peer.request().is_some() {
            let spread = (served.fetch_add(1, Ordering::SeqCst) * 37) % 101;
            std::thread::sleep(std::time::Duration::from_millis(200 + spread as u64));
            if !peer.send(HELLO) {
                return;
            }
        }
    });
    let r = load(&["-c", "40", "-t", "1", "-d", "1s", "--warmup", "1s", &url(server.port, "/")]);
    eprintln!("{} answers in the window, {:.1} req/s (160 expected; 120 if the first 40 were left out)", r.requests, r.rps);
    assert_eq!(r.error_total(), 0, "{:?}", r.errors);
    assert!(r.rps > 140.0 && r.rps < 176.0, "{:.1} req/s where the server gives 160", r.rps);
}

/// A server that counts connections and requests, answering each request with `HELLO`.
fn counting() -> crate::support::Server {
    threaded(|mut peer| {
        while peer.request().is_some() {
            if !peer.send(HELLO) {
                return;
            }
        }
    })
}

#[test]
fn no_keepalive_opens_a_connection_per_request() {
    let _turn = beside();
    let server = counting();
    let r = load(&["-c", "2", "-t", "1", "-d", "1s", "--no-keepalive", "--expect-body", "Hello, World!", &url(server.port, "/")]);
    let (accepted, requests) = (server.accepted.load(Ordering::SeqCst), server.requests.load(Ordering::SeqCst));
    eprintln!("no keep-alive: {accepted} connections for {requests} requests, {} valid in the window", r.requests);
    assert!(!r.keepalive && r.error_total() == 0, "{:?}", r.errors);
    assert!(r.requests > 20 && requests as u64 >= r.requests);
    // One request per connection; a connection accepted in the last instant may not have been read yet.
    assert!(accepted >= requests && accepted <= requests + 2, "{accepted} connections, {requests} requests");
    // The connect is part of each request's latency, not of its service time.
    assert!(r.latency_us.mean.unwrap() > r.service_time_us.mean.unwrap());

    let kept = counting();
    let r = load(&["-c", "2", "-t", "1", "-d", "1s", &url(kept.port, "/")]);
    assert!(r.keepalive && r.requests > 20 && r.error_total() == 0);
    assert_eq!(kept.accepted.load(Ordering::SeqCst), 2, "keep-alive reuses its two connections");
}

#[test]
fn a_steady_warmup_ends_once_the_server_is_warm() {
    let _turn = beside();
    // The server slows each answer by 9 ms at first, less as its first two seconds pass, then 1 ms.
    let first = Arc::new(std::sync::OnceLock::<std::time::Instant>::new());
    let server = threaded(move |mut peer| {
        while peer.request().is_some() {
            let warm = first.get_or_init(std::time::Instant::now).elapsed().as_secs_f64().min(2.0) / 2.0;
            std::thread::sleep(std::time::Duration::from_secs_f64(0.001 + 0.008 * (1.0 - warm)));
            if !peer.send(HELLO) {
                return;
            }
        }
    });
    let r = load(&["-c", "4", "-t", "1", "-d", "1s", "--warmup", "15s", "--warmup-steady", "10", &url(server.port, "/")]);
    let (seconds, curve) = (r.warmup_s.unwrap(), r.warmup_curve.clone().unwrap());
    eprintln!("warm after {seconds:.2} s, req/s per second {curve:?}");
    assert!(seconds > 2.0 && seconds < 15.0, "the ramp lasts 2 s, the cap is 15 s: {seconds}");
    assert_eq!(curve.len(), seconds as usize, "one point per whole second of warm-up");
    assert!((curve[0] as f64) < 0.8 * *curve.last().unwrap() as f64, "the curve shows the ramp: {curve:?}");
    assert!(r.requests > 0 && r.error_total() == 0, "{:?}", r.errors);

    let fixed = load(&["-c", "1", "-t", "1", "-d", "1s", "--warmup", "1200ms", &url(server.port, "/")]);
    assert_eq!(fixed.warmup_curve.as_ref().map(Vec::len), Some(1), "a fixed warm-up has its curve too");
    assert!(fixed.warmup_s.unwrap() >= 1.2);
    assert!(load(&["-c", "1", "-t", "1", "-d", "1s", &url(server.port, "/")]).warmup_s.is_none());
}
