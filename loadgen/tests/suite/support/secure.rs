//! Test servers for TLS and HTTP/2: rustls on the server side with the fixtures' certificate, and a small
//! HTTP/2 server (its own framing, loona-hpack for headers) whose answers each test chooses per path.

use std::io::{ErrorKind, Read, Write};
use std::sync::Arc;
use std::time::{Duration, Instant};

use loona_hpack::{Decoder, Encoder};
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer};
use rustls::{ServerConfig, ServerConnection, StreamOwned};
use shootout_load::h2::frame;
use shootout_load::ws;

use super::{threaded, Peer, Server};

pub const CA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/ca.pem");

/// A server configuration offering these ALPN protocols (none: the server ignores ALPN).
pub fn config(alpn: &[&[u8]]) -> Arc<ServerConfig> {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures");
    let certs = CertificateDer::pem_file_iter(format!("{dir}/server.pem")).unwrap().map(Result::unwrap).collect();
    let key = PrivateKeyDer::from_pem_file(format!("{dir}/server.key")).unwrap();
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let mut config = ServerConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .unwrap()
        .with_no_client_auth()
        .with_single_cert(certs, key)
        .unwrap();
    config.alpn_protocols = alpn.iter().map(|p| p.to_vec()).collect();
    Arc::new(config)
}

/// What a test's server answers on one stream: a status and body after a delay; status 0 resets the stream.
pub type Answer = (u16, Vec<u8>, Duration);

/// Either the plain TCP stream or TLS over it.
pub enum Wire {
    Plain(Peer),
    Tls(Box<StreamOwned<ServerConnection, std::net::TcpStream>>, Peer),
}

impl Wire {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        match self {
            Wire::Plain(peer) => peer.stream.read(buf),
            Wire::Tls(tls, _) => tls.read(buf),
        }
    }

    fn write(&mut self, bytes: &[u8]) -> bool {
        match self {
            Wire::Plain(peer) => peer.stream.write_all(bytes).is_ok(),
            Wire::Tls(tls, _) => tls.write_all(bytes).and_then(|()| tls.flush()).is_ok(),
        }
    }

    /// Reads what has come into `buffer` (nothing within the read timeout is fine); false once the client left.
    fn fill(&mut self, buffer: &mut Vec<u8>) -> bool {
        let mut chunk = [0u8; 16 * 1024];
        match self.read(&mut chunk) {
            Ok(0) => false,
            Ok(n) => {
                buffer.extend_from_slice(&chunk[..n]);
                true
            }
            Err(e) => matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut | ErrorKind::Interrupted),
        }
    }

    fn stopping(&self) -> bool {
        match self {
            Wire::Plain(peer) | Wire::Tls(_, peer) => peer.stopping(),
        }
    }
}

fn secured(peer: Peer, tls: Option<&Arc<ServerConfig>>) -> Option<Wire> {
    let Some(config) = tls else { return Some(Wire::Plain(peer)) };
    let stream = peer.stream.try_clone().ok()?;
    let session = ServerConnection::new(Arc::clone(config)).ok()?;
    Some(Wire::Tls(Box::new(StreamOwned::new(session, stream)), peer))
}

/// HTTP/1.1 (over TLS when `tls` is given): every request head is answered with `answer(path)`.
pub fn http1(tls: Option<Arc<ServerConfig>>, answer: impl Fn(&str) -> Answer + Send + Sync + 'static) -> Server {
    threaded(move |peer| {
        let Some(mut wire) = secured(peer, tls.as_ref()) else { return };
        let mut buffer = Vec::new();
        while !wire.stopping() {
            if let Some(end) = buffer.windows(4).position(|w| w == b"\r\n\r\n") {
                let head = String::from_utf8_lossy(&buffer[..end]).into_owned();
                buffer.drain(..end + 4);
                let path = head.split(' ').nth(1).unwrap_or("/").to_string();
                let (status, body, _) = answer(&path);
                let mut response = format!("HTTP/1.1 {status} X\r\nContent-Length: {}\r\n\r\n", body.len()).into_bytes();
                response.extend_from_slice(&body);
                if !wire.write(&response) {
                    return;
                }
                continue;
            }
            if !wire.fill(&mut buffer) {
                return;
            }
        }
    })
}

/// WebSocket (over TLS when `tls` is given): the upgrade is answered with 101 and a ping, every text
/// message is echoed, and the pongs that come back are counted in `pongs`.
pub fn websocket(tls: Option<Arc<ServerConfig>>, pongs: Arc<std::sync::atomic::AtomicUsize>) -> Server {
    threaded(move |peer| {
        let Some(mut wire) = secured(peer, tls.as_ref()) else { return };
        let (mut buffer, mut upgraded) = (Vec::new(), false);
        while !wire.stopping() {
            if let Some(end) = buffer.windows(4).position(|w| w == b"\r\n\r\n").filter(|_| !upgraded) {
                buffer.drain(..end + 4);
                upgraded = wire.write(b"HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n\x89\x00");
                continue;
            }
            if let Some(frame) = ws::parse_frame(&buffer).unwrap().filter(|_| upgraded) {
                let mut payload = Vec::new();
                ws::append_payload(&buffer, &frame, &mut payload).unwrap();
                buffer.drain(..frame.consumed);
                match frame.opcode {
                    ws::OP_PONG => drop(pongs.fetch_add(1, std::sync::atomic::Ordering::SeqCst)),
                    ws::OP_TEXT if !wire.write(&[&[0x81, payload.len() as u8][..], &payload].concat()) => return,
                    _ => {}
                }
                continue;
            }
            if !wire.fill(&mut buffer) {
                return;
            }
        }
    })
}

/// HTTP/2 with prior knowledge, or over TLS when `tls` is given: each stream is answered with
/// `answer(path)` once its delay has passed, so a slow stream does not hold up the others.
pub fn http2(tls: Option<Arc<ServerConfig>>, answer: impl Fn(&str) -> Answer + Send + Sync + 'static) -> Server {
    threaded(move |peer| {
        peer.stream.set_read_timeout(Some(Duration::from_millis(2))).unwrap();
        let Some(mut wire) = secured(peer, tls.as_ref()) else { return };
        let mut out = Vec::new();
        frame::write_settings(&mut out, &[(frame::SETTINGS_MAX_CONCURRENT_STREAMS, 100)]);
        if !wire.write(&out) {
            return;
        }
        let (mut decoder, mut encoder) = (Decoder::new(), Encoder::new());
        let mut buffer = Vec::new();
        let mut due: Vec<(Instant, u32, u16, Vec<u8>)> = Vec::new();
        let mut preface = false;
        while !wire.stopping() {
            if !preface && buffer.len() >= frame::PREFACE.len() {
                assert_eq!(&buffer[..frame::PREFACE.len()], frame::PREFACE, "the client's preface");
                buffer.drain(..frame::PREFACE.len());
                preface = true;
            }
            while let Some(header) = frame::Header::parse(&buffer).filter(|h| preface && buffer.len() >= 9 + h.length) {
                let payload: Vec<u8> = buffer.drain(..9 + header.length).skip(9).collect();
                if header.kind == frame::SETTINGS && header.flags & frame::ACK == 0 {
                    let mut ack = Vec::new();
                    frame::write_header(&mut ack, 0, frame::SETTINGS, frame::ACK, 0);
                    wire.write(&ack);
                }
                if header.kind == frame::HEADERS {
                    let block = frame::unpadded(&payload, header.flags, if header.flags & frame::PRIORITY != 0 { 5 } else { 0 }).unwrap();
                    let headers = decoder.decode(block).expect("the client's header block decodes");
                    let path = headers.iter().find(|(n, _)| n == b":path").map(|(_, v)| String::from_utf8_lossy(v).into_owned());
                    let (status, body, delay) = answer(&path.unwrap_or_default());
                    due.push((Instant::now() + delay, header.stream, status, body));
                }
            }
            let now = Instant::now();
            let mut out = Vec::new();
            due.retain(|(at, stream, status, body)| {
                if *at > now {
                    return true;
                }
                if *status == 0 {
                    frame::write_header(&mut out, 4, frame::RST_STREAM, 0, *stream);
                    out.extend_from_slice(&8u32.to_be_bytes()); // CANCEL
                    return false;
                }
                let block = encoder.encode([(&b":status"[..], status.to_string().as_bytes())]);
                frame::write_header(&mut out, block.len(), frame::HEADERS, frame::END_HEADERS, *stream);
                out.extend_from_slice(&block);
                frame::write_header(&mut out, body.len(), frame::DATA, frame::END_STREAM, *stream);
                out.extend_from_slice(body);
                false
            });
            if !out.is_empty() && !wire.write(&out) {
                return;
            }
            if !wire.fill(&mut buffer) {
                return;
            }
        }
    })
}
