//! Shortest-path diversity against walk counting, closed forms and Kathareios et al., SC15, §2.3.3.

use crate::metrics_support;

use metrics_support::{complete, matrix, network, random_network, ring, INF};
use std::sync::atomic::AtomicBool;
use topolab_core::metrics::paths::path_diversity;
use topolab_core::progress::{CancelFlag, Silent};
use topolab_core::{build_str, Network, TopolabError};

/// σ(s, t) by brute force: a walk of length d(s, t) from s to t is a shortest path and every
/// shortest path is such a walk, so σ(s, t) = (A^d(s,t))[s][t]. Returns (pairs, sum, max,
/// pairs with σ > 1) over the ordered pairs at distance ≥ 2.
fn by_walk_counting(net: &Network) -> (u64, u128, u64, u64) {
    let n = net.num_routers();
    let d = matrix(net);
    let a: Vec<Vec<u64>> = (0..n)
        .map(|u| {
            (0..n)
                .map(|v| net.neighbors(u).contains(&(v as u32)) as u64)
                .collect()
        })
        .collect();
    let mut power = a.clone(); // A^k, k = 1
    let (mut pairs, mut sum, mut max, mut multi) = (0u64, 0u128, 0u64, 0u64);
    let diameter = d
        .iter()
        .flatten()
        .filter(|&&x| x != INF)
        .copied()
        .max()
        .unwrap_or(0);
    for k in 2..=diameter {
        power = (0..n)
            .map(|s| {
                (0..n)
                    .map(|t| (0..n).map(|m| power[s][m] * a[m][t]).sum())
                    .collect()
            })
            .collect();
        for s in 0..n {
            for t in 0..n {
                if d[s][t] == k {
                    let sigma = power[s][t];
                    pairs += 1;
                    sum += sigma as u128;
                    max = max.max(sigma);
                    multi += (sigma > 1) as u64;
                }
            }
        }
    }
    (pairs, sum, max, multi)
}

fn check(net: &Network, what: &str) {
    let got = path_diversity(net, &Silent).unwrap();
    let (pairs, sum, max, multi) = by_walk_counting(net);
    assert_eq!(got.pairs, pairs, "{what}: pairs");
    assert_eq!(got.multipath_pairs, multi, "{what}: multipath pairs");
    assert!(!got.saturated);
    if pairs == 0 {
        assert_eq!((got.mean, got.max), (None, None), "{what}");
    } else {
        assert_eq!(got.max, Some(max), "{what}: max");
        let mean = sum as f64 / pairs as f64;
        assert!((got.mean.unwrap() - mean).abs() < 1e-12, "{what}: mean");
    }
}

#[test]
fn random_and_structured_networks_match_walk_counting() {
    for directed in [false, true] {
        for (n, p) in [(8usize, 0.3), (20, 0.15), (30, 0.1), (40, 0.3)] {
            for seed in 0..3 {
                let net = random_network(n, p, directed, 1, true, seed);
                check(
                    &net,
                    &format!("n={n} p={p} directed={directed} seed={seed}"),
                );
            }
        }
    }
    for spec in [
        "slimfly:q=4",
        "torus:dims=4x5",
        "hyperx:dims=3x3x2",
        "dragonfly:a=4,h=1,p=1",
        "fattree:k=4,levels=2",
    ] {
        check(&build_str(spec).unwrap(), spec);
    }
    check(&ring(9), "ring 9");
    check(&ring(10), "ring 10");
}

#[test]
fn closed_forms() {
    // Hypercube Q_n: σ between routers at Hamming distance d is d! (any order of the d bit
    // flips), and C(n, d) routers sit at distance d from each router.
    let n = 6u64;
    let net = build_str("hypercube:n=6").unwrap();
    let got = path_diversity(&net, &Silent).unwrap();
    let binom = |n: u64, k: u64| (0..k).fold(1u64, |acc, i| acc * (n - i) / (i + 1));
    let fact = |d: u64| (1..=d).product::<u64>();
    let per_source: u64 = (2..=n).map(|d| binom(n, d)).sum();
    let sigma_sum: u64 = (2..=n).map(|d| binom(n, d) * fact(d)).sum();
    assert_eq!(got.pairs, 64 * per_source);
    assert_eq!(got.max, Some(720));
    assert!((got.mean.unwrap() - sigma_sum as f64 / per_source as f64).abs() < 1e-12);
    // Complete graph: no non-adjacent pair. Even ring: only antipodal pairs have 2 paths.
    let got = path_diversity(&complete(7), &Silent).unwrap();
    assert_eq!((got.pairs, got.mean, got.max), (0, None, None));
    let got = path_diversity(&ring(12), &Silent).unwrap();
    assert_eq!(
        (got.pairs, got.max, got.multipath_pairs),
        (12 * 9, Some(2), 12)
    );
    // Widths do not multiply paths: a 2-wide square has the paths of a 1-wide one.
    let mut b = topolab_core::NetworkBuilder::new("test", 4, false);
    let c = b.link_class("x");
    for (u, v) in [(0, 1), (1, 2), (2, 3), (3, 0)] {
        b.add_link(u, v, 2, c);
    }
    let got = path_diversity(&b.build().unwrap(), &Silent).unwrap();
    assert_eq!((got.pairs, got.max), (4, Some(2)));
    // Disconnected: unreachable pairs are not counted.
    let net = network(6, false, &[(0, 1), (1, 2), (3, 4), (4, 5)], &[1; 6]);
    assert_eq!(path_diversity(&net, &Silent).unwrap().pairs, 4);
}

#[test]
fn slim_fly_q23_as_in_001() {
    // Kathareios et al., SC15, §2.3.3: "for q = 23, the average number of minimal paths between
    // pairs of non-directly connected routers is approximately 1.1, with the maximum path diversity
    // being 8".
    let got = path_diversity(&build_str("slimfly:q=23").unwrap(), &Silent).unwrap();
    let mean = got.mean.unwrap();
    println!("Slim Fly q=23: mean {mean}, max {:?}", got.max);
    assert!((mean - 1.1).abs() < 0.05, "mean {mean}");
    assert_eq!(got.max, Some(8));
}

#[test]
fn interruption_is_honoured() {
    let flag = AtomicBool::new(true);
    let net = build_str("slimfly:q=7").unwrap();
    assert_eq!(
        path_diversity(&net, &CancelFlag(&flag)).unwrap_err(),
        TopolabError::Interrupted
    );
}
