//! The target URL and the extra request headers, as the flags give them.

pub struct Url {
    /// https:// or wss://.
    pub secure: bool,
    pub host: String,
    pub port: u16,
    pub path: String,
}

pub fn parse(url: &str, websocket: bool) -> Result<Url, String> {
    let (scheme, rest) = url.split_once("://").ok_or_else(|| format!("URL {url:?} has no scheme (http://...)"))?;
    let allowed: &[&str] = if websocket { &["ws", "wss", "http", "https"] } else { &["http", "https"] };
    if !allowed.contains(&scheme) {
        return Err(format!("URL {url:?}: scheme {scheme:?} is not supported (use {})", allowed.join(" or ")));
    }
    let secure = matches!(scheme, "https" | "wss");
    let (authority, path) = match rest.find('/') {
        Some(i) => (&rest[..i], &rest[i..]),
        None => (rest, "/"),
    };
    let (host, port) = match authority.rsplit_once(':') {
        Some((h, p)) if !p.contains(']') => {
            (h, p.parse::<u16>().map_err(|_| format!("URL {url:?}: bad port {p:?}"))?)
        }
        _ => (authority, if secure { 443 } else { 80 }),
    };
    if host.is_empty() {
        return Err(format!("URL {url:?} has no host"));
    }
    Ok(Url { secure, host: host.to_string(), port, path: path.to_string() })
}

pub fn header_lines(headers: &[String]) -> Result<Vec<u8>, String> {
    let mut out = Vec::new();
    for header in headers {
        let (name, value) = header.split_once(':').ok_or_else(|| format!("--header {header:?}: expected \"Name: value\""))?;
        let name = name.trim();
        if name.is_empty() || name.bytes().any(|b| !b.is_ascii_graphic()) || value.contains(['\r', '\n']) {
            return Err(format!("--header {header:?}: not a valid header"));
        }
        out.extend_from_slice(format!("{name}: {}\r\n", value.trim()).as_bytes());
    }
    Ok(out)
}
