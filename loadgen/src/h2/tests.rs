//! The client against hand-made frames: what it sends, and what it makes of every frame it can get.

use super::*;

const GET: &[u8] = b"GET /json?x=1 HTTP/1.1\r\nHost: example:8080\r\nCookie: a=b\r\nConnection: close\r\n\r\n";

fn client() -> (Client, Vec<u8>) {
    let mut out = Vec::new();
    let client = Client::new(false, true, &mut out);
    assert!(out.starts_with(frame::PREFACE));
    out.clear();
    (client, out)
}

fn headers_frame(out: &mut Vec<u8>, stream: u32, flags: u8, block: &[u8]) {
    frame::write_header(out, block.len(), frame::HEADERS, flags, stream);
    out.extend_from_slice(block);
}

#[test]
fn a_request_becomes_one_headers_frame_with_pseudo_headers_and_no_connection_headers() {
    let (mut client, mut out) = client();
    assert_eq!(client.request(GET, &mut out).unwrap(), 1);
    assert_eq!(client.request(GET, &mut out).unwrap(), 3);
    let h = frame::Header::parse(&out).unwrap();
    assert_eq!((h.kind, h.flags, h.stream), (frame::HEADERS, frame::END_HEADERS | frame::END_STREAM, 1));
    let decoded = loona_hpack::Decoder::new().decode(&out[9..9 + h.length]).unwrap();
    let names: Vec<&[u8]> = decoded.iter().map(|(n, _)| n.as_slice()).collect();
    assert_eq!(names, [&b":method"[..], b":scheme", b":authority", b":path", b"cookie"]);
    assert_eq!(decoded[2].1, b"example:8080");
    assert_eq!(decoded[3].1, b"/json?x=1");
}

#[test]
fn answers_come_per_stream_through_continuation_padding_and_informational_headers() {
    let (mut client, mut out) = client();
    client.request(GET, &mut out).unwrap();
    client.request(GET, &mut out).unwrap();
    let mut encoder = Encoder::new();
    let mut input = Vec::new();
    // Stream 3 first: a 103, then its headers split over a CONTINUATION, then a padded DATA frame.
    headers_frame(&mut input, 3, frame::END_HEADERS, &encoder.encode([(&b":status"[..], &b"103"[..])]));
    let block = encoder.encode([(&b":status"[..], &b"200"[..]), (&b"set-cookie"[..], &b"sid=1"[..])]);
    headers_frame(&mut input, 3, 0, &block[..2]);
    frame::write_header(&mut input, block.len() - 2, frame::CONTINUATION, frame::END_HEADERS, 3);
    input.extend_from_slice(&block[2..]);
    frame::write_header(&mut input, 6, frame::DATA, frame::PADDED | frame::END_STREAM, 3);
    input.extend_from_slice(b"\x02helpp");
    headers_frame(&mut input, 1, frame::END_HEADERS | frame::END_STREAM, &encoder.encode([(&b":status"[..], &b"404"[..])]));
    let mut events = Vec::new();
    // Byte by byte: frames cut anywhere are put together.
    for byte in &input {
        client.receive(std::slice::from_ref(byte), &mut out, &mut events).unwrap();
    }
    let first = Answer { stream: 3, status: 200, body: b"hel".to_vec(), cookies: vec![b"sid=1".to_vec()], ..Answer::default() };
    let second = Answer { stream: 1, status: 404, ..Answer::default() };
    assert_eq!(events, [Event::Answer(first), Event::Answer(second)]);
    assert_eq!(client.open_streams(), 0);
}

#[test]
fn settings_and_pings_are_answered_and_limits_kept() {
    let (mut client, mut out) = client();
    let mut input = Vec::new();
    frame::write_settings(&mut input, &[(frame::SETTINGS_MAX_CONCURRENT_STREAMS, 7)]);
    frame::write_header(&mut input, 8, frame::PING, 0, 0);
    input.extend_from_slice(b"12345678");
    client.receive(&input, &mut out, &mut Vec::new()).unwrap();
    assert_eq!(client.max_streams, 7);
    let ack = frame::Header::parse(&out).unwrap();
    assert_eq!((ack.kind, ack.flags, ack.length), (frame::SETTINGS, frame::ACK, 0));
    let pong = frame::Header::parse(&out[9..]).unwrap();
    assert_eq!((pong.kind, pong.flags, &out[18..]), (frame::PING, frame::ACK, &b"12345678"[..]));
}

#[test]
fn protocol_errors_are_the_connections() {
    let (mut client, mut out) = client();
    let mut push = Vec::new();
    frame::write_header(&mut push, 4, frame::PUSH_PROMISE, frame::END_HEADERS, 1);
    push.extend_from_slice(&[0, 0, 0, 2]);
    assert!(client.receive(&push, &mut out, &mut Vec::new()).unwrap_err().contains("PUSH_PROMISE"));
    let (mut client, mut out) = self::client();
    let mut data = Vec::new();
    frame::write_header(&mut data, 1, frame::DATA, 0, 5);
    data.push(b'x');
    assert!(client.receive(&data, &mut out, &mut Vec::new()).unwrap_err().contains("stream 5"));
    let (mut client, mut out) = self::client();
    assert!(client.receive(b"HTTP/1.1 400 Bad Request\r\n\r\n", &mut out, &mut Vec::new()).is_err());
}

#[test]
fn a_grpc_answer_keeps_its_type_and_the_status_of_its_trailers_or_of_a_trailers_only_answer() {
    let (mut client, mut out) = client();
    let post = b"POST /p.S/M HTTP/1.1\r\nHost: h\r\ncontent-type: application/grpc\r\nte: trailers\r\nContent-Length: 7\r\n\r\n\0\0\0\0\x02\x08\x01";
    client.request(post, &mut out).unwrap();
    client.request(post, &mut out).unwrap();
    let mut encoder = Encoder::new();
    let mut input = Vec::new();
    let head = [(&b":status"[..], &b"200"[..]), (&b"content-type"[..], &b"application/grpc"[..])];
    headers_frame(&mut input, 1, frame::END_HEADERS, &encoder.encode(head));
    frame::write_header(&mut input, 7, frame::DATA, 0, 1);
    input.extend_from_slice(b"\0\0\0\0\x02\x08\x02");
    headers_frame(&mut input, 1, frame::END_HEADERS | frame::END_STREAM, &encoder.encode([(&b"grpc-status"[..], &b"0"[..])]));
    let only = [(&b":status"[..], &b"200"[..]), (&b"content-type"[..], &b"application/grpc+proto"[..]), (&b"grpc-status"[..], &b"3"[..])];
    headers_frame(&mut input, 3, frame::END_HEADERS | frame::END_STREAM, &encoder.encode(only));
    let mut events = Vec::new();
    client.receive(&input, &mut out, &mut events).unwrap();
    let ended = |status| crate::grpc::End { grpc_type: true, status: Some(status) };
    let first = Answer { stream: 1, status: 200, body: b"\0\0\0\0\x02\x08\x02".to_vec(), grpc: ended(0), ..Answer::default() };
    let second = Answer { stream: 3, status: 200, grpc: ended(3), ..Answer::default() };
    assert_eq!(events, [Event::Answer(first), Event::Answer(second)]);
}
