//! The connect phase: every connection is open before the first request, what opening them took is
//! reported apart from the requests, and a run that cannot open enough of them fails or says so.

use std::io::{ErrorKind, Read, Write};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use clap::Parser;
use shootout_load::cli::Args;
use crate::support::{threaded, url};

const HELLO: &[u8] = b"HTTP/1.1 200 OK\r\nContent-Length: 13\r\n\r\nHello, World!";
const NONE_YET: usize = usize::MAX;

/// A WebSocket echo server on one thread that, like a saturated single-CPU server, first answers what its
/// open connections sent (spinning `work` per message) and only then accepts, at most two connections a
/// turn, from a listen queue of 8: it accepts slowly while busy. It counts the messages it read and
/// answered. WebSocket, because only an answered upgrade tells a client that the server has accepted its
/// connection: a TCP connect completes in the kernel, before (and, with a full queue, without) the accept.
struct SlowAcceptor {
    port: u16,
    accepted: Arc<AtomicUsize>,
    /// Connections accepted when the first message arrived.
    accepted_at_first_request: Arc<AtomicUsize>,
    requests: Arc<AtomicUsize>,
    answered: Arc<AtomicUsize>,
    stop: Arc<AtomicBool>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Drop for SlowAcceptor {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

const UPGRADED: &[u8] = b"HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: x\r\n\r\n";

/// What a connection has sent that was not answered yet, and whether its upgrade was.
#[derive(Default)]
struct Peer {
    upgraded: bool,
    pending: Vec<u8>,
}

impl Peer {
    /// The upgrade's answer, then the echo of every whole (short, masked) message in `pending`; returns
    /// the bytes to send and how many messages they answer.
    fn answers(&mut self) -> (Vec<u8>, usize) {
        let mut out = Vec::new();
        if !self.upgraded {
            let Some(end) = self.pending.windows(4).position(|w| w == b"\r\n\r\n") else { return (out, 0) };
            self.pending.drain(..end + 4);
            self.upgraded = true;
            out.extend_from_slice(UPGRADED);
        }
        let mut messages = 0;
        while self.pending.len() >= 2 {
            let len = usize::from(self.pending[1] & 0x7F);
            assert!(len < 126 && self.pending[1] & 0x80 != 0, "test messages are short and masked");
            if self.pending.len() < 6 + len {
                break;
            }
            let frame: Vec<u8> = self.pending.drain(..6 + len).collect();
            out.extend_from_slice(&[0x81, len as u8]);
            out.extend(frame[6..].iter().enumerate().map(|(i, b)| b ^ frame[2 + i % 4]));
            messages += 1;
        }
        (out, messages)
    }
}

fn slow_acceptor(work: Duration) -> SlowAcceptor {
    use mio::net::TcpListener;
    use mio::{Events, Interest, Poll, Token};
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    listener.set_nonblocking(true).unwrap();
    // SAFETY: listen() on a socket we own; calling it again only changes the backlog.
    assert_eq!(unsafe { libc::listen(std::os::fd::AsRawFd::as_raw_fd(&listener), 8) }, 0);
    let mut listener = TcpListener::from_std(listener);
    let counters: [Arc<AtomicUsize>; 4] = std::array::from_fn(|_| Arc::new(AtomicUsize::new(0)));
    counters[1].store(NONE_YET, Ordering::SeqCst);
    let stop = Arc::new(AtomicBool::new(false));
    let [accepted, first, requests, answered] = counters.clone();
    let halt = stop.clone();
    let thread = std::thread::spawn(move || {
        const LISTENER: Token = Token(usize::MAX);
        let mut poll = Poll::new().unwrap();
        poll.registry().register(&mut listener, LISTENER, Interest::READABLE).unwrap();
        let mut conns: Vec<(mio::net::TcpStream, Peer)> = Vec::new();
        let mut events = Events::with_capacity(1024);
        let mut buf = vec![0u8; 16 * 1024];
        let mut backlog = false; // connections wait in the listen queue (readiness is edge-triggered)
        while !halt.load(Ordering::SeqCst) {
            let wait = if backlog { Duration::from_millis(1) } else { Duration::from_millis(20) };
            poll.poll(&mut events, Some(wait)).unwrap();
            for event in events.iter() {
                if event.token() == LISTENER {
                    backlog = true;
                    continue;
                }
                let (stream, peer) = &mut conns[event.token().0];
                loop {
                    match stream.read(&mut buf) {
                        Ok(0) | Err(_) => break,
                        Ok(n) => peer.pending.extend_from_slice(&buf[..n]),
                    }
                    let (out, messages) = peer.answers();
                    if messages > 0 {
                        let _ = first.compare_exchange(NONE_YET, accepted.load(Ordering::SeqCst), Ordering::SeqCst, Ordering::SeqCst);
                        requests.fetch_add(messages, Ordering::SeqCst);
                        let busy = Instant::now();
                        while busy.elapsed() < work * messages as u32 {
                            std::hint::spin_loop();
                        }
                    }
                    // Small answers to a closed loop: the socket's buffer always has room.
                    if stream.write_all(&out).is_ok() {
                        answered.fetch_add(messages, Ordering::SeqCst);
                    }
                }
            }
            for _ in 0..2 {
                match listener.accept() {
                    Ok((mut stream, _)) => {
                        poll.registry().register(&mut stream, Token(conns.len()), Interest::READABLE).unwrap();
                        conns.push((stream, Peer::default()));
                        accepted.fetch_add(1, Ordering::SeqCst);
                    }
                    Err(e) if e.kind() == ErrorKind::WouldBlock => {
                        backlog = false;
                        break;
                    }
                    Err(e) => panic!("accept failed: {e}"),
                }
            }
        }
    });
    let [accepted, accepted_at_first_request, requests, answered] = counters;
    SlowAcceptor { port, accepted, accepted_at_first_request, requests, answered, stop, thread: Some(thread) }
}

/// A run in this process, on the I/O path SHOOTOUT_LOAD_IO names; Err is the run's own error.
fn run(args: &[&str]) -> Result<shootout_load::output::Report, String> {
    let io = crate::support::io_args();
    let mut argv = vec!["shootout-load"];
    argv.extend(io.iter().map(String::as_str));
    argv.extend_from_slice(args);
    shootout_load::run(Args::try_parse_from(argv).unwrap().into_config().unwrap())
}

#[test]
fn every_connection_is_open_before_the_first_request_and_no_request_times_out() {
    shootout_load::sys::raise_nofile(2_000).expect("RLIMIT_NOFILE can be raised for the test");
    // 20 us a request: once 600 connections are busy, a turn takes about 12 ms and admits two more.
    let server = slow_acceptor(Duration::from_micros(20));
    let ws = format!("ws://127.0.0.1:{}/ws", server.port);
    let r = run(&["-c", "600", "-t", "1", "-d", "2s", "--warmup", "250ms", "--timeout", "2s", "--websocket", "--message", "hi", &ws]).unwrap();
    let phase = r.connect.clone().expect("a keep-alive run has a connect phase");
    let (requests, answered) = (server.requests.load(Ordering::SeqCst), server.answered.load(Ordering::SeqCst));
    eprintln!("{}; {} messages/s; server read {requests} messages, answered {answered}", phase.describe(), r.rps as u64);
    // An upgrade that timed out was given up and opened again, but the server may still accept the first
    // attempt from its queue: it accepts at most one connection more per failed attempt.
    let (accepted, at_first) = (server.accepted.load(Ordering::SeqCst), server.accepted_at_first_request.load(Ordering::SeqCst));
    assert!(at_first >= 600, "only {at_first} accepted before the first message");
    assert!(accepted as u64 <= 600 + phase.timed_out + phase.failed, "{accepted} accepted: {phase:?}");
    assert_eq!((phase.opened, phase.connections, phase.complete), (600, 600, true));
    assert!(phase.seconds > 0.0 && (phase.seconds - r.connect_s).abs() < 1e-9);
    assert!(r.window_start_s >= phase.seconds + 0.25, "the warm-up follows the connects: {}", r.window_start_s);
    // Every message it read it answered, but for those the client left behind at its end (one a connection).
    assert!(answered <= requests && requests <= answered + 600, "read {requests}, answered {answered}");
    assert_eq!(r.error_total(), 0, "no request timed out, no connect failed in the window: {:?}", r.errors);
    assert!(r.requests > 600, "{} requests", r.requests);
}

#[test]
fn refused_connects_are_the_connect_phase_s_and_not_request_errors() {
    // A port nobody listens on for the first 300 ms: the first attempts are refused and tried again.
    let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let client = std::thread::spawn(move || run(&["-c", "20", "-t", "1", "-d", "1s", "--connect-deadline", "10s", &url(port, "/")]));
    std::thread::sleep(Duration::from_millis(300));
    let listener = std::net::TcpListener::bind(("127.0.0.1", port)).expect("the port is still free");
    let server = crate::support::serving(listener, |mut peer| {
        while peer.request().is_some() {
            if !peer.send(HELLO) {
                return;
            }
        }
    });
    let r = client.join().unwrap().unwrap();
    let phase = r.connect.clone().unwrap();
    eprintln!("{}", phase.describe());
    assert!(phase.refused >= 20 && phase.retried >= phase.refused, "{phase:?}");
    assert!(phase.complete && phase.seconds >= 0.3, "{phase:?}");
    assert_eq!(r.error_total(), 0, "{:?}", r.errors);
    assert_eq!(server.accepted.load(Ordering::SeqCst), 20);
}

/// A WebSocket server that upgrades the first `upgrades` connections and refuses the others with 503.
fn upgrading(upgrades: usize) -> crate::support::Server {
    let seen = Arc::new(AtomicUsize::new(0));
    threaded(move |mut peer| {
        if peer.request().is_none() {
            return;
        }
        if seen.fetch_add(1, Ordering::SeqCst) >= upgrades {
            peer.send(b"HTTP/1.1 503 Service Unavailable\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");
            return;
        }
        peer.send(b"HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: x\r\n\r\n");
        while !peer.stopping() && peer.fill() {}
    })
}

#[test]
fn too_few_open_connections_fail_the_run_or_run_with_those_open() {
    let server = upgrading(6);
    let ws = format!("ws://127.0.0.1:{}/ws", server.port);
    let args = ["-c", "10", "-t", "2", "-d", "500ms", "--websocket", "--message", "x", "--connect-deadline", "1s"];
    let error = run(&[&args[..], &[ws.as_str()]].concat()).unwrap_err();
    eprintln!("{error}");
    assert!(error.contains("only 6 of 10 connections opened within the 1s connect deadline, 10 needed"), "{error}");
    assert!(error.contains("failed"), "the refused upgrades are named: {error}");

    let server = upgrading(6);
    let ws = format!("ws://127.0.0.1:{}/ws", server.port);
    let r = run(&[&args[..], &["--connect-min", "50", ws.as_str()]].concat()).unwrap();
    let phase = r.connect.clone().unwrap();
    assert_eq!((phase.opened, phase.complete), (6, false), "{phase:?}");
    assert!(phase.failed >= 4 && phase.seconds >= 1.0, "{phase:?}");
    assert_eq!(r.error_total(), 0, "connections given up at the deadline are not retried in the window: {:?}", r.errors);
}

#[test]
fn a_connection_per_request_has_no_connect_phase() {
    let server = threaded(|mut peer| {
        if peer.request().is_some() {
            peer.send(HELLO);
        }
    });
    let r = run(&["-c", "2", "-t", "1", "-d", "500ms", "--no-keepalive", &url(server.port, "/")]).unwrap();
    assert!(r.connect.is_none() && r.requests > 10, "{:?} {}", r.connect, r.requests);
}
