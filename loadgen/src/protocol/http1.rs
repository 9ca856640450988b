//! HTTP/1.1: requests as the visitor writes them, answers in order, each parsed where it lies in the read.

use super::input::{Answer, Cookies, Input, Unit};
use crate::http::{self, Response};
use crate::stats::ErrorKind;

pub struct Http1 {
    /// What the last read left that does not make a whole response yet.
    kept: Vec<u8>,
    head_request: bool,
    /// Bodies are checked: a chunked one is decoded.
    keep_body: bool,
}

impl Http1 {
    pub fn new(head_request: bool, keep_body: bool) -> Self {
        Http1 { kept: Vec::new(), head_request, keep_body }
    }

    pub fn input<'d>(&mut self, data: &'d [u8], eof: bool) -> Input<'d> {
        Input::new(std::mem::take(&mut self.kept), data, eof)
    }

    pub fn keep(&mut self, input: Input) {
        self.kept = input.into_rest();
    }

    pub fn close(&mut self) {
        self.kept.clear();
    }

    pub fn next<'a>(&'a mut self, input: &'a mut Input, decoded: &'a mut Vec<u8>) -> Unit<'a> {
        loop {
            let start = input.at;
            let response = match self.response(input, decoded) {
                Ok(Some(response)) => response,
                Ok(None) => return if input.at == input.bytes().len() && input.eof { Unit::End } else { Unit::More },
                Err(kind) => return Unit::Close(kind),
            };
            if response.status / 100 == 1 {
                continue;
            }
            let (input, decoded): (&'a Input, &'a Vec<u8>) = (input, decoded);
            let bytes = &input.bytes()[start..];
            let (status, close, body) = (response.status, response.close, response.body(bytes, decoded));
            let encoding = &bytes[response.encoding.0..response.encoding.1];
            let location = &bytes[response.location.0..response.location.1];
            let cookies = Cookies::In(bytes, response.set_cookies);
            return Unit::Answer(Answer { stream: 0, status, body, cookies, close, encoding, location, grpc: Default::default() });
        }
    }

    /// The response at the start of what is left of `input`, which moves past it; None if it is not whole
    /// yet (or nothing is left), else the kind of error: cut short by the server's close is a read error,
    /// bytes that make no sense a parse error.
    pub fn response(&self, input: &mut Input, decoded: &mut Vec<u8>) -> Result<Option<Response>, ErrorKind> {
        let rest = &input.bytes()[input.at..];
        if rest.is_empty() {
            return Ok(None);
        }
        match http::parse(rest, input.eof, self.head_request, self.keep_body, decoded) {
            Ok(Some(response)) => {
                input.at += response.consumed;
                Ok(Some(response))
            }
            Ok(None) if input.eof => Err(ErrorKind::Read),
            Ok(None) => Ok(None),
            Err(_) if input.eof => Err(ErrorKind::Read),
            Err(_) => Err(ErrorKind::Parse),
        }
    }
}
