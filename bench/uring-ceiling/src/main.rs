//! The most an io_uring path could give shootout-load: a closed-loop HTTP/1.1 client that does nothing but
//! keep one request in flight per connection, every ready send and receive going into one `io_uring_enter`.
//! It checks nothing and keeps no histogram, so its requests per CPU-second bound those of a full generator
//! on the same ring. It expects every answer to have the length of the first (bench/epoll-server.c's do).
//!
//! Usage: uring-ceiling HOST:PORT CONNECTIONS SECONDS

use std::io::{Read, Write};
use std::net::TcpStream;
use std::os::fd::AsRawFd;
use std::process::exit;
use std::time::{Duration, Instant};

use io_uring::{opcode, types, IoUring};

const BUFFER: usize = 4096;

fn cpu_seconds() -> f64 {
    // SAFETY: getrusage only writes the struct it is given.
    let usage = unsafe {
        let mut usage: libc::rusage = std::mem::zeroed();
        libc::getrusage(libc::RUSAGE_SELF, &mut usage);
        usage
    };
    let seconds = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 / 1e6;
    seconds(usage.ru_utime) + seconds(usage.ru_stime)
}

fn fail(what: &str) -> ! {
    eprintln!("uring-ceiling: {what}");
    exit(1)
}

struct Client {
    streams: Vec<TcpStream>,
    request: Vec<u8>,
    buffers: Vec<Vec<u8>>,
    filled: Vec<usize>,
}

impl Client {
    /// Queues connection i's request (even user data) or its receive (odd).
    fn queue(&mut self, ring: &mut IoUring, i: usize, send: bool) {
        let fd = types::Fd(self.streams[i].as_raw_fd());
        let entry = if send {
            opcode::Send::new(fd, self.request.as_ptr(), self.request.len() as u32).build().user_data((i as u64) << 1)
        } else {
            // SAFETY: the buffer outlives the ring's use of it (both live until main returns).
            let at = unsafe { self.buffers[i].as_mut_ptr().add(self.filled[i]) };
            opcode::Recv::new(fd, at, (BUFFER - self.filled[i]) as u32).build().user_data((i as u64) << 1 | 1)
        };
        // SAFETY: the request and buffers stay in place until the ring completes the entry.
        unsafe { ring.submission().push(&entry) }.unwrap_or_else(|_| fail("submission queue full"));
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let [_, addr, connections, seconds] = &args[..] else { fail("usage: uring-ceiling HOST:PORT CONNECTIONS SECONDS") };
    let connections: usize = connections.parse().unwrap_or_else(|_| fail("CONNECTIONS: expected a positive integer"));
    let seconds: f64 = seconds.parse().unwrap_or_else(|_| fail("SECONDS: expected a number"));
    let request = format!("GET / HTTP/1.1\r\nHost: {addr}\r\n\r\n").into_bytes();
    let connect = || TcpStream::connect(addr).unwrap_or_else(|e| fail(&format!("connect {addr}: {e}")));

    let mut first = connect();
    let mut answer = [0u8; BUFFER];
    first.write_all(&request).unwrap_or_else(|e| fail(&format!("send: {e}")));
    let length = first.read(&mut answer).unwrap_or_else(|e| fail(&format!("receive: {e}")));
    let streams: Vec<TcpStream> = (0..connections)
        .map(|_| {
            let stream = connect();
            stream.set_nodelay(true).unwrap_or_else(|e| fail(&format!("TCP_NODELAY: {e}")));
            stream
        })
        .collect();
    let mut client = Client { streams, request, buffers: vec![vec![0; BUFFER]; connections], filled: vec![0; connections] };
    let mut ring = IoUring::builder()
        .setup_single_issuer()
        .setup_coop_taskrun()
        .build((connections * 2).next_power_of_two() as u32)
        .unwrap_or_else(|e| fail(&format!("io_uring_setup: {e}")));

    for i in 0..connections {
        client.queue(&mut ring, i, true);
    }
    let (start, cpu_start) = (Instant::now(), cpu_seconds());
    let end = start + Duration::from_secs_f64(seconds);
    let (mut answers, mut enters) = (0u64, 0u64);
    let mut completed = Vec::with_capacity(connections * 2);
    while Instant::now() < end {
        ring.submit_and_wait(1).unwrap_or_else(|e| fail(&format!("io_uring_enter: {e}")));
        enters += 1;
        completed.clear();
        completed.extend(ring.completion().map(|c| (c.user_data(), c.result())));
        for &(data, result) in &completed {
            let i = (data >> 1) as usize;
            if result <= 0 {
                fail(&format!("connection {i}: {} returned {result}", if data & 1 == 0 { "send" } else { "recv" }));
            }
            if data & 1 == 0 {
                if result as usize != client.request.len() {
                    fail(&format!("connection {i}: sent {result} of {} bytes", client.request.len()));
                }
                client.queue(&mut ring, i, false);
                continue;
            }
            client.filled[i] += result as usize;
            answers += (client.filled[i] / length) as u64;
            client.filled[i] %= length;
            let whole = client.filled[i] == 0;
            client.queue(&mut ring, i, whole);
        }
    }
    let (wall, cpu) = (start.elapsed().as_secs_f64(), cpu_seconds() - cpu_start);
    println!(
        "{answers} answers in {wall:.2} s: {:.0} req/s, CPU {cpu:.2} s, {:.0} req per CPU-second, {:.1} answers per io_uring_enter",
        answers as f64 / wall,
        answers as f64 / cpu,
        answers as f64 / enters as f64
    );
}
