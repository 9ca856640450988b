//! The transport between the socket and the protocol: started after the TCP connect (a TLS handshake
//! timed, counted and its ALPN checked), then every byte received opened by it before it is parsed. What
//! is sent is sealed in `Worker::flush`.

use std::time::Instant;

use super::{Driver, Worker};
use crate::conn::State;
use crate::stats::ErrorKind;
use crate::tls;
use crate::transport::Broken;

impl<D: Driver> Worker<D> {
    /// The TCP connection is up: TLS sends the client's hello, plain TCP is ready for the protocol.
    pub(super) fn start_transport(&mut self, idx: usize, now: Instant) {
        match self.conns[idx].transport.start(self.config.tls.as_ref()) {
            Ok(false) => {
                self.established(idx, now);
            }
            Ok(true) => {
                let conn = &mut self.conns[idx];
                conn.state = State::Tls;
                conn.since = now;
                self.flush(idx, now);
            }
            Err(e) => {
                eprintln!("shootout-load: cannot start a TLS session: {e}");
                self.close(idx, Some(ErrorKind::Connect), now);
            }
        }
    }

    /// Bytes received on a connection (either path): counted, opened by the transport, then turned into
    /// answers; false once the connection was closed.
    pub(super) fn received(&mut self, idx: usize, mut data: &[u8], now: Instant) -> bool {
        if self.recording(now) {
            self.stats.bytes_read += data.len() as u64;
        }
        let mut plain = std::mem::take(&mut self.plain_in);
        let open = loop {
            // Closed meanwhile: a handshake's end opens the protocol, whose first flush may fail.
            if self.conns[idx].stream.is_none() {
                break false;
            }
            if data.is_empty() {
                break true;
            }
            let opened = match self.conns[idx].transport.open(&mut data, &mut plain) {
                Ok(opened) => opened,
                Err(Broken::Read) => {
                    self.close(idx, Some(ErrorKind::Read), now);
                    break false;
                }
                Err(Broken::Tls(e)) => {
                    self.tls_failed(idx, &e, now);
                    break false;
                }
            };
            if self.conns[idx].state == State::Tls && !opened.handshaking && !self.secured(idx, now) {
                break false;
            }
            if !opened.plain.is_empty() && !self.on_plaintext(idx, opened.plain, false, now) {
                break false;
            }
            if opened.closed {
                self.ended(idx, now);
                break false;
            }
        };
        self.plain_in = plain;
        open
    }

    /// The handshake is done: counted and timed, and the protocol ALPN chose is the one asked for, or the
    /// run fails (a server that does not speak it cannot be measured with it).
    fn secured(&mut self, idx: usize, now: Instant) -> bool {
        let conn = &self.conns[idx];
        let Some(session) = conn.transport.session() else { return false };
        let micros = u64::try_from(now.saturating_duration_since(conn.since).as_micros()).unwrap_or(u64::MAX);
        self.stats.handshakes.done(session, micros);
        let Some(settings) = self.config.tls.as_ref() else { return false };
        let chosen = session.alpn_protocol();
        // A server without ALPN speaks HTTP/1.1; one that cannot speak HTTP/2 must not be measured as if it did.
        if chosen != Some(settings.alpn) && !(chosen.is_none() && settings.alpn == b"http/1.1") {
            self.window.fail(format!(
                "the server at {} did not select {} by ALPN (it selected {}): it does not serve {} over TLS",
                self.config.addr,
                tls::alpn_name(Some(settings.alpn)),
                tls::alpn_name(chosen),
                if self.config.http2 { "HTTP/2" } else { "HTTP/1.1" },
            ));
            self.close(idx, None, now);
            return false;
        }
        self.established(idx, now)
    }

    /// A handshake that failed is a connection that failed to open (`close` counts it so while the state
    /// is `Tls`); a broken session later is a read error.
    fn tls_failed(&mut self, idx: usize, error: &rustls::Error, now: Instant) {
        if let Some(why) = self.config.tls.as_ref().and_then(|s| tls::fatal(error, s, self.config.addr)) {
            self.window.fail(why);
        } else if !std::mem::replace(&mut self.warned, true) {
            eprintln!("shootout-load: TLS with {} failed: {error}", self.config.addr);
        }
        self.close(idx, Some(ErrorKind::Read), now);
    }
}
