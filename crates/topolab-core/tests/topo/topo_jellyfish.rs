//! Jellyfish (random regular graph): counts, exact degrees, simplicity, connectivity,
//! determinism and the balanced concentration of Besta & Hoefler, SC14, §III.

use std::collections::BTreeMap;
use topolab_core::metrics::distance::{diameter, distances_from, UNREACHABLE};
use topolab_core::{build_str, Network, TopolabError};

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
            let net = build_str(&format!("jellyfish:routers={n},degree={d},seed={seed}")).unwrap();
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
