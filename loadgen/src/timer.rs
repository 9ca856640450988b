//! A timerfd in the epoll path's event loop: poll timeouts only have millisecond resolution, which would send
//! open-loop requests up to a millisecond late and put that lateness into the corrected latency (the
//! io_uring path waits with a nanosecond timeout instead).

use std::io;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
use std::time::{Duration, Instant};

use mio::unix::SourceFd;
use mio::{Interest, Registry, Token};

pub struct Timer {
    fd: OwnedFd,
    armed_for: Option<Instant>,
}

impl Timer {
    pub fn new(registry: &Registry, token: Token) -> io::Result<Self> {
        // SAFETY: timerfd_create has no memory arguments; a non-negative result is a new descriptor we own.
        let raw = unsafe { libc::timerfd_create(libc::CLOCK_MONOTONIC, libc::TFD_NONBLOCK | libc::TFD_CLOEXEC) };
        if raw < 0 {
            return Err(io::Error::last_os_error());
        }
        // SAFETY: raw is a fresh descriptor nobody else owns.
        let fd = unsafe { OwnedFd::from_raw_fd(raw) };
        registry.register(&mut SourceFd(&fd.as_raw_fd()), token, Interest::READABLE)?;
        Ok(Timer { fd, armed_for: None })
    }

    /// Makes the timer fire at `at` (no system call if it already will).
    pub fn arm(&mut self, at: Instant, now: Instant) {
        if self.armed_for == Some(at) {
            return;
        }
        // A zero it_value would disarm the timer: fire after at least a nanosecond.
        let wait = at.saturating_duration_since(now).max(Duration::from_nanos(1));
        let spec = libc::itimerspec {
            it_interval: libc::timespec { tv_sec: 0, tv_nsec: 0 },
            it_value: libc::timespec { tv_sec: wait.as_secs() as libc::time_t, tv_nsec: wait.subsec_nanos() as libc::c_long },
        };
        // SAFETY: the spec lives for the call; a null old_value is allowed.
        if unsafe { libc::timerfd_settime(self.fd.as_raw_fd(), 0, &spec, std::ptr::null_mut()) } == 0 {
            self.armed_for = Some(at);
        }
    }

    /// After the timer's event: consume the expiration so the next one is reported again.
    pub fn fired(&mut self) {
        let mut expirations = [0u8; 8];
        // SAFETY: reads at most 8 bytes into our buffer; a failed read (nothing expired) is harmless.
        unsafe { libc::read(self.fd.as_raw_fd(), expirations.as_mut_ptr().cast(), expirations.len()) };
        self.armed_for = None;
    }
}
