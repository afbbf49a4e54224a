//! Delivery of what routers send each other (phase 2 of a cycle): serially on one thread
//! (`deliver_serial`), by receiver in parallel on several (`pull`), the same wheels either way.
//!
//! The serial delivery pushes each cycle's staged items into the receivers' wheels cycle by
//! cycle and, within a cycle, router by router. What a receiver reads depends only on the
//! order of the pushes into its own wheels, so each receiver can pull its items itself, from
//! every upstream router, in that order: cycle by cycle, upstream routers by ascending index,
//! each one's items in the order it staged them. No two receivers write the same wheel, so
//! receivers pull in parallel and the wheels hold exactly what the serial delivery gives.
//!
//! A receiver's items come through its slots: one per (upstream router, channel latency),
//! holding both directions (the flits that router sends the receiver and the credits it
//! returns for the flits the receiver sent it; parallel ports of a wide link share one). At the end of its turn each
//! sender chains what it staged in the batch by slot and writes the first item of each chain
//! (flits and credits) into the slot; everything else stays in the sender's lists. Items of
//! one sender to one receiver over channels of different latencies land in different arrival
//! buckets, so splitting them by latency keeps every bucket's order. A receiver reads its
//! slots, stored by decreasing latency and then ascending sender, and follows only the
//! chains of those that were written: an arrival bucket then receives what was sent earlier
//! first and, for one send cycle, the lower sender first, as the serial delivery orders it.
//! A batch's slots are written only by their senders while the receivers read and empty the
//! previous batch's (`Sent`, two per engine), so no word has two writers at once and a
//! receiver touches nothing of the upstream routers that sent it nothing.

use crate::engine::MAX_BATCH;
use crate::flit::{Flit, Wheel};
use crate::read_ahead::prefetch;
use crate::router::RouterCore;
use crate::topo::{SimTopology, NONE};
use std::cmp::Reverse;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// A receiver's slot: one upstream router's channels of one latency, both directions.
#[derive(Debug, Clone, Copy)]
struct Slot {
    sender: u32,
    latency: u32,
    /// The receiver's port minus the sender's (wrapping), for flits and for credits: the
    /// ports of a group are consecutive at both ends (`SimTopology::new` pairs them so).
    flit_shift: u32,
    credit_shift: u32,
}

/// The channel wiring delivery works from: built once per network, shared by every run.
#[derive(Debug, Clone, Default)]
pub struct Links {
    /// Start of each router's output and input ports in `flit_slot` and `credit_slot`;
    /// length routers + 1.
    out_base: Vec<u32>,
    in_base: Vec<u32>,
    /// Per output port, the slot its flits go through; per input port, the slot its
    /// credits go through (`NONE` for endpoint ports, whose items never reach the engine).
    flit_slot: Vec<u32>,
    credit_slot: Vec<u32>,
    /// Start of each receiver's slots in `slots`; length routers + 1.
    slot_base: Vec<u32>,
    /// Per receiver, its slots by decreasing latency, then ascending sender.
    slots: Vec<Slot>,
}

impl Links {
    pub fn new(topo: &SimTopology) -> Links {
        let n = topo.num_routers as usize;
        let ports = |offset: &[u32], s: usize| offset[s] as usize..offset[s + 1] as usize;
        // (receiver, latency, sender): slots in the order receivers read them.
        let mut keys = Vec::new();
        for s in 0..n {
            for links in [
                &topo.out_link[ports(&topo.out_offset, s)],
                &topo.in_link[ports(&topo.in_offset, s)],
            ] {
                keys.extend(
                    links
                        .iter()
                        .filter(|l| l.peer != NONE)
                        .map(|l| (l.peer, Reverse(l.latency), s as u32)),
                );
            }
        }
        keys.sort_unstable();
        keys.dedup();
        let mut slot_base = vec![0u32; n + 1];
        for &(r, _, _) in &keys {
            slot_base[r as usize + 1] += 1;
        }
        for r in 0..n {
            slot_base[r + 1] += slot_base[r];
        }
        // Each direction's port-to-slot map and the slots' port shifts (None: no port yet).
        let mut shifts = vec![[None::<u32>; 2]; keys.len()];
        let mut slot_of = |offset: &[u32], link: &[crate::topo::PortLink], dir: usize| {
            let mut slot = vec![NONE; link.len()];
            for s in 0..n {
                for g in ports(offset, s) {
                    let l = link[g];
                    if l.peer == NONE {
                        continue;
                    }
                    let own = ports(&slot_base, l.peer as usize);
                    let key = (l.peer, Reverse(l.latency), s as u32);
                    let i = own.start + keys[own].binary_search(&key).expect("slot of a key");
                    let shift = l.peer_port.wrapping_sub((g - offset[s] as usize) as u32);
                    let known = shifts[i][dir].get_or_insert(shift);
                    assert_eq!(
                        *known, shift,
                        "ports of router {s} towards router {} not paired in order",
                        l.peer
                    );
                    slot[g] = i as u32;
                }
            }
            slot
        };
        let flit_slot = slot_of(&topo.out_offset, &topo.out_link, 0);
        let credit_slot = slot_of(&topo.in_offset, &topo.in_link, 1);
        let slots = keys
            .iter()
            .zip(&shifts)
            .map(|(&(_, Reverse(latency), sender), &[f, c])| Slot {
                sender,
                latency,
                flit_shift: f.unwrap_or(0),
                credit_shift: c.unwrap_or(0),
            })
            .collect();
        Links {
            out_base: topo.out_offset.clone(),
            in_base: topo.in_offset.clone(),
            flit_slot,
            credit_slot,
            slot_base,
            slots,
        }
    }
}

/// A slot's heads: the first flit (low half) and the first credit (high half) of the chains
/// its sender staged in a batch, `NONE` halves when it staged none.
const EMPTY: u64 = u64::MAX;
const HALF: u64 = NONE as u64;
const FLITS: u32 = 0;
const CREDITS: u32 = 32;

/// One sender's (own port, item) of a batch, chained by slot.
#[derive(Debug, Clone, Default)]
struct Chained<V> {
    items: Vec<(u32, V)>,
    /// Per item: the next item of its slot (`NONE` at the end) and the item's cycle in the
    /// batch.
    next: Vec<(u32, u32)>,
}

impl<V: Copy> Chained<V> {
    /// Takes the `staged` items of a batch (cycle j's ending at `ends[j]`; port p's slot
    /// `slot_of[p]`), leaving `staged` empty, and writes each chain's first item into its
    /// slot's `half` of `heads` (empty at the start of the batch).
    fn fill(
        &mut self,
        slot_of: &[u32],
        heads: &[AtomicU64],
        half: u32,
        staged: &mut Vec<(u32, V)>,
        ends: &[u32],
    ) {
        std::mem::swap(&mut self.items, staged);
        staged.clear();
        if self.items.is_empty() {
            return;
        }
        if self.next.len() < self.items.len() {
            self.next.resize(self.items.len(), (NONE, 0));
        }
        // Backwards, each item put at the head of its chain: the chains end in staging order.
        let mut end = self.items.len();
        for j in (0..ends.len()).rev() {
            let start = if j == 0 { 0 } else { ends[j - 1] as usize };
            let links = self.next[start..end]
                .iter_mut()
                .zip(&self.items[start..end]);
            for (i, (next, &(p, _))) in links.enumerate().rev() {
                let head = &heads[slot_of[p as usize] as usize];
                let both = head.load(Relaxed);
                *next = ((both >> half) as u32, j as u32);
                let first = (start + i) as u64;
                head.store(both & !(HALF << half) | first << half, Relaxed);
            }
            end = start;
        }
    }

    /// Asks for the lines of item `i` (the first of a chain; nothing for `NONE`), which
    /// `push_chain` reads first.
    #[inline]
    fn ask(&self, i: u32) {
        if let (Some(item), Some(next)) = (self.items.get(i as usize), self.next.get(i as usize)) {
            prefetch(item);
            prefetch(next);
        }
    }

    /// Pushes into `wheel` the chain from item `i`, cycle j's items arriving in
    /// `arrival + j`, with ports shifted by `port_shift`.
    fn push_chain(&self, wheel: &mut Wheel<(u32, V)>, mut i: u32, arrival: u32, port_shift: u32) {
        while i != NONE {
            let (p, v) = self.items[i as usize];
            let (next, j) = self.next[i as usize];
            wheel.push(arrival + j, (p.wrapping_add(port_shift), v));
            i = next;
        }
    }
}

/// What one router sent other routers in a batch, ready for the receivers to pull.
#[derive(Debug, Clone, Default)]
pub struct Outbound {
    flits: Chained<Flit>,
    credits: Chained<u8>,
}

impl Outbound {
    /// Nothing was sent.
    pub fn is_empty(&self) -> bool {
        self.flits.items.is_empty() && self.credits.items.is_empty()
    }

    /// Takes what router `s` staged in a batch (cycle j's flits ending at `flit_ends[j]`, its
    /// credits at `credit_ends[j]`), leaving it empty lists, and writes its chains' heads into
    /// `heads` (the batch's `Sent::senders`).
    #[allow(clippy::too_many_arguments)]
    pub fn take(
        &mut self,
        links: &Links,
        heads: &[AtomicU64],
        s: usize,
        staged_flits: &mut Vec<(u32, Flit)>,
        staged_credits: &mut Vec<(u32, u8)>,
        flit_ends: &[u32],
        credit_ends: &[u32],
    ) {
        let ports = |base: &[u32]| base[s] as usize..base[s + 1] as usize;
        let flit_slot = &links.flit_slot[ports(&links.out_base)];
        let credit_slot = &links.credit_slot[ports(&links.in_base)];
        self.flits
            .fill(flit_slot, heads, FLITS, staged_flits, flit_ends);
        self.credits
            .fill(credit_slot, heads, CREDITS, staged_credits, credit_ends);
    }
}

/// What every router sent in one batch: each sender's lists and, per slot, the heads of its
/// chains. A slot is written by its sender only (in the batch that fills this `Sent`) and
/// read and emptied by its receiver only (in the next one).
#[derive(Debug, Default)]
pub struct Sent {
    outbound: Vec<Outbound>,
    heads: Vec<AtomicU64>,
}

impl Sent {
    pub fn new(links: &Links) -> Sent {
        Sent {
            outbound: vec![Outbound::default(); links.slot_base.len() - 1],
            heads: (0..links.slots.len())
                .map(|_| AtomicU64::new(EMPTY))
                .collect(),
        }
    }

    /// No router sent anything.
    pub fn is_empty(&self) -> bool {
        self.outbound.iter().all(Outbound::is_empty)
    }

    /// Receiver `r`'s slots: each one's chain heads (flits and credits) and where they come from.
    #[inline]
    fn slots_of<'a>(
        &'a self,
        links: &'a Links,
        r: usize,
    ) -> impl Iterator<Item = (&'a AtomicU64, &'a Slot)> {
        let own = links.slot_base[r] as usize..links.slot_base[r + 1] as usize;
        self.heads[own.clone()].iter().zip(&links.slots[own])
    }

    /// For a batch's senders: their lists, one per router, and the slots they write.
    pub fn senders(&mut self) -> (&mut [Outbound], &[AtomicU64]) {
        (&mut self.outbound, &self.heads)
    }
}

/// Pushes into router `c`'s wheels everything the other routers sent it in the batch of
/// cycles from `first` (`sent`), in the serial delivery's order, and empties its slots;
/// credits into the bucket of the cycle they are processed, `credit_delay` after they arrive.
pub fn pull(links: &Links, sent: &Sent, c: &mut RouterCore, first: u32, credit_delay: u32) {
    let r = c.id as usize;
    pull_into(
        links,
        sent,
        r,
        &mut c.flit_wheel,
        &mut c.credit_wheel,
        first,
        credit_delay,
    );
}

/// Asks, two turns before router `r`'s pull, for the lists (`Outbound`) of the routers that sent
/// it something; `ask_chains` asks for their first items a turn later. Beyond the caches each
/// is a miss, and the pull would take them one after another. Nothing is written.
pub fn ask_senders(links: &Links, sent: &Sent, r: usize) {
    for (head, slot) in sent.slots_of(links, r) {
        if head.load(Relaxed) != EMPTY {
            if let Some(out) = sent.outbound.get(slot.sender as usize) {
                prefetch(out);
            }
        }
    }
}

/// Asks, one turn before router `r`'s pull, for the first item of each chain it will push
/// (the lists themselves asked for by `ask_senders` a turn earlier).
pub fn ask_chains(links: &Links, sent: &Sent, r: usize) {
    for (head, slot) in sent.slots_of(links, r) {
        let both = head.load(Relaxed);
        if both == EMPTY {
            continue;
        }
        let out = &sent.outbound[slot.sender as usize];
        out.flits.ask(both as u32);
        out.credits.ask((both >> CREDITS) as u32);
    }
}

/// `pull` into router `r`'s wheels.
fn pull_into(
    links: &Links,
    sent: &Sent,
    r: usize,
    flit_wheel: &mut Wheel<(u32, Flit)>,
    credit_wheel: &mut Wheel<(u32, u8)>,
    first: u32,
    credit_delay: u32,
) {
    for (head, slot) in sent.slots_of(links, r) {
        let both = head.load(Relaxed);
        if both == EMPTY {
            continue;
        }
        head.store(EMPTY, Relaxed);
        let out = &sent.outbound[slot.sender as usize];
        let arrival = first + slot.latency + 1;
        out.flits
            .push_chain(flit_wheel, both as u32, arrival, slot.flit_shift);
        out.credits.push_chain(
            credit_wheel,
            (both >> CREDITS) as u32,
            arrival + credit_delay,
            slot.credit_shift,
        );
    }
}

/// Each router's staged flit and credit counts at the end of each cycle of a batch.
pub type Ends = ([u32; MAX_BATCH as usize], [u32; MAX_BATCH as usize]);

/// The serial delivery, as one thread runs it (no pull bookkeeping): what every router staged
/// in the batch of `k` cycles from `first` (router r's cycle j ending at `ends[r]`), pushed
/// into the receivers' wheels cycle by cycle and, within a cycle, router by router, each
/// router's items in staging order; the staged lists are left empty. `pull` gives every
/// wheel the same items in the same order.
///
/// With `listed` (more than 8 MiB of VC records, `Engine::lists_deliveries`: the routers'
/// state is far beyond the caches) a push is three dependent misses: the receiver's record,
/// which gives its bucket's header, which gives where the item goes. Each cycle's items are
/// then listed first and pushed with the lines of the pushes to come asked for ahead
/// (`push_listed`), in the same order. Without it the items go straight to the wheels, where
/// listing would be pure cost.
pub fn deliver_serial(
    topo: &SimTopology,
    cores: &mut [RouterCore],
    first: u32,
    ends: &[Ends],
    k: usize,
    mut listed: Option<&mut Listed>,
) {
    for j in 0..k {
        let now = first + j as u32;
        // Router r's items staged in cycle j.
        let staged = |r: usize| {
            let (flit_ends, credit_ends) = &ends[r];
            let (f0, c0) = match j {
                0 => (0, 0),
                _ => (flit_ends[j - 1] as usize, credit_ends[j - 1] as usize),
            };
            (f0..flit_ends[j] as usize, c0..credit_ends[j] as usize)
        };
        let Some(Listed { flits, credits }) = listed.as_deref_mut() else {
            for r in 0..ends.len() {
                let (fs, cs) = staged(r);
                push_direct(topo, cores, r, fs, cs, now);
            }
            continue;
        };
        flits.clear();
        credits.clear();
        for r in 0..ends.len() {
            // The links through which the items of a router a few places on go.
            if r + LINKS_AHEAD < ends.len() {
                let ahead = r + LINKS_AHEAD;
                let (fs, cs) = staged(ahead);
                for &(p, _) in &cores[ahead].staged_flits[fs] {
                    prefetch(&topo.out_link[topo.out_index(ahead, p)]);
                }
                for &(p, _) in &cores[ahead].staged_credits[cs] {
                    prefetch(&topo.in_link[topo.in_index(ahead, p)]);
                }
            }
            let (fs, cs) = staged(r);
            for &(p, f) in &cores[r].staged_flits[fs] {
                flits.push(flit_to(topo, r, p, f, now));
            }
            for &(p, vc) in &cores[r].staged_credits[cs] {
                credits.push(credit_to(topo, r, p, vc, now));
            }
        }
        push_listed(cores, flits, |c| &mut c.flit_wheel);
        push_listed(cores, credits, |c| &mut c.credit_wheel);
    }
    for c in cores.iter_mut() {
        c.staged_flits.clear();
        c.staged_credits.clear();
    }
}

/// A cycle's items as `deliver_serial` lists them: (receiver, arrival cycle, item), kept from
/// batch to batch so that their memory is not allocated again each time.
#[derive(Debug, Default)]
pub struct Listed {
    flits: Vec<(u32, u32, (u32, Flit))>,
    credits: Vec<(u32, u32, (u32, u8))>,
}

/// Pushes router r's items `fs` and `cs` (staged in cycle `now`) into the receivers' wheels.
fn push_direct(
    topo: &SimTopology,
    cores: &mut [RouterCore],
    r: usize,
    fs: std::ops::Range<usize>,
    cs: std::ops::Range<usize>,
    now: u32,
) {
    if fs.is_empty() && cs.is_empty() {
        return;
    }
    // Taken out of the sender while it writes other routers' wheels.
    let flits = std::mem::take(&mut cores[r].staged_flits);
    let credits = std::mem::take(&mut cores[r].staged_credits);
    for &(p, f) in &flits[fs] {
        let (receiver, arrival, item) = flit_to(topo, r, p, f, now);
        cores[receiver as usize].flit_wheel.push(arrival, item);
    }
    for &(p, vc) in &credits[cs] {
        let (receiver, arrival, item) = credit_to(topo, r, p, vc, now);
        cores[receiver as usize].credit_wheel.push(arrival, item);
    }
    cores[r].staged_flits = flits;
    cores[r].staged_credits = credits;
}

/// Where flit `f`, staged by router r on output port p in cycle `now`, goes: (receiver,
/// arrival cycle, (receiver's input port, flit)).
#[inline]
fn flit_to(topo: &SimTopology, r: usize, p: u32, f: Flit, now: u32) -> (u32, u32, (u32, Flit)) {
    let link = topo.out_link(r, p);
    (link.peer, now + link.latency + 1, (link.peer_port, f))
}

/// Where a credit for `vc`, staged by router r on input port p in cycle `now`, goes:
/// (receiver, arrival cycle, (receiver's output port, vc)).
#[inline]
fn credit_to(topo: &SimTopology, r: usize, p: u32, vc: u8, now: u32) -> (u32, u32, (u32, u8)) {
    let link = topo.in_link(r, p);
    let processed = now + link.latency + 1 + topo.credit_delay;
    (link.peer, processed, (link.peer_port, vc))
}

/// Routers ahead of the one listed whose links are asked for.
const LINKS_AHEAD: usize = 4;
/// Items ahead of the push whose receiver's wheel record is asked for, and then whose bucket
/// header (the record must have arrived to say where the header is).
const RECORD_AHEAD: usize = 16;
const BUCKET_AHEAD: usize = 8;

/// Pushes `items` (receiver, arrival cycle, item) in order into the receivers' wheels
/// (`wheel`), asking for each push's lines some items ahead.
fn push_listed<T: Copy>(
    cores: &mut [RouterCore],
    items: &[(u32, u32, T)],
    wheel: impl Fn(&mut RouterCore) -> &mut Wheel<T>,
) {
    for (i, &(receiver, arrival, item)) in items.iter().enumerate() {
        if let Some(&(ahead, _, _)) = items.get(i + RECORD_AHEAD) {
            prefetch(wheel(&mut cores[ahead as usize]) as *const Wheel<T>);
        }
        if let Some(&(ahead, at, _)) = items.get(i + BUCKET_AHEAD) {
            wheel(&mut cores[ahead as usize]).prefetch_bucket(at);
        }
        wheel(&mut cores[receiver as usize]).push(arrival, item);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::SimConfig;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;
    use topolab_core::NetworkBuilder;

    /// Four routers with a wide link (width 2), links of three latencies and one endpoint each.
    fn network() -> (SimTopology, u32) {
        let mut net = NetworkBuilder::new("test", 4, false);
        let (short, long, longer) = (
            net.link_class("short"),
            net.link_class("long"),
            net.link_class("longer"),
        );
        net.add_link(0, 1, 2, short)
            .add_link(0, 2, 1, long)
            .add_link(1, 2, 1, short)
            .add_link(1, 3, 1, longer)
            .add_link(2, 3, 3, long)
            .uniform_endpoints(1);
        let net = net.build().unwrap();
        let mut cfg = SimConfig::default();
        cfg.set("link_latency", "short:1,long:3,longer:4").unwrap();
        cfg.set("credit_delay", "2").unwrap();
        let topo = SimTopology::new(&net, &cfg).unwrap();
        let max = topo.max_latency;
        (topo, max)
    }

    /// Every receiver's wheels after pulling hold, bucket by bucket and in order, what pushing
    /// each cycle's staged items router by router gives (the serial delivery, written out here
    /// from the topology's port arrays), for random staging over several batches.
    #[test]
    fn pulled_wheels_equal_the_serial_delivery() {
        let (topo, max_latency) = network();
        let links = Links::new(&topo);
        let n = topo.num_routers as usize;
        let k = 3usize;
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        fn wheels<T: Copy>(n: usize, ahead: u32) -> Vec<Wheel<T>> {
            (0..n).map(|_| Wheel::new(ahead)).collect()
        }
        // Credits land `credit_delay` cycles after they arrive, when they are processed.
        let delay = topo.credit_delay;
        assert!(delay > 0);
        let (mut serial_f, mut pulled_f) = (wheels(n, max_latency + 1), wheels(n, max_latency + 1));
        let credit_ahead = max_latency + 1 + delay;
        let (mut serial_c, mut pulled_c) = (wheels(n, credit_ahead), wheels(n, credit_ahead));
        let mut sent = Sent::new(&links);
        let mut tag = 0u32;
        let mut checked = 0;
        for batch in 0..20u32 {
            let first = batch * k as u32;
            // staged[s][j]: router s's flits and credits of cycle j.
            let mut staged = vec![vec![(Vec::new(), Vec::new()); k]; n];
            for (s, cycles) in staged.iter_mut().enumerate() {
                let outs: Vec<u32> = (0..topo.num_out(s))
                    .filter(|&p| topo.out_link(s, p).peer != NONE)
                    .collect();
                let ins: Vec<u32> = (0..topo.num_in(s))
                    .filter(|&p| topo.in_link(s, p).peer != NONE)
                    .collect();
                for (flits, credits) in cycles.iter_mut() {
                    for _ in 0..rng.random_range(0..8) {
                        tag += 1;
                        let f = Flit {
                            src: tag,
                            ..Flit::default()
                        };
                        flits.push((outs[rng.random_range(0..outs.len())], f));
                    }
                    for _ in 0..rng.random_range(0..8) {
                        let vc = rng.random_range(0..8u8);
                        credits.push((ins[rng.random_range(0..ins.len())], vc));
                    }
                }
            }
            for j in 0..k {
                for (s, cycles) in staged.iter().enumerate() {
                    let now = first + j as u32;
                    for &(p, f) in &cycles[j].0 {
                        let l = topo.out_link(s, p);
                        serial_f[l.peer as usize].push(now + l.latency + 1, (l.peer_port, f));
                    }
                    for &(p, vc) in &cycles[j].1 {
                        let l = topo.in_link(s, p);
                        let processed = now + l.latency + 1 + delay;
                        serial_c[l.peer as usize].push(processed, (l.peer_port, vc));
                    }
                }
            }
            let (outs, heads) = sent.senders();
            for (s, (cycles, out)) in staged.iter().zip(outs.iter_mut()).enumerate() {
                let (mut flits, mut credits) = (Vec::new(), Vec::new());
                let (mut flit_ends, mut credit_ends) = (Vec::new(), Vec::new());
                for (f, c) in cycles {
                    flits.extend_from_slice(f);
                    credits.extend_from_slice(c);
                    flit_ends.push(flits.len() as u32);
                    credit_ends.push(credits.len() as u32);
                }
                out.take(
                    &links,
                    heads,
                    s,
                    &mut flits,
                    &mut credits,
                    &flit_ends,
                    &credit_ends,
                );
                assert!(flits.is_empty() && credits.is_empty());
            }
            for r in 0..n {
                pull_into(
                    &links,
                    &sent,
                    r,
                    &mut pulled_f[r],
                    &mut pulled_c[r],
                    first,
                    topo.credit_delay,
                );
            }
            // The cycles the receivers run next: their buckets are complete.
            for now in first..first + k as u32 {
                for r in 0..n {
                    let (mut a, mut b) = (Vec::new(), Vec::new());
                    serial_f[r].take(now, &mut a);
                    pulled_f[r].take(now, &mut b);
                    assert_eq!(a, b, "flits arriving at router {r} in cycle {now}");
                    checked += a.len();
                    let (mut a, mut b) = (Vec::new(), Vec::new());
                    serial_c[r].take(now, &mut a);
                    pulled_c[r].take(now, &mut b);
                    assert_eq!(a, b, "credits arriving at router {r} in cycle {now}");
                    checked += a.len();
                }
            }
        }
        for r in 0..n {
            assert!(serial_f[r].items().eq(pulled_f[r].items()));
            assert!(serial_c[r].items().eq(pulled_c[r].items()));
        }
        assert!(checked > 1000, "only {checked} items compared");
    }
}
