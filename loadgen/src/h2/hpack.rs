//! HPACK (RFC 7541) decoding of a server's header blocks for what the client checks: the status, the
//! set-cookie values, and gRPC's content type and grpc-status. Every representation is parsed and the dynamic table kept as the RFC says, but a value
//! that is neither of those two and goes into no table is skipped without being Huffman-decoded or copied, and
//! one that goes into the table is only measured (see `Lengths`).
//! Decoding every field with a buffer per name and per value (httlib-hpack's decoder) took 8 % of the
//! client's CPU in Huffman decoding alone against nginx at 10 streams per connection (perf, 2026-11-27).

use httlib_huffman::DecoderSpeed;

/// The static table's names (RFC 7541 appendix A), index 1 first: the sizes of dynamic entries that take
/// one of them need its length.
const STATIC_NAMES: [&[u8]; 61] = [
    b":authority", b":method", b":method", b":path", b":path", b":scheme", b":scheme", b":status",
    b":status", b":status", b":status", b":status", b":status", b":status", b"accept-charset",
    b"accept-encoding", b"accept-language", b"accept-ranges", b"accept", b"access-control-allow-origin",
    b"age", b"allow", b"authorization", b"cache-control", b"content-disposition", b"content-encoding",
    b"content-language", b"content-length", b"content-location", b"content-range", b"content-type",
    b"cookie", b"date", b"etag", b"expect", b"expires", b"from", b"host", b"if-match", b"if-modified-since",
    b"if-none-match", b"if-range", b"if-unmodified-since", b"last-modified", b"link", b"location",
    b"max-forwards", b"proxy-authenticate", b"proxy-authorization", b"range", b"referer", b"refresh",
    b"retry-after", b"server", b"set-cookie", b"strict-transport-security", b"transfer-encoding",
    b"user-agent", b"vary", b"via", b"www-authenticate",
];
/// The statuses of static entries 8 to 14.
const STATIC_STATUSES: [u16; 7] = [200, 204, 206, 304, 400, 404, 500];
const STATUS: usize = 8;
const SET_COOKIE: usize = 55;
const CONTENT_TYPE: usize = 31;
/// SETTINGS_HEADER_TABLE_SIZE: the client never changes the default.
const TABLE_SIZE: usize = 4096;
/// Bytes an entry counts beyond its name and value (RFC 7541 section 4.1).
const ENTRY_OVERHEAD: usize = 32;

/// What a header block says that the client checks.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Fields {
    pub status: Option<u16>,
    pub cookies: Vec<Vec<u8>>,
    /// Content-Type is application/grpc (or application/grpc+...).
    pub grpc_type: bool,
    /// grpc-status (u32::MAX for a value that is not a number).
    pub grpc_status: Option<u32>,
}

/// The field a name stands for, as far as the client cares.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Status,
    SetCookie,
    ContentType,
    GrpcStatus,
    Other,
}

impl Kind {
    fn of(name: &[u8]) -> Kind {
        match name {
            b":status" => Kind::Status,
            b"set-cookie" => Kind::SetCookie,
            b"content-type" => Kind::ContentType,
            b"grpc-status" => Kind::GrpcStatus,
            _ => Kind::Other,
        }
    }
}

struct Entry {
    kind: Kind,
    name_len: usize,
    /// Only a status or a cookie keeps its value; the others are only counted in `size`.
    value: Vec<u8>,
    size: usize,
}

/// What the decoder needs of a string literal.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Want {
    Nothing,
    /// Its decoded length only: a value added to the table that the client does not check.
    Length,
    Bytes,
}

/// The decoded lengths of the Huffman-coded strings seen last, by their coded bytes. Servers repeat their
/// values: nginx adds its server, date, type and length to the table in every answer. Decoding them only to
/// learn their lengths was 10 % of the client's CPU against it at 10 streams per connection (perf, 2026-11-27).
#[derive(Default)]
struct Lengths {
    /// Newest first: the oldest goes when a new one comes and KEPT are held.
    seen: std::collections::VecDeque<(Vec<u8>, usize)>,
}

impl Lengths {
    /// Enough for one answer's fields and the date of the second before.
    const KEPT: usize = 8;

    fn get(&self, coded: &[u8]) -> Option<usize> {
        self.seen.iter().find(|(bytes, _)| bytes == coded).map(|&(_, decoded)| decoded)
    }

    fn put(&mut self, coded: &[u8], decoded: usize) {
        self.seen.truncate(Self::KEPT - 1);
        self.seen.push_front((coded.to_vec(), decoded));
    }
}

pub struct Decoder {
    /// Newest first: index 62 is `table[0]`.
    table: std::collections::VecDeque<Entry>,
    size: usize,
    max_size: usize,
    string: Vec<u8>,
    lengths: Lengths,
}

impl Default for Decoder {
    fn default() -> Self {
        Decoder { table: Default::default(), size: 0, max_size: TABLE_SIZE, string: Vec::new(), lengths: Lengths::default() }
    }
}

impl Decoder {
    pub fn decode(&mut self, mut block: &[u8]) -> Result<Fields, String> {
        let mut fields = Fields::default();
        while let Some(&first) = block.first() {
            if first & 0x80 != 0 {
                let index = integer(&mut block, 7)?;
                self.indexed(index, &mut fields)?;
            } else if first & 0xc0 == 0x40 {
                self.literal(&mut block, 6, true, &mut fields)?;
            } else if first & 0xe0 == 0x20 {
                let size = integer(&mut block, 5)?;
                if size > TABLE_SIZE {
                    return Err(format!("a dynamic table size update to {size}, above the {TABLE_SIZE} we allow"));
                }
                self.max_size = size;
                self.evict(0);
            } else {
                self.literal(&mut block, 4, false, &mut fields)?;
            }
        }
        Ok(fields)
    }

    fn indexed(&self, index: usize, fields: &mut Fields) -> Result<(), String> {
        match index {
            0 => Err("an indexed header field of index 0".into()),
            STATUS..=14 => {
                fields.status = Some(STATIC_STATUSES[index - STATUS]);
                Ok(())
            }
            SET_COOKIE => keep(Kind::SetCookie, b"", fields), // the static entry's value is empty
            CONTENT_TYPE => keep(Kind::ContentType, b"", fields),
            1..=61 => Ok(()),
            _ => {
                let entry = self.table.get(index - 62).ok_or_else(|| format!("header table index {index} is out of range"))?;
                keep(entry.kind, &entry.value, fields)
            }
        }
    }

    /// A literal field; `indexing` adds it to the dynamic table.
    fn literal(&mut self, block: &mut &[u8], prefix: u8, indexing: bool, fields: &mut Fields) -> Result<(), String> {
        let index = integer(block, prefix)?;
        let (kind, name_len) = match index {
            0 => {
                let name_len = self.string(block, Want::Bytes)?;
                (Kind::of(&self.string), name_len)
            }
            1..=61 => {
                let kind = match index {
                    STATUS..=14 => Kind::Status,
                    SET_COOKIE => Kind::SetCookie,
                    CONTENT_TYPE => Kind::ContentType,
                    _ => Kind::Other,
                };
                (kind, STATIC_NAMES[index - 1].len())
            }
            _ => {
                let entry = self.table.get(index - 62).ok_or_else(|| format!("header table index {index} is out of range"))?;
                (entry.kind, entry.name_len)
            }
        };
        // A value goes into the table by its decoded length, so one added must be measured even if unread.
        let wanted = kind != Kind::Other;
        let want = if wanted { Want::Bytes } else if indexing { Want::Length } else { Want::Nothing };
        let value_len = self.string(block, want)?;
        if wanted {
            keep(kind, &self.string, fields)?;
        }
        if indexing {
            let value = if wanted { self.string.clone() } else { Vec::new() };
            self.insert(Entry { kind, name_len, value, size: name_len + value_len + ENTRY_OVERHEAD });
        }
        Ok(())
    }

    /// The next string literal's decoded length, its bytes in `self.string` when `want` is Bytes.
    fn string(&mut self, block: &mut &[u8], want: Want) -> Result<usize, String> {
        let huffman = block.first().is_some_and(|b| b & 0x80 != 0);
        let length = integer(block, 7)?;
        let bytes = block.get(..length).ok_or("a header block ends inside a string")?;
        *block = &block[length..];
        self.string.clear();
        match want {
            Want::Nothing => Ok(0),
            _ if !huffman => {
                if want == Want::Bytes {
                    self.string.extend_from_slice(bytes);
                }
                Ok(length)
            }
            Want::Length => {
                if let Some(decoded) = self.lengths.get(bytes) {
                    return Ok(decoded);
                }
                let decoded = huffman_decode(bytes, &mut self.string)?;
                self.lengths.put(bytes, decoded);
                Ok(decoded)
            }
            Want::Bytes => huffman_decode(bytes, &mut self.string),
        }
    }

    fn insert(&mut self, entry: Entry) {
        if entry.size > self.max_size {
            self.evict(self.max_size); // an entry larger than the table empties it (section 4.4)
            return;
        }
        self.evict(entry.size);
        self.size += entry.size;
        self.table.push_front(entry);
    }

    /// Drops the oldest entries until `room` more bytes fit.
    fn evict(&mut self, room: usize) {
        while self.size + room > self.max_size {
            match self.table.pop_back() {
                Some(old) => self.size -= old.size,
                None => break,
            }
        }
    }
}

fn huffman_decode(bytes: &[u8], into: &mut Vec<u8>) -> Result<usize, String> {
    httlib_huffman::decode(bytes, into, DecoderSpeed::FiveBits)
        .map_err(|e| format!("a Huffman-coded header string does not decode: {e:?}"))?;
    Ok(into.len())
}

fn keep(kind: Kind, value: &[u8], fields: &mut Fields) -> Result<(), String> {
    match kind {
        Kind::Status => {
            let status = std::str::from_utf8(value).ok().and_then(|s| s.parse::<u16>().ok());
            fields.status = Some(status.ok_or_else(|| format!("a :status of {:?}", String::from_utf8_lossy(value)))?);
        }
        Kind::SetCookie => fields.cookies.push(value.to_vec()),
        Kind::ContentType => {
            fields.grpc_type = value == b"application/grpc" || value.starts_with(b"application/grpc+");
        }
        Kind::GrpcStatus => {
            fields.grpc_status = Some(std::str::from_utf8(value).ok().and_then(|s| s.parse().ok()).unwrap_or(u32::MAX));
        }
        Kind::Other => {}
    }
    Ok(())
}

/// An integer with an N-bit prefix (RFC 7541 section 5.1), taken off the front of `block`.
fn integer(block: &mut &[u8], prefix: u8) -> Result<usize, String> {
    let truncated = || "a header block ends inside an integer".to_string();
    let (&first, mut rest) = block.split_first().ok_or_else(truncated)?;
    let max = (1usize << prefix) - 1;
    let mut value = first as usize & max;
    if value == max {
        let mut shift = 0;
        loop {
            let (&byte, tail) = rest.split_first().ok_or_else(truncated)?;
            rest = tail;
            if shift > 28 {
                return Err("a header block integer above 2^32".into());
            }
            value += ((byte & 0x7f) as usize) << shift;
            shift += 7;
            if byte & 0x80 == 0 {
                break;
            }
        }
    }
    *block = rest;
    Ok(value)
}

#[cfg(test)]
mod tests;
