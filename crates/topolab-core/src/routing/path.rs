//! Routings for static analysis: "the set of (path, VC per hop, probability) a packet from router
//! s to router t may take".
//!
//! Oblivious routings give a probability distribution over their paths; adaptive routings are
//! analysed on the union of their candidate paths (UGAL = minimal ∪ Valiant), with probabilities
//! that are then only a weighting. Everything static (the channel dependency graph in `cdg`,
//! channel loads in `load`, forwarding tables in `export`) is computed from `RouteDef::paths`.
//!
//! A channel is (directed link, VC). Directed links are the arcs of the network's CSR adjacency:
//! arc `offsets[r] + i` goes from r to `neighbors(r)[i]`, so channel = arc · num_vcs + vc.

use crate::error::{Result, TopolabError};
use crate::network::Network;

use super::rule::Ports;

/// Largest number of paths one (s, t) pair may have before enumeration stops with an error.
pub const MAX_PATHS_PER_PAIR: usize = 200_000;

/// The paths of one (s, t) pair in flat storage, reused from pair to pair.
#[derive(Debug, Clone, Default)]
pub struct PathSet {
    /// Routers of all paths, each path from s to t inclusive.
    pub routers: Vec<u32>,
    /// VC of hop j of a path at index start + j (parallel to `routers`; the slot of the last
    /// router is unused and 0).
    pub vcs: Vec<u8>,
    /// Path i is `routers[starts[i]..starts[i + 1]]`.
    pub starts: Vec<u32>,
    pub weights: Vec<f64>,
}

impl PathSet {
    pub fn clear(&mut self) {
        self.routers.clear();
        self.vcs.clear();
        self.starts.clear();
        self.starts.push(0);
        self.weights.clear();
    }

    pub fn len(&self) -> usize {
        self.starts.len().saturating_sub(1)
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Appends one path (routers s..=t, `vcs[j]` the VC of hop j) with probability `weight`.
    pub fn push(&mut self, routers: &[u32], vcs: &[u8], weight: f64) {
        debug_assert_eq!(vcs.len() + 1, routers.len());
        self.routers.extend_from_slice(routers);
        self.vcs.extend_from_slice(vcs);
        self.vcs.push(0);
        self.starts.push(self.routers.len() as u32);
        self.weights.push(weight);
    }

    /// (routers, vcs per hop, weight) of path i.
    pub fn path(&self, i: usize) -> (&[u32], &[u8], f64) {
        let (a, b) = (self.starts[i] as usize, self.starts[i + 1] as usize);
        (&self.routers[a..b], &self.vcs[a..b - 1], self.weights[i])
    }

    fn check_size(&self) -> Result<()> {
        if self.len() > MAX_PATHS_PER_PAIR {
            return Err(TopolabError::InvalidNetwork(format!(
                "a router pair has more than {MAX_PATHS_PER_PAIR} paths under this routing; \
                 analyse a smaller network or a routing with fewer paths"
            )));
        }
        Ok(())
    }
}

/// A routing as static analysis sees it.
pub trait RouteDef: Sync {
    /// Name with parameters, e.g. "min:vcs=hop".
    fn name(&self) -> String;
    /// Number of VCs the scheme needs (its VC numbers are below this).
    fn num_vcs(&self) -> u32;
    /// True when `paths` gives a probability distribution (oblivious routing); false when it is
    /// the union of an adaptive routing's candidates.
    fn oblivious(&self) -> bool {
        true
    }
    /// Clears `out` and fills it with the paths from router s to router t (s != t).
    fn paths(&self, s: usize, t: usize, out: &mut PathSet) -> Result<()>;
    /// Which of a link's parallel ports a packet takes (the simulator's reading): static
    /// channel loads spread a hop's traffic over the link's ports or put it on one of them.
    fn ports(&self) -> Ports {
        Ports::Random
    }
}

/// Arc index of the directed link u -> v, if it exists.
#[inline]
pub fn arc(net: &Network, u: usize, v: usize) -> Option<usize> {
    let (offsets, _) = net.csr();
    net.neighbors(u)
        .binary_search(&(v as u32))
        .ok()
        .map(|i| offsets[u] as usize + i)
}

/// Number of arcs (directed links) of the network.
pub fn num_arcs(net: &Network) -> usize {
    net.csr().1.len()
}

/// Where `walk` goes from one (router, state): candidate (next router, next state, VC of the
/// hop, weight); the walk takes each with its weight's share of the candidates' total.
pub type Step<S = u32> = (u32, S, u8, f64);

/// The candidate function of `walk`: (router, state, hop index, candidates out).
pub type NextFn<'a, S = u32> = dyn FnMut(u32, S, usize, &mut Vec<Step<S>>) + 'a;

/// Enumerates every path of a "weighted choice among candidates at each router" routing from s
/// to t. `next(router, state, hop, out)` pushes the candidates at `router`; a path ends at the
/// first visit of t where `next` offers none (a routing may pass through t, e.g. towards a
/// Valiant intermediate). The walk stops with an error after `max_hops` hops (a livelocking
/// routing), at a dead end before t, or at too many paths.
pub fn walk<S: Copy>(
    s: usize,
    t: usize,
    state0: S,
    max_hops: usize,
    out: &mut PathSet,
    next: &mut NextFn<'_, S>,
) -> Result<()> {
    // Explicit DFS: cands[d] holds the candidates at the router of depth d and idx[d] the next
    // one to try; candidate lists are kept (not freed) for reuse at the same depth.
    let mut routers = vec![s as u32];
    let mut states = vec![state0];
    let mut vcs: Vec<u8> = Vec::new();
    let mut probs = vec![1.0f64];
    let mut cands: Vec<Vec<Step<S>>> = vec![Vec::new()];
    // The candidates' total weight at each depth.
    let mut totals: Vec<f64> = vec![0.0];
    let mut idx: Vec<usize> = vec![0];
    next(s as u32, state0, 0, &mut cands[0]);
    totals[0] = cands[0].iter().map(|c| c.3).sum();
    if cands[0].is_empty() {
        if s == t {
            out.push(&routers, &vcs, 1.0);
            return Ok(());
        }
        return Err(no_route(s, t));
    }
    let mut top = 1usize; // live depths
    while top > 0 {
        let d = top - 1;
        routers.truncate(d + 1);
        states.truncate(d + 1);
        probs.truncate(d + 1);
        vcs.truncate(d);
        let i = idx[d];
        if i == cands[d].len() {
            top -= 1;
            continue;
        }
        idx[d] += 1;
        let (r, st, vc, w) = cands[d][i];
        let p = probs[d] * w / totals[d];
        routers.push(r);
        states.push(st);
        probs.push(p);
        vcs.push(vc);
        if cands.len() == top {
            cands.push(Vec::new());
            totals.push(0.0);
            idx.push(0);
        }
        cands[top].clear();
        idx[top] = 0;
        next(r, st, d + 1, &mut cands[top]);
        totals[top] = cands[top].iter().map(|c| c.3).sum();
        if cands[top].is_empty() {
            if r as usize == t {
                out.push(&routers, &vcs, p);
                out.check_size()?;
                continue;
            }
            return Err(no_route(s, t));
        }
        if routers.len() > max_hops {
            return Err(TopolabError::InvalidNetwork(format!(
                "routing from router {s} to router {t} exceeds {max_hops} hops (livelock?)"
            )));
        }
        top += 1;
    }
    Ok(())
}

fn no_route(s: usize, t: usize) -> TopolabError {
    TopolabError::InvalidNetwork(format!(
        "no route from router {s} to router {t} (disconnected network or routing dead end)"
    ))
}

/// One route per ordered pair of traffic routers (`cdg::traffic_routers`): the most probable of
/// `routing`'s paths, the first listed among equals. What a static, single-path consumer takes
/// (SimGrid's route table).
pub fn static_routes(net: &Network, routing: &dyn RouteDef) -> Result<Vec<(u32, u32, Vec<u32>)>> {
    let terms = super::cdg::traffic_routers(net);
    let mut out = Vec::new();
    let mut ps = PathSet::default();
    for &s in &terms {
        for &t in &terms {
            if s == t {
                continue;
            }
            routing.paths(s, t, &mut ps)?;
            let best = (0..ps.len())
                .max_by(|&a, &b| {
                    ps.path(a)
                        .2
                        .partial_cmp(&ps.path(b).2)
                        .unwrap_or(std::cmp::Ordering::Equal)
                        .then(b.cmp(&a))
                })
                .ok_or_else(|| no_route(s, t))?;
            out.push((s as u32, t as u32, ps.path(best).0.to_vec()));
        }
    }
    Ok(out)
}
