//! HTTP/2 on the client side, sans I/O: requests (written by the visitor as HTTP/1.1, so templates,
//! cookies and bodies stay one code) become HEADERS and DATA frames on streams of their own; bytes
//! received become answers per stream, in whatever order the server finishes them. Settings, pings
//! and flow control are answered here; the caller sends what lands in `out`.

pub mod frame;
mod hpack;

// loona-hpack's encoder indexes our repeated request headers (a request costs a few bytes); its decoder builds
// a Huffman table for every string it decodes (nginx's Huffman-coded headers made that 70 % of the client's
// CPU), so answers are read by our `hpack`, which decodes only what the client checks.
use hpack::{Decoder, Fields};
use loona_hpack::Encoder;

use frame::Header;

/// The window we give the server, per stream and for the connection: large, so the server's sending is
/// never held up by our flow control, and returned in steps of `WINDOW_STEP` as answers are read.
const WINDOW: u32 = 1 << 30;
const WINDOW_STEP: u32 = 1 << 20;
/// Headers of one HTTP/1.1 request as the visitor writes it (a few, plus the user's -H).
const MAX_REQUEST_HEADERS: usize = 64;

/// A finished stream.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Answer {
    pub stream: u32,
    pub status: u16,
    /// Empty unless the client keeps bodies (to check them).
    pub body: Vec<u8>,
    pub cookies: Vec<Vec<u8>>,
    /// Its content type's and grpc-status's word (trailers or a trailers-only answer).
    pub grpc: crate::grpc::End,
}

#[derive(Debug, PartialEq, Eq)]
pub enum Event {
    Answer(Answer),
    /// The server reset the stream: it has no answer.
    Reset(u32),
    /// The server will take no new streams; those above this id were not processed.
    GoAway(u32),
}

struct Stream {
    answer: Answer,
    /// The final (non-1xx) status has come.
    final_headers: bool,
}

/// A header block split over HEADERS and CONTINUATION frames.
struct Block {
    stream: u32,
    end_stream: bool,
    bytes: Vec<u8>,
}

pub struct Client {
    encoder: Encoder<'static>,
    decoder: Decoder,
    scheme: &'static [u8],
    next_stream: u32,
    /// The server's SETTINGS_MAX_CONCURRENT_STREAMS.
    pub max_streams: u32,
    max_frame: usize,
    keep_bodies: bool,
    streams: Vec<Stream>,
    block: Option<Block>,
    /// Received bytes that do not make a whole frame yet.
    pending: Vec<u8>,
    /// DATA received since the connection's window was last given back.
    unacked: u32,
    /// A GOAWAY came: no new streams.
    pub going_away: bool,
    lowered: Vec<u8>,
}

impl Client {
    /// A connection's client; its preface and settings are written to `out` at once (with prior knowledge
    /// or after ALPN, the client speaks first and may send requests right behind them).
    pub fn new(tls: bool, keep_bodies: bool, out: &mut Vec<u8>) -> Client {
        out.extend_from_slice(frame::PREFACE);
        frame::write_settings(out, &[(frame::SETTINGS_ENABLE_PUSH, 0), (frame::SETTINGS_INITIAL_WINDOW_SIZE, WINDOW)]);
        frame::write_window_update(out, 0, WINDOW - frame::DEFAULT_WINDOW);
        Client {
            encoder: Encoder::new(),
            decoder: Decoder::default(),
            scheme: if tls { b"https" } else { b"http" },
            next_stream: 1,
            max_streams: u32::MAX,
            max_frame: frame::DEFAULT_MAX_FRAME,
            keep_bodies,
            streams: Vec::new(),
            block: None,
            pending: Vec::new(),
            unacked: 0,
            going_away: false,
            lowered: Vec::new(),
        }
    }

    pub fn open_streams(&self) -> usize {
        self.streams.len()
    }

    /// Sends an HTTP/1.1 request (as the visitor wrote it) on a new stream; returns the stream's id.
    pub fn request(&mut self, http1: &[u8], out: &mut Vec<u8>) -> Result<u32, String> {
        let mut headers = [httparse::EMPTY_HEADER; MAX_REQUEST_HEADERS];
        let mut request = httparse::Request::new(&mut headers);
        let body_at = match request.parse(http1) {
            Ok(httparse::Status::Complete(n)) => n,
            _ => return Err("a request the visitor wrote does not parse".into()),
        };
        let body = &http1[body_at..];
        let stream = self.next_stream;
        self.next_stream += 2;
        let start = out.len();
        frame::write_header(out, 0, frame::HEADERS, frame::END_HEADERS, stream);
        let block_at = out.len();
        let authority = request.headers.iter().find(|h| h.name.eq_ignore_ascii_case("host")).map_or(&b""[..], |h| h.value);
        let pseudo: [(&[u8], &[u8]); 4] = [
            (b":method", request.method.unwrap_or("GET").as_bytes()),
            (b":scheme", self.scheme),
            (b":authority", authority),
            (b":path", request.path.unwrap_or("/").as_bytes()),
        ];
        for header in pseudo {
            let _ = self.encoder.encode_header_into(header, out);
        }
        for h in request.headers.iter() {
            // Connection-specific headers have no place in HTTP/2 (RFC 9113 section 8.2.2).
            let name = h.name.as_bytes();
            if ["host", "connection", "keep-alive", "transfer-encoding", "upgrade"].iter().any(|n| h.name.eq_ignore_ascii_case(n)) {
                continue;
            }
            self.lowered.clear();
            self.lowered.extend(name.iter().map(u8::to_ascii_lowercase));
            let _ = self.encoder.encode_header_into((&self.lowered, h.value), out);
        }
        let length = out.len() - block_at;
        if length > self.max_frame || body.len() > frame::DEFAULT_WINDOW as usize {
            out.truncate(start);
            return Err(format!("a request of {length} bytes of headers and {} of body is more than one frame", body.len()));
        }
        out[start..start + 3].copy_from_slice(&(length as u32).to_be_bytes()[1..]);
        if body.is_empty() {
            out[start + 4] |= frame::END_STREAM;
        } else {
            for (i, chunk) in body.chunks(self.max_frame).enumerate() {
                let last = (i + 1) * self.max_frame >= body.len();
                frame::write_header(out, chunk.len(), frame::DATA, if last { frame::END_STREAM } else { 0 }, stream);
                out.extend_from_slice(chunk);
            }
        }
        self.streams.push(Stream { answer: Answer { stream, ..Answer::default() }, final_headers: false });
        Ok(stream)
    }

    /// Bytes from the server: finished streams land in `events`, what the protocol answers in `out`.
    /// An error is the connection's (a protocol error or bytes that are not HTTP/2).
    pub fn receive(&mut self, data: &[u8], out: &mut Vec<u8>, events: &mut Vec<Event>) -> Result<(), String> {
        if self.pending.is_empty() {
            let used = self.frames(data, out, events)?;
            self.pending.extend_from_slice(&data[used..]);
        } else {
            let mut pending = std::mem::take(&mut self.pending);
            pending.extend_from_slice(data);
            let used = self.frames(&pending, out, events)?;
            pending.drain(..used);
            self.pending = pending;
        }
        if self.unacked >= WINDOW_STEP {
            frame::write_window_update(out, 0, std::mem::take(&mut self.unacked));
        }
        Ok(())
    }

    /// Handles the whole frames at the start of `input`; returns the bytes they took.
    fn frames(&mut self, input: &[u8], out: &mut Vec<u8>, events: &mut Vec<Event>) -> Result<usize, String> {
        let mut at = 0;
        while let Some(header) = Header::parse(&input[at..]) {
            if header.length > frame::DEFAULT_MAX_FRAME {
                return Err(format!("a frame of {} bytes, above our SETTINGS_MAX_FRAME_SIZE", header.length));
            }
            let end = at + frame::HEADER_LEN + header.length;
            if end > input.len() {
                break;
            }
            self.frame(header, &input[at + frame::HEADER_LEN..end], out, events)?;
            at = end;
        }
        Ok(at)
    }

    fn frame(&mut self, header: Header, payload: &[u8], out: &mut Vec<u8>, events: &mut Vec<Event>) -> Result<(), String> {
        if self.block.is_some() && header.kind != frame::CONTINUATION {
            return Err("a header block was interrupted by another frame".into());
        }
        match header.kind {
            frame::DATA => {
                self.unacked = self.unacked.saturating_add(header.length as u32);
                let data = frame::unpadded(payload, header.flags, 0).ok_or("a DATA frame's padding is longer than it")?;
                let keep = self.keep_bodies;
                let stream = self.stream(header.stream)?;
                if keep {
                    stream.answer.body.extend_from_slice(data);
                }
                if header.flags & frame::END_STREAM != 0 {
                    self.finish(header.stream, events);
                }
            }
            frame::HEADERS => {
                let priority = if header.flags & frame::PRIORITY != 0 { 5 } else { 0 };
                let block = frame::unpadded(payload, header.flags, priority).ok_or("a HEADERS frame's padding is longer than it")?;
                let end_stream = header.flags & frame::END_STREAM != 0;
                if header.flags & frame::END_HEADERS != 0 {
                    self.headers(header.stream, block, end_stream, events)?;
                } else {
                    self.block = Some(Block { stream: header.stream, end_stream, bytes: block.to_vec() });
                }
            }
            frame::CONTINUATION => {
                let Some(mut block) = self.block.take().filter(|b| b.stream == header.stream) else {
                    return Err("a CONTINUATION frame without the header block it continues".into());
                };
                block.bytes.extend_from_slice(payload);
                if header.flags & frame::END_HEADERS != 0 {
                    self.headers(block.stream, &block.bytes, block.end_stream, events)?;
                } else {
                    self.block = Some(block);
                }
            }
            frame::RST_STREAM => {
                if let Some(i) = self.streams.iter().position(|s| s.answer.stream == header.stream) {
                    self.streams.swap_remove(i);
                    events.push(Event::Reset(header.stream));
                }
            }
            frame::SETTINGS if header.flags & frame::ACK == 0 => {
                for setting in payload.chunks_exact(6) {
                    let value = u32::from_be_bytes([setting[2], setting[3], setting[4], setting[5]]);
                    match u16::from_be_bytes([setting[0], setting[1]]) {
                        frame::SETTINGS_MAX_CONCURRENT_STREAMS => self.max_streams = value,
                        frame::SETTINGS_MAX_FRAME_SIZE => self.max_frame = value as usize,
                        frame::SETTINGS_HEADER_TABLE_SIZE => self.encoder.set_max_table_size(value as usize),
                        _ => {}
                    }
                }
                frame::write_header(out, 0, frame::SETTINGS, frame::ACK, 0);
            }
            frame::PING if header.flags & frame::ACK == 0 => {
                frame::write_header(out, payload.len(), frame::PING, frame::ACK, 0);
                out.extend_from_slice(payload);
            }
            frame::GOAWAY => {
                let last = payload.get(..4).ok_or("a GOAWAY frame without its last stream id")?;
                self.going_away = true;
                events.push(Event::GoAway(u32::from_be_bytes([last[0], last[1], last[2], last[3]]) & 0x7fff_ffff));
            }
            frame::PUSH_PROMISE => return Err("a PUSH_PROMISE although push was disabled".into()),
            _ => {} // PRIORITY, WINDOW_UPDATE (our requests fit the first window), acks, unknown types
        }
        Ok(())
    }

    fn stream(&mut self, id: u32) -> Result<&mut Stream, String> {
        self.streams.iter_mut().find(|s| s.answer.stream == id).ok_or_else(|| format!("a frame on stream {id}, which is not open"))
    }

    fn headers(&mut self, id: u32, block: &[u8], end_stream: bool, events: &mut Vec<Event>) -> Result<(), String> {
        let Fields { status, cookies, grpc_type, grpc_status } =
            self.decoder.decode(block).map_err(|e| format!("a header block does not decode: {e}"))?;
        let stream = self.stream(id)?;
        if grpc_status.is_some() {
            stream.answer.grpc.status = grpc_status;
        }
        if !stream.final_headers {
            // A HEADERS frame that is not trailers must say its status.
            let status = status.ok_or_else(|| format!("the headers of stream {id} have no :status"))?;
            if status / 100 == 1 {
                return Ok(()); // informational: the answer is still to come
            }
            stream.final_headers = true;
            stream.answer.status = status;
            stream.answer.cookies = cookies;
            stream.answer.grpc.grpc_type = grpc_type;
        }
        if end_stream {
            self.finish(id, events);
        }
        Ok(())
    }

    fn finish(&mut self, id: u32, events: &mut Vec<Event>) {
        if let Some(i) = self.streams.iter().position(|s| s.answer.stream == id) {
            events.push(Event::Answer(self.streams.swap_remove(i).answer));
        }
    }
}

#[cfg(test)]
mod tests;
