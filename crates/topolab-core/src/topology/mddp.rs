//! MDDP, "modified DDP solutions" (Koibuchi et al., 2018, §III-A, after Koibuchi et al., CANDAR
//! 2016): a best known degree/diameter digraph resized to exactly n vertices by randomized vertex
//! insertion and removal, keeping in-degree = out-degree = d.
//!
//! Koibuchi et al. (2018) say only that the starting points are best known DDP solutions, mostly
//! Kautz graphs (§IV-A), and that "simple randomized heuristics add/remove vertices"; the
//! heuristics here are chosen to keep the degrees exact, with no self-loops or parallel arcs:
//! - Start: the Kautz digraph K(d,k) whose size (d+1)d^(k-1) is nearest n (ties: the smaller).
//! - Insert a vertex x: pick d uniformly random arcs (u_i, w_i) with pairwise distinct tails
//!   and pairwise distinct heads, replace each by u_i -> x -> w_i. Every old path survives one
//!   hop longer, so strong connectivity is kept.
//! - Remove a uniformly random vertex v: delete its arcs and join its d in-neighbours to its d
//!   out-neighbours by a random pairing; a pair that would be a self-loop or a repeated arc is
//!   made by an arc switch with a random arc (as in `random_directed`).
//!
//! A result that is not strongly connected is discarded and the next stream index is tried.

use super::design::{free_digraphs, Candidate, DesignSpace, Window};
use super::kautz::{kautz_size, kautz_successors};
use super::random_directed::{digraph_sizes, read_order_and_degree};
use super::random_directed::{SlotDigraph, MAX_ATTEMPTS};
use super::{
    p_param, read_p, Family, ParamDef, ParamKind, Sizes, ARBITRARY_PLACEMENT, MAX_LINKS,
    MAX_ROUTERS, NOT_SIMULATED, SEED_PARAM,
};
use crate::error::{Result, TopolabError};
use crate::network::{Network, NetworkBuilder};
use crate::rng::{stream, Stream};
use crate::spec::Params;
use rand::seq::SliceRandom;
use rand::Rng;

/// Koibuchi et al., 2018, §III-B3 uses MDDP networks with four hosts per switch.
const DEFAULT_P: u32 = 4;

/// Restarts of the arc choice for one inserted vertex, and random arcs drawn per restart
/// (times d), before the attempt is abandoned.
const SPLIT_RESTARTS: usize = 100;
const SPLIT_DRAWS: usize = 100;

pub const FAMILY: Family = Family {
    name: "mddp",
    aliases: &[],
    summary: "MDDP: the Kautz digraph of degree d nearest n in size, resized to n routers by random vertex insertion/removal; in/out-degree d",
    source: "Koibuchi et al., 2018, §III-A, §IV-A",
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
    example: "mddp:n=50,d=3",
    samples: &[
        "mddp:n=10,d=2",
        "mddp:n=15,d=3,p=2",
    ],
    display_name: "MDDP",
    sizes,
    routing: NOT_SIMULATED,
    placement: ARBITRARY_PLACEMENT,
    design: Some(DESIGN),
};

/// The k of the Kautz digraph K(d,k) whose size is nearest `n` (ties: the smaller one);
/// requires n > d.
pub fn base_diameter(n: u64, d: u64) -> u32 {
    let mut k = 1;
    while kautz_size(d, k) < n as u128 {
        k += 1;
    }
    if k > 1 && n as u128 - kautz_size(d, k - 1) <= kautz_size(d, k) - n as u128 {
        k - 1
    } else {
        k
    }
}

/// d random arcs with pairwise distinct tails and pairwise distinct heads, or None.
fn split_arcs<R: Rng>(g: &SlotDigraph, d: usize, rng: &mut R) -> Option<Vec<(u32, u32)>> {
    for _ in 0..SPLIT_RESTARTS {
        let mut chosen: Vec<(u32, u32)> = Vec::with_capacity(d);
        for _ in 0..SPLIT_DRAWS * d {
            if chosen.len() == d {
                break;
            }
            let Some((u, w)) = g.random_arc(rng) else {
                continue;
            };
            if chosen.iter().all(|&(a, b)| a != u && b != w) {
                chosen.push((u, w));
            }
        }
        if chosen.len() == d {
            return Some(chosen);
        }
    }
    None
}

/// One randomized resizing of K(d,k) to n vertices. Returns the digraph (removed vertices
/// keep their index and lose all arcs) and the survivors' original Kautz indices (-1 for
/// inserted vertices), or None when a step ran out of tries.
fn resize<R: Rng>(n: usize, d: usize, k: u32, rng: &mut R) -> Option<(SlotDigraph, Vec<i64>)> {
    let base = kautz_size(d as u64, k) as usize;
    let mut g = SlotDigraph::new(base, d);
    for (slot, &v) in kautz_successors(d as u32, k).iter().enumerate() {
        g.add_arc((slot / d) as u32, v);
    }
    let mut origin: Vec<i64> = (0..base as i64).collect();
    if base > n {
        let mut order: Vec<u32> = (0..base as u32).collect();
        order.shuffle(rng);
        for &v in &order[..base - n] {
            let (preds, succs) = g.isolate(v);
            origin[v as usize] = i64::MIN;
            if !g.connect(&preds, succs, rng) {
                return None;
            }
        }
    }
    for _ in base..n {
        let arcs = split_arcs(&g, d, rng)?;
        let x = g.add_vertex() as u32;
        for (u, w) in arcs {
            g.remove_arc(u, w);
            g.add_arc(u, x);
            g.add_arc(x, w);
        }
        origin.push(-1);
    }
    Some((g, origin))
}

fn sizes(p: &Params) -> Result<Sizes> {
    let (n, d, _, _, conc) = read_shape(p)?;
    Ok(digraph_sizes(n, d, conc))
}

/// (n, d, k of the base Kautz digraph, seed, p) after checking them.
fn read_shape(p: &Params) -> Result<(u32, u32, u32, u64, u32)> {
    let (n, d) = read_order_and_degree(p)?;
    let k = base_diameter(n as u64, d as u64);
    let base = kautz_size(d as u64, k);
    if base > MAX_ROUTERS || base * d as u128 > MAX_LINKS {
        return Err(p.invalid(
            "n",
            n,
            &format!(
                "a size whose nearest Kautz digraph fits in {MAX_ROUTERS} routers and {MAX_LINKS} links (K({d},{k}) has {base} routers)"
            ),
        ));
    }
    let seed = p.seed()?;
    Ok((n, d, k, seed, read_p(p, DEFAULT_P)?))
}

fn build(p: &Params) -> Result<Network> {
    let (n, d, k, seed, conc) = read_shape(p)?;
    let (nu, du) = (n as usize, d as usize);
    for attempt in 0..MAX_ATTEMPTS {
        let mut rng = stream(seed, Stream::Construction, attempt);
        let Some((g, origin)) = resize(nu, du, k, &mut rng) else {
            continue;
        };
        let alive: Vec<usize> = (0..origin.len())
            .filter(|&v| origin[v] != i64::MIN)
            .collect();
        if !g.strongly_connected(alive[0], nu) {
            continue;
        }
        let mut index = vec![u32::MAX; origin.len()];
        let mut b = NetworkBuilder::new("mddp", nu, true);
        b.label_fields(&["index", "kautz"]);
        for (new, &old) in alive.iter().enumerate() {
            index[old] = new as u32;
            b.set_label(new, &[new as i64, origin[old]]);
        }
        let arc = b.link_class("arc");
        g.add_links(&mut b, &index, arc);
        b.uniform_endpoints(conc);
        return b.build();
    }
    Err(TopolabError::InvalidNetwork(format!(
        "mddp: no strongly connected resizing of K({d},{k}) to {n} vertices found in {MAX_ATTEMPTS} attempts with seed {seed}"
    )))
}

/// What `topolab compare` tries of this family (docs/compare.md §1).
const DESIGN: DesignSpace = DesignSpace {
    enumerate: design_space,
    smaller_members: None,
    twin: None,
    twin_origin: None,
};

/// MDDP digraphs (Koibuchi et al., 2018, §III-A, §IV-A) at full radix: d = K - p, n ~ N/p.
fn design_space(w: &Window) -> Vec<Candidate> {
    free_digraphs(w, "mddp", "Koibuchi et al., 2018, §III-A, §IV-A")
}

#[cfg(test)]
mod construction {
    //! MDDP digraphs: exact degrees, the Kautz starting point, determinism and Koibuchi et al., 2018,
    //! Table 1.

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

    fn ceil_log(n: u64, d: u64) -> u32 {
        let (mut k, mut reach) = (0, 1u64);
        while reach < n {
            reach *= d;
            k += 1;
        }
        k
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
            assert_eq!(net.label(r)[0], r as i64);
        }
        assert!(diameter(net).is_some(), "strongly connected");
    }

    /// (routers kept from the Kautz graph, routers inserted), checking kept indices are distinct
    /// and below `base`.
    fn origins(net: &Network, base: i64) -> (usize, usize) {
        let mut kept: Vec<i64> = (0..net.num_routers())
            .map(|r| net.label(r)[1])
            .filter(|&o| o >= 0)
            .collect();
        let inserted = net.num_routers() - kept.len();
        kept.sort();
        kept.dedup();
        assert_eq!(
            kept.len(),
            net.num_routers() - inserted,
            "kept indices distinct"
        );
        assert!(kept.iter().all(|&o| o < base));
        (kept.len(), inserted)
    }

    #[test]
    fn at_a_kautz_size_mddp_is_the_kautz_digraph() {
        // K(d,k) has (d+1)d^(k-1) vertices: the best known DDP solution is used unchanged.
        for (d, k) in [(2u32, 3u32), (3, 3), (6, 2), (8, 2)] {
            let n = (d + 1) * d.pow(k - 1);
            let m = build_str(&format!("mddp:n={n},d={d},seed=5")).unwrap();
            let kz = build_str(&format!("kautz:d={d},k={k}")).unwrap();
            assert_eq!(m.links(), kz.links());
            assert_eq!(diameter(&m), Some(k));
            assert!((0..n as usize).all(|r| m.label(r)[1] == r as i64));
        }
    }

    #[test]
    fn resized_graphs_are_regular_and_start_from_the_nearest_kautz_graph() {
        // d = 3: Kautz sizes 4, 12, 36, 108, 324. (n, base, routers inserted)
        for (n, base, inserted) in [
            (5usize, 4i64, 1usize),
            (10, 12, 0),
            (30, 36, 0),
            (50, 36, 14),
            (200, 108, 92),
            (216, 108, 108), // equally far from 108 and 324: the smaller
            (250, 324, 0),
            (320, 324, 0),
        ] {
            for seed in 0..3 {
                let net = build_str(&format!("mddp:n={n},d=3,seed={seed}")).unwrap();
                check_regular(&net, n, 3);
                assert_eq!(origins(&net, base), (n - inserted, inserted), "n={n}");
                assert_eq!(net.num_endpoints(), 4 * n as u64, "default p = 4");
            }
        }
        for (n, d) in [(20usize, 8u32), (100, 8), (3000, 8), (64, 6), (40, 12)] {
            check_regular(&build_str(&format!("mddp:n={n},d={d}")).unwrap(), n, d);
        }
    }

    #[test]
    fn same_seed_same_network_different_seed_different_network() {
        for n in [200, 250] {
            let a = build_str(&format!("mddp:n={n},d=3,seed=11")).unwrap();
            let b = build_str(&format!("mddp:n={n},d=3,seed=11")).unwrap();
            let c = build_str(&format!("mddp:n={n},d=3,seed=12")).unwrap();
            assert_eq!(a.links(), b.links());
            assert_ne!(a.links(), c.links());
        }
    }

    #[test]
    fn aspl_and_ordering_match_table_1() {
        // Koibuchi et al., 2018, Table 1 (ASPL): case    Rand  MDDP  Imase
        //                     64, 6   2.39  2.37  2.30
        //                    256, 6   3.18  2.85  2.95
        //                    256, 8   2.80  2.80  2.69
        // Koibuchi et al. (2018) report no MDDP diameters; ours stay within one hop of the Imase–Itoh
        // bound.
        for (n, d, expected) in [(64u64, 6u64, 2.37), (256, 6, 2.85), (256, 8, 2.80)] {
            let imase = aspl(&build_str(&format!("imase:n={n},d={d}")).unwrap());
            for seed in 0..3 {
                let spec = format!("n={n},d={d},seed={seed},p=1");
                let m = build_str(&format!("mddp:{spec}")).unwrap();
                let got = aspl(&m);
                let random = aspl(&build_str(&format!("random_directed:{spec}")).unwrap());
                assert!(
                    (got - expected).abs() < 0.03,
                    "n={n} d={d} seed={seed}: ASPL {got:.3} vs {expected}"
                );
                assert!(got < random + 0.01, "MDDP no worse than Random");
                if (n, d) == (256, 6) {
                    assert!(got < imase, "MDDP beats Imase next to a Kautz size");
                } else {
                    assert!(imase < got, "Imase beats MDDP away from a Kautz size");
                }
                let diam = diameter(&m).unwrap();
                assert!(diam <= ceil_log(n, d) + 1, "n={n} d={d}: diameter {diam}");
            }
        }
    }

    #[test]
    fn bad_parameters_are_errors_naming_the_parameter() {
        for (spec, param, needle) in [
            ("mddp:n=10,d=1", "'d'", "from 2"),
            ("mddp:n=10,d=10", "'d'", "n-1 = 9"),
            ("mddp:n=2,d=2", "'n'", "from 3"),
            ("mddp:d=2", "'n'", "missing"),
            ("mddp:n=10", "'d'", "missing"),
            ("mddp:n=10,d=3,seed=x", "'seed'", "integer"),
            ("mddp:n=100000000,d=3", "'n'", "routers"),
            // 15M routers fit, but the nearest Kautz graph K(3,15) has 19,131,876.
            ("mddp:n=15000000,d=3", "'n'", "nearest Kautz"),
        ] {
            let msg = build_str(spec).unwrap_err().to_string();
            assert!(msg.contains(param) && msg.contains(needle), "{spec}: {msg}");
        }
    }

    #[test]
    fn registered_as_directed_with_a_working_example() {
        let f = find_family("mddp").unwrap();
        assert!(f.directed);
        assert!(build_str(f.example).unwrap().directed());
    }
}
