//! Minimal routing for any topology: the table of minimal next hops per (router, destination)
//! and the `min` rule built on it (Besta & Hoefler, SC14, §IV-A; random or lowest-queue next hop).
//!
//! `MinimalTable` answers "which neighbours of r are one hop closer to t" for every pair. When
//! no router has more than 64 neighbours and the table fits `MASK_BUDGET`, the answer is one
//! precomputed mask per pair (bit i: the i-th neighbour is closer; 1 to 8 bytes, as r's degree
//! needs), so a routing decision reads one word instead of every neighbour's distance (a cache miss each on large networks: this
//! is what keeps the simulator fast on networks of thousands of routers). Networks of diameter
//! 2 too large or too wide for the mask (a million-endpoint Slim Fly: 15,842 routers of 133
//! neighbours) get one byte per pair instead, `UniqueNext`: the position of the closer neighbour
//! when there is only one (most pairs), or a mark sending the decision to the sorted-list
//! intersection of the two routers' neighbours. Otherwise the answer is computed from the hop
//! matrix, reading each neighbour's distance in the destination's row.

use super::catalog::{Definition, RoutingEntry, Rule, BOTH, SIMULATOR};
use super::rule::{Hop, HopRouting, RouteState};
use super::shortest::{HopCounts, HopMatrix, NO_PATH};
use super::vc_rule::{vc_rule, VcRule};
use crate::error::{Result, TopolabError};
use crate::network::Network;
use crate::progress::Monitor;
use crate::topology::{ParamDef, ParamKind};
use rayon::prelude::*;
use std::sync::Arc;

/// Largest minimal-next-hop mask table built (bytes).
pub const MASK_BUDGET: usize = 1 << 29;

/// Largest `UniqueNext` table built (bytes, one per router pair: 32,768 routers).
pub const UNIQUE_NEXT_BUDGET: usize = 1 << 30;

/// One byte per (router, destination router) pair of an undirected network of diameter at most
/// 2: the position in `neighbors(r)` of the only neighbour one hop closer to t, `SEVERAL` when
/// more than one is (then they are the common neighbours of r and t), `NONE` when r == t.
#[derive(Debug, Clone)]
struct UniqueNext(Vec<u8>);

impl UniqueNext {
    const NONE: u8 = u8::MAX;
    const SEVERAL: u8 = u8::MAX - 1;
    /// Neighbour positions must stay below the two marks.
    const MAX_DEGREE: usize = Self::SEVERAL as usize;

    /// Row r from the neighbours of r's neighbours: a router w at distance 2 from r is one
    /// hop closer through exactly the neighbours v of r that have w as a neighbour, so walking
    /// r's neighbours in ascending position order and their neighbour lists marks each w with
    /// its first such position, or `SEVERAL` at the second: Σ deg² steps (280 M on the
    /// million-endpoint Slim Fly) where scanning the hop matrix would take n² · deg (33 G).
    fn build(net: &Network, hops: &HopMatrix) -> UniqueNext {
        let n = net.num_routers();
        let mut next = vec![Self::NONE; n * n];
        next.par_chunks_mut(n.max(1))
            .enumerate()
            .for_each(|(r, row)| {
                let nr = net.neighbors(r);
                for (i, &v) in nr.iter().enumerate() {
                    row[v as usize] = i as u8;
                }
                for (i, &v) in nr.iter().enumerate() {
                    for &w in net.neighbors(v as usize) {
                        if hops.get(r, w as usize) == 2 {
                            let e = &mut row[w as usize];
                            *e = if *e == Self::NONE {
                                i as u8
                            } else {
                                Self::SEVERAL
                            };
                        }
                    }
                }
            });
        UniqueNext(next)
    }

    /// Built for undirected networks of diameter at most 2 without the mask, when the table
    /// fits `UNIQUE_NEXT_BUDGET` and the memory this process can get (it only saves time, so
    /// without room the decisions are computed instead).
    fn worth_building(net: &Network, diameter: Option<u32>, max_degree: usize) -> bool {
        let n = net.num_routers();
        !net.directed()
            && diameter.is_some_and(|d| d <= 2)
            && max_degree <= Self::MAX_DEGREE
            && n * n <= UNIQUE_NEXT_BUDGET
            && crate::resources::ensure_memory(
                "minimal routing",
                "network",
                format!("{n} routers"),
                "table of unique next hops",
                (n * n) as u128,
            )
            .is_ok()
    }
}

/// The minimal-next-hop mask of every (router, destination router) pair (bit i: the i-th
/// neighbour is one hop closer), each router's row as wide as its degree needs: one byte per 8
/// neighbours, from 1 to 8 bytes per destination. A network of many low-degree routers and a
/// few wide ones (`topolab compare`'s HammingMesh: 11,008 routers of 4-9 neighbours and 808
/// switches of 27) fits the budget where eight bytes for every pair would not (11,816
/// routers: 1.1 GB at eight bytes, 0.17 GB by degree), and a smaller table stays in the caches
/// longer (a Dragonfly of 1,008 routers of 37 neighbours: 5 MB at 5 bytes, where rounding up
/// to 8 bytes took 3.5% more CPU time under UGAL-L, whose candidates read these entries).
#[derive(Debug, Clone)]
struct NextMasks {
    bytes: Vec<u8>,
    /// Per router: where its row starts in `bytes`, and the bytes per entry.
    rows: Vec<(usize, usize)>,
}

impl NextMasks {
    /// Bytes per entry for a router of `degree` neighbours (at most 64).
    fn width(degree: usize) -> usize {
        degree.div_ceil(8).max(1)
    }

    /// The table's size in bytes, None when some router has more than 64 neighbours.
    fn size(net: &Network) -> Option<usize> {
        let n = net.num_routers();
        (0..n)
            .map(|r| net.neighbors(r).len())
            .try_fold(0usize, |sum, degree| {
                (degree <= 64).then(|| sum + n * Self::width(degree))
            })
    }

    fn build(net: &Network, hops: &HopMatrix) -> NextMasks {
        let n = net.num_routers();
        let mut rows = Vec::with_capacity(n);
        let mut start = 0;
        for r in 0..n {
            let width = Self::width(net.neighbors(r).len());
            rows.push((start, width));
            start += n * width;
        }
        let row_bytes: Vec<Vec<u8>> = (0..n)
            .into_par_iter()
            .map(|r| {
                let width = rows[r].1;
                let mut row = Vec::with_capacity(n * width);
                for t in 0..n {
                    let d = hops.get(r, t);
                    let mut m = 0u64;
                    if d != 0 && d != NO_PATH {
                        for (i, &v) in net.neighbors(r).iter().enumerate() {
                            if hops.get(v as usize, t) == d - 1 {
                                m |= 1 << i;
                            }
                        }
                    }
                    row.extend_from_slice(&m.to_le_bytes()[..width]);
                }
                row
            })
            .collect();
        let mut bytes = row_bytes.concat();
        // `get` reads every entry as one 8-byte word, the last one too.
        bytes.extend_from_slice(&[0; 7]);
        NextMasks { bytes, rows }
    }

    #[inline]
    fn first_byte(&self, r: usize, t: usize) -> Option<&u8> {
        let (start, width) = *self.rows.get(r)?;
        self.bytes.get(start + t * width)
    }

    /// The entry as one little-endian word read whole (the table is padded for the last
    /// one) and cut to its width: one load and one check instead of one per byte.
    #[inline]
    fn get(&self, r: usize, t: usize) -> u64 {
        let (start, width) = self.rows[r];
        let at = start + t * width;
        let word: [u8; 8] = self.bytes[at..at + 8].try_into().expect("8-byte window");
        u64::from_le_bytes(word) & (u64::MAX >> (64 - 8 * width))
    }
}

/// Minimal next hops of every (router, destination router) pair.
#[derive(Debug, Clone)]
pub struct MinimalTable {
    hops: Arc<HopMatrix>,
    n: usize,
    offsets: Vec<u32>,
    targets: Vec<u32>,
    /// Distances to each destination, row by destination (`to_dest[t * n + v] = d(v, t)`),
    /// for directed networks; undirected networks read `hops` (symmetric) row t instead.
    to_dest: Option<HopCounts>,
    mask: Option<NextMasks>,
    unique_next: Option<UniqueNext>,
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
            HopCounts::from_rows(
                (0..n)
                    .map(|d| (0..n).map(|v| hops.get(v, d)).collect())
                    .collect(),
            )
        });
        let (offsets, targets) = net.csr();
        let max_deg = (0..n).map(|r| net.neighbors(r).len()).max().unwrap_or(0);
        let mask = NextMasks::size(net)
            .is_some_and(|size| size <= MASK_BUDGET)
            .then(|| NextMasks::build(net, &hops));
        let unique_next = (mask.is_none() && UniqueNext::worth_building(net, diameter, max_deg))
            .then(|| UniqueNext::build(net, &hops));
        Ok(MinimalTable {
            n,
            offsets: offsets.to_vec(),
            targets: targets.to_vec(),
            to_dest,
            mask,
            unique_next,
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
            Some(rows) => rows.get(t * self.n + v),
            None => self.hops.get(t, v),
        }
    }

    /// Where `dist(v, t)` reads, for a caller that asks for the line ahead (a prefetch).
    #[inline]
    pub fn dist_address(&self, v: usize, t: usize) -> Option<*const u8> {
        match &self.to_dest {
            Some(rows) => rows.address(t * self.n + v),
            None => self.hops.address(t, v),
        }
    }

    #[inline]
    pub fn neighbors(&self, r: usize) -> &[u32] {
        &self.targets[self.offsets[r] as usize..self.offsets[r + 1] as usize]
    }

    /// The precomputed mask of minimal next hops (bit i: `neighbors(r)[i]`), when built.
    #[inline]
    pub fn mask(&self, r: usize, t: usize) -> Option<u64> {
        self.mask.as_ref().map(|m| m.get(r, t))
    }

    /// The first byte of the entry of (r, t) that `for_each_next` reads first
    /// (`HopRouting::table_entry`).
    #[inline]
    pub fn entry(&self, r: usize, t: usize) -> Option<&u8> {
        if let Some(masks) = &self.mask {
            masks.first_byte(r, t)
        } else if let Some(UniqueNext(next)) = &self.unique_next {
            next.get(r * self.n + t)
        } else {
            None
        }
    }

    /// Calls `f` with the position in `neighbors(r)` of every neighbour one hop closer to t
    /// (nothing when r == t or t is unreachable).
    // The mask's loop is inlined into the caller's; the other readings are out of line (one
    // call per decision, with `f` inlined there), so that a caller's callback is inlined at
    // one place instead of seven and stays inlined into its own loop.
    #[inline(always)]
    pub fn for_each_next(&self, r: usize, t: usize, mut f: impl FnMut(u32)) {
        if let Some(mut m) = self.mask(r, t) {
            while m != 0 {
                f(m.trailing_zeros());
                m &= m - 1;
            }
            return;
        }
        self.for_each_next_unmasked(r, t, f)
    }

    /// `for_each_next` without the mask: from the unique-next table, or computed.
    #[inline(never)]
    fn for_each_next_unmasked(&self, r: usize, t: usize, mut f: impl FnMut(u32)) {
        if let Some(UniqueNext(next)) = &self.unique_next {
            // A neighbouring destination is found in r's own neighbour list, which the
            // router's earlier decisions this cycle have brought into the cache; the table's
            // byte would be a miss to memory (half the decisions of a diameter-2 network are
            // the last hop).
            if r != t {
                if let Ok(i) = self.neighbors(r).binary_search(&(t as u32)) {
                    f(i as u32);
                    return;
                }
            }
            match next[r * self.n + t] {
                UniqueNext::NONE => {}
                UniqueNext::SEVERAL => self.common_neighbours(r, t, f),
                i => f(i as u32),
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
            self.common_neighbours(r, t, f);
            return;
        }
        for (i, &v) in nr.iter().enumerate() {
            if self.dist(v as usize, t) == d - 1 {
                f(i as u32);
            }
        }
    }

    /// Calls `f` with the position in `neighbors(r)` of every neighbour of r adjacent to t,
    /// ascending: the closer neighbours when r and t are 2 hops apart on an undirected network.
    #[inline]
    fn common_neighbours(&self, r: usize, t: usize, mut f: impl FnMut(u32)) {
        let (nr, nt) = (self.neighbors(r), self.neighbors(t));
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
    }
}

/// Minimal routing: at every router a neighbour one hop closer to the destination, uniformly
/// (or the least occupied with select=queue). VCs: hop-indexed (VC class k on hop k, Besta &
/// Hoefler, SC14, §IV-D: as many classes as the diameter between endpoint routers) or a single
/// class.
#[derive(Clone)]
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
    fn table_entry(&self, r: u32, t: u32, _st: RouteState) -> Option<&u8> {
        self.table.entry(r as usize, t as usize)
    }
    fn next(&self, r: u32, t: u32, hop: u32, st: RouteState, out: &mut dyn FnMut(Hop)) {
        self.next_each(r, t, hop, st, out)
    }
    #[inline(always)]
    fn next_each<F: FnMut(Hop)>(&self, r: u32, t: u32, hop: u32, st: RouteState, mut out: F) {
        let vc = self.vc(hop);
        // Inlined into the mask's loop with the caller's `out`: one call per candidate hop
        // otherwise.
        self.table.for_each_next(
            r as usize,
            t as usize,
            #[inline(always)]
            |nb| {
                out(Hop {
                    detour: 0,
                    nb,
                    vc,
                    state: st,
                })
            },
        );
    }
}

/// The catalog entry of `min` (`catalog::ROUTINGS`).
pub const MIN: RoutingEntry = RoutingEntry {
    name: "min",
    params: &[
        ParamDef {
            name: "vcs",
            kind: ParamKind::Text,
            default: Some("hop"),
            help: "hop (VC class = hop), single or any (one class)",
        },
    ],
    readers: BOTH,
    summary: "minimal: a random (select=queue: least occupied) neighbour one hop closer; vcs=hop (default, VC class = hop), single or any (one class)",
    source: "Besta & Hoefler, SC14, §IV-A, §IV-D",
    definition: Definition::Rule(|net, params, monitor| {
            let table = Arc::new(MinimalTable::build(net, monitor)?);
            let vcs = vc_rule(params, &[VcRule::Hop, VcRule::Single])?;
            Ok(Rule::from(Minimal::new(table, vcs)?))
    }),
};

/// The catalog entry of `min_static` (`catalog::ROUTINGS`).
pub const MIN_STATIC: RoutingEntry = RoutingEntry {
    name: "min_static",
    params: &[
        ParamDef {
            name: "vcs",
            kind: ParamKind::Text,
            default: Some("any"),
            help: "any (every VC on every hop) or hop (VC class = hop)",
        },
    ],
    readers: SIMULATOR,
    summary: "minimal, one fixed shortest path per router and destination (BookSim2 anynet: Dijkstra, lowest id first); vcs=any (default) or vcs=hop",
    source: "Besta & Hoefler, SC14, §IV-A; BookSim2 anynet",
    definition: Definition::Simulator,
};

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
            "polarfly:q=7",
            "hyperx:dims=3x4",
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
            // Without the mask, with the unique-next table where the diameter allows it (the
            // mask is built instead on these small networks) and without either.
            let unique = table
                .diameter
                .is_some_and(|d| d <= 2)
                .then(|| UniqueNext::build(&net, &hops));
            for unique_next in [unique, None] {
                let with_unique = unique_next.is_some();
                table.unique_next = unique_next;
                for r in 0..n {
                    for t in 0..n {
                        let mut got = Vec::new();
                        table.for_each_next(r, t, |i| got.push(i));
                        let want = closer(&net, &hops, r, t);
                        assert_eq!(got, want, "{spec} ({with_unique}): router {r} towards {t}");
                        if masked {
                            assert_eq!(got, with_mask[r * n + t], "{spec}: mask, {r} -> {t}");
                        }
                    }
                }
            }
        }
    }

    /// Masks of one byte per 8 neighbours (1 to 8 bytes, most of them not aligned to their
    /// width) and of mixed widths (a HammingMesh's boards of 4 neighbours and switches of 12)
    /// give the brute force's candidates.
    #[test]
    fn masks_of_every_width_are_the_brute_forces() {
        for (spec, widths) in [
            ("torus:dims=4x5", &[1][..]),
            ("hyperx:dims=6x6", &[2]),
            ("slimfly:q=13", &[3]),
            ("hyperx:dims=20x20", &[5]),
            ("hyperx:dims=60", &[8]),
            ("hammingmesh:a=2,b=2,x=6,y=6,radix=12,p=1", &[1, 2]),
        ] {
            let net = build_str(spec).unwrap();
            let table = MinimalTable::build(&net, &Silent).unwrap();
            let masks = table.mask.as_ref().expect("within the budget");
            let mut seen: Vec<usize> = masks.rows.iter().map(|&(_, w)| w).collect();
            seen.sort_unstable();
            seen.dedup();
            assert_eq!(seen, widths, "{spec}");
            let hops = table.hops().clone();
            let n = net.num_routers();
            for r in 0..n {
                for t in 0..n {
                    let mut got = Vec::new();
                    table.for_each_next(r, t, |i| got.push(i));
                    assert_eq!(got, closer(&net, &hops, r, t), "{spec}: {r} -> {t}");
                }
            }
        }
    }

    /// A Slim Fly of 65 neighbours per router is too wide for the mask and gets the unique-next
    /// table (diameter 2): its candidates are the brute force's on a sample of source routers
    /// towards every destination, and most pairs have a single closer neighbour.
    #[test]
    fn a_slim_fly_too_wide_for_the_mask_decides_from_the_unique_next_table() {
        let net = build_str("slimfly:q=43").unwrap();
        let table = MinimalTable::build(&net, &Silent).unwrap();
        assert!(table.mask.is_none());
        assert!(table.unique_next.is_some());
        let hops = table.hops().clone();
        let n = net.num_routers();
        let (mut pairs, mut single) = (0, 0);
        for r in (0..n).step_by(97) {
            for t in 0..n {
                let mut got = Vec::new();
                table.for_each_next(r, t, |i| got.push(i));
                let want = closer(&net, &hops, r, t);
                assert_eq!(got, want, "router {r} towards {t}");
                pairs += 1;
                single += (want.len() == 1) as usize;
            }
        }
        assert!(
            single * 10 > pairs * 8,
            "{single} of {pairs} pairs with one next hop"
        );
    }
}
