//! MDDP digraphs: exact degrees, the Kautz starting point, determinism and Koibuchi et al., 2018,
//! Table 1.

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
