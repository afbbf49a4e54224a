//! Moore bounds against closed forms, Moore graphs and the figures quoted in Besta & Hoefler (SC14)
//! and Koibuchi et al. (2018).

use crate::metrics_support;

use metrics_support::{complete, kautz, network, ring};
use topolab_core::build_str;
use topolab_core::metrics::analyze;
use topolab_core::metrics::moore::{moore_bound, moore_bound_checked, moore_fraction};
use topolab_core::metrics::summary::AnalyzeOptions;
use topolab_core::progress::Silent;
use topolab_core::Network;

/// The network's Moore fraction as `analyze` reports it (network radix, measured diameter).
fn fraction(net: &Network) -> (Option<u128>, f64) {
    let a = analyze(net, &AnalyzeOptions::default(), &Silent).unwrap();
    (a.moore_bound, a.moore_fraction.unwrap())
}

#[test]
fn geometric_closed_forms() {
    // Undirected, d >= 3: 1 + d((d-1)^D - 1)/(d - 2); directed, d >= 2: (d^(D+1) - 1)/(d - 1).
    for d in 3u128..40 {
        for big_d in 0u32..8 {
            let want = 1 + d * ((d - 1).pow(big_d) - 1) / (d - 2);
            assert_eq!(
                moore_bound(d as u64, big_d, false),
                Some(want),
                "d={d} D={big_d}"
            );
        }
    }
    for d in 2u128..40 {
        for big_d in 0u32..10 {
            let want = (d.pow(big_d + 1) - 1) / (d - 1);
            assert_eq!(
                moore_bound(d as u64, big_d, true),
                Some(want),
                "d={d} D={big_d}"
            );
        }
    }
    // Degenerate degrees: a cycle (d = 2) reaches 2 routers per level, a path end only 1.
    assert_eq!(moore_bound(2, 5, false), Some(11));
    assert_eq!(moore_bound(1, 5, false), Some(2));
    assert_eq!(moore_bound(1, 5, true), Some(6));
    assert_eq!(moore_bound(0, 5, true), Some(1));
    // Besta & Hoefler, SC14, §II-B3: for k' = 96 and D = 2 the upper bound is 9,217.
    assert_eq!(moore_bound(96, 2, false), Some(9217));
}

#[test]
fn overflow_is_reported_not_wrapped() {
    assert_eq!(moore_bound(1 << 40, 4, false), None);
    assert_eq!(moore_bound(3, 200, true), None);
    assert_eq!(
        moore_bound(2, u32::MAX, false),
        Some(1 + 2 * u32::MAX as u128)
    );
    let err = moore_bound_checked(1000, 100, false)
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("'diameter' = 100") && err.contains("128 bits"),
        "{err}"
    );
    // The fraction stays a finite, tiny number.
    let m = moore_fraction(10_000, 3, 5_000, false);
    assert_eq!(m.bound, None);
    assert!(m.fraction >= 0.0 && m.fraction < 1e-300);
}

#[test]
fn moore_graphs_reach_the_bound() {
    // Hoffman–Singleton = MMS graph for q = 5 (Besta & Hoefler, SC14, §II-B): 50 routers, degree 7,
    // diameter 2.
    let sf5 = build_str("slimfly:q=5").unwrap();
    assert_eq!(fraction(&sf5), (Some(50), 1.0));
    // Petersen graph (degree 3, diameter 2): outer 5-cycle, inner pentagram, spokes.
    let mut links = Vec::new();
    for i in 0..5 {
        links.push((i, (i + 1) % 5));
        links.push((5 + i, 5 + (i + 2) % 5));
        links.push((i, 5 + i));
    }
    let petersen = network(10, false, &links, &[1; 10]);
    assert_eq!(fraction(&petersen), (Some(10), 1.0));
    assert_eq!(fraction(&ring(5)), (Some(5), 1.0));
    assert_eq!(fraction(&complete(9)), (Some(9), 1.0));
    // An even ring is not a Moore graph: 6 routers of the 7 allowed at diameter 3.
    assert_eq!(fraction(&ring(6)), (Some(7), 6.0 / 7.0));
}

#[test]
fn kautz_graphs_as_in_002() {
    // Kautz K(d, k): d^k + d^(k-1) routers, out-degree d, diameter k; the directed bound is
    // (d^(k+1) - 1)/(d - 1). K(d, 1) is the complete digraph and reaches it exactly.
    for (d, k) in [
        (2usize, 1usize),
        (3, 1),
        (2, 2),
        (2, 3),
        (3, 2),
        (3, 3),
        (4, 2),
        (2, 5),
    ] {
        let net = kautz(d, k);
        let n = (d.pow(k as u32) + d.pow(k as u32 - 1)) as u128;
        assert_eq!(net.num_routers() as u128, n);
        let a = analyze(&net, &AnalyzeOptions::default(), &Silent).unwrap();
        assert_eq!(a.distances.diameter, Some(k as u32), "K({d},{k}) diameter");
        let bound = ((d as u128).pow(k as u32 + 1) - 1) / (d as u128 - 1);
        assert_eq!(
            (a.moore_bound, a.network_radix, a.directed),
            (Some(bound), d as u32, true)
        );
        let fraction = a.moore_fraction.unwrap();
        assert_eq!(fraction, n as f64 / bound as f64, "K({d},{k})");
        if k == 1 {
            assert_eq!(fraction, 1.0);
        }
    }
    // Koibuchi et al., 2018, §IV-A: Kautz graphs reach "98% for d = 8 and k = 4 with 4,608
    // vertices, 99% for d = 12 and k = 4 with 22,464 vertices" (sizes d^k + d^(k-1); checked
    // without building).
    for (d, k, n, pct) in [(8u64, 4u32, 4608usize, 98i64), (12, 4, 22464, 99)] {
        assert_eq!(n as u64, d.pow(k) + d.pow(k - 1));
        let m = moore_fraction(n, d as u32, k, true);
        assert_eq!((m.fraction * 100.0).round() as i64, pct, "d={d} k={k}");
    }
}
