//! One connection slot: its socket, buffers and requests in flight, and the visitor it carries across
//! reconnects (cookie jar, session counter, prebuilt request bytes).

use std::collections::VecDeque;
use std::time::Instant;

use mio::net::TcpStream;

use crate::request::Template;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum State {
    /// No socket; queued for (re)connection or waiting out a back-off.
    Closed,
    Connecting,
    /// WebSocket: upgrade request sent, 101 not yet seen.
    Handshake,
    Open,
}

#[derive(Debug, Clone, Copy)]
pub struct InFlight {
    /// When the request should have gone out (open loop) or did (closed loop).
    pub intended: Instant,
    pub sent: Instant,
    /// Sent during the measured window (warm-up requests are not recorded).
    pub counted: bool,
}

pub struct Conn {
    pub stream: Option<TcpStream>,
    pub state: State,
    /// When the current connect or handshake began (for its timeout).
    pub since: Instant,
    /// Back-off: consecutive connections that ended before any answer.
    pub failures: u32,
    pub retry_at: Option<Instant>,
    pub answered: bool,
    pub idle_queued: bool,
    /// Received bytes not yet making up a whole response.
    pub pending: Vec<u8>,
    /// Bytes not yet accepted by the socket.
    pub out: Vec<u8>,
    pub in_flight: VecDeque<InFlight>,
    pub visitor: Visitor,
    /// WebSocket: the masked message frame, the mask, and a message being reassembled from fragments.
    pub frame: Vec<u8>,
    pub mask: [u8; 4],
    pub message: Vec<u8>,
}

impl Conn {
    pub fn new(now: Instant, visitor: Visitor, mask: [u8; 4], frame: Vec<u8>) -> Self {
        Conn {
            stream: None,
            state: State::Closed,
            since: now,
            failures: 0,
            retry_at: None,
            answered: false,
            idle_queued: false,
            pending: Vec::new(),
            out: Vec::new(),
            in_flight: VecDeque::new(),
            visitor,
            frame,
            mask,
            message: Vec::new(),
        }
    }
}

/// A visitor: cookies it was given and the requests they produce.
pub struct Visitor {
    jar: Vec<(Vec<u8>, Vec<u8>)>,
    cookie_line: Vec<u8>,
    /// The whole request when the path has no template; rebuilt when a cookie changes.
    request: Vec<u8>,
    /// Last "Count is N" seen, for --expect-counter (a new visitor has seen 0).
    pub count: u64,
}

impl Visitor {
    pub fn new(template: &Template, rng: &mut fastrand::Rng) -> Self {
        let mut visitor = Visitor { jar: Vec::new(), cookie_line: Vec::new(), request: Vec::new(), count: 0 };
        visitor.rebuild(template, rng);
        visitor
    }

    fn rebuild(&mut self, template: &Template, rng: &mut fastrand::Rng) {
        self.cookie_line.clear();
        if !self.jar.is_empty() {
            self.cookie_line.extend_from_slice(b"Cookie: ");
            for (i, (name, value)) in self.jar.iter().enumerate() {
                if i > 0 {
                    self.cookie_line.extend_from_slice(b"; ");
                }
                self.cookie_line.extend_from_slice(name);
                self.cookie_line.push(b'=');
                self.cookie_line.extend_from_slice(value);
            }
            self.cookie_line.extend_from_slice(b"\r\n");
        }
        self.request.clear();
        if template.is_static() {
            template.write(&mut self.request, &self.cookie_line, rng);
        }
    }

    /// Appends one request for this visitor.
    pub fn write_request(&self, template: &Template, out: &mut Vec<u8>, rng: &mut fastrand::Rng) {
        if template.is_static() {
            out.extend_from_slice(&self.request);
        } else {
            template.write(out, &self.cookie_line, rng);
        }
    }

    /// Honours one Set-Cookie value; returns whether the jar changed.
    pub fn set_cookie(&mut self, header: &[u8]) -> bool {
        let mut attrs = header.split(|&b| b == b';');
        let pair = attrs.next().unwrap_or_default();
        let Some(eq) = pair.iter().position(|&b| b == b'=') else { return false };
        let name = pair[..eq].trim_ascii();
        let value = pair[eq + 1..].trim_ascii();
        if name.is_empty() {
            return false;
        }
        let expired = attrs.any(|a| {
            let a = a.trim_ascii();
            a.len() >= 8 && a[..8].eq_ignore_ascii_case(b"max-age=") && a[8..].first().is_some_and(|&c| c == b'0' || c == b'-')
        });
        let slot = self.jar.iter().position(|(n, _)| n == name);
        match (slot, expired) {
            (Some(i), true) => {
                self.jar.remove(i);
                true
            }
            (None, true) => false,
            (Some(i), false) if self.jar[i].1 == value => false,
            (Some(i), false) => {
                self.jar[i].1 = value.to_vec();
                true
            }
            (None, false) => {
                self.jar.push((name.to_vec(), value.to_vec()));
                true
            }
        }
    }

    /// After `set_cookie` reported changes.
    pub fn cookies_changed(&mut self, template: &Template, rng: &mut fastrand::Rng) {
        self.rebuild(template, rng);
    }
}

/// The N of a "Count is N" body.
pub fn counter_value(body: &[u8]) -> Option<u64> {
    let digits = body.trim_ascii().strip_prefix(b"Count is ")?.trim_ascii();
    if digits.is_empty() || digits.len() > 19 || !digits.iter().all(u8::is_ascii_digit) {
        return None;
    }
    Some(digits.iter().fold(0u64, |n, d| n * 10 + u64::from(d - b'0')))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn jar_sets_replaces_and_expires() {
        let template = Template::new("GET", "/s", "h", b"", b"").unwrap();
        let mut rng = fastrand::Rng::with_seed(1);
        let mut v = Visitor::new(&template, &mut rng);
        assert!(v.set_cookie(b"sid=abc; Path=/; HttpOnly"));
        assert!(!v.set_cookie(b"sid=abc"));
        assert!(v.set_cookie(b"other=1"));
        v.cookies_changed(&template, &mut rng);
        let mut out = Vec::new();
        v.write_request(&template, &mut out, &mut rng);
        assert!(out.windows(24).any(|w| w == b"Cookie: sid=abc; other=1"));
        assert!(v.set_cookie(b"sid=; Max-Age=0"));
        assert!(!v.set_cookie(b"garbage"));
    }

    #[test]
    fn counter_bodies() {
        assert_eq!(counter_value(b"Count is 12\n"), Some(12));
        assert_eq!(counter_value(b"Count is "), None);
        assert_eq!(counter_value(b"count is 1"), None);
    }
}
