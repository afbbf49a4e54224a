//! Random regular digraphs (Koibuchi et al., 2018, §III-A "Random"): arcs between uniformly chosen
//! vertex pairs, every vertex with in-degree = out-degree = d, no self-loops, no parallel arcs,
//! strongly connected.
//!
//! Construction: pair d out-stubs per vertex with a uniformly shuffled list of d in-stubs per
//! vertex (the configuration model); a pair that would be a self-loop or repeat an arc is
//! instead realised by an arc switch with a uniformly chosen existing arc (x, y):
//! (t, h) + (x, y) -> (t, y) + (x, h), which keeps all degrees. Above half density
//! (d > (n-1)/2) switches become scarce, so the complement, a random (n-1-d)-regular digraph,
//! is built instead and inverted. A digraph that is not strongly connected, or whose switches
//! run out of tries, is discarded and the next construction stream index is tried.

use super::design::{free_digraphs, Candidate, DesignSpace, Window};
use super::{
    ensure_size, moore_balance, p_param, read_p, Family, ParamDef, ParamKind, Sizes,
    ARBITRARY_PLACEMENT, NOT_SIMULATED, SEED_PARAM,
};
use crate::error::{Result, TopolabError};
use crate::network::{Network, NetworkBuilder};
use crate::rng::{stream, Stream};
use crate::spec::Params;
use rand::seq::SliceRandom;
use rand::Rng;

/// Koibuchi et al., 2018, §III-B3 attaches four hosts to each switch.
const DEFAULT_P: u32 = 4;

/// Construction attempts (stream indices) before giving up. A random d-regular digraph with
/// d >= 2 is strongly connected with probability tending to 1, so this is never reached in
/// practice; it only keeps a pathological case from looping forever.
pub(crate) const MAX_ATTEMPTS: u64 = 64;

/// Random arcs tried per pending pair before an attempt is abandoned.
const SWITCH_TRIES: usize = 10_000;

pub const FAMILY: Family = Family {
    name: "random_directed",
    aliases: &["random_digraph"],
    summary: "random digraph, in-degree = out-degree = d, no self-loops or parallel arcs, strongly connected",
    source: "Koibuchi et al., 2018, §III-A",
    directed: true,
    params: &[
        ParamDef {
            name: "n",
            kind: ParamKind::Int,
            default: None,
            help: "number of routers, > d",
        },
        ParamDef {
            name: "d",
            kind: ParamKind::Int,
            default: None,
            help: "out-degree = in-degree of every router, >= 2",
        },
        SEED_PARAM,
        p_param("4 (Koibuchi et al., 2018, §III-B3)"),
    ],
    build,
    example: "random_directed:n=32,d=3",
    samples: &[
        "random_directed:n=12,d=3",
        "random_directed:n=20,d=4,p=1",
    ],
    display_name: "Random digraph",
    sizes,
    routing: NOT_SIMULATED,
    placement: ARBITRARY_PLACEMENT,
    design: Some(DESIGN),
};

const EMPTY: u32 = u32::MAX;

/// A digraph with at most `d` arcs out of and into each vertex, kept in fixed slots (out and
/// in) so that arcs are found, added and removed in O(d) without reallocating.
#[derive(Debug, Clone)]
pub(crate) struct SlotDigraph {
    n: usize,
    d: usize,
    out: Vec<u32>,
    inc: Vec<u32>,
}

impl SlotDigraph {
    pub(crate) fn new(n: usize, d: usize) -> Self {
        SlotDigraph {
            n,
            d,
            out: vec![EMPTY; n * d],
            inc: vec![EMPTY; n * d],
        }
    }

    /// Appends a vertex without arcs and returns its index.
    pub(crate) fn add_vertex(&mut self) -> usize {
        self.out.resize(self.out.len() + self.d, EMPTY);
        self.inc.resize(self.inc.len() + self.d, EMPTY);
        self.n += 1;
        self.n - 1
    }

    fn slots(v: &[u32], d: usize, u: usize) -> &[u32] {
        &v[u * d..(u + 1) * d]
    }

    pub(crate) fn out(&self, u: usize) -> impl Iterator<Item = u32> + '_ {
        Self::slots(&self.out, self.d, u)
            .iter()
            .copied()
            .filter(|&v| v != EMPTY)
    }

    pub(crate) fn inc(&self, v: usize) -> impl Iterator<Item = u32> + '_ {
        Self::slots(&self.inc, self.d, v)
            .iter()
            .copied()
            .filter(|&u| u != EMPTY)
    }

    pub(crate) fn has_arc(&self, u: u32, v: u32) -> bool {
        Self::slots(&self.out, self.d, u as usize).contains(&v)
    }

    fn put(slots: &mut [u32], d: usize, u: u32, value: u32) {
        let s = &mut slots[u as usize * d..(u as usize + 1) * d];
        let free = s
            .iter()
            .position(|&x| x == EMPTY)
            .expect("degree bound respected by every caller");
        s[free] = value;
    }

    fn take(slots: &mut [u32], d: usize, u: u32, value: u32) {
        let s = &mut slots[u as usize * d..(u as usize + 1) * d];
        let at = s
            .iter()
            .position(|&x| x == value)
            .expect("removed arc exists");
        s[at] = EMPTY;
    }

    pub(crate) fn add_arc(&mut self, u: u32, v: u32) {
        Self::put(&mut self.out, self.d, u, v);
        Self::put(&mut self.inc, self.d, v, u);
    }

    pub(crate) fn remove_arc(&mut self, u: u32, v: u32) {
        Self::take(&mut self.out, self.d, u, v);
        Self::take(&mut self.inc, self.d, v, u);
    }

    /// Removes every arc at `v`; returns its former (in-neighbours, out-neighbours).
    pub(crate) fn isolate(&mut self, v: u32) -> (Vec<u32>, Vec<u32>) {
        let preds: Vec<u32> = self.inc(v as usize).collect();
        let succs: Vec<u32> = self.out(v as usize).collect();
        for &u in &preds {
            self.remove_arc(u, v);
        }
        for &w in &succs {
            self.remove_arc(v, w);
        }
        (preds, succs)
    }

    /// A uniformly random arc, or None when the drawn slot is empty (callers retry).
    pub(crate) fn random_arc<R: Rng>(&self, rng: &mut R) -> Option<(u32, u32)> {
        if self.n == 0 || self.d == 0 {
            return None;
        }
        let slot = rng.random_range(0..self.n * self.d);
        let v = self.out[slot];
        (v != EMPTY).then(|| ((slot / self.d) as u32, v))
    }

    /// Adds one arc from each tail to a head, pairing the two lists at random: a pair that would
    /// be a self-loop or a repeated arc is realised by switching with a random arc (x, y)
    /// into (t, y) and (x, h). False when some pair found no usable switch.
    pub(crate) fn connect<R: Rng>(
        &mut self,
        tails: &[u32],
        mut heads: Vec<u32>,
        rng: &mut R,
    ) -> bool {
        heads.shuffle(rng);
        let mut pending = Vec::new();
        for (&t, &h) in tails.iter().zip(&heads) {
            if t != h && !self.has_arc(t, h) {
                self.add_arc(t, h);
            } else {
                pending.push((t, h));
            }
        }
        'pairs: for (t, h) in pending {
            for _ in 0..SWITCH_TRIES {
                let Some((x, y)) = self.random_arc(rng) else {
                    continue;
                };
                // Rejects loops (t, t)/(h, h) and arcs that exist; x == t or y == h would
                // recreate (t, y) or (t, h) and fail these checks too.
                if t == y || x == h || self.has_arc(t, y) || self.has_arc(x, h) {
                    continue;
                }
                self.remove_arc(x, y);
                self.add_arc(t, y);
                self.add_arc(x, h);
                continue 'pairs;
            }
            return false;
        }
        true
    }

    /// True when every one of the `live` vertices that have arcs is reachable from `start` and
    /// reaches it (vertices without arcs are the removed ones of callers and are ignored).
    pub(crate) fn strongly_connected(&self, start: usize, live: usize) -> bool {
        let reach = |forward: bool| {
            let mut seen = vec![false; self.n];
            let mut stack = vec![start];
            seen[start] = true;
            let mut count = 1;
            while let Some(u) = stack.pop() {
                let next: Vec<u32> = if forward {
                    self.out(u).collect()
                } else {
                    self.inc(u).collect()
                };
                for v in next {
                    if !seen[v as usize] {
                        seen[v as usize] = true;
                        count += 1;
                        stack.push(v as usize);
                    }
                }
            }
            count
        };
        reach(true) == live && reach(false) == live
    }

    /// Adds every arc as a width-1 link of class `class`, renumbering vertex u to `index[u]`.
    pub(crate) fn add_links(&self, b: &mut NetworkBuilder, index: &[u32], class: u16) {
        for u in 0..self.n {
            for v in self.out(u) {
                b.add_link(index[u] as usize, index[v as usize] as usize, 1, class);
            }
        }
    }
}

/// A uniform-ish random loopless digraph with all in- and out-degrees `d`, or None when the
/// switches ran out of tries.
fn random_regular<R: Rng>(n: usize, d: usize, rng: &mut R) -> Option<SlotDigraph> {
    let complement = 2 * d > n - 1;
    let dg = if complement { n - 1 - d } else { d };
    let mut g = SlotDigraph::new(n, dg);
    let stubs: Vec<u32> = (0..n * dg).map(|i| (i / dg) as u32).collect();
    if !g.connect(&stubs, stubs.clone(), rng) {
        return None;
    }
    if !complement {
        return Some(g);
    }
    let mut full = SlotDigraph::new(n, d);
    for u in 0..n as u32 {
        for v in (0..n as u32).filter(|&v| v != u && !g.has_arc(u, v)) {
            full.add_arc(u, v);
        }
    }
    Some(full)
}

/// `n` and `d` of the degree-regular directed families (random_directed, mddp, imase): a router
/// needs d distinct other routers, so d < n, and the size is checked before anything is built.
pub(super) fn read_order_and_degree(p: &Params) -> Result<(u32, u32)> {
    let n = p.u32("n", 3, u32::MAX - 1, "number of routers")?;
    let d = p.u32("d", 2, u32::MAX - 1, "out-degree of every router")?;
    if d >= n {
        return Err(p.invalid(
            "d",
            d,
            &format!(
                "an integer from 2 to n-1 = {} (a vertex needs d distinct other vertices; \
                 d >= n would need parallel arcs)",
                n - 1
            ),
        ));
    }
    ensure_size(p, "n", n, n as u128, n as u128 * d as u128)?;
    Ok((n, d))
}

/// Sizes of an n-router digraph of out-degree d, balanced by the directed Moore bound (Koibuchi et
/// al., 2018, §I).
pub(super) fn digraph_sizes(n: u32, d: u32, conc: u32) -> Sizes {
    Sizes::direct(n as u128, d, conc, moore_balance(d, n as u64, true))
}

fn sizes(p: &Params) -> Result<Sizes> {
    let (n, d) = read_order_and_degree(p)?;
    p.seed()?;
    Ok(digraph_sizes(n, d, read_p(p, DEFAULT_P)?))
}

fn build(p: &Params) -> Result<Network> {
    let (n, d) = read_order_and_degree(p)?;
    let seed = p.seed()?;
    let conc = read_p(p, DEFAULT_P)?;
    let (nu, du) = (n as usize, d as usize);
    for attempt in 0..MAX_ATTEMPTS {
        let mut rng = stream(seed, Stream::Construction, attempt);
        let Some(g) = random_regular(nu, du, &mut rng) else {
            continue;
        };
        if !g.strongly_connected(0, nu) {
            continue;
        }
        let mut b = NetworkBuilder::new("random_directed", nu, true);
        b.label_fields(&["index"]);
        for r in 0..nu {
            b.set_label(r, &[r as i64]);
        }
        let arc = b.link_class("arc");
        let identity: Vec<u32> = (0..n).collect();
        g.add_links(&mut b, &identity, arc);
        b.uniform_endpoints(conc);
        return b.build();
    }
    Err(TopolabError::InvalidNetwork(format!(
        "random_directed: no strongly connected {d}-regular digraph on {n} vertices found in {MAX_ATTEMPTS} attempts with seed {seed}"
    )))
}

/// What `topolab compare` tries of this family (docs/compare.md §1).
const DESIGN: DesignSpace = DesignSpace {
    enumerate: design_space,
    smaller_members: None,
    twin: None,
    twin_origin: None,
};

/// Random regular digraphs (Koibuchi et al., 2018, §III-A) at full radix: d = K - p, n ~ N/p.
fn design_space(w: &Window) -> Vec<Candidate> {
    free_digraphs(w, "random_directed", "Koibuchi et al., 2018, §III-A")
}

#[cfg(test)]
mod construction {
    //! Random regular digraphs: degrees, simplicity, strong connectivity, determinism and the
    //! Random row of Koibuchi et al., 2018, Table 1.

    use crate::metrics::distance::{diameter, distances_from};
    use crate::{build_str, find_family, Network};

    fn aspl(net: &Network) -> f64 {
        let n = net.num_routers();
        let total: u64 = (0..n)
            .map(|s| {
                distances_from(net, s)
                    .iter()
                    .map(|&x| x as u64)
                    .sum::<u64>()
            })
            .sum();
        total as f64 / (n * (n - 1)) as f64
    }

    fn check_regular(net: &Network, n: usize, d: u32) {
        assert!(net.directed());
        assert_eq!(net.num_routers(), n);
        assert_eq!(net.num_links(), n as u64 * d as u64);
        let indeg = net.in_degrees();
        for (r, &din) in indeg.iter().enumerate() {
            assert_eq!(net.degree(r), d, "out-degree of {r}");
            assert_eq!(din, d, "in-degree of {r}");
            assert!(!net.neighbors(r).contains(&(r as u32)), "self-loop at {r}");
            assert!(
                net.neighbors(r).windows(2).all(|w| w[0] < w[1]),
                "parallel arcs at {r}"
            );
            assert_eq!(net.label(r), &[r as i64]);
        }
        assert!(net.links().iter().all(|l| l.width == 1));
        assert!(diameter(net).is_some(), "strongly connected");
    }

    #[test]
    fn regular_simple_and_strongly_connected_from_sparse_to_complete() {
        // Includes the complete digraph (n = d + 1), the densest non-complete cases and both sides
        // of half density, where the construction switches to the complement.
        for (n, d) in [
            (3usize, 2u32),
            (4, 3),
            (5, 3),
            (6, 3),
            (7, 3),
            (9, 4),
            (10, 5),
            (11, 5),
            (12, 10),
            (30, 2),
            (64, 6),
            (200, 150),
            (1000, 12),
        ] {
            for seed in 0..3 {
                let net = build_str(&format!("random_directed:n={n},d={d},seed={seed}")).unwrap();
                check_regular(&net, n, d);
                assert_eq!(net.num_endpoints(), 4 * n as u64, "default p = 4");
            }
        }
        let complete = build_str("random_directed:n=6,d=5").unwrap();
        assert_eq!(diameter(&complete), Some(1));
    }

    #[test]
    fn same_seed_same_network_different_seed_different_network() {
        let a = build_str("random_directed:n=100,d=4,seed=7").unwrap();
        let b = build_str("random_directed:n=100,d=4,seed=7").unwrap();
        let c = build_str("random_directed:n=100,d=4,seed=8").unwrap();
        let dflt = build_str("random_directed:n=100,d=4").unwrap();
        let zero = build_str("random_directed:n=100,d=4,seed=0").unwrap();
        assert_eq!(a.links(), b.links());
        assert_ne!(a.links(), c.links());
        assert_eq!(dflt.links(), zero.links(), "seed defaults to 0");
    }

    #[test]
    fn aspl_matches_table_1() {
        // Koibuchi et al., 2018, Table 1, Rand row: ASPL 2.39, 3.18, 2.80 (one instance each; ours over
        // three seeds).
        for (n, d, expected) in [(64, 6, 2.39), (256, 6, 3.18), (256, 8, 2.80)] {
            for seed in 0..3 {
                let net =
                    build_str(&format!("random_directed:n={n},d={d},seed={seed},p=1")).unwrap();
                let got = aspl(&net);
                assert!(
                    (got - expected).abs() < 0.03,
                    "n={n} d={d} seed={seed}: ASPL {got:.3} vs {expected}"
                );
            }
        }
    }

    #[test]
    fn bad_parameters_are_errors_naming_the_parameter() {
        for (spec, param, needle) in [
            ("random_directed:n=10,d=1", "'d'", "from 2"),
            ("random_directed:n=10,d=10", "'d'", "n-1 = 9"),
            (
                "random_directed:n=10,d=30",
                "'d'",
                "distinct other vertices",
            ),
            ("random_directed:n=2,d=2", "'n'", "from 3"),
            ("random_directed:d=2", "'n'", "missing"),
            ("random_directed:n=10", "'d'", "missing"),
            ("random_directed:n=10,d=3,seed=-1", "'seed'", "integer"),
            ("random_directed:n=100000000,d=3", "'n'", "routers"),
            ("random_directed:n=10000000,d=30", "'n'", "links"),
        ] {
            let msg = build_str(spec).unwrap_err().to_string();
            assert!(msg.contains(param) && msg.contains(needle), "{spec}: {msg}");
        }
    }

    #[test]
    fn registered_as_directed_with_a_working_example() {
        let f = find_family("random_directed").unwrap();
        assert!(f.directed);
        assert!(build_str(f.example).unwrap().directed());
    }
}
