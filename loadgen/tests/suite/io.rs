//! The two I/O paths: a run names the one it took, a forced io_uring where the kernel has none is an
//! error that says why, and what the paths count agrees where the socket life cycle is busiest
//! (servers closing mid-request, a connection per request, sends the kernel takes in parts).

use std::io;
use std::os::unix::process::CommandExt;
use std::process::{Command, Output, Stdio};
use std::sync::atomic::Ordering;

use crate::support::{answering, load, load_on, threaded, url};

const HELLO: &[u8] = b"HTTP/1.1 200 OK\r\nContent-Length: 13\r\nContent-Type: text/plain\r\n\r\nHello, World!";
const PATHS: [&str; 2] = ["io_uring", "epoll"];

#[test]
fn a_run_names_its_io_path() {
    let server = answering(HELLO);
    let r = load(&["-c", "2", "-t", "1", "-d", "300ms", &url(server.port, "/")]);
    let forced = std::env::var("SHOOTOUT_LOAD_IO").ok().filter(|io| io != "auto");
    match &forced {
        Some(io) => assert_eq!(r.io, io),
        None => assert!(PATHS.contains(&r.io), "{}", r.io),
    }
    // Only auto falling back has a reason to give.
    assert_eq!(r.io_fallback.is_some(), r.io == "epoll" && forced.is_none());
    let json: serde_json::Value = serde_json::from_str(&r.to_json()).unwrap();
    assert_eq!(json["io"], r.io);
    assert!(json.get("io_fallback").is_some());
}

/// A kernel without io_uring, for one child process: a seccomp filter fails io_uring_setup with ENOSYS.
fn deny_io_uring_setup() -> io::Result<()> {
    let instruction = |code: u32, jt: u8, jf: u8, k: u32| libc::sock_filter { code: code as u16, jt, jf, k };
    let filter = [
        // The system call's number is the first field of seccomp_data.
        instruction(libc::BPF_LD | libc::BPF_W | libc::BPF_ABS, 0, 0, 0),
        instruction(libc::BPF_JMP | libc::BPF_JEQ | libc::BPF_K, 0, 1, libc::SYS_io_uring_setup as u32),
        instruction(libc::BPF_RET | libc::BPF_K, 0, 0, libc::SECCOMP_RET_ERRNO | libc::ENOSYS as u32),
        instruction(libc::BPF_RET | libc::BPF_K, 0, 0, libc::SECCOMP_RET_ALLOW),
    ];
    let program = libc::sock_fprog { len: filter.len() as u16, filter: filter.as_ptr().cast_mut() };
    // SAFETY: prctl reads the program, which lives on this frame for the call; no new privileges is
    // what an unprivileged filter requires.
    let ok = unsafe {
        libc::prctl(libc::PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == 0
            && libc::prctl(libc::PR_SET_SECCOMP, libc::SECCOMP_MODE_FILTER, &program as *const libc::sock_fprog) == 0
    };
    if ok {
        Ok(())
    } else {
        Err(io::Error::last_os_error())
    }
}

fn without_io_uring(args: &[&str]) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_shootout-load"));
    command.args(args).stdin(Stdio::null());
    // SAFETY: between fork and exec the hook only makes prctl calls, which are async-signal-safe.
    unsafe { command.pre_exec(deny_io_uring_setup) };
    command.output().expect("the shootout-load binary runs")
}

#[test]
fn a_forced_io_uring_without_one_is_an_error_naming_why() {
    let server = answering(HELLO);
    let target = url(server.port, "/");
    let forced = without_io_uring(&["--io", "io_uring", "-c", "1", "-d", "200ms", &target]);
    let stderr = String::from_utf8_lossy(&forced.stderr);
    assert_eq!(forced.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("--io io_uring") && stderr.contains("setup failed"), "{stderr}");

    let auto = without_io_uring(&["--json", "-c", "1", "-d", "200ms", &target]);
    let stderr = String::from_utf8_lossy(&auto.stderr);
    assert!(auto.status.success(), "{stderr}");
    let json: serde_json::Value = serde_json::from_slice(&auto.stdout).unwrap();
    assert_eq!(json["io"], "epoll");
    assert!(json["io_fallback"].as_str().unwrap().contains("setup failed"), "{}", json["io_fallback"]);
    assert!(stderr.contains("I/O: epoll (io_uring unavailable"), "{stderr}");
    assert!(json["requests"].as_u64().unwrap() > 0);
}

#[test]
fn servers_closing_mid_request_count_the_same_on_both_paths() {
    for io in PATHS {
        // Two answers, then the third request is read and the connection closed without an answer.
        let server = threaded(|mut peer| {
            for _ in 0..2 {
                if peer.request().is_none() || !peer.send(b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok") {
                    return;
                }
            }
            peer.request();
        });
        let r = load_on(io, &["-c", "4", "-t", "1", "-d", "1s", "--expect-body", "ok", &url(server.port, "/")]);
        let read = r.errors["read"];
        assert_eq!(r.error_total(), read, "{io}: only read errors expected: {:?}", r.errors);
        assert!(read > 20, "{io}: {read} read errors");
        assert_eq!(r.responses_total, r.requests, "{io}");
        // Every connection gives two valid answers and one read error; each of the 4 connections can
        // be cut by the window's start and end (two answers or two errors' worth at most).
        let off = (r.requests as i64 - 2 * read as i64).abs();
        assert!(off <= 16, "{io}: {} valid answers for {read} read errors", r.requests);
    }
}

#[test]
fn a_connection_per_request_counts_the_same_on_both_paths() {
    for io in PATHS {
        let server = answering(HELLO);
        let r = load_on(io, &["-c", "4", "-t", "1", "-d", "1s", "--no-keepalive", &url(server.port, "/")]);
        let accepted = server.accepted.load(Ordering::SeqCst) as u64;
        assert_eq!(r.error_total(), 0, "{io}: {:?}", r.errors);
        assert!(r.requests > 50, "{io}: {} requests", r.requests);
        assert_eq!(r.responses_total, r.requests, "{io}");
        // One connection per answer, plus those before the window opened and those open at its end.
        assert!(accepted >= r.requests, "{io}: {accepted} connections for {} answers", r.requests);
        assert!(accepted <= r.requests + r.requests / 5 + 8, "{io}: {accepted} connections for {} answers", r.requests);
    }
}

#[test]
fn large_bodies_go_out_whole_on_both_paths() {
    let body = std::env::temp_dir().join(format!("shootout-load-io-{}.body", std::process::id()));
    std::fs::write(&body, vec![b'x'; 3 * 1024 * 1024]).unwrap();
    let argument = format!("@{}", body.display());
    let runs: Vec<_> = PATHS
        .iter()
        .map(|&io| {
            let server = threaded(|mut peer| {
                while let Some(head) = peer.request() {
                    let length = head
                        .lines()
                        .find_map(|l| l.to_ascii_lowercase().strip_prefix("content-length:").map(|v| v.trim().parse::<usize>()))
                        .and_then(Result::ok)
                        .unwrap_or(0);
                    if peer.take(length).is_none() || !peer.send(HELLO) {
                        return;
                    }
                }
            });
            let r = std::panic::catch_unwind(|| {
                load_on(io, &["-c", "2", "-t", "1", "-d", "1s", "-m", "POST", "--body", &argument, &url(server.port, "/")])
            });
            (io, r)
        })
        .collect();
    let _ = std::fs::remove_file(&body);
    for (io, r) in runs {
        let r = r.unwrap_or_else(|_| panic!("{io}: the run failed"));
        assert_eq!(r.error_total(), 0, "{io}: {:?}", r.errors);
        assert!(r.requests >= 2, "{io}: {} requests of 3 MiB", r.requests);
    }
}
