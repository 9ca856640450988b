//! Which I/O path the workers use: io_uring where the kernel allows it and has every operation the
//! path needs, the mio (epoll) loop otherwise. Decided once per run, before any worker starts.

use clap::ValueEnum;
use io_uring::{opcode, IoUring, Probe};

use crate::worker::bufring::BufRing;

/// `--io`: what the user asked for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum IoMode {
    Auto,
    #[value(name = "io_uring")]
    IoUring,
    Epoll,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IoPath {
    IoUring,
    Epoll,
}

impl IoPath {
    pub fn name(self) -> &'static str {
        match self {
            IoPath::IoUring => "io_uring",
            IoPath::Epoll => "epoll",
        }
    }
}

/// The operations worker/uring.rs submits, by name for the error that names a missing one.
pub const OPCODES: [(u8, &str); 4] = [
    (opcode::PollAdd::CODE, "POLL_ADD"),
    (opcode::Send::CODE, "SEND"),
    (opcode::RecvMulti::CODE, "RECV"),
    (opcode::AsyncCancel::CODE, "ASYNC_CANCEL"),
];

/// What the machine offers: `io_uring_disabled` (None if the file is missing, as before kernel 6.6,
/// where io_uring is always allowed), whether a ring could be set up (its error if not), and which
/// of `OPCODES` its probe lacks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Support {
    pub sysctl: Option<u8>,
    pub setup: Result<(), String>,
    pub missing: Vec<&'static str>,
}

/// The run's path, and with `auto` why io_uring was not taken; an error when `--io io_uring` was
/// forced where it cannot work.
pub fn choose(mode: IoMode, support: &Support) -> Result<(IoPath, Option<String>), String> {
    if mode == IoMode::Epoll {
        return Ok((IoPath::Epoll, None));
    }
    let unavailable = match (&support.sysctl, &support.setup) {
        (Some(2), _) => Some("io_uring is disabled (kernel.io_uring_disabled = 2)".to_string()),
        // 1 lets only privileged processes (or io_uring_group) in: setup tells whether we are one.
        (Some(1), Err(e)) => Some(format!("io_uring is restricted (kernel.io_uring_disabled = 1) and setup failed: {e}")),
        (_, Err(e)) => Some(format!("io_uring setup failed: {e}")),
        _ if !support.missing.is_empty() => {
            Some(format!("the kernel's io_uring lacks {}", support.missing.join(", ")))
        }
        _ => None,
    };
    match (unavailable, mode) {
        (None, _) => Ok((IoPath::IoUring, None)),
        (Some(why), IoMode::IoUring) => Err(format!("--io io_uring: {why}")),
        (Some(why), _) => Ok((IoPath::Epoll, Some(why))),
    }
}

/// Looks at this machine: the sysctl, a small ring and its probe.
pub fn support() -> Support {
    let sysctl = std::fs::read_to_string("/proc/sys/kernel/io_uring_disabled").ok().and_then(|s| s.trim().parse().ok());
    if sysctl == Some(2) {
        return Support { sysctl, setup: Err("disabled".into()), missing: Vec::new() };
    }
    let ring = match IoUring::new(8) {
        Ok(ring) => ring,
        Err(e) => return Support { sysctl, setup: Err(e.to_string()), missing: Vec::new() },
    };
    let mut probe = Probe::new();
    if let Err(e) = ring.submitter().register_probe(&mut probe) {
        return Support { sysctl, setup: Err(format!("probe: {e}")), missing: Vec::new() };
    }
    let mut missing: Vec<_> = OPCODES.iter().filter(|&&(code, _)| !probe.is_supported(code)).map(|&(_, name)| name).collect();
    // The probe knows opcodes, not their flags: multishot receives came with Linux 6.0.
    if kernel_release().is_some_and(|version| version < (6, 0)) {
        missing.push("multishot RECV (Linux 6.0)");
    }
    let buffers = BufRing::new(&ring, 1, 4096, 0);
    // The ring goes first: the kernel lets go of the buffer ring with it.
    drop(ring);
    if let Err(e) = buffers {
        return Support { sysctl, setup: Err(format!("provided-buffer ring: {e}")), missing };
    }
    Support { sysctl, setup: Ok(()), missing }
}

/// The running kernel's (major, minor).
fn kernel_release() -> Option<(u32, u32)> {
    let release = std::fs::read_to_string("/proc/sys/kernel/osrelease").ok()?;
    let mut parts = release.trim().split(|c: char| !c.is_ascii_digit());
    Some((parts.next()?.parse().ok()?, parts.next()?.parse().ok()?))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn support(sysctl: Option<u8>, setup: Result<(), &str>, missing: &[&'static str]) -> Support {
        Support { sysctl, setup: setup.map_err(str::to_string), missing: missing.to_vec() }
    }

    #[test]
    fn auto_takes_io_uring_when_everything_is_there() {
        for sysctl in [None, Some(0), Some(1)] {
            assert_eq!(choose(IoMode::Auto, &support(sysctl, Ok(()), &[])), Ok((IoPath::IoUring, None)));
        }
    }

    #[test]
    fn auto_falls_back_with_the_reason() {
        let (path, why) = choose(IoMode::Auto, &support(Some(2), Err("disabled"), &[])).unwrap();
        assert_eq!(path, IoPath::Epoll);
        assert!(why.unwrap().contains("io_uring_disabled = 2"));
        let (path, why) = choose(IoMode::Auto, &support(Some(1), Err("Operation not permitted"), &[])).unwrap();
        assert_eq!(path, IoPath::Epoll);
        assert!(why.unwrap().contains("restricted"));
        let (path, why) = choose(IoMode::Auto, &support(Some(0), Ok(()), &["ASYNC_CANCEL"])).unwrap();
        assert_eq!(path, IoPath::Epoll);
        assert!(why.unwrap().contains("ASYNC_CANCEL"));
        let (_, why) = choose(IoMode::Auto, &support(None, Err("Function not implemented"), &[])).unwrap();
        assert!(why.unwrap().contains("Function not implemented"));
    }

    #[test]
    fn forcing_an_unavailable_io_uring_is_an_error_naming_why() {
        let err = choose(IoMode::IoUring, &support(Some(0), Ok(()), &["RECV"])).unwrap_err();
        assert!(err.contains("--io io_uring") && err.contains("RECV"), "{err}");
        assert!(choose(IoMode::IoUring, &support(Some(2), Err("disabled"), &[])).is_err());
    }

    #[test]
    fn epoll_is_taken_when_asked_for() {
        assert_eq!(choose(IoMode::Epoll, &support(Some(0), Ok(()), &[])), Ok((IoPath::Epoll, None)));
        assert_eq!(choose(IoMode::Epoll, &support(Some(2), Err("x"), &[])), Ok((IoPath::Epoll, None)));
    }
}
