//! Long Hop hypercube against what Tomic (arXiv 2013) and Besta & Hoefler (SC14, §III, Tables
//! II and IV) state: 2^n routers of network radix n + L, the code's minimum distance found by
//! brute force and no better code possible (sphere packing), the bisection Δ N / 2 of Tomic's
//! equivalence (the code's cut is that size, METIS finds no smaller), and Table II's diameters.

use topolab_core::metrics::bisection::bisection;
use topolab_core::metrics::distance::{diameter, distances};
use topolab_core::progress::Silent;
use topolab_core::topology::longhop::{long_hop_code, LongHopCode};
use topolab_core::{build_str, sizes_str};

/// Minimum weight of a nonzero codeword x [I | A], by trying every message x.
fn brute_force_min_distance(code: &LongHopCode) -> u32 {
    (1u32..1 << code.n)
        .map(|x| {
            let parity = code
                .rows
                .iter()
                .enumerate()
                .filter(|(i, _)| x >> i & 1 == 1)
                .fold(0u32, |acc, (_, &row)| acc ^ row);
            x.count_ones() + parity.count_ones()
        })
        .min()
        .unwrap()
}

/// Whether a binary [m, n, d] code may exist by the sphere-packing (Hamming) bound.
fn sphere_packing_allows(m: u32, n: u32, d: u32) -> bool {
    let t = (d - 1) / 2;
    let mut binom = 1u128;
    let mut ball = 1u128;
    for i in 1..=t {
        binom = binom * (m - i + 1) as u128 / i as u128;
        ball += binom;
    }
    ball << n <= 1u128 << m
}

#[test]
fn routers_degree_and_links_follow_the_closed_forms() {
    for (n, hops) in [(3u32, 1u32), (5, 2), (6, 3), (8, 5), (10, 5), (9, 6)] {
        let net = build_str(&format!("longhop:n={n},hops={hops}")).unwrap();
        let routers = 1usize << n;
        assert_eq!(net.num_routers(), routers);
        for r in 0..routers {
            assert_eq!(net.degree(r), n + hops, "n={n} L={hops} router {r}");
        }
        assert_eq!(net.num_links(), (n + hops) as u64 * routers as u64 / 2);
        assert_eq!(net.num_endpoints(), routers as u64, "p defaults to 1");
        // The hypercube is a subgraph: every cube link flips one bit.
        let cube = net
            .links()
            .iter()
            .filter(|l| (l.src ^ l.dst).is_power_of_two());
        assert_eq!(cube.count(), n as usize * routers / 2);
    }
}

#[test]
fn the_code_has_the_best_minimum_distance_possible() {
    for n in 2u32..=13 {
        for hops in 1u32..=8 {
            let Some(code) = long_hop_code(n, hops) else {
                continue;
            };
            let m = n + hops;
            assert_eq!(
                brute_force_min_distance(&code),
                code.min_distance,
                "n={n} L={hops}"
            );
            // Even distances: an [m, n, 2t] code exists iff an [m - 1, n, 2t - 1] one does.
            let better = code.min_distance + 1;
            let possible = if better % 2 == 0 {
                sphere_packing_allows(m - 1, n, better - 1)
            } else {
                sphere_packing_allows(m, n, better)
            };
            assert!(
                !possible,
                "n={n} L={hops}: a code with Δ = {better} may exist"
            );
        }
    }
}

#[test]
fn the_bisection_is_the_code_distance_times_half_the_routers() {
    for (n, hops) in [(6u32, 1u32), (7, 3), (8, 5), (9, 4)] {
        let code = long_hop_code(n, hops).unwrap();
        let net = build_str(&format!("longhop:n={n},hops={hops}")).unwrap();
        // The cut of a minimum-weight codeword's message c: side = parity of x & c.
        let lightest = (1u32..1 << n)
            .min_by_key(|&c| {
                code.generators()
                    .iter()
                    .filter(|&&g| (g as u32 & c).count_ones() % 2 == 1)
                    .count()
            })
            .unwrap();
        let side = |r: u32| (r & lightest).count_ones() % 2;
        let cut = net
            .links()
            .iter()
            .filter(|l| side(l.src) != side(l.dst))
            .count() as u64;
        assert_eq!(cut, code.bisection_links(), "n={n} L={hops}");
        assert_eq!(
            (0..net.num_routers() as u32)
                .filter(|&r| side(r) == 0)
                .count(),
            net.num_routers() / 2
        );
        // METIS gives an upper bound on the bisection; Tomic's equivalence says none is smaller.
        let metis = bisection(&net, 4, 1, &Silent).unwrap();
        assert!(
            metis.links_cut >= code.bisection_links(),
            "n={n} L={hops}: METIS cut {} < Δ N/2 = {}",
            metis.links_cut,
            code.bisection_links()
        );
    }
}

#[test]
fn sc14_table_ii_and_iv_configurations() {
    // Table II: LH-HC of 2^8 .. 2^13 endpoints (p = 1) have diameters 4 to 6, growing with N.
    let mut last = 0;
    for n in 8u32..=13 {
        let net = build_str(&format!("longhop:n={n}")).unwrap();
        let d = diameter(&net).unwrap();
        assert!((4..=6).contains(&d), "n={n}: diameter {d}");
        assert!(d >= last, "n={n}: diameter falls");
        last = d;
    }
    // Table IV: N = N_r = 8,192, radix k = 19; §III-C: bisection 3N/2.
    let net = build_str("longhop:n=13").unwrap();
    assert_eq!((net.num_endpoints(), net.radix()), (8192, 19));
    assert_eq!(
        long_hop_code(13, 5).unwrap().bisection_links(),
        3 * 8192 / 2
    );
}

#[test]
fn balanced_concentration_is_sc14_rule_on_the_exact_distances() {
    for spec in ["longhop:n=7,hops=2", "longhop:n=9", "longhop:n=10,hops=6"] {
        let net = build_str(spec).unwrap();
        let all = distances(&net, &Silent).unwrap();
        let r = net.num_routers() as f64;
        // k' N_r / (Σ of one router's distances), averaged over the routers.
        let expected = net.network_radix() as f64 * r * r / all.distance_sum() as f64;
        let got = sizes_str(spec).unwrap().balanced_concentration;
        assert!((got - expected).abs() < 1e-9, "{spec}: {got} vs {expected}");
    }
}

#[test]
fn bad_parameters_are_errors_naming_the_parameter() {
    for (spec, needle) in [
        ("longhop", "missing parameter 'n'"),
        ("longhop:n=1", "'n'"),
        ("longhop:n=30", "'n'"),
        ("longhop:n=8,hops=0", "'hops'"),
        ("longhop:n=8,hops=9", "1..=6 for n = 8"),
        ("longhop:n=13,hops=8", "1..=7 for n = 13"),
        ("longhop:n=3,hops=5", "'hops'"),
        ("longhop:n=8,p=-1", "'p'"),
        ("longhop:n=8,width=2", "unknown parameter 'width'"),
    ] {
        let msg = build_str(spec).unwrap_err().to_string();
        assert!(msg.contains(needle), "{spec}: {msg}");
        assert_eq!(sizes_str(spec).unwrap_err().to_string(), msg, "{spec}");
    }
}
