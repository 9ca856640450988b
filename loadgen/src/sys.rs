//! The few operating-system calls std does not wrap: file-descriptor limit and CPU time used.

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

/// Peak resident set size of this process in KiB.
pub fn peak_rss_kib() -> u64 {
    // SAFETY: as in cpu_seconds.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut usage) };
    u64::try_from(usage.ru_maxrss).unwrap_or(0)
}
