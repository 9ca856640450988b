//! Servers that try to make the load generator hoard memory or stall: every buffer a server fills is
//! bounded, so the run ends on time, names the error, and the generator's peak RSS stays below 64 MB.
//! The generator runs as a child so the RSS it reports is its own.

use std::time::{Duration, Instant};

use crate::support::{load_child, threaded, url};

const RSS_LIMIT_KIB: u64 = 64 * 1024;

/// Runs two connections for a second against `server`; checks the time, the RSS and the error kind.
fn survives(server: &crate::support::Server, scheme: &str, kind: &str, extra: &[&str]) -> serde_json::Value {
    let started = Instant::now();
    let target = url(server.port, "/").replacen("http", scheme, 1);
    let mut args = vec!["-c", "2", "-t", "1", "-d", "1s"];
    if !extra.contains(&"--timeout") {
        args.extend_from_slice(&["--timeout", "300ms"]);
    }
    args.extend_from_slice(extra);
    args.push(&target);
    let r = load_child(&args);
    let took = started.elapsed();
    let rss = r["client_peak_rss_kib"].as_u64().unwrap();
    eprintln!("{kind}: {took:?}, peak RSS {rss} KiB, errors {}", r["errors"]);
    assert!(took < Duration::from_secs(4), "the run took {took:?}");
    assert!(rss < RSS_LIMIT_KIB, "peak RSS {rss} KiB");
    assert!(r["errors"][kind].as_u64().unwrap() > 0, "expected {kind} errors, got {}", r["errors"]);
    r
}

/// Answers the first request with `head`, then sends `filler` until the client goes away.
fn flooding(head: &'static [u8], filler: &'static [u8]) -> crate::support::Server {
    threaded(move |mut peer| {
        if peer.request().is_none() || !peer.send(head) {
            return;
        }
        let flood = filler.repeat((64 * 1024 / filler.len()).max(1));
        while !peer.stopping() && peer.send(&flood) {}
    })
}

#[test]
fn endless_body_without_length() {
    survives(&flooding(b"HTTP/1.1 200 OK\r\n\r\n", b"x"), "http", "parse", &[]);
}

#[test]
fn chunk_extension_flood() {
    survives(&flooding(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5;ext=", b"y"), "http", "parse", &[]);
}

#[test]
fn one_byte_every_100ms() {
    let server = threaded(|mut peer| {
        while peer.request().is_some() {
            for &byte in b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok" {
                std::thread::sleep(Duration::from_millis(100));
                if peer.stopping() || !peer.send(&[byte]) {
                    return;
                }
            }
        }
    });
    survives(&server, "http", "timeout", &[]);
}

const UPGRADE: &[u8] = b"HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n";

#[test]
fn oversized_websocket_frame() {
    // A text frame announcing 60 MiB, then its payload.
    let head: &'static [u8] = Box::leak([UPGRADE, &[0x81, 127, 0, 0, 0, 0, 0x03, 0xC0, 0, 0]].concat().into_boxed_slice());
    survives(&flooding(head, b"z"), "ws", "parse", &["--websocket", "--message", "hi"]);
}

#[test]
fn endless_websocket_fragments() {
    // A text frame without FIN, then continuation frames of 65,535 bytes that never finish the message.
    let head: &'static [u8] = Box::leak([UPGRADE, &[0x01, 1, b'a']].concat().into_boxed_slice());
    let mut fragment = vec![0x00, 126, 0xFF, 0xFF];
    fragment.resize(4 + 0xFFFF, b'b');
    survives(&flooding(head, Box::leak(fragment.into_boxed_slice())), "ws", "parse", &["--websocket", "--message", "hi"]);
}

#[test]
fn ping_flood_from_a_server_that_does_not_read() {
    let server = threaded(|mut peer| {
        // A small receive buffer, so the unread pongs back up into the client quickly.
        let small: libc::c_int = 4096;
        // SAFETY: setsockopt reads the int for the duration of the call; the descriptor is a live socket.
        unsafe {
            let fd = std::os::fd::AsRawFd::as_raw_fd(&peer.stream);
            libc::setsockopt(fd, libc::SOL_SOCKET, libc::SO_RCVBUF, (&small as *const libc::c_int).cast(), 4);
        }
        if peer.request().is_none() || !peer.send(UPGRADE) {
            return;
        }
        // Empty pings without end; the pongs they ask for are never read.
        let pings = [0x89u8, 0].repeat(32 * 1024);
        while !peer.stopping() && peer.send(&pings) {}
    });
    // The timeout is longer than the run: only the bound on unsent pongs can end a connection.
    survives(&server, "ws", "write", &["--timeout", "5s", "--websocket", "--message", "hi"]);
}

#[test]
fn cookie_flood() {
    let server = threaded(|mut peer| {
        let mut next = 0u64;
        let value = "v".repeat(4000);
        while peer.request().is_some() {
            // Ten new 4,000-byte cookies with every answer.
            let cookies: String = (0..10).map(|i| format!("Set-Cookie: c{}={value}\r\n", next + i)).collect();
            next += 10;
            let answer = format!("HTTP/1.1 200 OK\r\n{cookies}Content-Length: 2\r\n\r\nok");
            if !peer.send(answer.as_bytes()) {
                return;
            }
        }
    });
    let r = survives(&server, "http", "validation", &["--sessions"]);
    assert!(r["responses_total"].as_u64().unwrap() > 20, "the visitors go on with a bounded jar: {}", r["responses_total"]);
}
