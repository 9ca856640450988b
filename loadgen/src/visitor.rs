//! A visitor: the cookie jar it carries across reconnects, the requests it sends, and its session counter.
//! The jar is bounded like a browser's, so a server handing out cookies without end cannot grow it.

use crate::request::Template;

/// Cookies one visitor keeps (RFC 6265 6.1 asks user agents for at least 50 per domain).
pub const MAX_COOKIES: usize = 50;
/// Longest cookie name plus value kept (RFC 6265 6.1: at least 4096 bytes per cookie).
pub const MAX_COOKIE_BYTES: usize = 4096;

/// A Set-Cookie the jar refused, named for the error message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JarFull(pub String);

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

    /// Honours one Set-Cookie value; returns whether the jar changed, or why it refused the cookie.
    pub fn set_cookie(&mut self, header: &[u8]) -> Result<bool, JarFull> {
        let mut attrs = header.split(|&b| b == b';');
        let pair = attrs.next().unwrap_or_default();
        let Some(eq) = pair.iter().position(|&b| b == b'=') else { return Ok(false) };
        let name = pair[..eq].trim_ascii();
        let value = pair[eq + 1..].trim_ascii();
        if name.is_empty() {
            return Ok(false);
        }
        if name.len() + value.len() > MAX_COOKIE_BYTES {
            return Err(JarFull(format!(
                "cookie {:?} of {} bytes exceeds the {MAX_COOKIE_BYTES}-byte limit",
                String::from_utf8_lossy(&name[..name.len().min(40)]),
                name.len() + value.len()
            )));
        }
        let expired = attrs.any(|a| {
            let a = a.trim_ascii();
            a.len() >= 8 && a[..8].eq_ignore_ascii_case(b"max-age=") && a[8..].first().is_some_and(|&c| c == b'0' || c == b'-')
        });
        let slot = self.jar.iter().position(|(n, _)| n == name);
        Ok(match (slot, expired) {
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
            (None, false) if self.jar.len() >= MAX_COOKIES => {
                return Err(JarFull(format!("more than {MAX_COOKIES} cookies for one visitor")));
            }
            (None, false) => {
                self.jar.push((name.to_vec(), value.to_vec()));
                true
            }
        })
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
        let template = Template::new("GET", "/s", "h", b"", b"", None).unwrap();
        let mut rng = fastrand::Rng::with_seed(1);
        let mut v = Visitor::new(&template, &mut rng);
        assert!(v.set_cookie(b"sid=abc; Path=/; HttpOnly").unwrap());
        assert!(!v.set_cookie(b"sid=abc").unwrap());
        assert!(v.set_cookie(b"other=1").unwrap());
        v.cookies_changed(&template, &mut rng);
        let mut out = Vec::new();
        v.write_request(&template, &mut out, &mut rng);
        assert!(out.windows(24).any(|w| w == b"Cookie: sid=abc; other=1"));
        assert!(v.set_cookie(b"sid=; Max-Age=0").unwrap());
        assert!(!v.set_cookie(b"garbage").unwrap());
    }

    #[test]
    fn jar_is_bounded() {
        let template = Template::new("GET", "/s", "h", b"", b"", None).unwrap();
        let mut v = Visitor::new(&template, &mut fastrand::Rng::with_seed(1));
        for i in 0..MAX_COOKIES {
            assert!(v.set_cookie(format!("c{i}=1").as_bytes()).unwrap());
        }
        assert!(v.set_cookie(b"one=more").unwrap_err().0.contains("more than 50"));
        assert!(v.set_cookie(b"c0=2").unwrap(), "replacing a cookie still works when the jar is full");
        let big = format!("big={}", "x".repeat(MAX_COOKIE_BYTES));
        assert!(v.set_cookie(big.as_bytes()).unwrap_err().0.contains("4096-byte"));
    }

    #[test]
    fn counter_bodies() {
        assert_eq!(counter_value(b"Count is 12\n"), Some(12));
        assert_eq!(counter_value(b"Count is "), None);
        assert_eq!(counter_value(b"count is 1"), None);
    }
}
