//! In-process test servers on 127.0.0.1 ephemeral ports, stopped when dropped.
#![allow(dead_code)] // each test binary uses a different part

use std::io::{ErrorKind, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Duration;

use clap::Parser;
use shootout_load::cli::Args;
use shootout_load::output::Report;

pub mod secure;

pub struct Server {
    pub port: u16,
    /// Connections accepted so far.
    pub accepted: Arc<AtomicUsize>,
    /// Requests read so far (all connections).
    pub requests: Arc<AtomicUsize>,
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl Drop for Server {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// What a connection thread gets: its stream, a way to read one request, and the shared counters.
pub struct Peer {
    pub stream: TcpStream,
    buffer: Vec<u8>,
    stop: Arc<AtomicBool>,
    requests: Arc<AtomicUsize>,
}

impl Peer {
    /// Reads up to the end of the next request head; None when the client went away or the server stops.
    pub fn request(&mut self) -> Option<String> {
        loop {
            if let Some(end) = self.buffer.windows(4).position(|w| w == b"\r\n\r\n") {
                let head: Vec<u8> = self.buffer.drain(..end + 4).collect();
                self.requests.fetch_add(1, Ordering::SeqCst);
                return Some(String::from_utf8_lossy(&head).into_owned());
            }
            if !self.fill() {
                return None;
            }
        }
    }

    /// Reads more bytes into the buffer; false on close, error or stop.
    pub fn fill(&mut self) -> bool {
        let mut chunk = [0u8; 16 * 1024];
        loop {
            if self.stop.load(Ordering::SeqCst) {
                return false;
            }
            match self.stream.read(&mut chunk) {
                Ok(0) => return false,
                Ok(n) => {
                    self.buffer.extend_from_slice(&chunk[..n]);
                    return true;
                }
                Err(e) if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut | ErrorKind::Interrupted) => {}
                Err(_) => return false,
            }
        }
    }

    pub fn take(&mut self, n: usize) -> Option<Vec<u8>> {
        while self.buffer.len() < n {
            if !self.fill() {
                return None;
            }
        }
        Some(self.buffer.drain(..n).collect())
    }

    pub fn send(&mut self, bytes: &[u8]) -> bool {
        self.stream.write_all(bytes).is_ok()
    }

    pub fn stopping(&self) -> bool {
        self.stop.load(Ordering::SeqCst)
    }
}

/// A thread per connection running `handle`; fine for the handful of connections most tests use.
pub fn threaded(handle: impl Fn(Peer) + Send + Sync + 'static) -> Server {
    serving(TcpListener::bind("127.0.0.1:0").unwrap(), handle)
}

/// `threaded` on a listener of the test's own (a port chosen ahead).
pub fn serving(listener: TcpListener, handle: impl Fn(Peer) + Send + Sync + 'static) -> Server {
    listener.set_nonblocking(true).unwrap();
    let port = listener.local_addr().unwrap().port();
    let stop = Arc::new(AtomicBool::new(false));
    let accepted = Arc::new(AtomicUsize::new(0));
    let requests = Arc::new(AtomicUsize::new(0));
    let handle = Arc::new(handle);
    let (s, a, r) = (stop.clone(), accepted.clone(), requests.clone());
    let thread = std::thread::spawn(move || {
        let mut children = Vec::new();
        while !s.load(Ordering::SeqCst) {
            match listener.accept() {
                Ok((stream, _)) => {
                    a.fetch_add(1, Ordering::SeqCst);
                    stream.set_nonblocking(false).unwrap();
                    stream.set_read_timeout(Some(Duration::from_millis(50))).unwrap();
                    stream.set_nodelay(true).unwrap();
                    let peer = Peer { stream, buffer: Vec::new(), stop: s.clone(), requests: r.clone() };
                    let handle = handle.clone();
                    children.push(std::thread::spawn(move || handle(peer)));
                }
                Err(_) => std::thread::sleep(Duration::from_millis(2)),
            }
        }
        for child in children {
            let _ = child.join();
        }
    });
    Server { port, accepted, requests, stop, thread: Some(thread) }
}

/// Answers every request on the connection with `response` until the client leaves.
pub fn answering(response: &'static [u8]) -> Server {
    threaded(move |mut peer| {
        while peer.request().is_some() {
            if !peer.send(response) {
                return;
            }
        }
    })
}

/// An event-driven server (one mio loop) answering every request with a fixed response; holds
/// thousands of connections. `open` tracks connections currently open, `peak` the most at once.
pub struct ManyServer {
    pub server: Server,
    pub peak: Arc<AtomicUsize>,
}

pub fn many(response: &'static [u8]) -> ManyServer {
    use mio::net::TcpListener as MioListener;
    use mio::{Events, Interest, Poll, Token};
    let std_listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = std_listener.local_addr().unwrap().port();
    std_listener.set_nonblocking(true).unwrap();
    // std listens with a short backlog; thousands of connects at once need the kernel's maximum.
    // SAFETY: listen() on a socket we own; calling it again only changes the backlog.
    assert_eq!(unsafe { libc::listen(std::os::fd::AsRawFd::as_raw_fd(&std_listener), 4096) }, 0);
    let mut listener = MioListener::from_std(std_listener);
    let stop = Arc::new(AtomicBool::new(false));
    let accepted = Arc::new(AtomicUsize::new(0));
    let requests = Arc::new(AtomicUsize::new(0));
    let peak = Arc::new(AtomicUsize::new(0));
    let (s, a, r, p) = (stop.clone(), accepted.clone(), requests.clone(), peak.clone());
    let thread = std::thread::spawn(move || {
        let mut poll = Poll::new().unwrap();
        poll.registry().register(&mut listener, Token(usize::MAX), Interest::READABLE).unwrap();
        let mut conns: std::collections::HashMap<usize, (mio::net::TcpStream, usize)> = Default::default();
        let mut next = 0usize;
        let mut events = Events::with_capacity(1024);
        let mut buf = vec![0u8; 64 * 1024];
        while !s.load(Ordering::SeqCst) {
            poll.poll(&mut events, Some(Duration::from_millis(20))).unwrap();
            for event in events.iter() {
                if event.token() == Token(usize::MAX) {
                    loop {
                        let mut stream = match listener.accept() {
                            Ok((stream, _)) => stream,
                            Err(e) if e.kind() == ErrorKind::WouldBlock => break,
                            Err(e) => panic!("accept failed: {e}"),
                        };
                        poll.registry().register(&mut stream, Token(next), Interest::READABLE).unwrap();
                        conns.insert(next, (stream, 0));
                        next += 1;
                        a.fetch_add(1, Ordering::SeqCst);
                        p.fetch_max(conns.len(), Ordering::SeqCst);
                    }
                    continue;
                }
                let key = event.token().0;
                let Some((stream, matched)) = conns.get_mut(&key) else { continue };
                let mut closed = false;
                loop {
                    match stream.read(&mut buf) {
                        Ok(0) => {
                            closed = true;
                            break;
                        }
                        Ok(n) => {
                            // Count request ends ("\r\n\r\n"), carrying a partial match across reads.
                            let mut answers = 0;
                            for &b in &buf[..n] {
                                *matched = match (*matched, b) {
                                    (0 | 2, b'\r') => *matched + 1,
                                    (1 | 3, b'\n') => *matched + 1,
                                    (_, b'\r') => 1,
                                    _ => 0,
                                };
                                if *matched == 4 {
                                    answers += 1;
                                    *matched = 0;
                                }
                            }
                            r.fetch_add(answers, Ordering::SeqCst);
                            let out = response.repeat(answers);
                            if stream.write_all(&out).is_err() {
                                closed = true;
                                break;
                            }
                        }
                        Err(e) if e.kind() == ErrorKind::WouldBlock => break,
                        Err(_) => {
                            closed = true;
                            break;
                        }
                    }
                }
                if closed {
                    conns.remove(&key);
                }
            }
        }
    });
    ManyServer { server: Server { port, accepted, requests, stop, thread: Some(thread) }, peak }
}

/// `--io $SHOOTOUT_LOAD_IO` when that is set, so the whole suite runs on the path it names.
pub fn io_args() -> Vec<String> {
    std::env::var("SHOOTOUT_LOAD_IO").map(|io| vec!["--io".to_string(), io]).unwrap_or_default()
}

/// Runs shootout-load in-process with command-line style arguments.
pub fn load(args: &[&str]) -> Report {
    load_with(&io_args(), args)
}

/// `load` on the path `io` names, whatever SHOOTOUT_LOAD_IO says (for tests that compare the paths).
pub fn load_on(io: &str, args: &[&str]) -> Report {
    load_with(&["--io".to_string(), io.to_string()], args)
}

fn load_with(io: &[String], args: &[&str]) -> Report {
    let mut argv = vec!["shootout-load"];
    argv.extend(io.iter().map(String::as_str));
    argv.extend_from_slice(args);
    let config = Args::try_parse_from(argv).expect("valid test arguments").into_config().expect("valid config");
    let report = shootout_load::run(config).expect("the run completes");
    // Every report must serialise to JSON whatever happened.
    let json: serde_json::Value = serde_json::from_str(&report.to_json()).unwrap();
    assert!(json["errors"].is_object() && json["latency_us"].is_object());
    report
}

/// Runs the shootout-load binary as a child with `--json` and returns its document, so that what it
/// reports about itself (peak RSS, file descriptors) is its own and not the test process's.
pub fn load_child(args: &[&str]) -> serde_json::Value {
    let done = std::process::Command::new(env!("CARGO_BIN_EXE_shootout-load"))
        .arg("--json")
        .args(io_args())
        .args(args)
        .stdin(std::process::Stdio::null())
        .output()
        .expect("the shootout-load binary runs");
    let stderr = String::from_utf8_lossy(&done.stderr);
    assert!(done.status.success(), "shootout-load failed: {stderr}");
    eprint!("{stderr}");
    serde_json::from_slice(&done.stdout).unwrap_or_else(|e| panic!("no JSON ({e}): {stderr}"))
}

pub fn url(port: u16, path: &str) -> String {
    format!("http://127.0.0.1:{port}{path}")
}
