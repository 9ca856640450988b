//! Whether an answer is what the run expects: status, body, session counter, WebSocket echo. Only
//! answers that pass count as throughput and latency; the others are counted by what was wrong.

use crate::cli::Config;
use crate::stats::ErrorKind;
use crate::visitor::counter_value;

/// Checks one HTTP response. `count` is the visitor's last counter value; it is moved to what the
/// server said, so one lost answer is one error rather than all that follow.
pub fn response(config: &Config, status: u16, body: &[u8], count: &mut u64) -> Result<(), ErrorKind> {
    if status != config.expect_status {
        return Err(ErrorKind::Status);
    }
    let mut ok = config.expect_body.as_deref().is_none_or(|want| body == want)
        && config.expect_body_regex.as_ref().is_none_or(|re| re.is_match(body));
    if config.expect_counter {
        let seen = counter_value(body);
        ok &= seen == Some(*count + 1);
        *count = seen.unwrap_or(*count);
    }
    if ok {
        Ok(())
    } else {
        Err(ErrorKind::Validation)
    }
}

/// Checks one WebSocket message against the one sent.
pub fn echo(config: &Config, message: &[u8]) -> Result<(), ErrorKind> {
    match &config.websocket {
        Some((_, sent)) if sent == message => Ok(()),
        _ => Err(ErrorKind::Validation),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::Args;
    use clap::Parser;

    fn config(args: &[&str]) -> Config {
        let mut argv = vec!["shootout-load"];
        argv.extend_from_slice(args);
        Args::try_parse_from(argv).unwrap().into_config().unwrap()
    }

    #[test]
    fn status_then_body() {
        let c = config(&["--expect-body", "ok", "http://127.0.0.1:1/"]);
        assert_eq!(response(&c, 200, b"ok", &mut 0), Ok(()));
        assert_eq!(response(&c, 500, b"ok", &mut 0), Err(ErrorKind::Status));
        assert_eq!(response(&c, 200, b"no", &mut 0), Err(ErrorKind::Validation));
        let re = config(&["--expect-status", "201", "--expect-body-regex", "^[0-9]+$", "http://127.0.0.1:1/"]);
        assert_eq!(response(&re, 201, b"42", &mut 0), Ok(()));
        assert_eq!(response(&re, 201, b"4x", &mut 0), Err(ErrorKind::Validation));
    }

    #[test]
    fn counter_resynchronises_after_a_gap() {
        let c = config(&["--sessions", "--expect-counter", "http://127.0.0.1:1/"]);
        let mut count = 0;
        assert_eq!(response(&c, 200, b"Count is 1", &mut count), Ok(()));
        assert_eq!(response(&c, 200, b"Count is 3", &mut count), Err(ErrorKind::Validation));
        assert_eq!(response(&c, 200, b"Count is 4", &mut count), Ok(()));
        assert_eq!(response(&c, 200, b"nonsense", &mut count), Err(ErrorKind::Validation));
        assert_eq!(count, 4);
    }

    #[test]
    fn echoes_must_match() {
        let c = config(&["--websocket", "--message", "hi", "ws://127.0.0.1:1/"]);
        assert_eq!(echo(&c, b"hi"), Ok(()));
        assert_eq!(echo(&c, b"ih"), Err(ErrorKind::Validation));
    }
}
