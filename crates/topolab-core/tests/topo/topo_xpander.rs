//! Xpander (random lifts of K_{d+1}, Valadarsky et al., CoNEXT 2016): sizes, the meta-node
//! structure (one perfect matching between every two meta-nodes), regularity, connectivity,
//! determinism per seed, and expansion close to the Ramanujan bound 2 sqrt(d - 1).

use topolab_core::metrics::distance::{diameter, distances_from, UNREACHABLE};
use topolab_core::metrics::spectral::spectrum;
use topolab_core::progress::Silent;
use topolab_core::{build_str, Network, TopolabError};

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
