//! Fetching the next router's state into the cache while the current one runs.
//!
//! Routers are processed in index order, and by the time a router's turn comes in a cycle the
//! other routers have pushed its state out of the core's private caches: every input VC
//! record, output VC record and buffered flit it touches is a miss, and most of them sit in
//! dependent chains (a VC record gives the slot of its flit, which gives the flit), so each
//! miss stalls the turn. The order is known in advance, so the engine reads the next router's
//! state one turn ahead (`RouterCore::read_ahead`): one load per cache line, independent of each
//! other, so that the processor overlaps their misses; the turn that follows finds the lines
//! in its cache. Nothing is written: results do not depend on it.
//!
//! The routing tables are asked for in the same turn, with a prefetch instruction (`prefetch`):
//! the entry each arriving flit's route computation will read (its next hops towards its
//! destination or intermediate router, `HopRouting::table_entry`), a miss per hop on networks
//! of thousands of routers. Loads of those entries took 2.8% of `topolab compare --simulate`'s
//! samples; asking instead made its `min` and UGAL designs 1-5% faster.
//!
//! Why loads and not prefetch instructions for the routers' state: on the AMD EPYC virtual
//! machines this was measured on, `prefetcht0/t1/t2` left the misses where they were (the
//! profile's costliest load, a buffered flit's, kept its share), while plain loads of the same
//! lines removed it and cut the Slim Fly q = 13 benchmark's time by 10-25% (prefetch
//! instructions in their place made the torus of `topolab compare` between 4% faster
//! and 2% slower: no change within the noise). On networks whose state stays in the core's
//! own caches the loads are pure cost, so the engine reads ahead only above a size
//! (`Engine::read_ahead_mode`; figures in docs/simulator.md).
//!
//! The serial delivery does ask with prefetch instructions (`prefetch`): it asks for the lines
//! of a push 8 and 16 pushes before it, in a loop that reads nothing it asked for until then,
//! where a load would stall the loop (`delivery::deliver_serial`).

use std::mem::MaybeUninit;

/// How much of a router's state the engine reads ahead (`Engine::read_ahead_mode`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReadAhead {
    /// Nothing: the routers' state stays in the core's own caches between turns.
    Off,
    /// Whole arrays (VC records, slab, scratch). Reading only the entries a turn touches (the
    /// VCs on the work lists and what they read, and the receivers' arrival buckets before the
    /// delivery writes them) was slower whatever the routers' size: 16-27% more CPU time on a
    /// 5,103-router mesh of 9 KiB of VC records per router, a 74K-endpoint Slim Fly (15 KiB),
    /// a radix-33 hypercube with 11 VCs (20 KiB) and the million-endpoint Slim Fly (38 KiB) at
    /// load 0.5 (benches/results/simulator-speed.csv).
    Whole,
}

/// Cache line size assumed.
const LINE: usize = 64;

/// Brings the memory of `items` into the cache.
#[inline]
pub fn slice<T>(items: &[T]) {
    bytes(items.as_ptr() as *const u8, std::mem::size_of_val(items));
}

/// Brings the memory of the items of `queue` into the cache.
#[inline]
pub fn deque<T>(queue: &std::collections::VecDeque<T>) {
    let (front, back) = queue.as_slices();
    slice(front);
    slice(back);
}

/// Asks for the cache line holding `value` without waiting for it (a prefetch instruction;
/// nothing on targets without one).
#[inline(always)]
pub fn prefetch<T>(value: *const T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch reads nothing the program sees and faults on no address (one of the
    // crate's unsafe operations, with `read_volatile` below and crate::unchecked's).
    #[allow(unsafe_code)]
    unsafe {
        std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(value as *const i8)
    };
    #[cfg(not(target_arch = "x86_64"))]
    let _ = value;
}

/// Brings the memory of `value` into the cache.
#[inline]
pub fn value<T>(value: &T) {
    bytes(value as *const T as *const u8, std::mem::size_of::<T>());
}

// One of the crate's unsafe operations (the others: `prefetch`, crate::unchecked): see the SAFETY comment.
#[allow(unsafe_code)]
#[inline]
fn bytes(start: *const u8, len: usize) {
    let mut off = 0;
    while off < len {
        // SAFETY: `start..start + len` is the memory of a live shared reference (`slice`,
        // `value`), so every byte read is in bounds and no one writes it meanwhile; it is read
        // as MaybeUninit because it may be padding.
        let byte = unsafe { std::ptr::read_volatile(start.add(off) as *const MaybeUninit<u8>) };
        std::hint::black_box(byte);
        off += LINE;
    }
}
