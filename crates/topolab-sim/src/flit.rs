//! Flits and the channels that carry them.
//!
//! A `Flit` is plain data copied from buffer to channel to buffer; every flit of a packet
//! carries the packet's fields, so nothing outside the flit is looked up while it moves.
//!
//! A channel is modelled by its receiver's `Wheel`: an item sent in cycle S over a channel of
//! latency d is put in the bucket of cycle S + d + 1, the cycle BookSim2's receiver reads it
//! (d cycles of flight, then the receiver's input register). Channels carry one item per cycle.

/// Messages a workload's endpoint may send: the index a flit carries has 24 bits.
pub const MAX_MESSAGE_INDEX: u32 = 1 << 24;

/// Flag bits of `Flit::flags`.
pub const HEAD: u8 = 1;
pub const TAIL: u8 = 2;
/// Counted in the measurement (BookSim2's `record`).
pub const MEASURED: u8 = 4;
/// A read or write request of request-reply traffic (`use_read_write`): its tail arriving
/// makes the destination send a reply.
pub const READ_REQUEST: u8 = 8;
pub const WRITE_REQUEST: u8 = 16;

/// 32 bytes, aligned so that a flit never straddles two cache lines.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[repr(align(32))]
pub struct Flit {
    /// Source and destination endpoints, and the destination's router.
    pub src: u32,
    pub dest: u32,
    pub dest_router: u32,
    /// Cycle the packet was created (source queueing included in packet latency).
    pub ctime: u32,
    /// Cycle the head entered the network.
    pub itime: u32,
    /// Routing state: an intermediate router or endpoint (Valiant, UGAL).
    pub intermediate: u32,
    /// Routers traversed so far (BookSim2's `hops`).
    pub hops: u16,
    pub flags: u8,
    /// Routing phase / VC class state kept by the routing function.
    pub phase: u8,
    /// VC on the channel the flit is on, or in the buffer it sits in.
    pub vc: u8,
    /// A workload message's index among its source endpoint's messages, 24 bits little
    /// endian (`crate::workload`): three bytes fill the struct's padding, so a flit stays 32.
    pub message: [u8; 3],
}

const _: () = assert!(std::mem::size_of::<Flit>() == 32);

impl Flit {
    #[inline]
    pub fn is_head(&self) -> bool {
        self.flags & HEAD != 0
    }
    #[inline]
    pub fn is_tail(&self) -> bool {
        self.flags & TAIL != 0
    }
    #[inline]
    pub fn measured(&self) -> bool {
        self.flags & MEASURED != 0
    }

    /// The workload message index (`message`).
    #[inline]
    pub fn message_index(&self) -> u32 {
        u32::from_le_bytes([self.message[0], self.message[1], self.message[2], 0])
    }

    /// Sets the workload message index, below `MAX_MESSAGE_INDEX`.
    #[inline]
    pub fn set_message_index(&mut self, index: u32) {
        debug_assert!(index < MAX_MESSAGE_INDEX);
        let b = index.to_le_bytes();
        self.message = [b[0], b[1], b[2]];
    }

    /// A flit of the run before a warm start at cycle `now` (`crate::engine::WarmState`): not
    /// measured, and aged from `now`, so that its wait in the runs before does not count in
    /// this run's latency test.
    #[inline]
    pub fn carry_over(&mut self, now: u32) {
        self.flags &= !MEASURED;
        self.ctime = now;
    }
}

/// Wheels of at most this many buckets (channel latencies up to 6) are sized ahead.
pub(crate) const PRESIZED_BUCKETS: usize = 8;
/// Most items per bucket sized ahead: a busy bucket grows past it.
pub(crate) const PRESIZED_ITEMS: u32 = 16;

/// Items arriving at one router, bucketed by arrival cycle (a timing wheel whose size exceeds
/// the longest latency + 1, so a bucket holds only the items of one cycle). The engine delivers
/// into it between cycles; the router empties the bucket of the current cycle.
#[derive(Debug, Clone)]
pub struct Wheel<T> {
    buckets: Vec<Vec<T>>,
    mask: u32,
    len: usize,
}

impl<T: Copy> Wheel<T> {
    /// A wheel for arrivals up to `max_ahead` cycles after the current one.
    pub fn new(max_ahead: u32) -> Self {
        Self::with_capacity(max_ahead, 0)
    }

    /// A wheel for arrivals up to `max_ahead` cycles after the current one, from `channels`
    /// channels (one item per channel per cycle): while it has at most `PRESIZED_BUCKETS`
    /// buckets, each is given room for that many items, up to `PRESIZED_ITEMS`, so that a run
    /// does not spend its first cycles growing them.
    pub fn with_capacity(max_ahead: u32, channels: u32) -> Self {
        let size = (max_ahead + 1).next_power_of_two() as usize;
        let room = if size <= PRESIZED_BUCKETS {
            channels.min(PRESIZED_ITEMS) as usize
        } else {
            0
        };
        Wheel {
            buckets: (0..size).map(|_| Vec::with_capacity(room)).collect(),
            mask: size as u32 - 1,
            len: 0,
        }
    }

    #[inline]
    pub fn push(&mut self, arrival: u32, item: T) {
        self.buckets[(arrival & self.mask) as usize].push(item);
        self.len += 1;
    }

    /// Asks for the header of the bucket `arrival` goes to (`crate::read_ahead::prefetch`).
    #[inline]
    pub fn prefetch_bucket(&self, arrival: u32) {
        crate::read_ahead::prefetch(
            self.buckets
                .as_ptr()
                .wrapping_add((arrival & self.mask) as usize),
        );
    }

    /// Brings the bucket of `now` into the cache (see `crate::read_ahead`).
    #[inline]
    pub fn read_ahead(&self, now: u32) {
        crate::read_ahead::slice(self.arriving(now));
    }

    /// The items arriving at `now`.
    #[inline]
    pub fn arriving(&self, now: u32) -> &[T] {
        &self.buckets[(now & self.mask) as usize]
    }

    /// Something arrives at `now`.
    #[inline]
    pub fn has(&self, now: u32) -> bool {
        !self.buckets[(now & self.mask) as usize].is_empty()
    }

    /// Moves the items arriving at `now` into `out` (cleared first).
    #[inline]
    pub fn take(&mut self, now: u32, out: &mut Vec<T>) {
        out.clear();
        let b = &mut self.buckets[(now & self.mask) as usize];
        std::mem::swap(b, out);
        self.len -= out.len();
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The next cycle after `now` with an arrival (u32::MAX if none).
    pub fn next_after(&self, now: u32) -> u32 {
        if self.len == 0 {
            return u32::MAX;
        }
        for k in 1..=self.mask + 1 {
            let t = now.wrapping_add(k);
            if !self.buckets[(t & self.mask) as usize].is_empty() {
                return t;
            }
        }
        u32::MAX
    }

    /// Moves every item not yet taken for which `dead` holds into `out` (appended), bucket by
    /// bucket; the other items keep their order.
    pub fn remove_where(&mut self, mut dead: impl FnMut(&T) -> bool, out: &mut Vec<T>) {
        let before = out.len();
        for bucket in &mut self.buckets {
            bucket.retain(|item| {
                if dead(item) {
                    out.push(*item);
                    false
                } else {
                    true
                }
            });
        }
        self.len -= out.len() - before;
    }

    /// Every item not yet taken.
    pub fn items(&self) -> impl Iterator<Item = &T> + '_ {
        self.buckets.iter().flatten()
    }

    /// Every item not yet taken, to change in place.
    pub fn items_mut(&mut self) -> impl Iterator<Item = &mut T> + '_ {
        self.buckets.iter_mut().flatten()
    }
}
