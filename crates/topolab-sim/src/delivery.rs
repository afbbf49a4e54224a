//! Delivery of what routers send each other, by receiver: phase 2 of a cycle, run in parallel.
//!
//! Serially, the engine would push each cycle's staged items into the receivers' wheels cycle
//! by cycle and, within a cycle, router by router. What a receiver reads depends only on the
//! order of the pushes into its own wheels, so each receiver can pull its items itself, from
//! every upstream router, in that order: cycle by cycle, upstream routers by ascending index,
//! each one's items in the order it staged them. No two receivers write the same wheel, so
//! receivers pull in parallel and the wheels hold exactly what the serial delivery gives.
//!
//! To find its items without scanning every upstream router's whole list, a receiver follows
//! chains through it: at the end of its turn each sender links what it staged in the batch by
//! cycle and by group (a group being its channels towards one receiver with one latency;
//! parallel ports of a wide link share one), keeping each chain in staging order. Items of one
//! sender to one receiver over channels of different latencies land in different arrival
//! buckets, so splitting them by latency keeps every bucket's order. A receiver takes its
//! groups by decreasing latency and, for one latency, by ascending sender, each group cycle by
//! cycle: an arrival bucket then receives what was sent earlier first and, for one send cycle,
//! the lower sender first, as the serial delivery orders it.

use crate::flit::{Flit, Wheel};
use crate::router::RouterCore;
use crate::topo::{SimTopology, NONE};

/// A group of a sender's channels, as its receiver pulls it.
#[derive(Debug, Clone, Copy)]
struct Pull {
    sender: u32,
    group: u32,
    latency: u32,
    /// The receiver's port minus the sender's (wrapping): the ports of a group are
    /// consecutive at both ends (`SimTopology::new` pairs them so).
    port_shift: u32,
}

/// One direction of the router-to-router channels (flits downstream, credits upstream).
#[derive(Debug, Clone, Default)]
struct Channels {
    /// Start of each router's ports in `group`; length routers + 1.
    port_base: Vec<u32>,
    /// Per port, the sender's group of the channel (`NONE` for endpoint ports, whose items
    /// never reach the engine).
    group: Vec<u32>,
    /// Groups of each sender.
    groups: Vec<u32>,
    /// Start of each receiver's list in `pulls`; length routers + 1.
    pull_base: Vec<u32>,
    /// Per receiver, the groups sending to it, by decreasing latency, then ascending sender.
    pulls: Vec<Pull>,
}

impl Channels {
    /// From each router's ports (global index range `offset[r] .. offset[r + 1]`) and, per
    /// port, the router at the other end, the port there and the latency.
    fn new(offset: &[u32], peer: &[u32], peer_port: &[u32], latency: &[u32]) -> Channels {
        let n = offset.len() - 1;
        let mut group = vec![NONE; peer.len()];
        let mut groups = vec![0u32; n];
        let mut by_receiver: Vec<Vec<Pull>> = vec![Vec::new(); n];
        let mut keys = Vec::new();
        for s in 0..n {
            let base = offset[s] as usize;
            keys.clear();
            keys.extend(
                (base..offset[s + 1] as usize)
                    .filter(|&g| peer[g] != NONE)
                    .map(|g| (peer[g], latency[g], g)),
            );
            keys.sort_unstable();
            let mut last = None;
            for &(r, d, g) in &keys {
                let port_shift = peer_port[g].wrapping_sub((g - base) as u32);
                if last != Some((r, d)) {
                    last = Some((r, d));
                    groups[s] += 1;
                    by_receiver[r as usize].push(Pull {
                        sender: s as u32,
                        group: groups[s] - 1,
                        latency: d,
                        port_shift,
                    });
                }
                let pull = by_receiver[r as usize].last().expect("pushed above");
                assert_eq!(
                    pull.port_shift, port_shift,
                    "ports of router {s} towards router {r} not paired in order"
                );
                group[g] = groups[s] - 1;
            }
        }
        let mut pull_base = Vec::with_capacity(n + 1);
        let mut pulls = Vec::new();
        for mut list in by_receiver {
            list.sort_by_key(|p| (std::cmp::Reverse(p.latency), p.sender));
            pull_base.push(pulls.len() as u32);
            pulls.extend(list);
        }
        pull_base.push(pulls.len() as u32);
        Channels {
            port_base: offset.to_vec(),
            group,
            groups,
            pull_base,
            pulls,
        }
    }

    fn pulls(&self, r: usize) -> &[Pull] {
        &self.pulls[self.pull_base[r] as usize..self.pull_base[r + 1] as usize]
    }
}

/// The channel wiring delivery works from: built once per network, shared by every run.
#[derive(Debug, Clone, Default)]
pub struct Links {
    flits: Channels,
    credits: Channels,
}

impl Links {
    pub fn new(topo: &SimTopology) -> Links {
        Links {
            flits: Channels::new(
                &topo.out_offset,
                &topo.out_peer,
                &topo.out_peer_port,
                &topo.out_latency,
            ),
            credits: Channels::new(
                &topo.in_offset,
                &topo.in_peer,
                &topo.in_peer_port,
                &topo.in_latency,
            ),
        }
    }
}

/// One sender's (own port, item) of a batch, chained by group.
#[derive(Debug, Clone, Default)]
struct Chained<V> {
    items: Vec<(u32, V)>,
    /// Per item: the next item of its group (`NONE` at the end) and the item's cycle in the
    /// batch.
    next: Vec<(u32, u32)>,
    /// First item of each group (`NONE` if none).
    first: Vec<u32>,
}

impl<V: Copy> Chained<V> {
    /// Takes sender `s`'s `staged` items of a batch (cycle j's ending at `ends[j]`) and leaves
    /// `staged` empty.
    fn fill(&mut self, ch: &Channels, s: usize, staged: &mut Vec<(u32, V)>, ends: &[u32]) {
        std::mem::swap(&mut self.items, staged);
        staged.clear();
        if self.items.is_empty() {
            return;
        }
        let group = &ch.group[ch.port_base[s] as usize..ch.port_base[s + 1] as usize];
        self.first.clear();
        self.first.resize(ch.groups[s] as usize, NONE);
        self.next.resize(self.items.len(), (NONE, 0));
        // Backwards, each item put at the head of its chain: the chains end in staging order.
        let mut end = self.items.len();
        for j in (0..ends.len()).rev() {
            let start = if j == 0 { 0 } else { ends[j - 1] as usize };
            let links = self.next[start..end]
                .iter_mut()
                .zip(&self.items[start..end]);
            for (i, (next, &(p, _))) in links.enumerate().rev() {
                let head = &mut self.first[group[p as usize] as usize];
                *next = (*head, j as u32);
                *head = (start + i) as u32;
            }
            end = start;
        }
    }
}

/// Pushes into `wheel` what the groups `pulls` sent in the batch of cycles from `first`
/// (`chained` picks the flits or the credits), each item arriving after its group's latency.
fn pull_batch<V: Copy>(
    wheel: &mut Wheel<(u32, V)>,
    pulls: &[Pull],
    sent: &[Outbound],
    chained: impl Fn(&Outbound) -> &Chained<V>,
    first: u32,
) {
    for pl in pulls {
        let c = chained(&sent[pl.sender as usize]);
        if c.items.is_empty() {
            continue;
        }
        let arrival = first + pl.latency + 1;
        let mut i = c.first[pl.group as usize];
        while i != NONE {
            let (p, v) = c.items[i as usize];
            let (next, j) = c.next[i as usize];
            wheel.push(arrival + j, (p.wrapping_add(pl.port_shift), v));
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
    /// Takes what router `c` staged in a batch (cycle j's flits ending at `flit_ends[j]`, its
    /// credits at `credit_ends[j]`), leaving it empty lists.
    pub fn take(
        &mut self,
        links: &Links,
        c: &mut RouterCore,
        flit_ends: &[u32],
        credit_ends: &[u32],
    ) {
        let s = c.id as usize;
        self.flits
            .fill(&links.flits, s, &mut c.staged_flits, flit_ends);
        self.credits
            .fill(&links.credits, s, &mut c.staged_credits, credit_ends);
    }
}

/// Pushes into router `c`'s wheels everything the other routers sent it in the batch of
/// cycles from `first` (`sent`: their `Outbound`s, indexed by router), in the serial
/// delivery's order.
pub fn pull(links: &Links, sent: &[Outbound], c: &mut RouterCore, first: u32) {
    let r = c.id as usize;
    pull_batch(
        &mut c.flit_wheel,
        links.flits.pulls(r),
        sent,
        |o| &o.flits,
        first,
    );
    pull_batch(
        &mut c.credit_wheel,
        links.credits.pulls(r),
        sent,
        |o| &o.credits,
        first,
    );
}
