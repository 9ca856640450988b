//! The few operating-system facts std does not wrap: file-descriptor limit, CPU time, peak memory, a
//! socket's retransmissions, and closing a socket with a reset.

/// Raises the soft RLIMIT_NOFILE to at least `wanted` (up to the hard limit, or beyond it when
/// privileged); returns the limit now in force.
pub fn raise_nofile(wanted: u64) -> Result<u64, String> {
    let mut limit = libc::rlimit { rlim_cur: 0, rlim_max: 0 };
    // SAFETY: getrlimit writes into the struct we own.
    if unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) } != 0 {
        return Err(format!("getrlimit(RLIMIT_NOFILE) failed: {}", std::io::Error::last_os_error()));
    }
    if limit.rlim_cur >= wanted {
        return Ok(limit.rlim_cur);
    }
    let raised = libc::rlimit { rlim_cur: wanted.max(limit.rlim_cur), rlim_max: wanted.max(limit.rlim_max) };
    // SAFETY: setrlimit only reads the struct.
    if unsafe { libc::setrlimit(libc::RLIMIT_NOFILE, &raised) } == 0 {
        return Ok(raised.rlim_cur);
    }
    let capped = libc::rlimit { rlim_cur: limit.rlim_max, rlim_max: limit.rlim_max };
    // SAFETY: as above.
    if unsafe { libc::setrlimit(libc::RLIMIT_NOFILE, &capped) } != 0 {
        return Err(format!("setrlimit(RLIMIT_NOFILE) failed: {}", std::io::Error::last_os_error()));
    }
    Ok(limit.rlim_max)
}

/// User plus system CPU seconds this process has used so far (all threads).
pub fn cpu_seconds() -> f64 {
    // SAFETY: an all-zero rusage is a valid value, and getrusage fills it in.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: getrusage writes into the struct we own.
    unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut usage) };
    let seconds = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 / 1e6;
    seconds(usage.ru_utime) + seconds(usage.ru_stime)
}

/// Peak resident set size of this process in KiB: the kernel's high-water mark of our own memory
/// (VmHWM). getrusage's ru_maxrss is not used: across the exec that started us it keeps the peak of
/// the process that spawned us (a vfork-style spawn shares the parent's memory until the exec).
pub fn peak_rss_kib() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|status| {
            let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
            line.split_whitespace().nth(1)?.parse().ok()
        })
        .unwrap_or(0)
}

/// Segments the kernel sent again on this TCP socket (TCP_INFO's total_retrans); None if it cannot say.
/// Right after a connect the only segment it can have resent is the SYN.
pub fn retransmissions(socket: &impl std::os::fd::AsRawFd) -> Option<u32> {
    // SAFETY: an all-zero tcp_info is a valid value, and getsockopt fills in at most `len` bytes of it.
    let mut info: libc::tcp_info = unsafe { std::mem::zeroed() };
    let mut len = std::mem::size_of::<libc::tcp_info>() as libc::socklen_t;
    // SAFETY: the pointer and length describe the struct we own.
    let done = unsafe {
        libc::getsockopt(socket.as_raw_fd(), libc::IPPROTO_TCP, libc::TCP_INFO, (&mut info as *mut libc::tcp_info).cast(), &mut len)
    };
    (done == 0).then_some(info.tcpi_total_retrans)
}

/// Makes closing `socket` reset the connection (SO_LINGER on, 0 s): the server's kernel drops what it
/// holds unread from us, so the server does not go on answering requests nobody will read.
pub fn reset_on_close(socket: &impl std::os::fd::AsRawFd) {
    let linger = libc::linger { l_onoff: 1, l_linger: 0 };
    // SAFETY: the pointer and length describe the struct we own; a failure only leaves the ordinary close.
    unsafe {
        libc::setsockopt(
            socket.as_raw_fd(),
            libc::SOL_SOCKET,
            libc::SO_LINGER,
            (&linger as *const libc::linger).cast(),
            std::mem::size_of::<libc::linger>() as libc::socklen_t,
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn peak_rss_grows_with_what_we_touch() {
        let before = peak_rss_kib();
        let touched = std::hint::black_box(vec![1u8; 64 * 1024 * 1024]);
        assert!(before > 0 && peak_rss_kib() >= before + 30 * 1024, "{before} KiB, then {} KiB", peak_rss_kib());
        drop(touched);
    }

    #[test]
    fn a_fresh_loopback_connection_has_resent_nothing() {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let stream = std::net::TcpStream::connect(listener.local_addr().unwrap()).unwrap();
        assert_eq!(retransmissions(&stream), Some(0));
        assert_eq!(retransmissions(&std::fs::File::open("/dev/null").unwrap()), None, "not a socket");
    }

    #[test]
    fn a_reset_close_drops_what_the_server_had_not_read() {
        use std::io::{Read, Write};
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let mut client = std::net::TcpStream::connect(listener.local_addr().unwrap()).unwrap();
        let (mut server, _) = listener.accept().unwrap();
        client.write_all(b"GET / HTTP/1.1\r\n\r\n").unwrap();
        reset_on_close(&client);
        drop(client);
        let mut unread = Vec::new();
        let read = server.read_to_end(&mut unread);
        assert_eq!(read.map_err(|e| e.kind()), Err(std::io::ErrorKind::ConnectionReset), "read {unread:?}");
    }
}
