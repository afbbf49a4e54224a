//! Random regular digraphs: degrees, simplicity, strong connectivity, determinism and the
//! Random row of Koibuchi et al., 2018, Table 1.

use topolab_core::metrics::distance::{diameter, distances_from};
use topolab_core::{build_str, find_family, Network};

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
            let net = build_str(&format!("random_directed:n={n},d={d},seed={seed},p=1")).unwrap();
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
