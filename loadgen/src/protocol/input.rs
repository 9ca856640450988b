//! What a protocol reads from, and what it hands the worker: one `Unit` at a time, borrowed from the bytes
//! read (or from the protocol), so that the worker checks and records an answer before the next is parsed
//! and nothing is copied on the way.

use crate::stats::ErrorKind;

/// The bytes of one read: what the last read left unparsed, then the new ones (parsed where they lie when
/// nothing was left, so whole answers in one read are never copied).
pub struct Input<'d> {
    kept: Vec<u8>,
    data: &'d [u8],
    /// Bytes parsed so far.
    pub(super) at: usize,
    /// The server has closed its side: what is here is all there will be.
    pub eof: bool,
}

impl<'d> Input<'d> {
    pub(super) fn new(mut kept: Vec<u8>, data: &'d [u8], eof: bool) -> Self {
        if kept.is_empty() {
            return Input { kept, data, at: 0, eof };
        }
        kept.extend_from_slice(data);
        Input { kept, data: &[], at: 0, eof }
    }

    pub(super) fn bytes(&self) -> &[u8] {
        if self.kept.is_empty() {
            self.data
        } else {
            &self.kept
        }
    }

    /// What was not parsed, for the next read.
    pub(super) fn into_rest(self) -> Vec<u8> {
        let mut kept = self.kept;
        if kept.is_empty() {
            kept.extend_from_slice(&self.data[self.at..]);
        } else {
            kept.drain(..self.at);
        }
        kept
    }
}

/// What a protocol found next.
pub enum Unit<'a> {
    /// Nothing whole is left: the rest waits for the next read.
    More,
    Answer(Answer<'a>),
    /// WebSocket: a whole message came back.
    Echo(&'a [u8]),
    /// WebSocket: the server took the upgrade; the connection takes requests now.
    Upgraded,
    /// HTTP/2: the server reset the stream; its request has no answer.
    Reset(u32),
    /// HTTP/2: the server takes no new streams, and did not process those above this one.
    GoAway(u32),
    /// The server ended the connection: cleanly unless requests wait for answers.
    End,
    /// The connection cannot go on: an error of this kind.
    Close(ErrorKind),
    /// HTTP/2: the server broke the protocol (a parse error, named once per thread).
    Broken(String),
}

/// An answer to the request on `stream` (0 over HTTP/1.1, whose answers come in order).
pub struct Answer<'a> {
    pub stream: u32,
    pub status: u16,
    pub body: &'a [u8],
    pub cookies: Cookies<'a>,
    /// The server closes the connection after it.
    pub close: bool,
    /// Its Content-Encoding (empty: none).
    pub encoding: &'a [u8],
    /// Its Location (empty: none; read over HTTP/1.1 only, for --mix).
    pub location: &'a [u8],
    /// How a gRPC answer ended (HTTP/2 only; the default over HTTP/1.1).
    pub grpc: crate::grpc::End,
}

/// The values of an answer's Set-Cookie headers.
pub enum Cookies<'a> {
    /// HTTP/1.1: ranges of the response's bytes.
    In(&'a [u8], Vec<(usize, usize)>),
    /// HTTP/2: decoded from the header block.
    Values(&'a [Vec<u8>]),
}

impl Cookies<'_> {
    pub fn iter(&self) -> impl Iterator<Item = &[u8]> {
        (0..).map_while(move |i| match self {
            Cookies::In(bytes, ranges) => ranges.get(i).map(|&(start, end)| &bytes[start..end]),
            Cookies::Values(values) => values.get(i).map(Vec::as_slice),
        })
    }
}
