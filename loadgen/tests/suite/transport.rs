//! TLS and HTTP/2 against real sockets: answers checked and counted exactly over every transport, ALPN
//! refusal a clear error, streams really concurrent, resumption visible in the handshake counts.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use clap::Parser;
use shootout_load::cli::Args;
use crate::support::secure::{self, CA};
use crate::support::{load, url};

const HELLO: &[u8] = b"Hello, World!";

fn https(port: u16, path: &str) -> String {
    format!("https://127.0.0.1:{port}{path}")
}

/// A server answering every other request with 500.
fn every_other() -> impl Fn(&str) -> secure::Answer + Send + Sync + 'static {
    let n = AtomicUsize::new(0);
    move |_| (if n.fetch_add(1, Ordering::SeqCst) % 2 == 0 { 200 } else { 500 }, HELLO.to_vec(), Duration::ZERO)
}

fn assert_half_counted(r: &shootout_load::output::Report) {
    let ok = r.status_counts.get("200").copied().unwrap_or(0);
    let failed = r.status_counts.get("500").copied().unwrap_or(0);
    assert!(ok > 50, "too few answers to judge: {:?}", r.status_counts);
    assert_eq!(r.requests, ok, "only the 200s are valid");
    assert_eq!(r.errors["status"], failed);
    assert!(ok.abs_diff(failed) <= 8, "half and half (8 connections may be a request apart): {ok} vs {failed}");
    assert_eq!(r.responses_total, ok + failed);
}

#[test]
fn tls_answers_are_checked_and_counted_exactly() {
    let server = secure::http1(Some(secure::config(&[b"http/1.1"])), every_other());
    let r = load(&["-c", "8", "-t", "1", "-d", "1s", "--expect-body", "Hello, World!", "--tls", "--ca", CA, &https(server.port, "/")]);
    assert_half_counted(&r);
    let tls = r.transport.tls.as_ref().expect("TLS is reported");
    assert_eq!((r.transport.http, tls.alpn.as_deref(), tls.version.as_deref()), ("1.1", Some("http/1.1"), Some("TLSv1_3")));
    assert_eq!((tls.handshakes, tls.resumed), (8, 0));
    assert!(tls.handshake_ms.as_ref().is_some_and(|ms| ms.p50 > 0.0));
}

#[test]
fn http2_answers_are_checked_and_counted_exactly_over_tls_and_cleartext() {
    let over_tls = secure::http2(Some(secure::config(&[b"h2", b"http/1.1"])), every_other());
    let r = load(&["-c", "8", "-t", "1", "-d", "1s", "--http", "2", "--streams", "4", "--tls", "--ca", CA, &https(over_tls.port, "/")]);
    assert_half_counted(&r);
    assert_eq!((r.transport.http, r.transport.streams), ("2", 4));
    assert_eq!(r.transport.tls.as_ref().and_then(|t| t.alpn.as_deref()), Some("h2"));
    let cleartext = secure::http2(None, every_other());
    let r = load(&["-c", "8", "-t", "1", "-d", "1s", "--http", "2", "--expect-body", "Hello, World!", &url(cleartext.port, "/")]);
    assert_half_counted(&r);
    assert!(r.transport.tls.is_none());
}

#[test]
fn a_reset_stream_is_a_read_error_and_the_connection_goes_on() {
    let n = AtomicUsize::new(0);
    let server = secure::http2(None, move |_| {
        let status = if n.fetch_add(1, Ordering::SeqCst) % 4 == 3 { 0 } else { 200 };
        (status, HELLO.to_vec(), Duration::ZERO)
    });
    let r = load(&["-c", "4", "-t", "1", "-d", "1s", "--http", "2", "--streams", "2", &url(server.port, "/")]);
    assert!(r.requests > 50);
    let resets = r.errors["read"];
    assert!(resets * 4 >= r.requests && resets * 2 <= r.requests, "a quarter reset: {resets} of {}", r.requests + resets);
    assert_eq!(server.accepted.load(Ordering::SeqCst), 4, "a reset stream does not cost the connection");
}

#[test]
fn a_server_that_does_not_select_h2_is_a_clear_error() {
    for alpn in [&[&b"http/1.1"[..]][..], &[]] {
        let server = secure::http1(Some(secure::config(alpn)), |_| (200, HELLO.to_vec(), Duration::ZERO));
        let args = ["shootout-load", "-c", "2", "-d", "1s", "--connect-deadline", "5s", "--http", "2", "--tls", "--ca", CA];
        let mut argv = args.to_vec();
        let target = https(server.port, "/");
        argv.push(&target);
        let config = Args::try_parse_from(argv).unwrap().into_config().unwrap();
        let error = shootout_load::run(config).unwrap_err();
        assert!(error.contains("did not select h2 by ALPN"), "{alpn:?}: {error}");
    }
}

#[test]
fn a_certificate_the_ca_did_not_sign_is_a_clear_error() {
    let server = secure::http1(Some(secure::config(&[])), |_| (200, HELLO.to_vec(), Duration::ZERO));
    let other = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/server.pem"); // a leaf, not the CA
    let argv = ["shootout-load", "-c", "2", "-d", "1s", "--connect-deadline", "5s", "--tls", "--ca", other];
    let target = https(server.port, "/");
    let config = Args::try_parse_from(argv.iter().copied().chain([target.as_str()])).unwrap().into_config().unwrap();
    let error = shootout_load::run(config).unwrap_err();
    assert!(error.contains("certificate") && error.contains(other), "{error}");
}

#[test]
fn streams_are_answered_in_the_order_the_server_finishes_them() {
    // One connection, two streams; a tenth of the requests (/1) take 40 ms. A request that reaches the
    // server while a slow one is pending was sent beside it, and more than one such request per slow
    // one means their answers were taken as they came, ahead of the slow answer sent before them.
    let slow_since = Arc::new(std::sync::Mutex::new(None::<std::time::Instant>));
    let (slow, overtaking) = (Arc::new(AtomicUsize::new(0)), Arc::new(AtomicUsize::new(0)));
    let (since, s, o) = (slow_since.clone(), slow.clone(), overtaking.clone());
    let server = secure::http2(None, move |path| {
        let mut since = since.lock().unwrap();
        if path == "/1" {
            s.fetch_add(1, Ordering::SeqCst);
            *since = Some(std::time::Instant::now());
            return (200, HELLO.to_vec(), Duration::from_millis(40));
        }
        if since.is_some_and(|at| at.elapsed() < Duration::from_millis(35)) {
            o.fetch_add(1, Ordering::SeqCst);
        }
        (200, HELLO.to_vec(), Duration::ZERO)
    });
    let r = load(&["-c", "1", "-t", "1", "-d", "1s", "--http", "2", "--streams", "2", &url(server.port, "/{rand:1:10}")]);
    let (slow, overtaking) = (slow.load(Ordering::SeqCst), overtaking.load(Ordering::SeqCst));
    assert_eq!(r.errors.values().sum::<u64>(), 0);
    assert!(slow >= 3 && overtaking > 2 * slow, "answers overtake a slow one: {overtaking} beside {slow} slow");
}

#[test]
fn a_websocket_ping_over_tls_is_answered_inside_the_session() {
    let pongs = Arc::new(AtomicUsize::new(0));
    let server = secure::websocket(Some(secure::config(&[])), Arc::clone(&pongs));
    let target = format!("wss://127.0.0.1:{}/ws", server.port);
    let r = load(&["-c", "2", "-t", "1", "-d", "1s", "--websocket", "--message", "hi", "--tls", "--ca", CA, &target]);
    assert_eq!(r.error_total(), 0, "{:?}", r.errors);
    assert!(r.requests > 10, "{} echoes", r.requests);
    assert_eq!(pongs.load(Ordering::SeqCst), 2, "one ping per connection, each answered");
}

#[test]
fn resumption_shows_in_the_handshake_counts() {
    let server = secure::http1(Some(secure::config(&[])), |_| (200, HELLO.to_vec(), Duration::ZERO));
    let target = https(server.port, "/");
    let full = load(&["-c", "2", "-t", "1", "-d", "1s", "--no-keepalive", "--tls", "--ca", CA, &target]);
    let tls = full.transport.tls.as_ref().unwrap();
    assert!(full.requests > 10 && tls.handshakes >= full.requests && tls.resumed == 0, "{tls:?}");
    let resumed = load(&["-c", "2", "-t", "1", "-d", "1s", "--no-keepalive", "--tls-resume", "--tls", "--ca", CA, &target]);
    let tls = resumed.transport.tls.as_ref().unwrap();
    assert!(resumed.requests > 10 && tls.resumed + 4 >= tls.handshakes, "all but the first are resumed: {tls:?}");
}

#[test]
fn transport_flags_that_clash_are_named() {
    let bad = [
        (vec!["--streams", "2"], "--streams needs --http 2"),
        (vec!["--http", "2", "--pipeline", "2"], "--pipeline"),
        (vec!["--http", "2", "--streams", "2", "--sessions"], "--sessions"),
        (vec!["--tls"], "--tls needs --ca"),
        (vec!["--tls-resume"], "--tls-resume needs --tls"),
        (vec!["--tls", "--ca", "/nonexistent.pem"], "/nonexistent.pem"),
    ];
    for (flags, expected) in bad {
        let argv = ["shootout-load"].into_iter().chain(flags.iter().copied()).chain(["http://127.0.0.1:1/"]);
        let error = Args::try_parse_from(argv).map_err(|e| e.to_string()).and_then(Args::into_config).unwrap_err();
        assert!(error.contains(expected), "{flags:?}: {error}");
    }
}
