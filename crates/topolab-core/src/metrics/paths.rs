//! Shortest-path diversity (Kathareios et al., SC15, §2.3.3): how many minimal router paths join
//! two routers.
//!
//! σ(s, t), the number of shortest paths from s to t, follows the search levels from s:
//! σ(s, s) = 1 and σ(s, v) = Σ σ(s, u) over the in-neighbours u of v one level closer to s.
//! Paths are sequences of routers, so parallel cables of one link (width > 1) do not multiply
//! them. Counts saturate at u64::MAX (reported in `saturated`).
//!
//! Statistics are over the ordered pairs (s, t) of distinct routers with t reachable from s and
//! not adjacent (no link s → t), i.e. at distance ≥ 2, as in Kathareios et al., SC15, §2.3.3
//! ("pairs of non-directly connected routers"). For an undirected network each unordered pair is
//! counted twice with the same σ, which leaves the mean and maximum unchanged.

use crate::error::Result;
use crate::network::Network;
use crate::progress::{Counter, Monitor};
use rayon::prelude::*;

crate::result_type! {
    /// Shortest-path counts σ over ordered pairs of distinct routers at distance >= 2
    /// (Kathareios et al., SC15, §2.3.3).
    pub struct PathDiversity {
        /// Ordered pairs counted (distinct, reachable, not adjacent).
        pub pairs: u64,
        /// Mean σ over those pairs; None when there are none (e.g. a complete graph).
        pub mean: Option<f64>,
        /// Largest σ; None when there are no pairs.
        pub max: Option<u64>,
        /// Pairs with more than one shortest path.
        pub multipath_pairs: u64,
        /// Some count reached u64::MAX (then mean and max are lower bounds).
        pub saturated: bool,
    }
}

/// Sources per unit of progress (and of interruption checks).
const CHUNK: usize = 64;

#[derive(Default)]
struct Partial {
    pairs: u64,
    sum: u128,
    max: u64,
    multipath: u64,
    saturated: bool,
}

impl Partial {
    fn merge(&mut self, other: &Partial) {
        self.pairs += other.pairs;
        self.sum += other.sum;
        self.max = self.max.max(other.max);
        self.multipath += other.multipath;
        self.saturated |= other.saturated;
    }
}

struct Scratch {
    dist: Vec<u32>,
    sigma: Vec<u64>,
    queue: Vec<u32>,
}

/// Shortest-path counts from every router, in parallel over sources.
pub fn path_diversity(net: &Network, monitor: &dyn Monitor) -> Result<PathDiversity> {
    let n = net.num_routers();
    let sources: Vec<u32> = (0..n as u32).collect();
    let counter = Counter::new(monitor, "path diversity", n as u64);
    counter.add(0)?;
    let partials: Vec<Partial> = sources
        .par_chunks(CHUNK)
        .map_init(
            || Scratch {
                dist: vec![u32::MAX; n],
                sigma: vec![0; n],
                queue: Vec::with_capacity(n),
            },
            |scratch, chunk| {
                let mut part = Partial::default();
                for &s in chunk {
                    count_from(net, s as usize, scratch, &mut part);
                }
                counter.add(chunk.len() as u64)?;
                Ok(part)
            },
        )
        .collect::<Result<_>>()?;
    let mut total = Partial::default();
    for p in &partials {
        total.merge(p);
    }
    Ok(PathDiversity {
        pairs: total.pairs,
        mean: (total.pairs > 0).then(|| total.sum as f64 / total.pairs as f64),
        max: (total.pairs > 0).then_some(total.max),
        multipath_pairs: total.multipath,
        saturated: total.saturated,
    })
}

fn count_from(net: &Network, s: usize, scratch: &mut Scratch, part: &mut Partial) {
    let Scratch { dist, sigma, queue } = scratch;
    queue.clear();
    dist[s] = 0;
    sigma[s] = 1;
    queue.push(s as u32);
    let mut head = 0;
    while head < queue.len() {
        let u = queue[head] as usize;
        head += 1;
        let (du, su) = (dist[u], sigma[u]);
        // σ(u) is final here: all of u's predecessors sit one level up and were dequeued first.
        if du >= 2 {
            part.pairs += 1;
            part.sum += su as u128;
            part.max = part.max.max(su);
            part.multipath += (su > 1) as u64;
            part.saturated |= su == u64::MAX;
        }
        for &v in net.neighbors(u) {
            let v = v as usize;
            if dist[v] == u32::MAX {
                dist[v] = du + 1;
                sigma[v] = su;
                queue.push(v as u32);
            } else if dist[v] == du + 1 {
                sigma[v] = sigma[v].saturating_add(su);
            }
        }
    }
    for &v in queue.iter() {
        dist[v as usize] = u32::MAX;
        sigma[v as usize] = 0;
    }
}
