//! HTTP/2: the connection's `h2::Client` frames the visitor's requests on streams of their own and turns
//! what it reads into answers per stream, in the order the server finishes them.

use super::input::{Answer, Cookies, Input, Unit};
use crate::h2::{self, Event};
use crate::request::Template;
use crate::visitor::Visitor;

pub struct Http2 {
    /// Made anew for each connection of the slot, in the same place.
    client: Box<h2::Client>,
    keep_bodies: bool,
    /// What the last read made, handed out one at a time, and then its error if it broke the protocol.
    events: Vec<Event>,
    at: usize,
    broken: Option<String>,
}

impl Http2 {
    pub fn new(keep_bodies: bool) -> Self {
        let client = Box::new(h2::Client::new(false, keep_bodies, &mut Vec::new()));
        Http2 { client, keep_bodies, events: Vec::new(), at: 0, broken: None }
    }

    /// The preface and settings (with prior knowledge or after ALPN, the client speaks first).
    pub fn start(&mut self, secure: bool, out: &mut Vec<u8>) {
        *self.client = h2::Client::new(secure, self.keep_bodies, out);
    }

    /// As many as the server allows beside the `pipeline` (the streams) asked for; None once it takes
    /// no new streams.
    pub fn room(&self, pipeline: usize) -> Option<usize> {
        (!self.client.going_away).then(|| pipeline.min(self.client.max_streams as usize))
    }

    pub fn request(
        &mut self,
        visitor: &Visitor,
        template: &Template,
        rng: &mut fastrand::Rng,
        http1: &mut Vec<u8>,
        out: &mut Vec<u8>,
    ) -> Result<u32, String> {
        http1.clear();
        visitor.write_request(template, http1, rng);
        self.send(http1, out)
    }

    /// A request the caller wrote as HTTP/1.1, on a new stream.
    pub fn send(&mut self, http1: &[u8], out: &mut Vec<u8>) -> Result<u32, String> {
        self.client.request(http1, out)
    }

    /// The client takes the whole read at once (what it answers, such as settings acks, goes to `out`).
    pub fn input<'d>(&mut self, data: &'d [u8], eof: bool, out: &mut Vec<u8>) -> Input<'d> {
        if !data.is_empty() {
            self.broken = self.client.receive(data, out, &mut self.events).err();
        }
        Input::new(Vec::new(), &[], eof)
    }

    pub fn close(&mut self) {
        self.events.clear();
        self.at = 0;
        self.broken = None;
    }

    pub fn next<'a>(&'a mut self, input: &Input) -> Unit<'a> {
        if self.at < self.events.len() {
            self.at += 1;
            return match &self.events[self.at - 1] {
                Event::Answer(answer) => Unit::Answer(Answer {
                    stream: answer.stream,
                    status: answer.status,
                    body: &answer.body,
                    cookies: Cookies::Values(&answer.cookies),
                    close: false,
                    // Not read over HTTP/2 yet: --expect-encoding and --mix refuse --http 2.
                    encoding: b"",
                    location: b"",
                    grpc: answer.grpc,
                }),
                Event::Reset(stream) => Unit::Reset(*stream),
                Event::GoAway(last) => Unit::GoAway(*last),
            };
        }
        self.events.clear();
        self.at = 0;
        if let Some(why) = self.broken.take() {
            return Unit::Broken(why);
        }
        if input.eof {
            return Unit::End;
        }
        Unit::More
    }
}
