//! A provided-buffer ring: the kernel picks one of a fixed set of buffers for each multishot receive,
//! so memory for receives is bounded by the set whatever the connections and servers do, and a buffer
//! goes back to the ring as soon as its bytes were consumed.

use std::alloc::{self, Layout};
use std::io;
use std::ptr::NonNull;
use std::sync::atomic::{AtomicU16, Ordering};

use io_uring::types::BufRingEntry;
use io_uring::IoUring;

pub struct BufRing {
    entries: NonNull<BufRingEntry>,
    layout: Layout,
    count: u16,
    size: usize,
    /// Our copy of the tail the kernel reads: buffers up to it are the kernel's to fill.
    tail: u16,
    data: Box<[u8]>,
}

// SAFETY: the ring is an owned allocation like a Box; it moves to its worker's thread before use and
// is only used there.
unsafe impl Send for BufRing {}

impl BufRing {
    /// `count` buffers (a power of two) of `size` bytes, registered as group `group`.
    pub fn new(ring: &IoUring, count: u16, size: usize, group: u16) -> io::Result<Self> {
        assert!(count.is_power_of_two());
        // The kernel wants the entries page-aligned.
        let layout = Layout::from_size_align(count as usize * std::mem::size_of::<BufRingEntry>(), 4096)
            .map_err(|e| io::Error::new(io::ErrorKind::InvalidInput, e))?;
        // SAFETY: the layout's size is non-zero (count >= 1); zeroed entries are valid (all plain integers).
        let raw = unsafe { alloc::alloc_zeroed(layout) };
        let entries = NonNull::new(raw.cast::<BufRingEntry>()).ok_or_else(|| io::Error::from(io::ErrorKind::OutOfMemory))?;
        let mut bufs =
            BufRing { entries, layout, count, size, tail: 0, data: vec![0; count as usize * size].into_boxed_slice() };
        for bid in 0..count {
            bufs.push(bid);
        }
        bufs.publish();
        // SAFETY: the entries and the buffers they point to live in `bufs`, which the worker drops only
        // after the ring and after every receive that could still pick a buffer has completed.
        unsafe { ring.submitter().register_buf_ring_with_flags(entries.as_ptr() as u64, count, group, 0)? };
        Ok(bufs)
    }

    /// The first `len` bytes of buffer `bid`, as filled by a completed receive.
    pub fn get(&self, bid: u16, len: usize) -> &[u8] {
        let start = bid as usize * self.size;
        &self.data[start..start + len.min(self.size)]
    }

    /// Gives a buffer back to the kernel once its bytes were consumed.
    pub fn give_back(&mut self, bid: u16) {
        self.push(bid);
        self.publish();
    }

    fn push(&mut self, bid: u16) {
        let slot = (self.tail & (self.count - 1)) as usize;
        // SAFETY: slot < count, inside the allocation; the kernel only reads entries before the published
        // tail, and this one is past it until `publish`.
        let entry = unsafe { &mut *self.entries.as_ptr().add(slot) };
        entry.set_addr(self.data[bid as usize * self.size..].as_ptr() as u64);
        entry.set_len(self.size as u32);
        entry.set_bid(bid);
        self.tail = self.tail.wrapping_add(1);
    }

    fn publish(&self) {
        // SAFETY: the tail is a u16 inside the first entry of our live allocation, and the kernel reads
        // it concurrently, hence the atomic view; Release makes the entries written before it visible.
        let tail = unsafe { &*(BufRingEntry::tail(self.entries.as_ptr()) as *const AtomicU16) };
        tail.store(self.tail, Ordering::Release);
    }
}

impl Drop for BufRing {
    fn drop(&mut self) {
        // SAFETY: allocated in `new` with this layout, freed once.
        unsafe { alloc::dealloc(self.entries.as_ptr().cast(), self.layout) };
    }
}
