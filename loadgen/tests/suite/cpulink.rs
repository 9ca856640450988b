//! shootout-cpulink, the binary: a round trip between two CPUs, and named errors for bad arguments.

use std::process::Command;

fn cpulink(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_shootout-cpulink")).args(args).output().expect("runs")
}

#[test]
fn measures_a_round_trip_between_two_cpus() {
    if std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1) < 2 {
        return; // one CPU: there is no link to measure
    }
    let out = cpulink(&["0", "1", "5"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let value: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let ns = value["round_trip_ns"].as_f64().expect("round_trip_ns");
    assert!(ns > 1.0 && ns < 5000.0, "{ns} ns");
}

#[test]
fn bad_arguments_are_named() {
    for (args, said) in [
        (&["0", "0"][..], "both 0"),
        (&["x", "1"][..], "CPU_A \"x\""),
        (&["0"][..], "usage"),
        (&["0", "1", "-5"][..], "MILLISECONDS"),
        (&["0", "100000"][..], "cannot run on CPU 100000"),
    ] {
        let out = cpulink(args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(said), "{args:?}: {stderr}");
    }
}
