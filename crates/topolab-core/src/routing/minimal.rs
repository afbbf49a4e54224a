//! Minimal routing for any topology: the table of minimal next hops per (router, destination)
//! and the `min` rule built on it (000 §IV-A; random or lowest-queue next hop).
//!
//! `MinimalTable` answers "which neighbours of r are one hop closer to t" for every pair. When
//! no router has more than 64 neighbours and the table fits `MASK_BUDGET`, the answer is one
//! precomputed u64 per pair (bit i: the i-th neighbour is closer), so a routing decision reads
//! one word instead of every neighbour's distance (a cache miss each on large networks: this
//! is what keeps the simulator fast on networks of thousands of routers). Otherwise it is
//! computed from the hop matrix, reading each neighbour's distance in the destination's row.

use super::generic::VcRule;
use super::rule::{Hop, HopRouting, RouteState};
use super::shortest::{HopMatrix, NO_PATH};
use crate::error::{Result, TopolabError};
use crate::network::Network;
use crate::progress::Monitor;
use rayon::prelude::*;
use std::sync::Arc;

/// Largest minimal-next-hop mask table built (bytes).
pub const MASK_BUDGET: usize = 1 << 29;

/// Minimal next hops of every (router, destination router) pair.
#[derive(Debug, Clone)]
pub struct MinimalTable {
    hops: Arc<HopMatrix>,
    n: usize,
    offsets: Vec<u32>,
    targets: Vec<u32>,
    /// Distances to each destination, row by destination (`to_dest[t * n + v] = d(v, t)`),
    /// for directed networks; undirected networks read `hops` (symmetric) row t instead.
    to_dest: Option<Vec<u16>>,
    mask: Option<Vec<u64>>,
    /// Longest shortest path between routers with endpoints (all routers when the network has
    /// no endpoints): the hop-indexed VC classes minimal routing needs.
    pub endpoint_diameter: u32,
    /// Longest shortest path between any two routers; None when some router cannot reach
    /// another.
    pub diameter: Option<u32>,
}

/// Routers that source and sink traffic: those with endpoints, or all when there are none.
pub fn endpoint_routers(net: &Network) -> Vec<u32> {
    let with: Vec<u32> = (0..net.num_routers() as u32)
        .filter(|&r| net.endpoints()[r as usize] > 0)
        .collect();
    if with.is_empty() {
        (0..net.num_routers() as u32).collect()
    } else {
        with
    }
}

/// Longest shortest path between endpoint routers (at least 1); an error naming the pair when
/// one cannot reach another.
pub fn endpoint_diameter(net: &Network, hops: &HopMatrix) -> Result<u32> {
    let ends = endpoint_routers(net);
    let mut diameter = 0u32;
    for &s in &ends {
        for &t in &ends {
            let d = hops.get(s as usize, t as usize);
            if d == NO_PATH {
                return Err(TopolabError::InvalidNetwork(format!(
                    "router {t} cannot be reached from router {s}; minimal routing needs every endpoint router to reach every other"
                )));
            }
            diameter = diameter.max(d as u32);
        }
    }
    Ok(diameter.max(1))
}

impl MinimalTable {
    /// Builds the table; fails when a router with endpoints cannot reach another one.
    pub fn build(net: &Network, monitor: &dyn Monitor) -> Result<MinimalTable> {
        Self::from_hops(net, Arc::new(HopMatrix::build(net, monitor)?))
    }

    pub fn from_hops(net: &Network, hops: Arc<HopMatrix>) -> Result<MinimalTable> {
        let n = net.num_routers();
        let endpoint_diameter = endpoint_diameter(net, &hops)?;
        let diameter = hops.connected().then(|| hops.max_finite() as u32);
        let to_dest = net.directed().then(|| {
            let mut t = vec![0u16; n * n];
            for v in 0..n {
                for d in 0..n {
                    t[d * n + v] = hops.get(v, d);
                }
            }
            t
        });
        let (offsets, targets) = net.csr();
        let max_deg = (0..n).map(|r| net.neighbors(r).len()).max().unwrap_or(0);
        let mask = (max_deg <= 64 && n * n * 8 <= MASK_BUDGET).then(|| {
            let rows: Vec<Vec<u64>> = (0..n)
                .into_par_iter()
                .map(|r| {
                    (0..n)
                        .map(|t| {
                            let d = hops.get(r, t);
                            if d == 0 || d == NO_PATH {
                                return 0;
                            }
                            let mut m = 0u64;
                            for (i, &v) in net.neighbors(r).iter().enumerate() {
                                if hops.get(v as usize, t) == d - 1 {
                                    m |= 1 << i;
                                }
                            }
                            m
                        })
                        .collect()
                })
                .collect();
            rows.concat()
        });
        Ok(MinimalTable {
            n,
            offsets: offsets.to_vec(),
            targets: targets.to_vec(),
            to_dest,
            mask,
            endpoint_diameter,
            diameter,
            hops,
        })
    }

    pub fn hops(&self) -> &Arc<HopMatrix> {
        &self.hops
    }

    pub fn num_routers(&self) -> usize {
        self.n
    }

    /// Hop distance from `v` to `t`.
    #[inline]
    pub fn dist(&self, v: usize, t: usize) -> u16 {
        match &self.to_dest {
            Some(rows) => rows[t * self.n + v],
            None => self.hops.get(t, v),
        }
    }

    #[inline]
    pub fn neighbors(&self, r: usize) -> &[u32] {
        &self.targets[self.offsets[r] as usize..self.offsets[r + 1] as usize]
    }

    /// The precomputed mask of minimal next hops (bit i: `neighbors(r)[i]`), when built.
    #[inline]
    pub fn mask(&self, r: usize, t: usize) -> Option<u64> {
        self.mask.as_ref().map(|m| m[r * self.n + t])
    }

    /// Calls `f` with the position in `neighbors(r)` of every neighbour one hop closer to t
    /// (nothing when r == t or t is unreachable).
    #[inline]
    pub fn for_each_next(&self, r: usize, t: usize, mut f: impl FnMut(u32)) {
        if let Some(mut m) = self.mask(r, t) {
            while m != 0 {
                f(m.trailing_zeros());
                m &= m - 1;
            }
            return;
        }
        let d = self.dist(r, t);
        if d == 0 || d == NO_PATH {
            return;
        }
        // Without the mask, every neighbour's distance is a load from t's row of the hop
        // matrix, a cache miss each once the matrix outgrows the caches (some 130 per decision
        // on a million-endpoint Slim Fly). The two nearest cases need no distance: at d = 1
        // the one closer neighbour is t itself; at d = 2 on an undirected network the closer
        // neighbours are those adjacent to t, i.e. N(r) ∩ N(t), two short sorted lists. Same
        // candidates, same (ascending) order, so the same random choice.
        let nr = self.neighbors(r);
        if d == 1 {
            if let Ok(i) = nr.binary_search(&(t as u32)) {
                f(i as u32);
            }
            return;
        }
        if d == 2 && self.to_dest.is_none() {
            let nt = self.neighbors(t);
            // Both indices advance without a branch (a compare-and-branch per step would be
            // mispredicted about every other step); only the rare common neighbour branches.
            let (mut i, mut j) = (0, 0);
            while i < nr.len() && j < nt.len() {
                let (a, b) = (nr[i], nt[j]);
                if a == b {
                    f(i as u32);
                }
                i += (a <= b) as usize;
                j += (b <= a) as usize;
            }
            return;
        }
        for (i, &v) in nr.iter().enumerate() {
            if self.dist(v as usize, t) == d - 1 {
                f(i as u32);
            }
        }
    }
}

/// Minimal routing: at every router a neighbour one hop closer to the destination, uniformly
/// (or the least occupied with select=queue). VCs: hop-indexed (VC class k on hop k, 000
/// §IV-D: as many classes as the diameter between endpoint routers) or a single class.
pub struct Minimal {
    pub table: Arc<MinimalTable>,
    pub vcs: VcRule,
}

impl Minimal {
    pub fn new(table: Arc<MinimalTable>, vcs: VcRule) -> Result<Minimal> {
        if vcs == VcRule::Phase {
            return Err(TopolabError::InvalidParameter {
                context: "min".into(),
                param: "vcs".into(),
                value: "phase".into(),
                allowed: "hop, single (or any)".into(),
            });
        }
        Ok(Minimal { table, vcs })
    }

    /// VC class of hop `hop` (hop-indexed classes stop at the last one; only paths between
    /// routers without endpoints are that long).
    #[inline]
    pub fn vc(&self, hop: u32) -> u8 {
        match self.vcs {
            VcRule::Hop => hop.min(self.table.endpoint_diameter - 1) as u8,
            _ => 0,
        }
    }
}

impl HopRouting for Minimal {
    fn name(&self) -> String {
        format!("min:vcs={}", self.vcs.name())
    }
    fn vc_classes(&self) -> u32 {
        match self.vcs {
            VcRule::Hop => self.table.endpoint_diameter,
            _ => 1,
        }
    }
    fn max_hops(&self) -> u32 {
        self.table
            .diameter
            .unwrap_or(self.table.endpoint_diameter)
            .max(1)
    }
    fn start(&self, _s: u32, _t: u32, out: &mut Vec<(RouteState, f64)>) {
        out.push((RouteState::default(), 1.0));
    }
    fn sample_start(&self, _s: u32, _t: u32, _rng: &mut rand_chacha::ChaCha8Rng) -> RouteState {
        RouteState::default()
    }
    #[inline]
    fn next(&self, r: u32, t: u32, hop: u32, st: RouteState, out: &mut dyn FnMut(Hop)) {
        let vc = self.vc(hop);
        self.table.for_each_next(r as usize, t as usize, |nb| {
            out(Hop {
                detour: 0,
                nb,
                vc,
                state: st,
            })
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::progress::Silent;
    use crate::topology::build_str;

    /// Brute force: positions of r's neighbours one hop closer to t, from the hop matrix.
    fn closer(net: &Network, hops: &HopMatrix, r: usize, t: usize) -> Vec<u32> {
        let d = hops.get(r, t);
        if d == 0 || d == NO_PATH {
            return Vec::new();
        }
        (0..net.neighbors(r).len() as u32)
            .filter(|&i| hops.get(net.neighbors(r)[i as usize] as usize, t) == d - 1)
            .collect()
    }

    /// The path taken without the mask (networks above 64 neighbours or the mask budget):
    /// the same neighbours in the same order as the brute force, on undirected networks of
    /// diameter 2 and 3 (the d = 1 and d = 2 shortcuts and the row scan) and a directed one.
    #[test]
    fn without_the_mask_the_candidates_are_the_brute_forces() {
        for spec in [
            "slimfly:q=5",
            "slimfly:q=7",
            "torus:dims=4x5",
            "hyperx:dims=3x4x3",
            "kautz:d=3,k=3",
        ] {
            let net = build_str(spec).unwrap();
            let mut table = MinimalTable::build(&net, &Silent).unwrap();
            let masked = table.mask.is_some();
            let hops = table.hops().clone();
            let n = net.num_routers();
            let mut with_mask = Vec::new();
            for r in 0..n {
                for t in 0..n {
                    let mut got = Vec::new();
                    table.for_each_next(r, t, |i| got.push(i));
                    with_mask.push(got);
                }
            }
            table.mask = None;
            for r in 0..n {
                for t in 0..n {
                    let mut got = Vec::new();
                    table.for_each_next(r, t, |i| got.push(i));
                    let want = closer(&net, &hops, r, t);
                    assert_eq!(got, want, "{spec}: router {r} towards {t}");
                    if masked {
                        assert_eq!(got, with_mask[r * n + t], "{spec}: mask, {r} -> {t}");
                    }
                }
            }
        }
    }
}
