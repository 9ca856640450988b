//! The connections' life cycle (connect, WebSocket upgrade, close, reconnect, back off) and the connect
//! phase: a thread opens its first connections, at most `stage` at a time, before any request; its phase
//! ends when each has been open (one the server closes meanwhile is opened again, and joins the load when
//! it is) or at the connect deadline, and the load starts on every thread at once after the last thread's
//! phase. What fails in the phase is counted there, by cause, never as a request error; a connection that
//! fails to open later (a reconnect in the window) is a `connect` error.

use std::io;
use std::time::Instant;

use mio::net::TcpStream;

use super::{Driver, Worker};
use crate::conn::State;
use crate::connect::Cause;
use crate::protocol::Opening;
use crate::stats::ErrorKind;

impl<D: Driver> Worker<D> {
    /// Ends this thread's connect phase when its connections are open or the deadline has come, and starts
    /// the load when its time has come; returns the deadline while the phase lasts, to wake for it.
    pub(super) fn follow_phase(&mut self, now: Instant) -> Option<Instant> {
        if !self.phase_over {
            let deadline = self.window.start + self.config.connect_deadline;
            if self.first_opened >= self.phase_target {
                self.end_phase(now);
            } else if now >= deadline {
                self.give_up_opening();
                self.end_phase(now);
            } else {
                return Some(deadline);
            }
        }
        if !self.loading && self.window.load_start().is_some_and(|at| now >= at) {
            self.start_load(now);
        }
        None
    }

    pub(super) fn end_phase(&mut self, now: Instant) {
        if !std::mem::replace(&mut self.phase_over, true) {
            self.stats.connect.opened = self.first_opened as u64;
            self.window.settled(now, self.first_opened as u64);
        }
    }

    /// The deadline: connections never open by now stay closed for the run.
    fn give_up_opening(&mut self) {
        let conns = &self.conns;
        self.to_connect.retain(|&idx| conns[idx].opened_once);
        for idx in 0..self.conns.len() {
            if !self.conns[idx].opened_once {
                self.drop_socket(idx);
                self.conns[idx].retry_at = None;
            }
        }
    }

    fn start_load(&mut self, now: Instant) {
        self.loading = true;
        if let Some(pacing) = self.pacing.as_mut() {
            pacing.restart(now); // an open loop's schedule begins with the load, not with the connects
        }
        for idx in 0..self.conns.len() {
            if self.conns[idx].state == State::Open {
                self.send_first(idx, now);
            }
        }
        // A connection per request: its connect, about to start, is part of its first request.
        for &idx in &self.to_connect {
            self.conns[idx].wanted = now;
        }
    }

    pub(super) fn start_connects(&mut self, now: Instant) {
        if !self.config.keepalive && !self.loading {
            return;
        }
        while self.opening < self.stage {
            let Some(idx) = self.to_connect.pop_front() else { break };
            if !self.phase_over && self.conns[idx].failures > 0 {
                self.stats.connect.retried += 1;
            }
            let registered = TcpStream::connect(self.config.addr).and_then(|mut stream| {
                self.io.watch(idx, &mut stream)?;
                Ok(stream)
            });
            match registered {
                Ok(stream) => {
                    let conn = &mut self.conns[idx];
                    conn.stream = Some(stream);
                    conn.state = State::Connecting;
                    conn.since = now;
                    conn.answered = false;
                    conn.served = 0;
                    self.opening += 1;
                }
                Err(e) => self.open_failed(idx, Cause::of(&e), now),
            }
        }
    }

    pub(super) fn on_connect(&mut self, idx: usize, failed: bool, now: Instant) {
        let Some(stream) = self.conns[idx].stream.as_ref() else { return };
        let outcome = match stream.take_error() {
            Ok(Some(e)) | Err(e) => Err(Cause::of(&e)),
            Ok(None) if failed => Err(Cause::Failed),
            Ok(None) => match stream.peer_addr() {
                Ok(_) if stream.set_nodelay(true).is_ok() => Ok(()),
                Ok(_) => Err(Cause::Failed),
                Err(e) if e.kind() == io::ErrorKind::NotConnected => return,
                Err(e) => Err(Cause::of(&e)),
            },
        };
        let resent = outcome.is_ok() && crate::sys::retransmissions(stream).is_some_and(|n| n > 0);
        if let Err(cause) = outcome {
            self.open_failed(idx, cause, now);
            return;
        }
        if resent && !self.phase_over {
            self.stats.connect.syn_retransmitted += 1;
        }
        if let Err(e) = self.io.connected(idx, &self.conns[idx]) {
            eprintln!("shootout-load: thread {}: cannot start receiving: {e}", self.index);
            self.close(idx, Some(ErrorKind::Read), now);
            return;
        }
        self.start_transport(idx, now);
    }

    /// The connection is up (TCP, and its transport): its protocol opens it, HTTP/2 with its preface,
    /// WebSocket with its upgrade.
    pub(super) fn established(&mut self, idx: usize, now: Instant) -> bool {
        let conn = &mut self.conns[idx];
        let secure = conn.transport.secure();
        let (out, _) = conn.transport.writer(&mut conn.out);
        let opening = conn.protocol.start(&self.config, secure, out);
        if opening == Opening::Upgrade {
            conn.state = State::Handshake;
            conn.since = now;
            return self.flush(idx, now);
        }
        if opening == Opening::Preface && !self.flush(idx, now) {
            return false;
        }
        self.opened(idx, now);
        true
    }

    /// The connection is open (connected, and upgraded for WebSocket): it takes requests once the load runs.
    pub(super) fn opened(&mut self, idx: usize, now: Instant) {
        let conn = &mut self.conns[idx];
        conn.state = State::Open;
        if !std::mem::replace(&mut conn.opened_once, true) {
            self.first_opened += 1;
        }
        self.opening -= 1;
        self.send_first(idx, now);
    }

    /// An open connection's first requests leave at once: no read is coming whose end would send them.
    fn send_first(&mut self, idx: usize, now: Instant) {
        if self.ready(idx, now) {
            self.flush(idx, now);
        }
    }

    /// An attempt to open the connection failed: counted in the connect phase by cause, later as a
    /// `connect` error; tried again after a back-off.
    fn open_failed(&mut self, idx: usize, cause: Cause, now: Instant) {
        self.count_open_failure(cause, now);
        self.drop_socket(idx);
        self.back_off(idx, now);
    }

    fn count_open_failure(&mut self, cause: Cause, now: Instant) {
        if self.phase_over {
            self.error(ErrorKind::Connect, now);
        } else {
            self.stats.connect.failure(cause);
        }
    }

    /// Counts the error if any and closes; reconnects at once if the connection had been answering,
    /// after a growing back-off if not (so a refusing server is not hammered in a tight loop). A connection
    /// that was still opening failed to open (an upgrade that timed out is not a request's timeout), and
    /// in the connect phase the loss of an open one is the phase's too.
    pub(super) fn close(&mut self, idx: usize, error: Option<ErrorKind>, now: Instant) {
        let state = self.conns[idx].state;
        let opening = matches!(state, State::Connecting | State::Tls | State::Handshake);
        if opening || (!self.phase_over && state == State::Open) {
            self.count_open_failure(if error == Some(ErrorKind::Timeout) { Cause::TimedOut } else { Cause::Failed }, now);
        } else if let Some(kind) = error {
            self.error(kind, now);
        }
        let answered = self.conns[idx].answered;
        self.drop_socket(idx);
        if answered {
            self.reconnect(idx, now);
        } else {
            self.back_off(idx, now);
        }
    }

    pub(super) fn reconnect(&mut self, idx: usize, now: Instant) {
        self.conns[idx].wanted = now;
        self.to_connect.push_back(idx);
    }

    fn back_off(&mut self, idx: usize, now: Instant) {
        let conn = &mut self.conns[idx];
        conn.failures = conn.failures.saturating_add(1);
        let delay = std::time::Duration::from_millis(10u64 << conn.failures.min(7)).min(std::time::Duration::from_secs(1));
        conn.retry_at = Some(now + delay);
    }

    pub(super) fn drop_socket(&mut self, idx: usize) {
        let conn = &mut self.conns[idx];
        if matches!(conn.state, State::Connecting | State::Tls | State::Handshake) {
            self.opening -= 1;
        }
        if let Some(mut stream) = conn.stream.take() {
            self.io.forget(idx, &mut stream);
        }
        conn.state = State::Closed;
        conn.unread = false;
        conn.out.clear();
        conn.transport.close();
        conn.protocol.close();
        conn.in_flight.clear();
    }
}
