//! Xpander: a random l-lift of the complete graph K_{d+1} (Valadarsky, Shahaf, Dinitz &
//! Schapira, "Xpander: Towards Optimal-Performance Datacenters", CoNEXT 2016).
//!
//! Every vertex u of K_{d+1} becomes a meta-node of l routers (u, 0..l), with no link inside a
//! meta-node; every edge {u, v} becomes a uniformly random perfect matching between the l routers
//! of u and the l routers of v. The result is d-regular and simple by construction, with
//! (d+1)·l routers. A lift keeps the base graph's eigenvalues (d and -1) and adds "new" ones,
//! which for random lifts are at most 2√(d-1) + ε with high probability (Friedman; Bordenave,
//! "A new proof of Friedman's second eigenvalue theorem and its extension to random lifts",
//! 2015): the near-Ramanujan expansion the Xpander paper builds on.
//!
//! Lifts that come out disconnected move on to the next construction stream of the seed, as
//! Jellyfish does, so the network is a function of (d, l, seed) alone. Degree 2 (lifts of a
//! triangle) is connected only when its three matchings compose to one l-cycle, which a random
//! choice hits with probability 1/l: there the third matching is drawn conditioned on it.

use super::design::{
    full_radix, random_graph_members, round_even, routers_for, sizes_of, Candidate, DesignSpace,
    Member, Window,
};
use super::jellyfish::{self, is_connected, MAX_ATTEMPTS};
use super::{
    ensure_size, moore_balance, p_param, read_p, Family, FamilyPlacement, FamilyRouting, ParamDef,
    ParamKind, SimulationChoice, Sizes, SEED_PARAM,
};
use crate::error::{Result, TopolabError};
use crate::network::{Network, NetworkBuilder};
use crate::rng::{stream, Stream};
use crate::spec::Params;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;

pub const FAMILY: Family = Family {
    name: "xpander",
    aliases: &[],
    summary: "Xpander: random l-lift of the complete graph K_{d+1}, (d+1) l routers of network radix d in d+1 meta-nodes",
    source: "Valadarsky, Shahaf, Dinitz & Schapira, CoNEXT 2016 (Xpander: lifts of K_{d+1}, meta-nodes)",
    directed: false,
    params: &[
        ParamDef {
            name: "d",
            kind: ParamKind::Int,
            default: None,
            help: "router-to-router links per router, >= 2 (the lifted graph is K_{d+1})",
        },
        ParamDef {
            name: "l",
            kind: ParamKind::Int,
            default: None,
            help: "lift size, >= 1: routers per meta-node (l = 1 is K_{d+1} itself)",
        },
        p_param("floor(sqrt(k)) for the router radix k = d + p (Besta & Hoefler, SC14, §III, random topologies)"),
        SEED_PARAM,
    ],
    build,
    example: "xpander:d=5,l=4",
    samples: &[
        "xpander:d=5,l=4",
        "xpander:d=2,l=7,p=2",
        "xpander:d=8,l=1",
        "xpander:d=6,l=30,p=3,seed=9",
    ],
    display_name: "Xpander",
    sizes,
    routing: FamilyRouting {
        specific: &[],
        // Valadarsky et al. evaluate throughput under random permutations and all-to-all
        // (CoNEXT 2016) and publish no adversarial pattern for Xpander.
        simulation: Some(SimulationChoice::new("min", "tornado", "ugal_l").noted(
            "no published worst case: tornado (half-way ring shift) sends the p endpoints of a router to at most two routers, so p flows share every minimal path",
        )),
    },
    placement: FamilyPlacement::Grouped {
        field: "meta_node",
        what: "xpander meta-nodes: the l routers lifting one vertex of K_{d+1} share a cabinet, so the links between two cabinets are one matching (Valadarsky et al., CoNEXT 2016)",
        structure: "xpander (cabinets from the meta-nodes)",
    },
    design: Some(DESIGN),
};

/// (d, l, p, seed) after checking them.
fn read_shape(p: &Params) -> Result<(u32, u32, u32, u64)> {
    let d = p.u32(
        "d",
        2,
        u32::MAX - 1,
        "router-to-router links per router, >= 2",
    )?;
    let l = p.u32("l", 1, u32::MAX, "lift size (routers per meta-node), >= 1")?;
    let routers = (d as u128 + 1) * l as u128;
    ensure_size(p, "l", l, routers, routers * d as u128 / 2)?;
    let conc = read_p(p, jellyfish::balanced_p(d))?;
    Ok((d, l, conc, p.seed()?))
}

/// d-regular; balanced by the Moore-bound estimate (`moore_balance`), as the random families.
fn sizes(p: &Params) -> Result<Sizes> {
    let (d, l, conc, _) = read_shape(p)?;
    let routers = (d as u128 + 1) * l as u128;
    Ok(Sizes::direct(
        routers,
        d,
        conc,
        moore_balance(d, routers as u64, false),
    ))
}

fn build(p: &Params) -> Result<Network> {
    let (d, l, conc, seed) = read_shape(p)?;
    let n = (d + 1) * l;
    let edges = (0..MAX_ATTEMPTS)
        .map(|attempt| lift(d, l, &mut stream(seed, Stream::Construction, attempt)))
        .find(|edges| is_connected(n, edges))
        .ok_or_else(|| {
            TopolabError::InvalidNetwork(format!(
                "xpander: no connected {l}-lift of K_{} found in {MAX_ATTEMPTS} attempts (seed {seed})",
                d + 1
            ))
        })?;
    let mut b = NetworkBuilder::new("xpander", n as usize, false);
    b.label_fields(&["meta_node", "copy"]);
    for r in 0..n {
        b.set_label(r as usize, &[(r / l) as i64, (r % l) as i64]);
    }
    let class = b.link_class("matching");
    for (u, v) in edges {
        b.add_link(u as usize, v as usize, 1, class);
    }
    b.uniform_endpoints(conc);
    b.build()
}

/// Links of one random l-lift of K_{d+1}; router u·l + i is copy i of vertex u. The matchings
/// are drawn for the vertex pairs (u, v), u < v, in lexicographic order.
fn lift(d: u32, l: u32, rng: &mut ChaCha8Rng) -> Vec<(u32, u32)> {
    let mut matching: Vec<u32> = (0..l).collect();
    let mut edges = Vec::with_capacity((d as usize + 1) * d as usize / 2 * l as usize);
    let mut triangle: Vec<Vec<u32>> = Vec::new();
    for u in 0..=d {
        for v in u + 1..=d {
            if d == 2 && (u, v) == (0, 2) {
                continue; // drawn last, below
            }
            matching.shuffle(rng);
            triangle.push(matching.clone());
            edges.extend((0..l).map(|i| (u * l + i, v * l + matching[i as usize])));
        }
    }
    if d == 2 {
        // Walking 0 -> 1 -> 2 -> 0 from copy i of vertex 0 returns to copy sigma(i); the lift is
        // one 3l-cycle exactly when sigma is an l-cycle. Draw sigma uniformly among l-cycles
        // and solve for the 0-2 matching: copy i of 0 is matched to m12(m01(sigma^-1(i))).
        let (m01, m12) = (&triangle[0], &triangle[1]);
        let mut order: Vec<u32> = (0..l).collect();
        order.shuffle(rng);
        let mut sigma_inverse = vec![0u32; l as usize];
        for k in 0..l as usize {
            sigma_inverse[order[(k + 1) % l as usize] as usize] = order[k];
        }
        for i in 0..l {
            let partner = m12[m01[sigma_inverse[i as usize] as usize] as usize];
            edges.push((i, 2 * l + partner));
        }
    }
    edges
}

/// What `topolab compare` tries of this family (docs/compare.md §1).
const DESIGN: DesignSpace = DesignSpace {
    enumerate: design_space,
    smaller_members: Some(smaller_members),
    twin: None,
    twin_origin: None,
};

/// Random l-lifts of K_{d+1} at full radix, as the other random families: for every p, degree
/// d = K - p and the lift size l whose (d + 1) l routers are nearest N/p.
fn design_space(w: &Window) -> Vec<Candidate> {
    let params = |d: u32, l: u64, p: u32| vec![("d", d.into()), ("l", l.into()), ("p", p.into())];
    full_radix(
        w,
        "xpander",
        "Valadarsky et al., CoNEXT 2016",
        &|p, degree| {
            let builds = |l: u64| sizes_of("xpander", &params(degree, l, p)).is_some();
            let lifts = routers_for(w, p as u64 * (degree as u64 + 1), &builds)?;
            Some(params(degree, lifts, p))
        },
    )
}

/// Smaller degrees with routers / degree^2 kept; the lift size nearest the router count.
fn smaller_members(m: &Member) -> Result<Vec<String>> {
    Ok(random_graph_members(
        m,
        m.sizes.routers as i64,
        m.int("d")?,
        &|routers, d| {
            format!(
                "xpander:d={d},l={}",
                round_even(routers as f64 / (d + 1) as f64).max(1)
            )
        },
    ))
}

#[cfg(test)]
mod construction {
    //! Xpander (random lifts of K_{d+1}, Valadarsky et al., CoNEXT 2016): sizes, the meta-node
    //! structure (one perfect matching between every two meta-nodes), regularity, connectivity,
    //! determinism per seed, and expansion close to the Ramanujan bound 2 sqrt(d - 1).

    use crate::metrics::distance::{diameter, distances_from, UNREACHABLE};
    use crate::metrics::spectral::spectrum;
    use crate::progress::Silent;
    use crate::{build_str, Network, TopolabError};

    /// Every router has exactly one neighbour in every other meta-node and none in its own: the
    /// links between two meta-nodes form a perfect matching.
    fn assert_lift_of_complete_graph(net: &Network, d: usize, l: usize, what: &str) {
        assert_eq!(net.num_routers(), (d + 1) * l, "{what}: routers");
        assert_eq!(
            net.num_links() as usize,
            (d + 1) * l * d / 2,
            "{what}: links"
        );
        let meta = net
            .label_fields()
            .iter()
            .position(|f| f == "meta_node")
            .unwrap();
        for r in 0..net.num_routers() {
            let own = net.label(r)[meta];
            assert_eq!(own as usize, r / l, "{what}: meta-node of {r}");
            let mut seen: Vec<i64> = net
                .neighbors(r)
                .iter()
                .map(|&v| net.label(v as usize)[meta])
                .collect();
            seen.sort_unstable();
            let others: Vec<i64> = (0..=d as i64).filter(|&m| m != own).collect();
            assert_eq!(
                seen, others,
                "{what}: router {r} meets each other meta-node once"
            );
        }
        assert!(
            distances_from(net, 0).iter().all(|&x| x != UNREACHABLE),
            "{what}: disconnected"
        );
    }

    #[test]
    fn lifts_are_d_regular_connected_and_one_matching_per_pair_of_meta_nodes() {
        for (d, l) in [
            (2usize, 1usize),
            (2, 9),
            (3, 1),
            (3, 2),
            (3, 40),
            (5, 4),
            (8, 25),
            (16, 12),
        ] {
            for seed in 0..3 {
                let spec = format!("xpander:d={d},l={l},seed={seed}");
                let net = build_str(&spec).unwrap();
                assert_lift_of_complete_graph(&net, d, l, &spec);
                assert_eq!(net.network_radix() as usize, d, "{spec}");
            }
        }
    }

    #[test]
    fn one_copy_is_the_complete_graph_and_degree_two_a_single_cycle() {
        let k = build_str("xpander:d=7,l=1").unwrap();
        assert_eq!((k.num_links(), diameter(&k)), (28, Some(1)));
        // A connected 2-regular graph on 3l routers is one 3l-cycle: diameter floor(3l/2).
        for l in [2u32, 5, 40, 41] {
            for seed in 0..4 {
                let ring = build_str(&format!("xpander:d=2,l={l},seed={seed}")).unwrap();
                assert_eq!(diameter(&ring), Some(3 * l / 2), "l = {l}, seed {seed}");
            }
        }
    }

    #[test]
    fn same_seed_same_network_different_seed_different_network() {
        for spec in ["xpander:d=6,l=50", "xpander:d=2,l=30"] {
            let a = build_str(&format!("{spec},seed=4")).unwrap();
            let b = build_str(&format!("{spec},seed=4")).unwrap();
            let c = build_str(&format!("{spec},seed=5")).unwrap();
            let default = build_str(spec).unwrap();
            let zero = build_str(&format!("{spec},seed=0")).unwrap();
            assert_eq!(a.links(), b.links(), "{spec}");
            assert_ne!(a.links(), c.links(), "{spec}");
            assert_eq!(default.links(), zero.links(), "{spec}: seed defaults to 0");
        }
    }

    /// The non-trivial eigenvalues of a random lift of K_{d+1} are those of K_{d+1} (-1) and the
    /// "new" ones, which concentrate at the Ramanujan bound 2 sqrt(d - 1): below it by at most
    /// o(1) (Alon-Boppana) and above it by at most epsilon with high probability (Friedman;
    /// Bordenave 2015 for random lifts). Valadarsky et al. (CoNEXT 2016) build on exactly this
    /// near-Ramanujan expansion. The 10% band is set from numpy on independent random lifts of these
    /// sizes (max |lambda| / bound from 0.977 to 1.026 over 45 lifts with (d + 1) l from 80 to
    /// 2,400): a lift with a defect, such as repeated matchings (a disconnected or 2-cover-like
    /// graph, lambda = d) or a structured lift (a product, lambda far below), falls outside it.
    #[test]
    fn expansion_is_close_to_ramanujan() {
        for (d, l) in [(4u32, 50u32), (6, 100), (10, 100), (16, 60), (24, 40)] {
            for seed in 0..2 {
                let spec = format!("xpander:d={d},l={l},seed={seed}");
                let s = spectrum(&build_str(&spec).unwrap(), &Silent).unwrap();
                let bound = 2.0 * ((d - 1) as f64).sqrt();
                assert_eq!(s.ramanujan_bound, Some(bound));
                assert!((s.lambda1 - d as f64).abs() < 1e-6, "{spec}");
                let ratio = s.lambda_abs / bound;
                assert!(
                    (0.9..=1.1).contains(&ratio),
                    "{spec}: max |lambda| = {:.4}, {ratio:.3} x 2 sqrt(d-1)",
                    s.lambda_abs
                );
            }
        }
    }

    fn rejected(spec: &str) -> String {
        match build_str(spec) {
            Err(e @ TopolabError::InvalidParameter { .. }) => e.to_string(),
            other => panic!("{spec}: expected a parameter error, got {other:?}"),
        }
    }

    #[test]
    fn impossible_parameters_name_the_parameter_and_what_is_allowed() {
        let e = rejected("xpander:d=1,l=4");
        assert!(
            e.contains("'d'") && e.contains("= 1") && e.contains("from 2"),
            "{e}"
        );
        let e = rejected("xpander:d=4,l=0");
        assert!(
            e.contains("'l'") && e.contains("= 0") && e.contains("from 1"),
            "{e}"
        );
        // Bounded before anything is allocated.
        let e = rejected("xpander:d=40,l=4000000");
        assert!(e.contains("'l'") && e.contains("routers"), "{e}");
        assert!(build_str("xpander:d=4").is_err(), "l is required");
    }
}
