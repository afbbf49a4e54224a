//! Delivery of what routers send each other, by receiver: phase 2 of a cycle, run in parallel.
//!
//! Serially, the engine would push each cycle's staged items into the receivers' wheels cycle
//! by cycle and, within a cycle, router by router. What a receiver reads depends only on the
//! order of the pushes into its own wheels, so each receiver can pull its items itself, from
//! every upstream router, in that order: cycle by cycle, upstream routers by ascending index,
//! each one's items in the order it staged them. No two receivers write the same wheel, so
//! receivers pull in parallel and the wheels hold exactly what the serial delivery gives.
//!
//! To find its items without scanning every upstream router's whole list, a receiver reads
//! them from `Binned` lists: at the end of its turn each sender sorts (stably) what it staged
//! in the batch by cycle and by group, a group being the sender's channels towards one
//! receiver with one latency (parallel ports of a wide link share one). Items of one sender to
//! one receiver over channels of different latencies land in different arrival buckets, so
//! splitting them by latency keeps every bucket's order. The sender also replaces its own port
//! by the receiver's, so the receiver reads nothing of the sender's topology.

use crate::flit::{Flit, Wheel};
use crate::router::RouterCore;
use crate::topo::{SimTopology, NONE};

/// A group of a sender's channels, as its receiver pulls it.
#[derive(Debug, Clone, Copy)]
struct Pull {
    sender: u32,
    group: u32,
    latency: u32,
}

/// One direction of the router-to-router channels (flits downstream, credits upstream).
#[derive(Debug, Clone, Default)]
struct Channels {
    /// Start of each router's ports in `to`; length routers + 1.
    port_base: Vec<u32>,
    /// Per port: (the sender's group of the channel, the receiver's port); `NONE` for
    /// endpoint ports, whose items never reach the engine.
    to: Vec<(u32, u32)>,
    /// Groups of each sender.
    groups: Vec<u32>,
    /// Start of each receiver's list in `pulls`; length routers + 1.
    pull_base: Vec<u32>,
    /// Per receiver, the groups sending to it, by ascending sender.
    pulls: Vec<Pull>,
}

impl Channels {
    /// From each router's ports (global index range `offset[r] .. offset[r + 1]`) and, per
    /// port, the router at the other end, the port there and the latency.
    fn new(offset: &[u32], peer: &[u32], peer_port: &[u32], latency: &[u32]) -> Channels {
        let n = offset.len() - 1;
        let mut to = vec![(NONE, NONE); peer.len()];
        let mut groups = vec![0u32; n];
        let mut by_receiver: Vec<Vec<Pull>> = vec![Vec::new(); n];
        let mut keys = Vec::new();
        for s in 0..n {
            keys.clear();
            keys.extend(
                (offset[s] as usize..offset[s + 1] as usize)
                    .filter(|&g| peer[g] != NONE)
                    .map(|g| (peer[g], latency[g], g)),
            );
            keys.sort_unstable();
            let mut last = None;
            for &(r, d, g) in &keys {
                if last != Some((r, d)) {
                    last = Some((r, d));
                    groups[s] += 1;
                    by_receiver[r as usize].push(Pull {
                        sender: s as u32,
                        group: groups[s] - 1,
                        latency: d,
                    });
                }
                to[g] = (groups[s] - 1, peer_port[g]);
            }
        }
        let mut pull_base = Vec::with_capacity(n + 1);
        let mut pulls = Vec::new();
        for list in by_receiver {
            pull_base.push(pulls.len() as u32);
            pulls.extend(list);
        }
        pull_base.push(pulls.len() as u32);
        Channels {
            port_base: offset.to_vec(),
            to,
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

/// One sender's items of a batch, sorted by (cycle, group), each carrying the receiver's port.
#[derive(Debug, Clone, Default)]
struct Binned<V> {
    items: Vec<(u32, V)>,
    /// start[j * groups + g]: first item of cycle j and group g; length cycles * groups + 1.
    start: Vec<u32>,
    groups: u32,
}

impl<V: Copy> Binned<V> {
    /// Sorts `staged` (sender `s`'s (own port, item) of the batch, cycle j's ending at
    /// `ends[j]`) by (cycle, group), stably.
    fn fill(&mut self, ch: &Channels, s: usize, staged: &[(u32, V)], ends: &[u32]) {
        self.items.clear();
        let Some(&first) = staged.first() else {
            return;
        };
        let to = &ch.to[ch.port_base[s] as usize..ch.port_base[s + 1] as usize];
        let groups = ch.groups[s] as usize;
        let keys = ends.len() * groups;
        self.groups = groups as u32;
        self.start.clear();
        self.start.resize(keys + 1, 0);
        let mut from = 0;
        for (j, &end) in ends.iter().enumerate() {
            let row = j * groups + 1;
            for &(p, _) in &staged[from..end as usize] {
                self.start[row + to[p as usize].0 as usize] += 1;
            }
            from = end as usize;
        }
        for key in 1..=keys {
            self.start[key] += self.start[key - 1];
        }
        // start[key] is now the first item of key; used as a cursor it ends as the first of
        // key + 1, hence the shift afterwards.
        self.items.resize(staged.len(), first);
        let mut from = 0;
        for (j, &end) in ends.iter().enumerate() {
            let row = j * groups;
            for &(p, v) in &staged[from..end as usize] {
                let (g, peer_port) = to[p as usize];
                let cursor = &mut self.start[row + g as usize];
                self.items[*cursor as usize] = (peer_port, v);
                *cursor += 1;
            }
            from = end as usize;
        }
        self.start.copy_within(0..keys, 1);
        self.start[0] = 0;
    }
}

/// Pushes into `wheel` what the senders of `pulls` sent in cycle `now` (cycle `j` of their
/// batch; `binned` picks the flits or the credits), each item arriving after its group's
/// latency.
fn pull_cycle<V: Copy>(
    wheel: &mut Wheel<(u32, V)>,
    pulls: &[Pull],
    sent: &[Outbound],
    binned: impl Fn(&Outbound) -> &Binned<V>,
    j: usize,
    now: u32,
) {
    for pl in pulls {
        let b = binned(&sent[pl.sender as usize]);
        if b.items.is_empty() {
            continue;
        }
        let key = j * b.groups as usize + pl.group as usize;
        let arrival = now + pl.latency + 1;
        for &item in &b.items[b.start[key] as usize..b.start[key + 1] as usize] {
            wheel.push(arrival, item);
        }
    }
}

/// What one router sent other routers in a batch, ready for the receivers to pull.
#[derive(Debug, Clone, Default)]
pub struct Outbound {
    flits: Binned<Flit>,
    credits: Binned<u8>,
}

impl Outbound {
    /// Takes what router `c` staged in a batch (cycle j's flits ending at `flit_ends[j]`, its
    /// credits at `credit_ends[j]`) and empties its staged lists.
    pub fn take(
        &mut self,
        links: &Links,
        c: &mut RouterCore,
        flit_ends: &[u32],
        credit_ends: &[u32],
    ) {
        let s = c.id as usize;
        self.flits.fill(&links.flits, s, &c.staged_flits, flit_ends);
        self.credits
            .fill(&links.credits, s, &c.staged_credits, credit_ends);
        c.staged_flits.clear();
        c.staged_credits.clear();
    }
}

/// Pushes into router `c`'s wheels everything the other routers sent it in the `k` cycles
/// from `first` (`sent`: their `Outbound`s, indexed by router), in the serial delivery's
/// order.
pub fn pull(links: &Links, sent: &[Outbound], c: &mut RouterCore, first: u32, k: u32) {
    let r = c.id as usize;
    let (flit_pulls, credit_pulls) = (links.flits.pulls(r), links.credits.pulls(r));
    for j in 0..k as usize {
        let now = first + j as u32;
        pull_cycle(&mut c.flit_wheel, flit_pulls, sent, |o| &o.flits, j, now);
        pull_cycle(
            &mut c.credit_wheel,
            credit_pulls,
            sent,
            |o| &o.credits,
            j,
            now,
        );
    }
}
