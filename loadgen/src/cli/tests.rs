//! The flags' validation: every bad value named, the flags that cannot go together refused.

use super::*;

fn config(args: &[&str]) -> Result<Config, String> {
    let mut argv = vec!["shootout-load"];
    argv.extend_from_slice(args);
    Args::try_parse_from(argv).map_err(|e| e.to_string())?.into_config()
}

#[test]
fn durations() {
    assert_eq!(parse_duration("5s").unwrap(), Duration::from_secs(5));
    assert_eq!(parse_duration("250ms").unwrap(), Duration::from_millis(250));
    assert_eq!(parse_duration("1m").unwrap(), Duration::from_secs(60));
    assert_eq!(parse_duration("2").unwrap(), Duration::from_secs(2));
    assert!(parse_duration("5x").unwrap_err().contains("5x"));
}

#[test]
fn bad_values_are_named() {
    assert!(config(&["ftp://127.0.0.1/"]).unwrap_err().contains("ftp"));
    assert!(config(&["-H", "nocolon", "http://127.0.0.1:1/"]).unwrap_err().contains("nocolon"));
    assert!(config(&["--rate", "0", "http://127.0.0.1:1/"]).unwrap_err().contains("--rate"));
    assert!(config(&["http://127.0.0.1:99999/"]).unwrap_err().contains("99999"));
    assert!(config(&["http://127.0.0.1:1/{rand:5}"]).unwrap_err().contains("{rand:5}"));
    assert!(config(&["--expect-counter", "http://127.0.0.1:1/"]).is_err());
}

#[test]
fn a_burst_sets_connections_and_duration() {
    let c = config(&["--burst", "2,4,8", "--step", "500ms", "-c", "99", "-d", "9s", "http://127.0.0.1:1/"]).unwrap();
    assert_eq!((c.connections, c.duration, c.burst), (8, Duration::from_millis(1500), vec![2, 4, 8]));
    assert!(config(&["--burst", "2,0", "http://127.0.0.1:1/"]).unwrap_err().contains("--burst"));
    assert!(config(&["--burst", "8,2", "http://127.0.0.1:1/"]).unwrap_err().contains("rising"));
    assert!(config(&["--burst", "2", "--rate", "5", "http://127.0.0.1:1/"]).is_err());
}

#[test]
fn no_keepalive_asks_the_server_to_close_and_refuses_what_needs_a_kept_connection() {
    let c = config(&["--no-keepalive", "http://127.0.0.1:1/"]).unwrap();
    let mut request = Vec::new();
    c.template.write(&mut request, b"", &mut fastrand::Rng::with_seed(1));
    assert!(!c.keepalive && request.windows(19).any(|w| w == b"Connection: close\r\n"));
    assert!(config(&["http://127.0.0.1:1/"]).unwrap().keepalive);
    assert!(config(&["--no-keepalive", "-R", "10", "http://127.0.0.1:1/"]).unwrap_err().contains("--rate"));
    assert!(config(&["--no-keepalive", "--pipeline", "4", "http://127.0.0.1:1/"]).unwrap_err().contains("--pipeline"));
}

#[test]
fn requests_per_connection_keeps_connections_and_one_request_in_flight() {
    let c = config(&["--requests-per-connection", "10", "--body-size", "3", "--chunk-size", "2", "-m", "POST", "http://127.0.0.1:1/u"]).unwrap();
    assert_eq!((c.requests_per_connection, c.keepalive), (Some(10), true));
    let mut request = Vec::new();
    c.template.write(&mut request, b"", &mut fastrand::Rng::with_seed(1));
    assert!(request.ends_with(b"Transfer-Encoding: chunked\r\n\r\n2\r\n\x00\x01\r\n1\r\n\x02\r\n0\r\n\r\n"));
    let refused = [&["--requests-per-connection", "0"][..], &["--requests-per-connection", "5", "--no-keepalive"], &["--requests-per-connection", "5", "--pipeline", "2"]];
    refused.iter().for_each(|flags| assert!(config(&[flags, &["http://127.0.0.1:1/"][..]].concat()).is_err(), "{flags:?}"));
}

#[test]
fn a_steady_warmup_needs_a_cap_and_a_percentage() {
    let c = config(&["--warmup", "30s", "--warmup-steady", "3", "http://127.0.0.1:1/"]).unwrap();
    assert_eq!((c.warmup, c.warmup_steady), (Duration::from_secs(30), Some(3.0)));
    assert!(config(&["--warmup-steady", "3", "http://127.0.0.1:1/"]).unwrap_err().contains("--warmup (its cap)"));
    assert!(config(&["--warmup", "9s", "--warmup-steady", "0", "http://127.0.0.1:1/"]).unwrap_err().contains("got 0"));
    assert!(config(&["--warmup", "9s", "--warmup-steady", "NaN", "http://127.0.0.1:1/"]).is_err());
}

#[test]
fn the_connect_phase_flags_are_checked() {
    let c = config(&["--connect-deadline", "30s", "--connect-min", "99", "--connect-concurrency", "8", "http://127.0.0.1:1/"]).unwrap();
    assert_eq!((c.connect_deadline, c.connect_min, c.connect_concurrency), (Duration::from_secs(30), 99.0, 8));
    let bad = [("--connect-min", "0"), ("--connect-min", "101"), ("--connect-concurrency", "0"), ("--connect-deadline", "0s")];
    bad.iter().for_each(|(flag, v)| assert!(config(&[flag, v, "http://127.0.0.1:1/"]).unwrap_err().contains(flag), "{flag} {v}"));
}

#[test]
fn a_mix_sets_every_request_and_refuses_the_flags_that_would_too() {
    let mix = r#"{"seed": 1, "steps": [{"name": "g", "count": 1, "method": "GET", "path": "/i/{rand:1:3}", "status": 200}]}"#;
    let c = config(&["--mix", mix, "http://127.0.0.1:1/"]).unwrap();
    assert_eq!(c.mix.unwrap().steps[0].name, "g");
    for flags in [&["--sessions"][..], &["--http", "2"], &["--pipeline", "2"], &["-m", "POST"], &["--body-size", "9"], &["--expect-body", "x"], &["--expect-status", "201"]] {
        let error = config(&[&["--mix", mix][..], flags, &["http://127.0.0.1:1/"]].concat()).unwrap_err();
        assert!(error.contains("--mix cannot be combined with"), "{flags:?}: {error}");
    }
    assert!(config(&["http://127.0.0.1:1/i/{captured}"]).unwrap_err().contains("{captured}"));
}

#[test]
fn threads_never_exceed_connections() {
    let c = config(&["-c", "2", "-t", "8", "http://127.0.0.1:8080/x"]).unwrap();
    assert_eq!((c.threads, c.addr.port()), (2, 8080));
}

#[test]
fn grpc_calls_go_over_http2_alone_and_refuse_the_flags_that_would_set_a_request() {
    let calls = r#"{"calls": [{"request": "0801", "replies": ["0801"]}]}"#;
    let c = config(&["--grpc", calls, "--http", "2", "--streams", "4", "http://127.0.0.1:1/p.S/M"]).unwrap();
    let mix = c.mix.unwrap();
    assert!(mix.calls && mix.exact(0).is_some() && c.http2 && c.pipeline == 4);
    assert!(config(&["--grpc", calls, "http://127.0.0.1:1/p.S/M"]).unwrap_err().contains("--grpc needs --http 2"));
    for flags in [&["--sessions"][..], &["--no-keepalive"], &["-m", "PUT"], &["--body-size", "9"], &["--expect-body", "x"]] {
        let error = config(&[&["--grpc", calls, "--http", "2"][..], flags, &["http://127.0.0.1:1/"]].concat()).unwrap_err();
        assert!(error.contains("--grpc cannot be combined with"), "{flags:?}: {error}");
    }
    assert!(config(&["--grpc", calls, "--mix", "{}", "--http", "2", "http://127.0.0.1:1/"]).is_err());
}
