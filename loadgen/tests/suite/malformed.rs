//! Whatever a server sends, the run ends on time, counts the right kind of error and still reports.

use std::time::{Duration, Instant};

use crate::support::{answering, load, threaded, url};

/// Runs a short load and checks it ended on time with at least one error of `kind`.
fn expect_error(server: &crate::support::Server, kind: &str, extra: &[&str]) {
    let started = Instant::now();
    let target = url(server.port, "/");
    let mut args = vec!["-c", "2", "-t", "1", "-d", "1s", "--timeout", "300ms"];
    args.extend_from_slice(extra);
    args.push(&target);
    let r = load(&args);
    let took = started.elapsed();
    assert!(took < Duration::from_millis(2500), "the run took {took:?}");
    assert!(r.errors[kind] > 0, "expected {kind} errors, got {:?}", r.errors);
}

#[test]
fn malformed_status_line() {
    expect_error(&answering(b"HTTP/1.1 abc OK\r\nContent-Length: 0\r\n\r\n"), "parse", &[]);
    expect_error(&answering(b"garbage garbage\r\n\r\n"), "parse", &[]);
}

#[test]
fn huge_and_too_many_headers() {
    let huge: &'static [u8] = Box::leak(format!("HTTP/1.1 200 OK\r\nX-Big: {}\r\nContent-Length: 0\r\n\r\n", "a".repeat(100_000)).into_bytes().into_boxed_slice());
    expect_error(&answering(huge), "parse", &[]);
    let many: String = (0..200).map(|i| format!("X-{i}: v\r\n")).collect();
    let many: &'static [u8] = Box::leak(format!("HTTP/1.1 200 OK\r\n{many}Content-Length: 0\r\n\r\n").into_bytes().into_boxed_slice());
    expect_error(&answering(many), "parse", &[]);
}

#[test]
fn content_length_shorter_than_the_body() {
    // The surplus bytes are taken for the next response, which they are not.
    expect_error(&answering(b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nhello"), "parse", &[]);
}

#[test]
fn content_length_longer_than_the_body() {
    expect_error(&answering(b"HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nhello"), "timeout", &[]);
}

#[test]
fn broken_chunked_encoding() {
    expect_error(&answering(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nXYZ\r\nhello\r\n0\r\n\r\n"), "parse", &[]);
    expect_error(&answering(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhelloXX0\r\n\r\n"), "parse", &[]);
}

#[test]
fn early_close_inside_a_body() {
    let server = threaded(|mut peer| {
        if peer.request().is_some() {
            peer.send(b"HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nhel");
        }
    });
    expect_error(&server, "read", &[]);
}

#[test]
fn close_without_answer() {
    let server = threaded(|mut peer| {
        peer.request();
    });
    expect_error(&server, "read", &[]);
}

#[test]
fn reset_by_the_server() {
    let server = threaded(|mut peer| {
        if peer.request().is_some() {
            // SO_LINGER 0 turns the close into a reset.
            let fd = std::os::fd::AsRawFd::as_raw_fd(&peer.stream);
            let linger = libc::linger { l_onoff: 1, l_linger: 0 };
            // SAFETY: setsockopt reads the struct for the duration of the call; fd is a live socket.
            unsafe {
                libc::setsockopt(fd, libc::SOL_SOCKET, libc::SO_LINGER, &linger as *const _ as *const libc::c_void, std::mem::size_of::<libc::linger>() as libc::socklen_t);
            }
        }
    });
    expect_error(&server, "read", &[]);
}

#[test]
fn a_server_that_never_answers() {
    let server = threaded(|mut peer| {
        while peer.request().is_some() {}
    });
    expect_error(&server, "timeout", &[]);
    expect_error(&server, "timeout", &["-R", "50"]);
}

#[test]
fn nobody_listening() {
    let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let started = Instant::now();
    let io = crate::support::io_args();
    let mut args: Vec<&str> = vec!["shootout-load", "-c", "2", "-t", "1", "-d", "500ms", "--connect-deadline", "500ms"];
    args.extend(io.iter().map(String::as_str));
    let target = url(port, "/");
    args.push(&target);
    let config = clap::Parser::try_parse_from(args).map(|a: shootout_load::cli::Args| a.into_config().unwrap()).unwrap();
    let error = shootout_load::run(config).unwrap_err();
    assert!(started.elapsed() < Duration::from_secs(2), "the connect deadline ends the run");
    assert!(error.contains("only 0 of 2 connections opened") && error.contains("refused"), "{error}");
}

#[test]
fn wrong_status_and_wrong_body() {
    expect_error(&answering(b"HTTP/1.1 500 Oops\r\nContent-Length: 0\r\n\r\n"), "status", &[]);
    expect_error(&answering(b"HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\nbad"), "validation", &["--expect-body", "good"]);
}
