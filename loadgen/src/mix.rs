//! A mix of requests (--mix): every connection sends a cycle of steps in an order drawn from a seeded
//! generator of its own (the same for every run with the same seed, connections and threads), each step with its
//! own request and the answer it expects. A step may capture the last path segment of its answer's Location, which
//! a later step's {captured} sends: a create, then a delete of what it created.

use regex::bytes::{Regex, RegexBuilder};
use serde::Deserialize;

use crate::request::Template;
use crate::stats::ErrorKind;

/// Steps a mix may have (the stats keep a fixed array per thread).
pub const MAX_STEPS: usize = 8;
/// Largest cycle, so one connection's order stays small.
const MAX_CYCLE: usize = 1000;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Spec {
    seed: u64,
    steps: Vec<StepSpec>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct StepSpec {
    name: String,
    /// Times in each cycle.
    count: usize,
    method: String,
    path: String,
    #[serde(default)]
    headers: Vec<String>,
    #[serde(default)]
    body: String,
    status: u16,
    #[serde(default)]
    body_regex: Option<String>,
    #[serde(default)]
    capture: bool,
}

#[derive(Debug)]
pub struct Step {
    pub name: String,
    template: Template,
    status: u16,
    regex: Option<Regex>,
    capture: bool,
    /// A gRPC call's answer: its body exactly (--grpc).
    exact: Option<Vec<u8>>,
}

impl Step {
    /// A gRPC call: a 200 whose body is exactly `body` (crate::grpc).
    pub fn exact(name: String, template: Template, body: Vec<u8>) -> Step {
        Step { name, template, status: 200, regex: None, capture: false, exact: Some(body) }
    }
}

#[derive(Debug)]
pub struct Mix {
    pub steps: Vec<Step>,
    /// Its steps are --grpc's calls, not --mix's kinds of request: not reported one by one.
    pub calls: bool,
    /// Every step index as often as its count.
    cycle: Vec<usize>,
    seed: u64,
}

/// One connection slot's place in the mix, kept across its reconnects.
pub struct Turn {
    rng: fastrand::Rng,
    order: Vec<usize>,
    at: usize,
    /// The last capture not yet sent; "0" (no such item) when its answer failed.
    captured: Option<Vec<u8>>,
}

impl Mix {
    /// A mix from its JSON; `host` and `headers` are what every request carries (Host, --header lines).
    pub fn parse(json: &str, host: &str, headers: &[u8], regex_limit: usize) -> Result<Mix, String> {
        let spec: Spec = serde_json::from_str(json).map_err(|e| format!("--mix: not a mix ({e})"))?;
        if spec.steps.is_empty() || spec.steps.len() > MAX_STEPS {
            return Err(format!("--mix: expected 1 to {MAX_STEPS} steps, got {}", spec.steps.len()));
        }
        let mut steps = Vec::new();
        let mut cycle = Vec::new();
        for (index, step) in spec.steps.into_iter().enumerate() {
            let named = |what: String| format!("--mix step {:?}: {what}", step.name);
            if step.count == 0 || step.method.is_empty() || !step.method.bytes().all(|b| b.is_ascii_alphabetic()) {
                return Err(named(format!("expected a count of at least 1 and a method token, got {} and {:?}", step.count, step.method)));
            }
            let mut lines = headers.to_vec();
            lines.extend(crate::url::header_lines(&step.headers).map_err(named)?);
            let template = Template::new(&step.method, &step.path, host, &lines, step.body.as_bytes(), None).map_err(named)?;
            let regex = match &step.body_regex {
                Some(re) => Some(RegexBuilder::new(re).size_limit(regex_limit).build().map_err(|e| named(format!("body_regex {re:?}: {e}")))?),
                None => None,
            };
            cycle.extend(std::iter::repeat_n(index, step.count));
            steps.push(Step { name: step.name, template, status: step.status, regex, capture: step.capture, exact: None });
        }
        if cycle.len() > MAX_CYCLE {
            return Err(format!("--mix: a cycle of {} requests; at most {MAX_CYCLE}", cycle.len()));
        }
        if steps.iter().any(|s| s.template.captures()) && !steps.iter().any(|s| s.capture) {
            return Err("--mix: a step's path takes {captured} but no step captures a Location".into());
        }
        Ok(Mix { steps, cycle, seed: spec.seed, calls: false })
    }

    /// --grpc's calls, each once per cycle.
    pub fn of_calls(steps: Vec<Step>) -> Mix {
        Mix { cycle: (0..steps.len()).collect(), steps, seed: 0, calls: true }
    }

    /// The exact body a step's answer must have (a gRPC call's), if it is one.
    pub fn exact(&self, step: usize) -> Option<&[u8]> {
        self.steps[step].exact.as_deref()
    }

    /// Whether any answer's body is checked (so bodies are kept).
    pub fn validates_body(&self) -> bool {
        self.steps.iter().any(|s| s.regex.is_some() || s.exact.is_some())
    }

    /// Connection slot `slot`'s place, at the start of its first cycle.
    pub fn turn(&self, slot: u64) -> Turn {
        let mut turn = Turn {
            rng: fastrand::Rng::with_seed(self.seed ^ slot.wrapping_mul(0x9E37_79B9_7F4A_7C15)),
            order: self.cycle.clone(),
            at: 0,
            captured: None,
        };
        turn.shuffle(self);
        turn
    }

    /// Writes the slot's next request into `out`; returns its step.
    pub fn write(&self, turn: &mut Turn, out: &mut Vec<u8>) -> usize {
        let step = turn.order[turn.at];
        turn.at += 1;
        if turn.at == turn.order.len() {
            turn.at = 0;
            turn.shuffle(self);
        }
        let template = &self.steps[step].template;
        let captured = if template.captures() { turn.captured.take() } else { None };
        template.write_captured(out, b"", &mut turn.rng, captured.as_deref().unwrap_or(b"0"));
        step
    }

    /// Checks the answer to a request of `step`, keeping what it captures.
    pub fn check(&self, step: usize, turn: &mut Turn, status: u16, body: &[u8], location: &[u8]) -> Result<(), ErrorKind> {
        let want = &self.steps[step];
        if status != want.status {
            return Err(ErrorKind::Status);
        }
        if want.regex.as_ref().is_some_and(|re| !re.is_match(body)) {
            return Err(ErrorKind::Validation);
        }
        if want.capture {
            let segment = location.trim_ascii().rsplit(|&b| b == b'/').next().unwrap_or_default();
            if segment.is_empty() || !segment.iter().all(|b| b.is_ascii_alphanumeric() || b"-_.~".contains(b)) {
                return Err(ErrorKind::Validation);
            }
            turn.captured = Some(segment.to_vec());
        }
        Ok(())
    }
}

impl Turn {
    /// A new order for the next cycle; a step that sends a capture comes after the first step that makes one.
    fn shuffle(&mut self, mix: &Mix) {
        self.rng.shuffle(&mut self.order);
        let capturing = self.order.iter().position(|&s| mix.steps[s].capture);
        let sending = self.order.iter().position(|&s| mix.steps[s].template.captures());
        if let (Some(made), Some(sent)) = (capturing, sending) {
            if sent < made {
                self.order.swap(made, sent);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SPEC: &str = r#"{"seed": 7, "steps": [
        {"name": "get", "count": 3, "method": "GET", "path": "/items/{rand:1:9}", "status": 200, "body_regex": "id"},
        {"name": "create", "count": 1, "method": "POST", "path": "/items", "status": 201, "body": "{}",
         "headers": ["Content-Type: application/json"], "capture": true},
        {"name": "delete", "count": 1, "method": "DELETE", "path": "/items/{captured}", "status": 204}]}"#;

    fn requests(mix: &Mix, turn: &mut Turn, n: usize) -> Vec<(usize, String)> {
        (0..n)
            .map(|_| {
                let mut out = Vec::new();
                let step = mix.write(turn, &mut out);
                (step, String::from_utf8(out).unwrap())
            })
            .collect()
    }

    #[test]
    fn each_cycle_sends_every_step_its_count_and_a_delete_after_its_create() {
        let mix = Mix::parse(SPEC, "h", b"", 1 << 20).unwrap();
        let mut turn = mix.turn(3);
        for _ in 0..50 {
            let cycle: Vec<usize> = requests(&mix, &mut turn, 5).into_iter().map(|(s, _)| s).collect();
            assert_eq!([0, 1, 2].map(|s| cycle.iter().filter(|&&c| c == s).count()), [3, 1, 1]);
            assert!(cycle.iter().position(|&s| s == 1) < cycle.iter().position(|&s| s == 2), "{cycle:?}");
        }
    }

    #[test]
    fn the_same_slot_gets_the_same_requests_every_run_and_another_slot_others() {
        let mix = Mix::parse(SPEC, "h", b"", 1 << 20).unwrap();
        let run = |slot| requests(&mix, &mut mix.turn(slot), 40);
        assert_eq!(run(5), run(5));
        assert_ne!(run(5), run(6));
    }

    #[test]
    fn a_delete_sends_the_last_capture_once_and_then_an_id_that_is_none() {
        let mix = Mix::parse(SPEC, "h", b"", 1 << 20).unwrap();
        let mut turn = mix.turn(1);
        assert_eq!(mix.check(1, &mut turn, 201, b"{}", b"http://h/items/1042"), Ok(()));
        let mut out = Vec::new();
        mix.steps[2].template.write_captured(&mut out, b"", &mut turn.rng, turn.captured.take().as_deref().unwrap_or(b"0"));
        assert!(out.starts_with(b"DELETE /items/1042 HTTP/1.1\r\n"));
        assert_eq!(turn.captured, None);
        assert_eq!(mix.check(1, &mut turn, 200, b"{}", b"/items/1"), Err(ErrorKind::Status));
        assert_eq!(mix.check(1, &mut turn, 201, b"{}", b""), Err(ErrorKind::Validation));
        assert_eq!(mix.check(0, &mut turn, 200, b"{\"x\":1}", b""), Err(ErrorKind::Validation));
        assert_eq!(mix.check(0, &mut turn, 200, b"{\"id\":1}", b""), Ok(()));
        assert_eq!(mix.check(2, &mut turn, 204, b"", b""), Ok(()));
    }

    #[test]
    fn a_bad_mix_is_named() {
        assert!(Mix::parse("{", "h", b"", 1).unwrap_err().contains("--mix"));
        let no_capture = r#"{"seed": 1, "steps": [{"name": "d", "count": 1, "method": "DELETE", "path": "/i/{captured}", "status": 204}]}"#;
        assert!(Mix::parse(no_capture, "h", b"", 1).unwrap_err().contains("no step captures"));
        let zero = r#"{"seed": 1, "steps": [{"name": "z", "count": 0, "method": "GET", "path": "/", "status": 200}]}"#;
        assert!(Mix::parse(zero, "h", b"", 1).unwrap_err().contains("step \"z\""));
        let unknown = r#"{"seed": 1, "steps": [{"name": "u", "count": 1, "method": "GET", "path": "/", "status": 200, "x": 1}]}"#;
        assert!(Mix::parse(unknown, "h", b"", 1).unwrap_err().contains("unknown field"));
    }
}
