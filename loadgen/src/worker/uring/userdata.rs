//! What an io_uring operation's user data carries: its kind, its slot's generation and the slot, so that
//! a completion names the connection it belongs to and one of a closed connection is recognised.

pub const GENERATION_BITS: u32 = 30;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Op {
    Connect = 0,
    Send = 1,
    Recv = 2,
    Cancel = 3,
}

pub fn user_data(op: Op, generation: u32, idx: usize) -> u64 {
    (op as u64) << 62 | u64::from(generation) << 32 | idx as u64
}

pub fn decode(data: u64) -> (Op, u32, usize) {
    let op = match data >> 62 {
        0 => Op::Connect,
        1 => Op::Send,
        2 => Op::Recv,
        _ => Op::Cancel,
    };
    (op, (data >> 32) as u32 & ((1 << GENERATION_BITS) - 1), data as u32 as usize)
}
