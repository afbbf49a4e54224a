//! METIS bisection against brute force over every balanced partition of small networks, against
//! the closed forms of Besta & Hoefler, SC14, §III-C (hypercube N/2, tori 2N/k, complete graphs
//! n²/4, rings 2), with directed networks counted in both directions (Koibuchi et al., 2018, §I),
//! and its errors.
//!
//! "Balanced" is the definition of docs/bisection.md: the endpoint totals of the two sides
//! differ by at most the largest endpoint count of one router.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use topolab_core::metrics::bisection::{bisection, Bisection};
use topolab_core::progress::Silent;
use topolab_core::{build_str, Network, NetworkBuilder, TopolabError};

const RUNS: u32 = 8;

/// The minimum over all balanced partitions of the links cut (directed: both directions).
fn brute_force(net: &Network) -> u64 {
    let n = net.num_routers();
    assert!(n <= 20, "brute force is for small networks");
    let e = net.endpoints();
    let total: i64 = e.iter().map(|&x| x as i64).sum();
    let max_e = *e.iter().max().unwrap() as i64;
    let mut best = u64::MAX;
    // Router 0 stays on side 0: each partition is seen once.
    for mask in 0u32..(1 << (n - 1)) {
        let side = |r: u32| if r == 0 { 0 } else { (mask >> (r - 1)) & 1 };
        let side1: i64 = (1..n as u32)
            .filter(|&r| side(r) == 1)
            .map(|r| e[r as usize] as i64)
            .sum();
        if (total - 2 * side1).abs() > max_e {
            continue;
        }
        let cut: u64 = net
            .links()
            .iter()
            .filter(|l| side(l.src) != side(l.dst))
            .map(|l| l.width as u64)
            .sum();
        best = best.min(cut);
    }
    best
}

/// Recounts the result from its `side` vector and checks the balance and the per-endpoint figure.
fn check_consistent(net: &Network, b: &Bisection) {
    assert_eq!(b.side.len(), net.num_routers());
    assert_eq!(b.side[0], 0, "router 0 is on side 0");
    let (mut forward, mut backward) = (0u64, 0u64);
    for l in net.links() {
        match (b.side[l.src as usize], b.side[l.dst as usize]) {
            (0, 1) => forward += l.width as u64,
            (1, 0) => backward += l.width as u64,
            _ => {}
        }
    }
    if net.directed() {
        assert_eq!((b.links_0_to_1, b.links_1_to_0), (forward, backward));
    } else {
        assert_eq!(
            (b.links_0_to_1, b.links_1_to_0),
            (forward + backward, forward + backward)
        );
    }
    assert_eq!(b.links_cut, forward + backward);
    let mut ends = [0u64; 2];
    for (r, &s) in b.side.iter().enumerate() {
        ends[s as usize] += net.endpoints()[r] as u64;
    }
    assert_eq!(b.endpoints, ends);
    let max_e = *net.endpoints().iter().max().unwrap() as u64;
    assert!(ends[0].abs_diff(ends[1]) <= max_e, "unbalanced: {ends:?}");
    let per = b.links_0_to_1.min(b.links_1_to_0) as f64 / (net.num_endpoints() as f64 / 2.0);
    assert_eq!(b.per_endpoint, per);
}

fn bisect(net: &Network) -> Bisection {
    let b = bisection(net, RUNS, 1, &Silent).unwrap();
    check_consistent(net, &b);
    b
}

fn complete(n: usize, p: u32) -> Network {
    let mut b = NetworkBuilder::new("complete", n, false);
    let c = b.link_class("link");
    for u in 0..n {
        for v in u + 1..n {
            b.add_link(u, v, 1, c);
        }
    }
    b.uniform_endpoints(p);
    b.build().unwrap()
}

fn ring(n: usize, directed: bool) -> Network {
    let mut b = NetworkBuilder::new("ring", n, directed);
    let c = b.link_class("link");
    for u in 0..n {
        b.add_link(u, (u + 1) % n, 1, c);
    }
    b.uniform_endpoints(1);
    b.build().unwrap()
}

/// A random graph with random widths (1..=3); endpoints: `p` on every router, or when `p` is
/// None uneven, 0..=3 (at least 1 on routers 0..4, so that no router holds more than half).
fn random_graph(n: usize, density: f64, directed: bool, p: Option<u32>, seed: u64) -> Network {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut b = NetworkBuilder::new("random", n, directed);
    let c = b.link_class("link");
    for u in 0..n {
        for v in 0..n {
            let candidate = if directed { u != v } else { u < v };
            if candidate && rng.random_bool(density) {
                b.add_link(u, v, rng.random_range(1..=3), c);
            }
        }
    }
    for r in 0..n {
        let low = if r < 4 { 1 } else { 0 };
        let uneven = rng.random_range(low..=3);
        b.set_endpoints(r, p.unwrap_or(uneven));
    }
    b.build().unwrap()
}

#[test]
fn small_structured_networks_equal_brute_force() {
    let mut nets: Vec<Network> = Vec::new();
    for n in [4, 5, 7, 10, 13, 16] {
        nets.push(ring(n, false));
        nets.push(complete(n, 1));
    }
    for spec in [
        "mesh:dims=3x4",
        "mesh:dims=4x4",
        "mesh:dims=2x7",
        "torus:dims=4x4",
        "torus:dims=3x5",
        "torus:dims=4x4,widths=1x3",
        "hypercube:n=3",
        "hypercube:n=4,width=2",
        "hyperx:dims=4x4",
        "fattree:k=4,levels=2",
        "fattree:k=6,levels=2",
        "slimfly:q=3",
        "dragonfly:a=2,h=1",
        "jellyfish:routers=16,degree=3",
    ] {
        nets.push(build_str(spec).unwrap());
    }
    for net in &nets {
        let b = bisect(net);
        assert_eq!(
            b.links_cut,
            brute_force(net),
            "{} ({} routers)",
            net.spec(),
            net.num_routers()
        );
    }
}

/// Random graphs (6 to 14 routers) with uniform concentration, the networks topolab builds:
/// METIS (plus the FM polish) finds the exact minimum every time.
#[test]
fn small_random_networks_equal_brute_force() {
    let mut misses = Vec::new();
    for seed in 0..200 {
        let n = 6 + (seed as usize % 9);
        for directed in [false, true] {
            let density = if directed { 0.25 } else { 0.4 };
            let net = random_graph(n, density, directed, Some(2), seed);
            let (found, exact) = (bisect(&net).links_cut, brute_force(&net));
            if found != exact {
                misses.push(format!(
                    "seed {seed}, directed {directed}: {found} vs {exact}"
                ));
            }
        }
    }
    assert!(misses.is_empty(), "{misses:#?}");
}

/// Uneven endpoints (0 to 3 per router) make the balance lumpy and local search harder: the
/// result must never beat the optimum (it would break the balance rule) and must hit it in at
/// least 90% of the cases (measured: about 97%).
#[test]
fn small_random_networks_with_uneven_endpoints_are_near_brute_force() {
    let (mut exact_hits, mut cases) = (0, 0);
    for seed in 0..300 {
        let n = 6 + (seed as usize % 9);
        for directed in [false, true] {
            let density = if directed { 0.25 } else { 0.4 };
            let net = random_graph(n, density, directed, None, 1000 + seed);
            let (found, exact) = (bisect(&net).links_cut, brute_force(&net));
            assert!(
                found >= exact,
                "seed {seed}: {found} below the optimum {exact}"
            );
            cases += 1;
            exact_hits += (found == exact) as u32;
        }
    }
    eprintln!("uneven endpoints: optimum found in {exact_hits} of {cases} cases");
    assert!(exact_hits * 10 >= cases * 9, "{exact_hits} of {cases}");
}

/// Besta & Hoefler, SC14, §III-C: hypercube N/2, 2-D torus 2N/k (= 2k for k x k); a ring always
/// cuts 2 links; complete graphs floor(n/2)·ceil(n/2).
#[test]
fn closed_forms() {
    for n in 2..=8u32 {
        let b = bisect(&build_str(&format!("hypercube:n={n}")).unwrap());
        assert_eq!(b.links_cut, 1 << (n - 1), "hypercube n={n}");
        assert_eq!(b.per_endpoint, 1.0);
        let b = bisect(&build_str(&format!("hypercube:n={n},width=3")).unwrap());
        assert_eq!(b.links_cut, 3 << (n - 1), "hypercube n={n}, width 3");
    }
    for k in [4u64, 6, 8, 10, 12] {
        let b = bisect(&build_str(&format!("torus:dims={k}x{k}")).unwrap());
        assert_eq!(b.links_cut, 2 * k, "torus {k}x{k}");
        assert_eq!(b.routers, [k * k / 2; 2]);
    }
    for n in [6usize, 20, 41] {
        assert_eq!(bisect(&ring(n, false)).links_cut, 2, "ring {n}");
    }
    for n in [8u64, 15, 24] {
        let b = bisect(&complete(n as usize, 2));
        assert_eq!(b.links_cut, (n / 2) * n.div_ceil(2), "K_{n}");
    }
}

/// A full-bisection fat tree gives every endpoint one link of bisection bandwidth, whichever
/// way its spine / core routers (0 endpoints) are placed.
#[test]
fn full_bisection_fat_trees_give_one_link_per_endpoint() {
    for spec in ["fattree:k=8,levels=2", "fattree:k=4", "fattree:k=8"] {
        let net = build_str(spec).unwrap();
        let b = bisect(&net);
        assert_eq!(b.per_endpoint, 1.0, "{spec}: {b:?}");
        assert_eq!(b.links_cut, net.num_endpoints() / 2, "{spec}");
    }
}

/// Link width is the edge weight: a ring whose links all have width 5 except two opposite ones
/// must cut those two.
#[test]
fn widths_are_edge_weights() {
    let n = 12;
    let mut b = NetworkBuilder::new("ring", n, false);
    let c = b.link_class("link");
    for u in 0..n {
        let w = if u == 2 || u == 8 { 1 } else { 5 };
        b.add_link(u, (u + 1) % n, w, c);
    }
    b.uniform_endpoints(1);
    let net = b.build().unwrap();
    let result = bisect(&net);
    assert_eq!(result.links_cut, 2);
    let (s3, s8) = (result.side[3], result.side[8]);
    assert!((3..=8).all(|r| result.side[r] == s3) && s3 == s8);
    assert!((9..12).chain(0..=2).all(|r| result.side[r] != s3));
}

/// Koibuchi et al., 2018, §I: a directed network counts its directions separately. A directed ring
/// crosses the bisection once each way; a network with both directions of every link of an
/// undirected one cuts twice the undirected bisection, the same number each way.
#[test]
fn directed_networks_count_both_directions() {
    for n in [6usize, 11, 16] {
        let b = bisect(&ring(n, true));
        assert_eq!((b.links_cut, b.links_0_to_1, b.links_1_to_0), (2, 1, 1));
        assert_eq!(b.per_endpoint, 1.0 / (n as f64 / 2.0));
    }
    for spec in ["hypercube:n=5", "torus:dims=6x6", "slimfly:q=5"] {
        let undirected = build_str(spec).unwrap();
        let mut builder = NetworkBuilder::new("both", undirected.num_routers(), true);
        let c = builder.link_class("link");
        for l in undirected.links() {
            builder.add_link(l.src as usize, l.dst as usize, l.width, c);
            builder.add_link(l.dst as usize, l.src as usize, l.width, c);
        }
        let directed = builder
            .build()
            .unwrap()
            .with_endpoints(undirected.endpoints().to_vec())
            .unwrap();
        let u = bisect(&undirected);
        let d = bisect(&directed);
        assert_eq!(d.links_cut, 2 * u.links_cut, "{spec}");
        assert_eq!(d.links_0_to_1, u.links_cut, "{spec}");
        assert_eq!(d.links_1_to_0, u.links_cut, "{spec}");
        assert_eq!(d.per_endpoint, u.per_endpoint, "{spec}");
    }
}

/// Directions that differ: a directed graph whose arcs mostly point one way across its best cut.
#[test]
fn directed_cut_directions_are_reported_separately() {
    // Two directed 4-cycles (0..4 and 4..8) joined by arcs 0->4, 1->5, 2->6 and 7->3.
    let mut b = NetworkBuilder::new("two_cycles", 8, true);
    let c = b.link_class("link");
    for base in [0, 4] {
        for i in 0..4 {
            b.add_link(base + i, base + (i + 1) % 4, 1, c);
        }
    }
    for (u, v) in [(0, 4), (1, 5), (2, 6), (7, 3)] {
        b.add_link(u, v, 1, c);
    }
    b.uniform_endpoints(1);
    let net = b.build().unwrap();
    let result = bisect(&net);
    assert_eq!(result.links_cut, 4);
    assert_eq!(result.side, vec![0, 0, 0, 0, 1, 1, 1, 1]);
    assert_eq!((result.links_0_to_1, result.links_1_to_0), (3, 1));
    assert_eq!(result.per_endpoint, 1.0 / 4.0);
}

/// No links, or two equal components: nothing needs to be cut.
#[test]
fn disconnected_networks_cut_nothing_when_balanced() {
    let mut empty = NetworkBuilder::new("empty", 6, false);
    empty.uniform_endpoints(2);
    let b = bisect(&empty.build().unwrap());
    assert_eq!((b.links_cut, b.routers), (0, [3, 3]));

    let mut two = NetworkBuilder::new("two_rings", 10, false);
    let c = two.link_class("link");
    for base in [0, 5] {
        for i in 0..5 {
            two.add_link(base + i, base + (i + 1) % 5, 2, c);
        }
    }
    two.uniform_endpoints(1);
    let b = bisect(&two.build().unwrap());
    assert_eq!(b.links_cut, 0);
    assert_eq!(b.side, [0, 0, 0, 0, 0, 1, 1, 1, 1, 1]);
}

#[test]
fn same_seed_same_partition_also_across_threads() {
    let net = build_str("jellyfish:routers=300,degree=7,seed=3").unwrap();
    let first = bisection(&net, 4, 42, &Silent).unwrap();
    check_consistent(&net, &first);
    let again: Vec<Bisection> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..4)
            .map(|_| s.spawn(|| bisection(&net, 4, 42, &Silent).unwrap()))
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    for b in again {
        assert_eq!(b, first);
    }
    // More runs never do worse than their first ones: the best is kept.
    let more = bisection(&net, 12, 42, &Silent).unwrap();
    assert!(more.links_cut <= first.links_cut);
    assert_eq!((first.runs, first.seed), (4, 42));
    assert!(first.best_run < 4);
}

fn message(err: TopolabError) -> String {
    err.to_string()
}

#[test]
fn bad_input_is_rejected_by_name() {
    let net = build_str("hypercube:n=3").unwrap();
    let err = message(bisection(&net, 0, 1, &Silent).unwrap_err());
    assert!(
        err.contains("'bisection_runs'") && err.contains("= 0") && err.contains("1 to 1000"),
        "{err}"
    );

    let one = NetworkBuilder::new("one", 1, false).build().unwrap();
    let err = message(bisection(&one, 1, 1, &Silent).unwrap_err());
    assert!(
        err.contains("'network'") && err.contains("at least 2 routers"),
        "{err}"
    );

    let no_endpoints = build_str("hypercube:n=3,p=0").unwrap();
    let err = message(bisection(&no_endpoints, 1, 1, &Silent).unwrap_err());
    assert!(err.contains("'endpoints'") && err.contains("= 0"), "{err}");

    let mut lumpy = NetworkBuilder::new("lumpy", 4, false);
    let c = lumpy.link_class("link");
    lumpy
        .add_link(0, 1, 1, c)
        .add_link(1, 2, 1, c)
        .add_link(2, 3, 1, c);
    lumpy
        .set_endpoints(2, 9)
        .set_endpoints(0, 1)
        .set_endpoints(3, 1);
    let err = message(bisection(&lumpy.build().unwrap(), 1, 1, &Silent).unwrap_err());
    assert!(
        err.contains("'endpoints'") && err.contains("9 of 11 on router 2"),
        "{err}"
    );
}

#[test]
fn interruption_stops_the_runs() {
    use std::sync::atomic::AtomicBool;
    use topolab_core::progress::CancelFlag;
    let stop = AtomicBool::new(true);
    let net = build_str("hypercube:n=4").unwrap();
    assert_eq!(
        bisection(&net, 3, 1, &CancelFlag(&stop)),
        Err(TopolabError::Interrupted)
    );
}

/// The spectral lower bound (Donath & Hoffman; Fiedler) never exceeds the exact minimum, found by
/// brute force, and is given exactly where it holds: undirected, regular, uniform endpoints.
#[test]
fn spectral_lower_bound_is_below_the_minimum_and_only_where_it_holds() {
    use topolab_core::metrics::bisection::spectral_lower_bound;
    use topolab_core::metrics::spectral::spectrum;
    let mut given = 0;
    for spec in [
        "torus:dims=4x4",
        "torus:dims=3x5",
        "hypercube:n=3",
        "hypercube:n=4",
        "hyperx:dims=4x4",
        "slimfly:q=3",
        "jellyfish:routers=16,degree=3",
        "mesh:dims=4x4",
        "fattree:k=4,levels=2",
    ] {
        let net = build_str(spec).unwrap();
        let s = spectrum(&net, &Silent).unwrap();
        let exact = brute_force(&net);
        let regular_uniform = s.regular_degree.is_some()
            && net
                .endpoints()
                .iter()
                .all(|&e| e == net.endpoints()[0] && e > 0);
        match spectral_lower_bound(&net, &s) {
            Some(bound) => {
                assert!(regular_uniform, "{spec}: a bound where it does not hold");
                assert!(
                    bound <= exact,
                    "{spec}: bound {bound} above the minimum {exact}"
                );
                given += 1;
            }
            None => assert!(!regular_uniform, "{spec}: no bound where it holds"),
        }
    }
    assert!(given >= 6, "the bound was given on {given} networks only");
    // On the hypercube the bound is tight: λ2(L) = 2 gives 2·(n/2)²/n = n/2 = 2^(d-1).
    for d in [3u32, 4, 6] {
        let net = build_str(&format!("hypercube:n={d}")).unwrap();
        let s = spectrum(&net, &Silent).unwrap();
        assert_eq!(
            spectral_lower_bound(&net, &s),
            Some(1 << (d - 1)),
            "hypercube n={d}"
        );
    }
}
