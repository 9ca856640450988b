//! A connection's transport, between its socket and its protocol: plain TCP, or TLS (rustls). The
//! protocol writes into `writer` and reads what `open` gives; `seal` makes the socket's bytes of what it
//! wrote. Sans-I/O like rustls: the worker's driver moves the socket's bytes either way.

use std::io::{self, Read, Write};

use rustls::ClientConnection;

use crate::tls;

pub enum Transport {
    /// The protocol's bytes are the socket's.
    Plain,
    Tls(Tls),
}

pub struct Tls {
    /// From the TCP connect to the close.
    session: Option<Box<ClientConnection>>,
    /// What the protocol wrote since the last seal: the requests of a read's answers go out in one record
    /// rather than one each, which cost the server a record and a packet per request.
    staged: Vec<u8>,
}

/// One step of reading the socket's bytes.
pub struct Opened<'a> {
    /// What the protocol receives.
    pub plain: &'a [u8],
    /// TLS: the handshake is not done yet.
    pub handshaking: bool,
    /// TLS: the server ended the session (close_notify); what came before it is in `plain`.
    pub closed: bool,
}

/// Why the bytes read could not be opened.
pub enum Broken {
    Read,
    Tls(rustls::Error),
}

impl Transport {
    pub fn new(tls: bool) -> Self {
        if tls {
            Transport::Tls(Tls { session: None, staged: Vec::new() })
        } else {
            Transport::Plain
        }
    }

    /// The TCP connection is up: true if a handshake has begun (its first bytes wait to be sealed), false if
    /// the protocol may start. A transport made without TLS has no handshake whatever `settings` say.
    pub fn start(&mut self, settings: Option<&tls::Settings>) -> Result<bool, rustls::Error> {
        match (self, settings) {
            (Transport::Tls(tls), Some(settings)) => {
                tls.session = Some(Box::new(settings.connect()?));
                Ok(true)
            }
            _ => Ok(false),
        }
    }

    /// Where the protocol writes, given the bytes waiting for the socket, and how many of those bytes
    /// wait beyond it (TLS: records sealed, not sent yet).
    pub fn writer<'a>(&'a mut self, out: &'a mut Vec<u8>) -> (&'a mut Vec<u8>, usize) {
        match self {
            Transport::Plain => (out, 0),
            Transport::Tls(tls) => (&mut tls.staged, out.len()),
        }
    }

    /// Moves what the protocol wrote into `out`, as the socket must send it (TLS: records, with the
    /// session's own, such as its handshake).
    pub fn seal(&mut self, out: &mut Vec<u8>) -> io::Result<()> {
        let Transport::Tls(Tls { session: Some(session), staged }) = self else { return Ok(()) };
        if !staged.is_empty() {
            session.writer().write_all(staged)?;
            staged.clear();
        }
        while session.wants_write() {
            session.write_tls(out)?;
        }
        Ok(())
    }

    /// Bytes wait that `seal` has not moved yet.
    pub fn unsealed(&self) -> bool {
        match self {
            Transport::Plain => false,
            Transport::Tls(tls) => !tls.staged.is_empty() || tls.session.as_ref().is_some_and(|s| s.wants_write()),
        }
    }

    /// Reads from the start of `data` (and takes what it read off it): the plaintext is `data` itself over
    /// plain TCP, else decrypted into `plain`. Called until `data` is empty.
    pub fn open<'d: 'p, 'p>(&mut self, data: &mut &'d [u8], plain: &'p mut Vec<u8>) -> Result<Opened<'p>, Broken> {
        let session = match self {
            Transport::Plain => return Ok(Opened { plain: std::mem::take(data), handshaking: false, closed: false }),
            Transport::Tls(Tls { session: Some(session), .. }) => session,
            // No session, no connection (the worker reads no closed one): nothing to read.
            Transport::Tls(_) => return Ok(Opened { plain: &std::mem::take(data)[..0], handshaking: false, closed: false }),
        };
        session.read_tls(data).map_err(|_| Broken::Read)?;
        let state = session.process_new_packets().map_err(Broken::Tls)?;
        plain.resize(state.plaintext_bytes_to_read(), 0);
        session.reader().read_exact(plain).map_err(|_| Broken::Read)?;
        Ok(Opened { plain, handshaking: session.is_handshaking(), closed: state.peer_has_closed() })
    }

    /// The TLS session, once the connection has one.
    pub fn session(&self) -> Option<&ClientConnection> {
        match self {
            Transport::Tls(tls) => tls.session.as_deref(),
            Transport::Plain => None,
        }
    }

    pub fn secure(&self) -> bool {
        matches!(self, Transport::Tls(_))
    }

    /// The connection is closed: its session goes, the slot's buffer stays for the next one.
    pub fn close(&mut self) {
        if let Transport::Tls(tls) = self {
            tls.session = None;
            tls.staged.clear();
        }
    }
}
