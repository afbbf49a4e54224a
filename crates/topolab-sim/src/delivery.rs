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
use crate::topo::{PortLink, SimTopology, NONE};

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
    /// From each router's ports (global index range `offset[r] .. offset[r + 1]`) and each
    /// port's channel.
    fn new(offset: &[u32], link: &[PortLink]) -> Channels {
        let n = offset.len() - 1;
        let mut group = vec![NONE; link.len()];
        let mut groups = vec![0u32; n];
        let mut by_receiver: Vec<Vec<Pull>> = vec![Vec::new(); n];
        let mut keys = Vec::new();
        for s in 0..n {
            let base = offset[s] as usize;
            keys.clear();
            keys.extend(
                (base..offset[s + 1] as usize)
                    .filter(|&g| link[g].peer != NONE)
                    .map(|g| (link[g].peer, link[g].latency, g)),
            );
            keys.sort_unstable();
            let mut last = None;
            for &(r, d, g) in &keys {
                let port_shift = link[g].peer_port.wrapping_sub((g - base) as u32);
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
            flits: Channels::new(&topo.out_offset, &topo.out_link),
            credits: Channels::new(&topo.in_offset, &topo.in_link),
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
    /// Nothing was sent.
    pub fn is_empty(&self) -> bool {
        self.flits.items.is_empty() && self.credits.items.is_empty()
    }

    /// Takes what router `s` staged in a batch (cycle j's flits ending at `flit_ends[j]`, its
    /// credits at `credit_ends[j]`), leaving it empty lists.
    pub fn take(
        &mut self,
        links: &Links,
        s: usize,
        staged_flits: &mut Vec<(u32, Flit)>,
        staged_credits: &mut Vec<(u32, u8)>,
        flit_ends: &[u32],
        credit_ends: &[u32],
    ) {
        self.flits.fill(&links.flits, s, staged_flits, flit_ends);
        self.credits
            .fill(&links.credits, s, staged_credits, credit_ends);
    }
}

/// Pushes into router `c`'s wheels everything the other routers sent it in the batch of
/// cycles from `first` (`sent`: their `Outbound`s, indexed by router), in the serial
/// delivery's order.
pub fn pull(links: &Links, sent: &[Outbound], c: &mut RouterCore, first: u32) {
    let r = c.id as usize;
    pull_into(
        links,
        sent,
        r,
        &mut c.flit_wheel,
        &mut c.credit_wheel,
        first,
    );
}

/// `pull` into router `r`'s wheels.
fn pull_into(
    links: &Links,
    sent: &[Outbound],
    r: usize,
    flit_wheel: &mut Wheel<(u32, Flit)>,
    credit_wheel: &mut Wheel<(u32, u8)>,
    first: u32,
) {
    pull_batch(flit_wheel, links.flits.pulls(r), sent, |o| &o.flits, first);
    pull_batch(
        credit_wheel,
        links.credits.pulls(r),
        sent,
        |o| &o.credits,
        first,
    );
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
        fn wheels<T: Copy>(n: usize, max_latency: u32) -> Vec<Wheel<T>> {
            (0..n).map(|_| Wheel::new(max_latency + 1)).collect()
        }
        let (mut serial_f, mut pulled_f) = (wheels(n, max_latency), wheels(n, max_latency));
        let (mut serial_c, mut pulled_c) = (wheels(n, max_latency), wheels(n, max_latency));
        let mut sent = vec![Outbound::default(); n];
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
                        serial_c[l.peer as usize].push(now + l.latency + 1, (l.peer_port, vc));
                    }
                }
            }
            for (s, (cycles, out)) in staged.iter().zip(sent.iter_mut()).enumerate() {
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
                    s,
                    &mut flits,
                    &mut credits,
                    &flit_ends,
                    &credit_ends,
                );
                assert!(flits.is_empty() && credits.is_empty());
            }
            for r in 0..n {
                pull_into(&links, &sent, r, &mut pulled_f[r], &mut pulled_c[r], first);
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
