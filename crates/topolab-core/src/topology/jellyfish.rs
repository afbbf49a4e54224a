//! Jellyfish: a uniformly random simple regular graph of the routers (the "random" topologies of
//! Besta & Hoefler, SC14, §III; Koibuchi et al., 2018, §III-A "Random"; Fujiwara et al., IPDPS
//! 2014, Random(N, d)), conditioned on being connected.
//!
//! The graph comes from the Steger–Wormald pairing process: every router owns `degree` points;
//! repeatedly two unpaired points are drawn uniformly and joined when the pair is suitable
//! (different routers, not yet adjacent); when no suitable pair is left the attempt restarts.
//! Its output is asymptotically uniform over all d-regular graphs and it costs O(n·d) expected
//! work, which matters because 100,000-router networks are built routinely. Restarts and
//! disconnected results move on to the next construction stream of the seed, so the network
//! is a function of (routers, degree, seed) alone.

use super::design::{
    free_router_count, random_graph_members, Candidate, DesignParams, DesignSpace, Member, Window,
};
use super::{
    ensure_size, moore_balance, p_param, read_p, Family, ParamDef, ParamKind, Sizes,
    ARBITRARY_PLACEMENT, RANDOM_GRAPH_ROUTING, SEED_PARAM,
};
use crate::error::{Result, TopolabError};
use crate::network::{Network, NetworkBuilder};
use crate::rng::{stream, Stream};
use crate::spec::Params;
use rand::seq::SliceRandom;
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use std::collections::HashSet;
use std::hash::{BuildHasherDefault, Hasher};

pub const FAMILY: Family = Family {
    name: "jellyfish",
    aliases: &["rrg"],
    summary: "uniformly random connected simple regular graph of the routers (Jellyfish)",
    source: "Besta & Hoefler, SC14, §III (random topologies, balanced p); Koibuchi et al., 2018, §III-A; Fujiwara et al., IPDPS 2014, §III-A Random(N, d)",
    directed: false,
    params: &[
        ParamDef {
            name: "routers",
            kind: ParamKind::Int,
            default: None,
            help: "number of routers, >= 2",
        },
        ParamDef {
            name: "degree",
            kind: ParamKind::Int,
            default: None,
            help: "router-to-router links per router, 1 <= degree < routers, routers*degree even",
        },
        p_param("floor(sqrt(k)) for the router radix k = degree + p (Besta & Hoefler, SC14, §III, DLN rule)"),
        SEED_PARAM,
    ],
    build,
    example: "jellyfish:routers=64,degree=6",
    samples: &[
        "jellyfish:routers=20,degree=4",
        "jellyfish:routers=15,degree=6,p=2,seed=3",
    ],
    display_name: "Jellyfish",
    sizes,
    routing: RANDOM_GRAPH_ROUTING,
    placement: ARBITRARY_PLACEMENT,
    design: Some(DESIGN),
};

/// Construction streams tried before giving up. A d-regular graph with d >= 3 is connected and
/// the pairing succeeds with probability bounded away from 0, so 100 failures in a row mean a
/// bug, not bad luck.
pub(crate) const MAX_ATTEMPTS: u64 = 100;

/// Draws that may miss in a row before the pairing switches to enumerating the suitable pairs.
const MISS_LIMIT: u32 = 64;

/// The balanced concentration of Besta & Hoefler, SC14, §III for random topologies, p =
/// floor(sqrt(k)), where the router radix k = k' + p includes the endpoint ports. The fixed point
/// is the largest p with p(p-1) <= k': then p² <= k' + p < (p+1)².
pub fn balanced_p(network_degree: u32) -> u32 {
    let k = network_degree as u64;
    let mut p = 0u64;
    while (p + 1) * p <= k {
        p += 1;
    }
    p as u32
}

/// Degree-regular; balanced by the Moore-bound estimate (`moore_balance`, Besta & Hoefler, SC14,
/// §II-B2's rule).
fn sizes(p: &Params) -> Result<Sizes> {
    let (n, d, conc, _) = read_shape(p)?;
    Ok(Sizes::direct(
        n as u128,
        d,
        conc,
        moore_balance(d, n as u64, false),
    ))
}

/// (routers, degree, p, seed) after checking them.
fn read_shape(p: &Params) -> Result<(u32, u32, u32, u64)> {
    let n = p.u32("routers", 2, u32::MAX - 1, "number of routers, >= 2")?;
    let d = p.u32(
        "degree",
        1,
        u32::MAX,
        "router-to-router links per router (network degree)",
    )?;
    if d >= n {
        return Err(p.invalid(
            "degree",
            d,
            &format!("at most routers - 1 = {} (a simple graph)", n - 1),
        ));
    }
    if (n as u64 * d as u64) % 2 == 1 {
        return Err(p.invalid(
            "degree",
            d,
            &format!("an even number when routers = {n} is odd (routers*degree link ends pair up)"),
        ));
    }
    if d == 1 && n > 2 {
        return Err(p.invalid(
            "degree",
            d,
            &format!("at least 2 for {n} routers (degree 1 connects only 2 routers)"),
        ));
    }
    ensure_size(p, "routers", n, n as u128, n as u128 * d as u128 / 2)?;
    let conc = read_p(p, balanced_p(d))?;
    Ok((n, d, conc, p.seed()?))
}

fn build(p: &Params) -> Result<Network> {
    let (n, d, conc, seed) = read_shape(p)?;

    let edges = connected_regular(n, d, seed).ok_or_else(|| {
        TopolabError::InvalidNetwork(format!(
            "jellyfish: no connected {d}-regular graph on {n} routers found in {MAX_ATTEMPTS} attempts (seed {seed})"
        ))
    })?;
    let mut b = NetworkBuilder::new("jellyfish", n as usize, false);
    let random = b.link_class("random");
    for (u, v) in edges {
        b.add_link(u as usize, v as usize, 1, random);
    }
    b.uniform_endpoints(conc);
    b.build()
}

/// Edges of a connected simple d-regular graph on n vertices, or None after MAX_ATTEMPTS.
fn connected_regular(n: u32, d: u32, seed: u64) -> Option<Vec<(u32, u32)>> {
    for attempt in 0..MAX_ATTEMPTS {
        let mut rng = stream(seed, Stream::Construction, attempt);
        let edges = match d {
            1 => vec![(0, 1)],
            // A random 2-regular graph is almost never connected for large n; conditioned on
            // connectivity it is a uniformly random Hamiltonian cycle, i.e. a shuffled ring.
            2 => {
                let mut order: Vec<u32> = (0..n).collect();
                order.shuffle(&mut rng);
                (0..n as usize)
                    .map(|i| (order[i], order[(i + 1) % n as usize]))
                    .collect()
            }
            _ => match random_regular(n, d, 0, |_, _| false, &mut rng) {
                Some(e) => e,
                None => continue,
            },
        };
        if is_connected(n, &edges) {
            return Some(edges);
        }
    }
    None
}

pub(crate) fn is_connected(n: u32, edges: &[(u32, u32)]) -> bool {
    let mut parent: Vec<u32> = (0..n).collect();
    fn root(parent: &mut [u32], mut x: u32) -> u32 {
        while parent[x as usize] != x {
            let up = parent[parent[x as usize] as usize];
            parent[x as usize] = up;
            x = up;
        }
        x
    }
    let mut components = n;
    for &(u, v) in edges {
        let (ru, rv) = (root(&mut parent, u), root(&mut parent, v));
        if ru != rv {
            parent[ru as usize] = rv;
            components -= 1;
        }
    }
    components == 1
}

/// Edges (u, v) of a random simple d-regular graph on n vertices that shares no edge with a
/// `base_degree`-regular base graph whose edges `forbidden` recognises (none for Jellyfish, the
/// ring for DLN). None when this attempt's pairing got stuck; the caller retries with a fresh
/// stream. Requires n·d even and d <= n - 1 - base_degree.
pub(crate) fn random_regular(
    n: u32,
    d: u32,
    base_degree: u32,
    forbidden: impl Fn(u32, u32) -> bool + Copy,
    rng: &mut ChaCha8Rng,
) -> Option<Vec<(u32, u32)>> {
    let free = n - 1 - base_degree;
    debug_assert!(d <= free && (n as u64 * d as u64) & 1 == 0);
    if 2 * d > free {
        // Pairing gets stuck ever more often as the graph fills up. Complementing within the
        // allowed pairs maps uniform (free-d)-regular graphs onto uniform d-regular ones, so a
        // dense graph is built as the complement of a sparse one. n·(free-d) is even because
        // n·(n-1) and n·base_degree are.
        let sparse = pairing(n, free - d, forbidden, rng)?;
        return Some(complement(n, &sparse, forbidden));
    }
    pairing(n, d, forbidden, rng)
}

/// The splitmix64 finaliser: SipHash's protection against adversarial keys is not needed for
/// edge keys, and hashing is on the pairing's hot path.
#[derive(Default)]
struct EdgeHasher(u64);

impl Hasher for EdgeHasher {
    fn finish(&self) -> u64 {
        let mut x = self.0;
        x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        x ^ (x >> 31)
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ b as u64;
        }
    }

    fn write_u64(&mut self, x: u64) {
        self.0 = x;
    }
}

type EdgeSet = HashSet<u64, BuildHasherDefault<EdgeHasher>>;

fn edge_key(u: u32, v: u32) -> u64 {
    let (a, b) = if u < v { (u, v) } else { (v, u) };
    (a as u64) << 32 | b as u64
}

/// One Steger–Wormald attempt. The hash set only answers membership queries; nothing iterates
/// it, so its per-process hash keys cannot influence the result.
fn pairing(
    n: u32,
    d: u32,
    forbidden: impl Fn(u32, u32) -> bool,
    rng: &mut ChaCha8Rng,
) -> Option<Vec<(u32, u32)>> {
    let total = n as usize * d as usize;
    let mut points: Vec<u32> = (0..total).map(|i| (i / d as usize) as u32).collect();
    let mut edges = Vec::with_capacity(total / 2);
    let mut present = EdgeSet::with_capacity_and_hasher(total / 2, Default::default());
    let suitable = |u: u32, v: u32, present: &EdgeSet| {
        u != v && !forbidden(u, v) && !present.contains(&edge_key(u, v))
    };
    let mut m = total;
    let mut misses = 0;
    while m > 0 {
        let (i, j) = if misses < MISS_LIMIT {
            // Ordered pairs of points are equally likely, so accepted unordered suitable pairs
            // are too: this is the uniform choice among suitable pairs, by rejection.
            let i = rng.random_range(0..m as u32) as usize;
            let j = rng.random_range(0..m as u32) as usize;
            if !suitable(points[i], points[j], &present) {
                misses += 1;
                continue;
            }
            (i, j)
        } else {
            pick_suitable(&points[..m], |u, v| suitable(u, v, &present), rng)?
        };
        let (u, v) = (points[i], points[j]);
        present.insert(edge_key(u, v));
        edges.push((u.min(v), u.max(v)));
        let (lo, hi) = (i.min(j), i.max(j));
        points.swap(hi, m - 1);
        points.swap(lo, m - 2);
        m -= 2;
        misses = 0;
    }
    Some(edges)
}

/// Positions of a suitable pair of points drawn uniformly among all suitable pairs, found by
/// enumeration, or None when there is none (the attempt is stuck). Reached only when rejection
/// keeps failing, i.e. when few distinct routers still have free points.
fn pick_suitable(
    points: &[u32],
    suitable: impl Fn(u32, u32) -> bool,
    rng: &mut ChaCha8Rng,
) -> Option<(usize, usize)> {
    let mut sorted = points.to_vec();
    sorted.sort_unstable();
    let mut groups: Vec<(u32, u64)> = Vec::new();
    for &v in &sorted {
        match groups.last_mut() {
            Some((last, c)) if *last == v => *c += 1,
            _ => groups.push((v, 1)),
        }
    }
    let mut pairs = Vec::new();
    let mut total = 0u64;
    for (x, &(u, cu)) in groups.iter().enumerate() {
        for &(v, cv) in &groups[x + 1..] {
            if suitable(u, v) {
                total += cu * cv;
                pairs.push((u, v, total));
            }
        }
    }
    if total == 0 {
        return None;
    }
    let r = rng.random_range(0..total);
    let &(u, v, _) = pairs.iter().find(|&&(_, _, upto)| r < upto)?;
    let i = points.iter().position(|&x| x == u)?;
    let j = points.iter().position(|&x| x == v)?;
    Some((i, j))
}

/// All allowed pairs (not forbidden) that are not edges of `sparse`.
fn complement(
    n: u32,
    sparse: &[(u32, u32)],
    forbidden: impl Fn(u32, u32) -> bool,
) -> Vec<(u32, u32)> {
    let mut adj: Vec<Vec<u32>> = vec![Vec::new(); n as usize];
    for &(u, v) in sparse {
        adj[u as usize].push(v);
        adj[v as usize].push(u);
    }
    let mut edges = Vec::new();
    for u in 0..n {
        let list = &mut adj[u as usize];
        list.sort_unstable();
        for v in u + 1..n {
            if !forbidden(u, v) && list.binary_search(&v).is_err() {
                edges.push((u, v));
            }
        }
    }
    edges
}

/// What `topolab compare` tries of this family (docs/compare.md §1).
const DESIGN: DesignSpace = DesignSpace {
    enumerate: design_space,
    smaller_members: Some(smaller_members),
    twin: Some(twin),
    twin_origin: None,
};

fn twin(routers: u64, degree: u32, p: u32) -> DesignParams {
    vec![
        ("routers", routers.into()),
        ("degree", degree.into()),
        ("p", p.into()),
    ]
}

/// Random regular graphs (Besta & Hoefler, SC14, §III; Fujiwara et al., IPDPS 2014, §III-A
/// Random(N, d)): degree K - p at router count ~N/p ("full radix"); the twins of the balanced Slim
/// Flies and Dragonflies are `twin`'s.
fn design_space(w: &Window) -> Vec<Candidate> {
    free_router_count(
        w,
        "jellyfish",
        "Besta & Hoefler, SC14, §III; Fujiwara et al., IPDPS 2014, §III-A",
        &twin,
    )
}

/// Smaller degrees with routers / degree^2 kept.
fn smaller_members(m: &Member) -> Result<Vec<String>> {
    Ok(random_graph_members(
        m,
        m.int("routers")?,
        m.int("degree")?,
        &|routers, d| format!("jellyfish:routers={routers},degree={d}"),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check_regular(n: u32, d: u32, edges: &[(u32, u32)]) {
        let mut deg = vec![0u32; n as usize];
        let mut keys: Vec<u64> = edges.iter().map(|&(u, v)| edge_key(u, v)).collect();
        for &(u, v) in edges {
            assert_ne!(u, v);
            deg[u as usize] += 1;
            deg[v as usize] += 1;
        }
        keys.sort_unstable();
        keys.dedup();
        assert_eq!(keys.len(), edges.len(), "parallel edges");
        assert!(deg.iter().all(|&x| x == d), "not {d}-regular");
    }

    #[test]
    fn pairing_and_complement_give_regular_graphs_avoiding_the_base() {
        let ring = |n: u32| move |u: u32, v: u32| u.abs_diff(v) == 1 || u.abs_diff(v) == n - 1;
        for (n, d) in [(10u32, 3u32), (11, 4), (30, 7), (30, 20), (12, 8), (9, 6)] {
            let mut built = 0;
            for attempt in 0..10 {
                let mut rng = stream(attempt, Stream::Construction, 0);
                if let Some(e) = random_regular(n, d, 2, ring(n), &mut rng) {
                    check_regular(n, d, &e);
                    assert!(e.iter().all(|&(u, v)| !ring(n)(u, v)), "used a ring edge");
                    built += 1;
                }
            }
            assert!(
                built >= 5,
                "n={n} d={d}: only {built} of 10 attempts succeeded"
            );
        }
    }

    #[test]
    fn balanced_p_is_the_fixed_point_of_floor_sqrt() {
        for k_net in 0u32..2000 {
            let p = balanced_p(k_net);
            let k = k_net + p;
            assert_eq!(p, (k as f64).sqrt().floor() as u32, "k' = {k_net}");
        }
    }
}

#[cfg(test)]
mod construction {
    //! Jellyfish (random regular graph): counts, exact degrees, simplicity, connectivity,
    //! determinism and the balanced concentration of Besta & Hoefler, SC14, §III.

    use crate::metrics::distance::{diameter, distances_from, UNREACHABLE};
    use crate::{build_str, Network, TopolabError};
    use std::collections::BTreeMap;

    /// Every router has exactly `d` distinct neighbours other than itself, every link has width 1
    /// and class "random", and every router is reachable from router 0.
    fn assert_connected_simple_regular(net: &Network, n: usize, d: u32) {
        assert_eq!(net.num_routers(), n);
        assert_eq!(net.num_links(), n as u64 * d as u64 / 2, "links = n*d/2");
        assert_eq!(net.link_classes(), ["random"]);
        for r in 0..n {
            let nb = net.neighbors(r);
            assert_eq!(nb.len(), d as usize, "router {r} neighbour count");
            assert_eq!(net.degree(r), d, "router {r} degree");
            assert!(nb.windows(2).all(|w| w[0] < w[1]), "parallel links at {r}");
            assert!(!nb.contains(&(r as u32)), "self-loop at {r}");
        }
        assert!(net.links().iter().all(|l| l.width == 1));
        assert!(
            distances_from(net, 0).iter().all(|&x| x != UNREACHABLE),
            "disconnected"
        );
    }

    #[test]
    fn sparse_dense_and_edge_cases_are_connected_simple_and_regular() {
        for (n, d) in [
            (2usize, 1u32),
            (3, 2),
            (4, 3),
            (5, 4),
            (6, 3),
            (7, 4),
            (10, 9),
            (12, 9),
            (13, 6),
            (16, 5),
            (100, 2),
            (101, 50),
            (101, 60),
            (1000, 3),
            (1000, 17),
            (2000, 40),
        ] {
            for seed in 0..3 {
                let net =
                    build_str(&format!("jellyfish:routers={n},degree={d},seed={seed}")).unwrap();
                assert_connected_simple_regular(&net, n, d);
            }
        }
    }

    #[test]
    fn degree_n_minus_1_is_the_complete_graph_and_degree_2_a_hamiltonian_cycle() {
        let k9 = build_str("jellyfish:routers=9,degree=8").unwrap();
        assert_eq!(k9.num_links(), 36);
        assert_eq!(diameter(&k9), Some(1));
        // A connected 2-regular graph on n vertices is one n-cycle: diameter floor(n/2).
        for n in [5usize, 50, 51] {
            let ring = build_str(&format!("jellyfish:routers={n},degree=2,seed=7")).unwrap();
            assert_connected_simple_regular(&ring, n, 2);
            assert_eq!(diameter(&ring), Some(n as u32 / 2));
        }
    }

    #[test]
    fn issue_benchmark_size_builds() {
        // 20,000 routers of degree 24 (one of the benchmark sizes) in the test profile.
        let net = build_str("jellyfish:routers=20000,degree=24,seed=3").unwrap();
        assert_connected_simple_regular(&net, 20000, 24);
        // Moore bound: 1 + 24 + 24*23 < 20,000, so no router reaches all others in two hops.
        assert!(distances_from(&net, 0).iter().any(|&x| x >= 3));
    }

    #[test]
    fn same_seed_same_links_different_seed_different_links() {
        let a = build_str("jellyfish:routers=500,degree=7,seed=11").unwrap();
        let b = build_str("jellyfish:routers=500,degree=7,seed=11").unwrap();
        let c = build_str("jellyfish:routers=500,degree=7,seed=12").unwrap();
        let d = build_str("jellyfish:routers=500,degree=7").unwrap();
        let e = build_str("jellyfish:routers=500,degree=7,seed=0").unwrap();
        assert_eq!(a.links(), b.links());
        assert_ne!(a.links(), c.links());
        assert_eq!(d.links(), e.links(), "seed defaults to 0");
        // Dense (complement) and degree-2 paths are seeded too.
        for (n, k) in [(40, 30), (40, 2)] {
            let x = build_str(&format!("jellyfish:routers={n},degree={k},seed=1")).unwrap();
            let y = build_str(&format!("jellyfish:routers={n},degree={k},seed=1")).unwrap();
            let z = build_str(&format!("jellyfish:routers={n},degree={k},seed=2")).unwrap();
            assert_eq!(x.links(), y.links());
            assert_ne!(x.links(), z.links());
        }
    }

    #[test]
    fn all_70_cubic_graphs_on_6_labelled_vertices_appear_about_equally() {
        // The labelled 3-regular graphs on 6 vertices are 10 copies of K3,3 and 60 prisms. A
        // uniform sampler hits each about equally often; Steger–Wormald is only asymptotically
        // uniform, so the bound is loose but catches a sampler biased towards one shape.
        let samples = 7000u64;
        let mut seen: BTreeMap<Vec<(u32, u32)>, u64> = BTreeMap::new();
        for seed in 0..samples {
            let net = build_str(&format!("jellyfish:routers=6,degree=3,seed={seed}")).unwrap();
            let links = net.links().iter().map(|l| (l.src, l.dst)).collect();
            *seen.entry(links).or_default() += 1;
        }
        assert_eq!(seen.len(), 70, "distinct labelled cubic graphs");
        let (lo, hi) = (*seen.values().min().unwrap(), *seen.values().max().unwrap());
        assert!(
            lo > 50 && hi < 150,
            "counts from {lo} to {hi}, expected ~100"
        );
        let bipartite = seen
            .iter()
            .filter(|(links, _)| is_bipartite(links))
            .map(|(_, c)| c)
            .sum::<u64>();
        assert!(
            (700..1300).contains(&bipartite),
            "K3,3 drawn {bipartite} of {samples} times, expected ~1000"
        );
    }

    fn is_bipartite(links: &[(u32, u32)]) -> bool {
        let mut side = [None::<bool>; 6];
        side[0] = Some(false);
        for _ in 0..6 {
            for &(u, v) in links {
                match (side[u as usize], side[v as usize]) {
                    (Some(a), Some(b)) if a == b => return false,
                    (Some(a), None) => side[v as usize] = Some(!a),
                    (None, Some(b)) => side[u as usize] = Some(!b),
                    _ => {}
                }
            }
        }
        true
    }

    #[test]
    fn default_p_is_floor_sqrt_of_the_router_radix() {
        // Besta & Hoefler, SC14, §III: p = floor(sqrt(k)) with k the router radix (network ports plus
        // p).
        for (d, p) in [(3u32, 2u32), (16, 4), (24, 5), (30, 6), (33, 6), (42, 7)] {
            let net = build_str(&format!("jellyfish:routers=64,degree={d}")).unwrap();
            let k = net.radix();
            assert_eq!(net.endpoints()[0], p, "degree {d}");
            assert_eq!(k, d + p);
            assert!(p * p <= k && k < (p + 1) * (p + 1), "p = floor(sqrt({k}))");
            assert_eq!(net.num_endpoints(), 64 * p as u64);
        }
        let net = build_str("jellyfish:routers=64,degree=6,p=0").unwrap();
        assert_eq!(net.num_endpoints(), 0);
    }

    #[test]
    fn bad_parameters_are_errors_naming_the_parameter() {
        for (spec, param, needle) in [
            ("jellyfish:routers=9,degree=3", "degree", "even"),
            (
                "jellyfish:routers=8,degree=8",
                "degree",
                "at most routers - 1 = 7",
            ),
            ("jellyfish:routers=8,degree=0", "degree", "from 1"),
            (
                "jellyfish:routers=8,degree=1",
                "degree",
                "degree 1 connects only 2",
            ),
            ("jellyfish:routers=1,degree=1", "routers", "from 2"),
            ("jellyfish:routers=x,degree=1", "routers", "integer"),
            ("jellyfish:routers=8,degree=3,seed=-1", "seed", ">= 0"),
            ("jellyfish:routers=8,degree=3,p=-1", "p", "from 0"),
            ("jellyfish:routers=100000000,degree=4", "routers", "at most"),
        ] {
            let e = build_str(spec).unwrap_err();
            assert!(
                matches!(&e, TopolabError::InvalidParameter { param: p, .. } if p == param),
                "{spec}: {e}"
            );
            assert!(e.to_string().contains(needle), "{spec}: {e}");
        }
        for (spec, param) in [
            ("jellyfish:degree=3", "routers"),
            ("jellyfish:routers=8", "degree"),
        ] {
            let e = build_str(spec).unwrap_err();
            assert!(
                matches!(&e, TopolabError::MissingParameter { param: p, .. } if p == param),
                "{spec}: {e}"
            );
        }
        let e = build_str("jellyfish:routers=8,degree=3,radix=4").unwrap_err();
        assert!(matches!(e, TopolabError::UnknownParameter { .. }), "{e}");
    }
}
