//! The io_uring path: every send, receive and connect of a loop turn goes to the kernel in the one
//! `io_uring_enter` that also waits, receives are multishot into a provided-buffer ring, and no
//! readiness is polled. The connection life cycle and the answers stay in the shared `Worker` code.
//!
//! A slot's operations carry its generation in their user data: a slot closed (and perhaps reconnected)
//! while its operations were in flight bumps the generation, cancels them, and their late completions
//! only give back what they hold (a receive buffer, a send buffer kept until the kernel is done with it).

use std::io;
use std::os::fd::AsRawFd;
use std::time::{Duration, Instant};

use io_uring::{cqueue, opcode, squeue, types, IoUring};
use mio::net::TcpStream;

use super::bufring::BufRing;
use super::{Driver, Worker};
use crate::cli::Config;
use crate::conn::{Conn, State};
use crate::stats::ErrorKind;
use userdata::{decode, user_data, Op, GENERATION_BITS};

mod userdata;

/// Submission entries; a full queue is submitted early, so this only sets how often.
const ENTRIES: u32 = 1024;
/// Completions held at once: a multishot receive can post several per turn.
const COMPLETIONS: u32 = 16 * 1024;
/// The provided buffers. Each completion takes a whole buffer however few bytes it holds, so there are
/// two per connection (every connection can answer in the same turn) within bounds that keep memory at
/// most 8 MiB a thread; a receive that finds none ends with ENOBUFS and is armed again once this turn's
/// buffers came back, so a flooding server cannot hold more than the set and the others keep their share.
const BUFFERS: (usize, usize) = (64, 2048);
const BUFFER_SIZE: usize = 4096;
const GROUP: u16 = 0;
/// How long the end of the run waits for cancelled operations before it leaks their buffers instead.
const DRAIN: Duration = Duration::from_secs(1);
/// One connection slot's operations in flight.
#[derive(Default)]
struct Slot {
    generation: u32,
    polling: bool,
    receiving: bool,
    sending: bool,
    /// Listed in `Uring::to_flush`.
    flush_queued: bool,
    /// What the send in flight reads: the kernel's until its completion, so requests queued meanwhile
    /// wait in `Conn::out`.
    buffer: Vec<u8>,
    sent: usize,
}

pub struct Uring {
    // Dropped before the buffers below: the kernel lets go of them when the ring is gone.
    ring: IoUring,
    /// Taken out while a receive's bytes are consumed.
    bufs: Option<BufRing>,
    slots: Vec<Slot>,
    /// Send buffers of closed connections, kept until their send completes.
    orphans: Vec<(u64, Vec<u8>)>,
    /// Connect, send and receive operations whose last completion has not come yet.
    in_flight: usize,
    /// Receives the kernel ended (out of buffers, or a full completion queue), to arm again.
    rearm: Vec<(usize, u32)>,
    /// Connections with requests queued during this turn's completions: each is sent once, after all of
    /// them, so the answers of several receives go out in one record and one send.
    to_flush: Vec<usize>,
}

impl Uring {
    /// Queues an entry, submitting what is queued first if the queue is full.
    ///
    /// # Safety
    /// Whatever memory the entry points to must stay valid and unchanged until its completion.
    unsafe fn push(&mut self, entry: &squeue::Entry) -> io::Result<()> {
        // SAFETY: passed on from the caller.
        while unsafe { self.ring.submission().push(entry) }.is_err() {
            self.ring.submit()?;
        }
        Ok(())
    }

    /// Sends what of the slot's buffer the kernel has not taken yet.
    fn submit_send(&mut self, idx: usize, conn: &Conn) -> io::Result<()> {
        let Some(stream) = conn.stream.as_ref() else { return Err(io::ErrorKind::NotConnected.into()) };
        let slot = &self.slots[idx];
        let rest = &slot.buffer[slot.sent..];
        let entry = opcode::Send::new(types::Fd(stream.as_raw_fd()), rest.as_ptr(), rest.len() as u32)
            .build()
            .user_data(user_data(Op::Send, slot.generation, idx));
        // SAFETY: the slot's buffer is neither changed nor freed while `sending` is set: `send` leaves it
        // alone, and `forget` moves it (its heap bytes stay put) to `orphans` until the send completes.
        unsafe { self.push(&entry)? };
        self.slots[idx].sending = true;
        self.in_flight += 1;
        Ok(())
    }

    /// Submits what was queued and waits up to `timeout` for a completion (not at all if zero).
    fn wait(&mut self, timeout: Duration) -> io::Result<()> {
        let waited = if timeout.is_zero() {
            self.ring.submit()
        } else {
            let timespec = types::Timespec::from(timeout);
            let args = types::SubmitArgs::new().timespec(&timespec);
            self.ring.submitter().submit_with_args(1, &args)
        };
        match waited {
            Err(e) if !matches!(e.raw_os_error(), Some(libc::ETIME | libc::EINTR | libc::EBUSY)) => Err(e),
            _ => Ok(()),
        }
    }

    fn give_back(&mut self, buffer: Option<u16>) {
        if let (Some(bid), Some(bufs)) = (buffer, self.bufs.as_mut()) {
            bufs.give_back(bid);
        }
    }
}

impl Driver for Uring {
    fn new(_config: &Config, connections: usize) -> io::Result<Self> {
        // Created disabled: the thread that enables it becomes its single issuer.
        let ring = IoUring::builder()
            .setup_single_issuer()
            .setup_coop_taskrun()
            .setup_r_disabled()
            .setup_cqsize(COMPLETIONS)
            .build(ENTRIES)?;
        let count = (2 * connections).next_power_of_two().clamp(BUFFERS.0, BUFFERS.1) as u16;
        let bufs = BufRing::new(&ring, count, BUFFER_SIZE, GROUP)?;
        let slots = (0..connections).map(|_| Slot::default()).collect();
        Ok(Uring { ring, bufs: Some(bufs), slots, orphans: Vec::new(), in_flight: 0, rearm: Vec::new(), to_flush: Vec::new() })
    }

    /// The socket becomes writable (or fails) when its connect is done.
    fn watch(&mut self, idx: usize, stream: &mut TcpStream) -> io::Result<()> {
        let slot = &self.slots[idx];
        let entry = opcode::PollAdd::new(types::Fd(stream.as_raw_fd()), libc::POLLOUT as u32)
            .build()
            .user_data(user_data(Op::Connect, slot.generation, idx));
        // SAFETY: a poll points to no memory of ours.
        unsafe { self.push(&entry)? };
        self.slots[idx].polling = true;
        self.in_flight += 1;
        Ok(())
    }

    /// From now on the kernel delivers what the connection receives.
    fn connected(&mut self, idx: usize, conn: &Conn) -> io::Result<()> {
        let Some(stream) = conn.stream.as_ref() else { return Err(io::ErrorKind::NotConnected.into()) };
        let entry = opcode::RecvMulti::new(types::Fd(stream.as_raw_fd()), GROUP)
            .build()
            .user_data(user_data(Op::Recv, self.slots[idx].generation, idx));
        // SAFETY: the receive writes only into the registered buffers, which outlive the ring's use of them.
        unsafe { self.push(&entry)? };
        self.slots[idx].receiving = true;
        self.in_flight += 1;
        Ok(())
    }

    /// Hands `conn.out` to the kernel unless a send is in flight (then it goes after that one).
    fn send(&mut self, idx: usize, conn: &mut Conn) -> io::Result<()> {
        if conn.stream.is_none() {
            return Err(io::ErrorKind::NotConnected.into());
        }
        let slot = &mut self.slots[idx];
        if slot.sending || conn.out.is_empty() {
            return Ok(());
        }
        // The emptied buffer of the last send takes the requests that come while this one is in flight.
        std::mem::swap(&mut slot.buffer, &mut conn.out);
        slot.sent = 0;
        self.submit_send(idx, conn)
    }

    /// The slot's operations are cancelled and their completions, when they come, recognised as an
    /// earlier connection's.
    fn forget(&mut self, idx: usize, _stream: &mut TcpStream) {
        let slot = &mut self.slots[idx];
        let generation = slot.generation;
        let ops = [(Op::Connect, slot.polling), (Op::Recv, slot.receiving), (Op::Send, slot.sending)];
        if slot.sending {
            let buffer = std::mem::take(&mut slot.buffer);
            self.orphans.push((user_data(Op::Send, generation, idx), buffer));
        }
        slot.buffer.clear();
        slot.sent = 0;
        (slot.polling, slot.receiving, slot.sending) = (false, false, false);
        slot.generation = (generation + 1) & ((1 << GENERATION_BITS) - 1);
        for (op, on) in ops {
            if on {
                let cancel =
                    opcode::AsyncCancel::new(user_data(op, generation, idx)).build().user_data(user_data(Op::Cancel, generation, idx));
                // SAFETY: a cancel points to no memory of ours. If even a submit fails the ring is broken
                // and the loop ends at its next wait; the operation then lasts until the server closes.
                let _ = unsafe { self.push(&cancel) };
            }
        }
    }

    fn run(worker: &mut Worker<Self>) {
        worker.run_uring();
    }
}

impl Worker<Uring> {
    fn run_uring(&mut self) {
        if let Err(e) = self.io.ring.submitter().register_enable_rings() {
            self.abandon(e);
            return;
        }
        let mut completed = Vec::with_capacity(COMPLETIONS as usize);
        let mut next_scan = self.window.start;
        loop {
            let now = Instant::now();
            let Some(mut wake) = self.turn(now, &mut next_scan) else { break };
            if let Some(due) = self.next_due() {
                wake = wake.min(due);
            }
            self.rearm_receives(now);
            if let Err(e) = self.io.wait(wake.saturating_duration_since(now)) {
                self.abandon(e);
                break;
            }
            let now = Instant::now();
            completed.extend(self.io.ring.completion().map(|c| (c.user_data(), c.result(), c.flags())));
            for (data, result, flags) in completed.drain(..) {
                self.on_completion(data, result, flags, now);
            }
            self.flush_queued(now);
        }
        self.drain(&mut completed);
    }

    fn on_completion(&mut self, data: u64, result: i32, flags: u32, now: Instant) {
        let (op, generation, idx) = decode(data);
        if op == Op::Cancel {
            return;
        }
        let more = cqueue::more(flags);
        let buffer = cqueue::buffer_select(flags);
        let uring = &mut self.io;
        if !more {
            uring.in_flight -= 1;
        }
        if uring.slots[idx].generation != generation {
            // An earlier connection of this slot: only give back what it held.
            uring.give_back(buffer);
            if op == Op::Send {
                uring.orphans.retain(|&(d, _)| d != data);
            }
            return;
        }
        match op {
            Op::Connect => {
                uring.slots[idx].polling = false;
                let failed = result < 0 || result & i32::from(libc::POLLERR | libc::POLLHUP) != 0;
                self.on_connect(idx, failed, now);
                // Not connected yet (a spurious wake-up): watch again.
                if self.conns[idx].state == State::Connecting && self.io.slots[idx].generation == generation {
                    let watched = match self.conns[idx].stream.as_mut() {
                        Some(stream) => self.io.watch(idx, stream),
                        None => Ok(()),
                    };
                    if watched.is_err() {
                        self.close(idx, Some(ErrorKind::Connect), now);
                    }
                }
            }
            Op::Send => self.on_sent(idx, result, now),
            Op::Recv => self.on_received(idx, generation, result, buffer, more, now),
            Op::Cancel => {}
        }
    }

    fn on_sent(&mut self, idx: usize, result: i32, now: Instant) {
        let uring = &mut self.io;
        let slot = &mut uring.slots[idx];
        slot.sending = false;
        let retry = result == -libc::EAGAIN || result == -libc::EINTR;
        if result > 0 {
            slot.sent += result as usize;
        } else if !retry {
            slot.buffer.clear();
            self.close(idx, Some(ErrorKind::Write), now);
            return;
        }
        if slot.sent < slot.buffer.len() {
            // A partial send: the rest goes in the next submit.
            if uring.submit_send(idx, &self.conns[idx]).is_err() {
                self.close(idx, Some(ErrorKind::Write), now);
            }
            return;
        }
        slot.buffer.clear();
        self.queue_flush(idx);
    }

    fn on_received(&mut self, idx: usize, generation: u32, result: i32, buffer: Option<u16>, more: bool, now: Instant) {
        let rearm = !more && matches!(self.conns[idx].state, State::Tls | State::Handshake | State::Open);
        let uring = &mut self.io;
        uring.slots[idx].receiving = more;
        if result <= 0 {
            uring.give_back(buffer);
            match -result {
                0 => self.ended(idx, now),
                libc::ENOBUFS | libc::EAGAIN | libc::EINTR if rearm => uring.rearm.push((idx, generation)),
                _ => self.close(idx, Some(ErrorKind::Read), now),
            }
            return;
        }
        let Some(bid) = buffer else {
            self.close(idx, Some(ErrorKind::Read), now);
            return;
        };
        let Some(bufs) = uring.bufs.take() else { unreachable!("the buffers are taken out only here, and put back") };
        // Parsed straight from the kernel's buffer; closing the connection meanwhile does not need it.
        let open = self.received(idx, bufs.get(bid, result as usize), now);
        let uring = &mut self.io;
        uring.bufs = Some(bufs);
        uring.give_back(buffer);
        if open {
            if rearm {
                uring.rearm.push((idx, generation));
            }
            self.queue_flush(idx);
        }
    }

    fn queue_flush(&mut self, idx: usize) {
        let uring = &mut self.io;
        if !std::mem::replace(&mut uring.slots[idx].flush_queued, true) {
            uring.to_flush.push(idx);
        }
    }

    fn flush_queued(&mut self, now: Instant) {
        let mut to_flush = std::mem::take(&mut self.io.to_flush);
        for idx in to_flush.drain(..) {
            self.io.slots[idx].flush_queued = false;
            if self.conns[idx].stream.is_some() && self.conns[idx].has_output() {
                self.flush(idx, now);
            }
        }
        self.io.to_flush = to_flush;
    }

    /// Receives the kernel ended are armed again, now that this turn's buffers are back in the ring.
    fn rearm_receives(&mut self, now: Instant) {
        for (idx, generation) in std::mem::take(&mut self.io.rearm) {
            let uring = &mut self.io;
            let slot = &uring.slots[idx];
            if slot.generation != generation || slot.receiving || self.conns[idx].stream.is_none() {
                continue;
            }
            if uring.connected(idx, &self.conns[idx]).is_err() {
                self.close(idx, Some(ErrorKind::Read), now);
            }
        }
    }

    /// The window closed: every socket is closed and the cancelled operations are waited for, so that
    /// no buffer is freed while the kernel may still use it (past `DRAIN` they are leaked instead).
    fn drain(&mut self, completed: &mut Vec<(u64, i32, u32)>) {
        let now = Instant::now();
        for idx in 0..self.conns.len() {
            if self.conns[idx].stream.is_some() {
                self.drop_socket(idx);
            }
        }
        let deadline = now + DRAIN;
        while self.io.in_flight > 0 {
            let now = Instant::now();
            if now >= deadline || self.io.wait(deadline - now).is_err() {
                let uring = &mut self.io;
                std::mem::forget(uring.bufs.take());
                std::mem::forget(std::mem::take(&mut uring.orphans));
                return;
            }
            completed.extend(self.io.ring.completion().map(|c| (c.user_data(), c.result(), c.flags())));
            for (data, result, flags) in completed.drain(..) {
                self.on_completion(data, result, flags, now);
            }
        }
    }
}
