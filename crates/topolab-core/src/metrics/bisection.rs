//! Bisection: a two-way partition of the routers, balanced by endpoints, that cuts as few links
//! as possible, computed with METIS as in the papers (Besta & Hoefler, SC14, §III-C, Kathareios et
//! al., SC15, §2.3.2 and Fig. 4, Koibuchi et al., 2018, §I and §III-A). Minimum bisection is
//! NP-hard, so METIS gives an upper bound; the best of several seeded runs is kept.
//!
//! Definitions (docs/bisection.md has the full discussion):
//! - balanced: the endpoint totals of the two sides differ by at most the largest endpoint
//!   count of one router, `|E0 - E1| <= max_r e_r`. With a uniform concentration p this is exact
//!   balance (router counts differ by at most one); routers without endpoints (the upper levels
//!   of indirect networks) weigh 0 and go wherever they cut least, because the bisection of a
//!   network is the cut separating its endpoints into halves.
//! - links cut: links with ends on different sides, counting width. For a directed network
//!   both directions are counted separately and added (Koibuchi et al., 2018, §I: "in- and
//!   out-degrees are counted separately"); `links_0_to_1` and `links_1_to_0` give each direction.
//! - bandwidth per endpoint (Kathareios et al., SC15, Fig. 4, in link units b): the capacity from
//!   one side to the other divided by the endpoints of one half, `min(links_0_to_1, links_1_to_0) /
//!   (N / 2)`. An undirected link carries b each way, so for undirected networks this is
//!   `links_cut / (N / 2)`: 1.0 for a full-bisection fat tree, ~0.71 for Slim Fly with
//!   p = floor(k'/2) (Kathareios et al., SC15, §2.3.2).

use crate::error::{Result, TopolabError};
use crate::network::Network;
use crate::progress::Monitor;
use crate::rng::{stream, Stream};
use metis::{Graph, Idx, Real};
use rand::RngCore;
use std::collections::BTreeSet;
use std::sync::Mutex;

crate::result_type! {
    /// The endpoint-balanced bisection METIS finds, best of `runs` seeded runs (Besta &
    /// Hoefler, SC14, §III-C; docs/bisection.md): `links_cut` is an upper bound on the minimum
    /// bisection (minimum bisection is NP-hard); `lower_bound`, where it holds, a lower bound:
    /// the minimum lies between the two.
    pub struct Bisection {
        /// Links between the two sides, counting width; directed: both directions added.
        pub links_cut: u64,
        /// Link capacity from side 0 to side 1 (undirected: equals `links_cut`).
        pub links_0_to_1: u64,
        /// Link capacity from side 1 to side 0 (undirected: equals `links_cut`).
        pub links_1_to_0: u64,
        /// Bisection bandwidth per endpoint in link units:
        /// `min(links_0_to_1, links_1_to_0) / (N/2)`.
        pub per_endpoint: f64,
        /// Endpoints on side 0 and side 1.
        pub endpoints: [u64; 2],
        /// Routers on side 0 and side 1.
        pub routers: [u64; 2],
        /// Side (0 or 1) of each router; router 0 is always on side 0.
        pub side: Vec<u8>,
        pub directed: bool,
        pub runs: u32,
        pub seed: u64,
        /// The run (0-based) whose partition was kept: the first one with the fewest links cut.
        pub best_run: u32,
        /// The spectral lower bound on the minimum (`spectral_lower_bound`) where it holds
        /// (undirected, regular, the same endpoints on every router), else None; `analyze`
        /// fills it in.
        pub lower_bound: Option<u64>,
    }
}

/// A lower bound on the links any endpoint-balanced bisection cuts, from the spectrum (Donath &
/// Hoffman, IBM J. Res. Dev. 1973; Fiedler 1973): a router set S cuts at least
/// λ2(L)·|S|·|V∖S|/n links, λ2(L) the Laplacian's second smallest eigenvalue, which for a
/// d-regular network is d − λ2(A) (`Spectrum`). Given only where it holds for the bisection
/// defined here: undirected, regular (degree counting width) and every router with the same
/// endpoints (then balanced by endpoints means router counts differing by at most one). None
/// otherwise. METIS's cut is an upper bound; the minimum lies between the two.
pub fn spectral_lower_bound(net: &Network, spectrum: &super::spectral::Spectrum) -> Option<u64> {
    let n = net.num_routers();
    let d = spectrum.regular_degree? as f64;
    let p = net.endpoints().first().copied()?;
    if net.directed() || n < 2 || p == 0 || net.endpoints().iter().any(|&e| e != p) {
        return None;
    }
    // The eigenvalue is exact within `error_bound`: take the bound's safe side.
    let laplacian_gap = (d - spectrum.lambda2 - spectrum.error_bound).max(0.0);
    let (small, large) = ((n / 2) as f64, (n - n / 2) as f64);
    let bound = laplacian_gap * small * large / n as f64;
    // Cuts are integers: the least integer not below the bound, after a relative margin for
    // the rounding of the product.
    Some((bound * (1.0 - 1e-9)).ceil() as u64)
}

/// METIS draws its random numbers from the C library's process-wide `rand()` state (GKlib
/// without USE_GKRAND), so two partitions running at once would interleave their draws and
/// lose determinism. One METIS call at a time.
static METIS_LOCK: Mutex<()> = Mutex::new(());

const CONTEXT: &str = "bisection";

/// The most METIS runs one bisection makes: each is a full partitioning, and past a few dozen
/// the best cut stops improving (the default is 5).
pub const MAX_RUNS: u32 = 1000;

/// Refuses a run count outside 1..=MAX_RUNS.
pub fn check_runs(runs: u32) -> Result<()> {
    if !(1..=MAX_RUNS).contains(&runs) {
        return Err(TopolabError::invalid(
            CONTEXT,
            "bisection_runs",
            runs,
            format!("from 1 to {MAX_RUNS} METIS runs"),
        ));
    }
    Ok(())
}

/// The minimum balanced bisection METIS finds in `runs` runs seeded from `seed`
/// (`Stream::Partition`, one stream per run). Deterministic for a given input on a given C
/// library.
pub fn bisection(net: &Network, runs: u32, seed: u64, monitor: &dyn Monitor) -> Result<Bisection> {
    check_runs(runs)?;
    let graph = MetisGraph::new(net)?;
    let mut best: Option<(u64, u64, u32, Vec<u8>)> = None;
    for run in 0..runs {
        monitor.progress(CONTEXT, run as u64, runs as u64)?;
        let metis_seed = (stream(seed, Stream::Partition, run as u64).next_u32() >> 1) as Idx;
        let mut side = graph.partition(metis_seed, run)?;
        graph.repair_balance(&mut side);
        graph.refine(&mut side);
        if side[0] == 1 {
            side.iter_mut().for_each(|s| *s ^= 1);
        }
        let cut = graph.cut(&side);
        let imbalance = graph.imbalance(&side);
        let better = match &best {
            None => true,
            Some((c, i, _, _)) => (cut, imbalance) < (*c, *i),
        };
        if better {
            best = Some((cut, imbalance, run, side));
        }
    }
    monitor.progress(CONTEXT, runs as u64, runs as u64)?;
    let (_, _, best_run, side) = best.expect("runs >= 1");
    Ok(describe(net, side, runs, seed, best_run))
}

/// Counts what a partition cuts, directly from the network's links.
fn describe(net: &Network, side: Vec<u8>, runs: u32, seed: u64, best_run: u32) -> Bisection {
    let mut forward = 0u64;
    let mut backward = 0u64;
    for l in net.links() {
        let (a, b) = (side[l.src as usize], side[l.dst as usize]);
        if a == 0 && b == 1 {
            forward += l.width as u64;
        } else if a == 1 && b == 0 {
            backward += l.width as u64;
        }
    }
    let (links_cut, links_0_to_1, links_1_to_0) = if net.directed() {
        (forward + backward, forward, backward)
    } else {
        let cut = forward + backward;
        (cut, cut, cut)
    };
    let mut endpoints = [0u64; 2];
    let mut routers = [0u64; 2];
    for (r, &s) in side.iter().enumerate() {
        endpoints[s as usize] += net.endpoints()[r] as u64;
        routers[s as usize] += 1;
    }
    let half = net.num_endpoints() as f64 / 2.0;
    Bisection {
        links_cut,
        links_0_to_1,
        links_1_to_0,
        per_endpoint: links_0_to_1.min(links_1_to_0) as f64 / half,
        endpoints,
        routers,
        side,
        directed: net.directed(),
        runs,
        seed,
        best_run,
        lower_bound: None,
    }
}

/// The network as METIS wants it: symmetric CSR with i32 indices, edge weight = link width
/// (directed: the widths of u->v and v->u added, so METIS minimises both directions together),
/// vertex weight = endpoints.
struct MetisGraph {
    xadj: Vec<Idx>,
    adjncy: Vec<Idx>,
    adjwgt: Vec<Idx>,
    vwgt: Vec<Idx>,
    total_endpoints: i64,
    max_endpoints: i64,
}

impl MetisGraph {
    fn new(net: &Network) -> Result<Self> {
        let n = net.num_routers();
        if n < 2 {
            return Err(TopolabError::invalid(
                CONTEXT,
                "network",
                format!("{n} router(s)"),
                "at least 2 routers",
            ));
        }
        let total: u64 = net.num_endpoints();
        let (heaviest, &max_e) = net
            .endpoints()
            .iter()
            .enumerate()
            .max_by_key(|&(r, e)| (*e, std::cmp::Reverse(r)))
            .expect("n >= 2");
        if total < 2 {
            return Err(TopolabError::invalid(
                CONTEXT,
                "endpoints",
                total,
                "at least 2 endpoints in total: the bisection splits the endpoints in halves \
                 (give the routers endpoints: a family's p parameter, or endpoints per router \
                 when loading a file)",
            ));
        }
        if 2 * max_e as u64 > total {
            return Err(TopolabError::invalid(
                CONTEXT,
                "endpoints",
                format!("{max_e} of {total} on router {heaviest}"),
                "at most half of the endpoints on any one router, so that they can be balanced",
            ));
        }
        let too_large = |what: &str, value: u64| {
            TopolabError::invalid(
                CONTEXT,
                "network",
                format!("{value} {what}"),
                format!("at most {} {what} (METIS 32-bit indices)", Idx::MAX),
            )
        };
        if n as u64 > Idx::MAX as u64 {
            return Err(too_large("routers", n as u64));
        }
        if total > Idx::MAX as u64 {
            return Err(too_large("endpoints", total));
        }
        // Undirected pairs (min, max) with summed widths; directed u->v and v->u merge here.
        let mut pairs: Vec<(u32, u32, u64)> = net
            .links()
            .iter()
            .map(|l| (l.src.min(l.dst), l.src.max(l.dst), l.width as u64))
            .collect();
        pairs.sort_unstable();
        pairs.dedup_by(|next, kept| {
            let same = (next.0, next.1) == (kept.0, kept.1);
            if same {
                kept.2 += next.2;
            }
            same
        });
        let weight_sum: u64 = pairs.iter().map(|p| 2 * p.2).sum();
        if weight_sum > Idx::MAX as u64 {
            return Err(too_large("link widths (twice the total)", weight_sum));
        }
        let mut degree = vec![0usize; n + 1];
        for &(a, b, _) in &pairs {
            degree[a as usize + 1] += 1;
            degree[b as usize + 1] += 1;
        }
        for i in 0..n {
            degree[i + 1] += degree[i];
        }
        let mut fill = degree.clone();
        let mut adjncy = vec![0 as Idx; 2 * pairs.len()];
        let mut adjwgt = vec![0 as Idx; 2 * pairs.len()];
        // Pairs are sorted by (a, b), so every row fills in ascending neighbour order.
        for &(a, b, w) in &pairs {
            for (u, v) in [(a, b), (b, a)] {
                let slot = &mut fill[u as usize];
                adjncy[*slot] = v as Idx;
                adjwgt[*slot] = w as Idx;
                *slot += 1;
            }
        }
        Ok(MetisGraph {
            xadj: degree.iter().map(|&d| d as Idx).collect(),
            adjncy,
            adjwgt,
            vwgt: net.endpoints().iter().map(|&e| e as Idx).collect(),
            total_endpoints: total as i64,
            max_endpoints: max_e as i64,
        })
    }

    fn num_routers(&self) -> usize {
        self.vwgt.len()
    }

    /// One METIS multilevel bisection (METIS_PartGraphRecursive, 2 parts) with the tolerance
    /// of the balance definition: each side at most (N + max_e) / 2 endpoints. Even runs start
    /// from METIS' greedy grown bisection (its default), odd runs from a random one: on small
    /// graphs the seed alone often leads every run to the same local optimum.
    fn partition(&self, seed: Idx, run: u32) -> Result<Vec<u8>> {
        let initial = if run.is_multiple_of(2) {
            metis::option::IpType::Grow
        } else {
            metis::option::IpType::Random
        };
        let ubvec: [Real; 1] = [1.0 + self.max_endpoints as Real / self.total_endpoints as Real];
        let mut part = vec![0 as Idx; self.num_routers()];
        let metis_error = |e: &dyn std::fmt::Display| {
            TopolabError::InvalidNetwork(format!("METIS could not partition the network: {e}"))
        };
        {
            let _only_one = METIS_LOCK
                .lock()
                .unwrap_or_else(|poisoned| poisoned.into_inner());
            Graph::new(1, 2, &self.xadj, &self.adjncy)
                .map_err(|e| metis_error(&e))?
                .set_vwgt(&self.vwgt)
                .set_adjwgt(&self.adjwgt)
                .set_ubvec(&ubvec)
                .set_option(metis::option::Seed(seed))
                .set_option(initial)
                .part_recursive(&mut part)
                .map_err(|e| metis_error(&e))?;
        }
        Ok(part.iter().map(|&p| (p != 0) as u8).collect())
    }

    /// Endpoints on side 0 minus endpoints on side 1.
    fn difference(&self, side: &[u8]) -> i64 {
        side.iter()
            .zip(&self.vwgt)
            .map(|(&s, &w)| if s == 0 { w as i64 } else { -(w as i64) })
            .sum()
    }

    fn imbalance(&self, side: &[u8]) -> u64 {
        self.difference(side).unsigned_abs()
    }

    /// Total edge weight across the partition (directed: both directions).
    fn cut(&self, side: &[u8]) -> u64 {
        let mut twice = 0u64;
        for u in 0..self.num_routers() {
            for k in self.xadj[u] as usize..self.xadj[u + 1] as usize {
                if side[u] != side[self.adjncy[k] as usize] {
                    twice += self.adjwgt[k] as u64;
                }
            }
        }
        twice / 2
    }

    /// METIS may miss the balance tolerance on small or lumpy graphs. Moves routers with
    /// endpoints from the heavier to the lighter side, each time the one whose move adds the
    /// least cut (lowest index on ties), until `|E0 - E1| <= max_e`. Each move lowers the
    /// difference: it was above max_e >= e, so it ends above -e; a router moves at most once.
    fn repair_balance(&self, side: &mut [u8]) {
        let mut diff = self.difference(side);
        while diff.abs() > self.max_endpoints {
            let heavy: u8 = if diff > 0 { 0 } else { 1 };
            let mut chosen: Option<(i64, usize)> = None;
            for u in 0..self.num_routers() {
                if side[u] != heavy || self.vwgt[u] == 0 {
                    continue;
                }
                // Cut added by moving u: its links inside its side minus those across.
                let mut added = 0i64;
                for k in self.xadj[u] as usize..self.xadj[u + 1] as usize {
                    let w = self.adjwgt[k] as i64;
                    added += if side[self.adjncy[k] as usize] == heavy {
                        w
                    } else {
                        -w
                    };
                }
                match chosen {
                    Some((best, _)) if best <= added => {}
                    _ => chosen = Some((added, u)),
                }
            }
            let (_, u) = chosen.expect("the heavier side holds endpoints");
            side[u] ^= 1;
            let w = self.vwgt[u] as i64;
            diff += if heavy == 0 { -2 * w } else { 2 * w };
        }
    }

    /// Fiduccia–Mattheyses refinement under this module's balance rule, after METIS (whose own
    /// FM works to its looser, fractional tolerance and, on small lumpy graphs, sometimes
    /// misses it) and after `repair_balance`. A pass moves every router at most once, each time
    /// the feasible move (balance kept) with the largest cut reduction, negative ones included,
    /// then keeps the best prefix; passes repeat while they improve the cut (at most 10, as
    /// METIS' niter). Ties go to the lowest router index: deterministic.
    fn refine(&self, side: &mut [u8]) {
        for _pass in 0..10 {
            if !self.fm_pass(side) {
                break;
            }
        }
    }

    /// One FM pass; true when it lowered the cut.
    fn fm_pass(&self, side: &mut [u8]) -> bool {
        /// Candidates looked at per side before giving up on that side for this move: moves
        /// are usually blocked only for a few heavy routers, and this bounds the work.
        const SCAN: usize = 64;
        let n = self.num_routers();
        let row = |u: usize| self.xadj[u] as usize..self.xadj[u + 1] as usize;
        // gain[u]: cut reduction when u changes side.
        let mut gain: Vec<i64> = (0..n)
            .map(|u| {
                row(u)
                    .map(|k| {
                        let w = self.adjwgt[k] as i64;
                        if side[self.adjncy[k] as usize] != side[u] {
                            w
                        } else {
                            -w
                        }
                    })
                    .sum()
            })
            .collect();
        let mut queues: [BTreeSet<(i64, u32)>; 2] = [BTreeSet::new(), BTreeSet::new()];
        for u in 0..n {
            queues[side[u] as usize].insert((-gain[u], u as u32));
        }
        let mut diff = self.difference(side);
        let (mut change, mut best_change, mut best_len) = (0i64, 0i64, 0usize);
        let mut moved: Vec<u32> = Vec::new();
        loop {
            let mut choice: Option<(i64, u32)> = None;
            for (s, queue) in queues.iter().enumerate() {
                let sign = if s == 0 { -2 } else { 2 };
                let feasible = queue.iter().take(SCAN).find(|&&(_, u)| {
                    (diff + sign * self.vwgt[u as usize] as i64).abs() <= self.max_endpoints
                });
                // The larger gain, then the lower router index.
                if let Some(&candidate) = feasible {
                    if choice.is_none_or(|best| candidate < best) {
                        choice = Some(candidate);
                    }
                }
            }
            let Some((neg_gain, u)) = choice else { break };
            let u = u as usize;
            let from = side[u];
            queues[from as usize].remove(&(neg_gain, u as u32));
            side[u] ^= 1;
            diff += if from == 0 { -2 } else { 2 } * self.vwgt[u] as i64;
            change += neg_gain;
            moved.push(u as u32);
            // u's neighbours: a link to u flips between inside and across.
            for k in row(u) {
                let v = self.adjncy[k] as usize;
                let w = self.adjwgt[k] as i64;
                let queue = &mut queues[side[v] as usize];
                if queue.remove(&(-gain[v], v as u32)) {
                    gain[v] += if side[v] == side[u] { -2 * w } else { 2 * w };
                    queue.insert((-gain[v], v as u32));
                } else {
                    gain[v] += if side[v] == side[u] { -2 * w } else { 2 * w };
                }
            }
            if change < best_change {
                best_change = change;
                best_len = moved.len();
            }
        }
        for &u in &moved[best_len..] {
            side[u as usize] ^= 1;
        }
        best_change < 0
    }
}
