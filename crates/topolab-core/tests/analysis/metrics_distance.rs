//! The bitset all-pairs kernel and its summary against brute-force BFS on random and structured
//! networks, directed and undirected, connected and not; determinism across thread counts;
//! interruption.

// Brute force reads best with plain index loops.
#![allow(clippy::needless_range_loop)]

use crate::metrics_support;

use metrics_support::{matrix, network, random_network, INF};
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use topolab_core::metrics::adjacency::Adjacency;
use topolab_core::metrics::apsp::{all_pairs, PairOptions};
use topolab_core::metrics::distance::{
    diameter, diameter_among, distances, distances_from, endpoint_routers,
};
use topolab_core::progress::{CancelFlag, Monitor, Silent};
use topolab_core::{build_str, Network, Result, TopolabError};

/// Every field of `Distances` recomputed from the brute-force distance matrix.
fn check_against_brute_force(net: &Network, what: &str) {
    let n = net.num_routers();
    let d = matrix(net);
    let got = distances(net, &Silent).unwrap();

    let mut histogram = vec![0u64];
    let mut unreachable = 0u64;
    for s in 0..n {
        for t in 0..n {
            if s == t {
                continue;
            }
            match d[s][t] {
                INF => unreachable += 1,
                x => {
                    if histogram.len() <= x as usize {
                        histogram.resize(x as usize + 1, 0);
                    }
                    histogram[x as usize] += 1;
                }
            }
        }
    }
    assert_eq!(got.histogram, histogram, "{what}: histogram");
    assert_eq!(
        got.unreachable_pairs, unreachable,
        "{what}: unreachable pairs"
    );
    let connected = unreachable == 0;
    assert_eq!(got.connected, connected, "{what}: connected");

    let ecc: Vec<u32> = (0..n).map(|s| *d[s].iter().max().unwrap()).collect();
    if connected {
        assert_eq!(
            got.eccentricities.as_deref(),
            Some(&ecc[..]),
            "{what}: eccentricities"
        );
        assert_eq!(got.diameter, ecc.iter().copied().max(), "{what}: diameter");
        assert_eq!(got.radius, ecc.iter().copied().min(), "{what}: radius");
        let sum: u64 = d.iter().flatten().map(|&x| x as u64).sum();
        if n >= 2 {
            let aspl = sum as f64 / (n * (n - 1)) as f64;
            assert!((got.aspl.unwrap() - aspl).abs() < 1e-12, "{what}: aspl");
        } else {
            assert_eq!(got.aspl, None, "{what}: no pairs, no mean");
        }
    } else {
        assert_eq!(got.diameter, None, "{what}");
        assert_eq!(got.aspl, None, "{what}");
        assert_eq!(got.eccentricities, None, "{what}");
    }

    // Endpoint level: every ordered pair of distinct endpoints, router-local pairs at 0 hops.
    let e = net.endpoints();
    let total: u64 = e.iter().map(|&x| x as u64).sum();
    let mut sum = 0u64;
    let mut max = 0u32;
    let mut endpoints_connected = true;
    for s in 0..n {
        for t in 0..n {
            if s != t && e[s] > 0 && e[t] > 0 {
                if d[s][t] == INF {
                    endpoints_connected = false;
                } else {
                    sum += e[s] as u64 * e[t] as u64 * d[s][t] as u64;
                    max = max.max(d[s][t]);
                }
            }
        }
    }
    if endpoints_connected && total >= 2 {
        let want = sum as f64 / (total * (total - 1)) as f64;
        assert!(
            (got.endpoint_aspl.unwrap() - want).abs() < 1e-12,
            "{what}: endpoint aspl"
        );
        assert_eq!(
            got.endpoint_diameter,
            Some(max),
            "{what}: endpoint diameter"
        );
    } else {
        assert_eq!(got.endpoint_aspl, None, "{what}: endpoint aspl");
    }

    // Components: weak by union of both directions, strong by mutual reachability classes.
    let mut weak_seen = vec![false; n];
    let mut weak = 0;
    for s in 0..n {
        if !weak_seen[s] {
            weak += 1;
            let mut stack = vec![s];
            weak_seen[s] = true;
            while let Some(u) = stack.pop() {
                for v in 0..n {
                    let adjacent = net.neighbors(u).contains(&(v as u32))
                        || net.neighbors(v).contains(&(u as u32));
                    if adjacent && !weak_seen[v] {
                        weak_seen[v] = true;
                        stack.push(v);
                    }
                }
            }
        }
    }
    assert_eq!(got.components, weak, "{what}: components");
    if net.directed() {
        let mut strong_seen = vec![false; n];
        let mut strong = 0;
        for s in 0..n {
            if !strong_seen[s] {
                strong += 1;
                for t in 0..n {
                    if d[s][t] != INF && d[t][s] != INF {
                        strong_seen[t] = true;
                    }
                }
            }
        }
        assert_eq!(
            got.strong_components,
            Some(strong),
            "{what}: strong components"
        );
    } else {
        assert_eq!(got.strong_components, None);
    }
}

#[test]
fn random_networks_match_brute_force() {
    let mut cases = 0;
    for directed in [false, true] {
        for (n, p) in [
            (1usize, 0.5),
            (2, 1.0),
            (2, 0.0),
            (5, 0.5),
            (12, 0.1),
            (12, 0.3),
            (40, 0.06),
            (40, 0.15),
            (90, 0.03),
        ] {
            for seed in 0..4 {
                let uniform = seed % 2 == 0;
                let net = random_network(n, p, directed, 5, uniform, seed);
                check_against_brute_force(
                    &net,
                    &format!("n={n} p={p} directed={directed} seed={seed}"),
                );
                cases += 1;
            }
        }
    }
    assert!(cases > 50);
}

#[test]
fn several_batches_and_a_partial_one_match_brute_force() {
    // 512 sources per batch: 1100 routers make two full batches and one of 76.
    for (directed, p, seed) in [(false, 0.004, 1), (true, 0.006, 2), (false, 0.0015, 3)] {
        let net = random_network(1100, p, directed, 3, false, seed);
        check_against_brute_force(&net, &format!("1100 routers directed={directed} p={p}"));
    }
    // Dense enough that the first levels push from the sources instead of pulling: the
    // kernel's other branch.
    for spec in ["hypercube:n=11", "jellyfish:routers=1500,degree=30"] {
        check_against_brute_force(&build_str(spec).unwrap(), spec);
    }
    let net = random_network(1300, 0.02, true, 2, false, 8);
    check_against_brute_force(&net, "1300 routers, directed, dense");
}

#[test]
fn structured_networks_match_brute_force() {
    for spec in [
        "slimfly:q=5",
        "slimfly:q=7,p=2",
        "torus:dims=5x4x3",
        "mesh:dims=6x5",
        "hypercube:n=6",
        "hyperx:dims=4x3,widths=2x1",
        "dragonfly:a=4,h=2,p=2",
        "fattree:k=4,levels=3",
        "dln:routers=64,shortcuts=2",
    ] {
        let net = build_str(spec).unwrap();
        check_against_brute_force(&net, spec);
    }
}

/// The single-source search (which stops once every router is reached) against the brute force,
/// on networks of diameter 2 (where it stops earliest), larger ones, directed and disconnected
/// random ones.
#[test]
fn single_source_distances_match_brute_force() {
    let mut nets: Vec<(String, Network)> = ["slimfly:q=5", "polarfly:q=7", "torus:dims=3x4"]
        .iter()
        .map(|s| (s.to_string(), build_str(s).unwrap()))
        .collect();
    for (seed, p, directed) in [
        (1, 0.3, false),
        (2, 0.05, false),
        (3, 0.2, true),
        (4, 0.04, true),
    ] {
        let what = format!("random seed {seed}, p {p}, directed {directed}");
        nets.push((what, random_network(30, p, directed, 2, false, seed)));
    }
    for (what, net) in &nets {
        let want = matrix(net);
        for (s, row) in want.iter().enumerate() {
            assert_eq!(&distances_from(net, s), row, "{what}: from {s}");
        }
    }
}

#[test]
fn directed_cycle_and_disconnected_union() {
    // Directed 6-cycle: distance s -> t is (t - s) mod 6, each value 1..5 occurring 6 times.
    let links: Vec<(usize, usize)> = (0..6).map(|i| (i, (i + 1) % 6)).collect();
    let net = network(6, true, &links, &[1; 6]);
    let got = distances(&net, &Silent).unwrap();
    assert_eq!(got.histogram, vec![0, 6, 6, 6, 6, 6]);
    assert_eq!(got.diameter, Some(5));
    assert_eq!(got.aspl, Some(3.0));
    // Two disjoint triangles: disconnected, 2 components, 18 unreachable ordered pairs.
    let net = network(
        6,
        false,
        &[(0, 1), (1, 2), (0, 2), (3, 4), (4, 5), (3, 5)],
        &[2; 6],
    );
    let got = distances(&net, &Silent).unwrap();
    assert!(!got.connected);
    assert_eq!(got.components, 2);
    assert_eq!(got.unreachable_pairs, 18);
    assert_eq!(got.histogram, vec![0, 12]);
    assert_eq!(
        (got.diameter, got.aspl, got.endpoint_aspl),
        (None, None, None)
    );
    // A one-way path is weakly connected but not strongly.
    let net = network(3, true, &[(0, 1), (1, 2)], &[1; 3]);
    let got = distances(&net, &Silent).unwrap();
    assert!(!got.connected);
    assert_eq!((got.components, got.strong_components), (1, Some(3)));
}

#[test]
fn endpoint_level_counts_router_local_pairs_as_zero_hops() {
    // Two routers, one link, 3 and 1 endpoints: 4·3 = 12 ordered endpoint pairs, of which
    // 3·1 + 1·3 = 6 cross the link (1 hop) and 6 stay on router 0 (0 hops): 6/12 = 0.5.
    let net = network(2, false, &[(0, 1)], &[3, 1]);
    let got = distances(&net, &Silent).unwrap();
    assert_eq!(got.aspl, Some(1.0));
    assert_eq!(got.endpoint_aspl, Some(0.5));
    // A switch without endpoints in the middle: endpoints only on the leaves of a star; the
    // endpoint diameter is 2 and the router diameter too, the hub's distances do not count.
    let net = network(4, false, &[(0, 1), (0, 2), (0, 3)], &[0, 1, 1, 1]);
    let got = distances(&net, &Silent).unwrap();
    assert_eq!(got.endpoint_aspl, Some(2.0));
    assert_eq!(got.endpoint_diameter, Some(2));
    // Endpoints on one side of a disconnected network only: endpoint metrics are defined.
    let net = network(4, false, &[(0, 1), (2, 3)], &[1, 1, 0, 0]);
    let got = distances(&net, &Silent).unwrap();
    assert!(!got.connected);
    assert_eq!(got.endpoint_aspl, Some(1.0));
}

#[test]
fn diameter_helpers_agree_with_brute_force() {
    for spec in [
        "fattree:k=4,levels=3",
        "oft:k=4",
        "mlfm:h=3,l=3",
        "slimfly:q=4",
    ] {
        let net = build_str(spec).unwrap();
        let d = matrix(&net);
        let among = endpoint_routers(&net);
        let want = among
            .iter()
            .flat_map(|&s| among.iter().map(move |&t| (s, t)))
            .map(|(s, t)| d[s][t])
            .max();
        assert_eq!(diameter_among(&net, &among), want, "{spec}");
        let all = d.iter().flatten().copied().max();
        assert_eq!(diameter(&net), all, "{spec}");
    }
    let net = network(4, false, &[(0, 1), (2, 3)], &[1; 4]);
    assert_eq!(diameter(&net), None);
    assert_eq!(diameter_among(&net, &[0, 1]), Some(1));
    assert_eq!(diameter_among(&net, &[0, 1, 2]), None);
}

#[test]
fn kernel_options_sources_and_depth_limit() {
    let net = random_network(300, 0.02, true, 1, true, 9);
    let d = matrix(&net);
    let adjacency = Adjacency::of(&net);
    let sources = [5u32, 17, 250, 5];
    let stats = all_pairs(
        adjacency.graph(),
        &PairOptions {
            sources: Some(&sources),
            max_depth: 3,
            ..PairOptions::default()
        },
        &Silent,
    )
    .unwrap();
    let mut histogram = vec![0u64; 4];
    let mut unreached = 0;
    for &s in &sources {
        for t in 0..300 {
            match d[s as usize][t] {
                0 => {}
                x if x <= 3 => histogram[x as usize] += 1,
                _ => unreached += 1,
            }
        }
    }
    assert_eq!(stats.histogram, histogram);
    assert_eq!(stats.unreached_pairs, unreached);
    let err = all_pairs(
        adjacency.graph(),
        &PairOptions {
            sources: Some(&[300]),
            ..PairOptions::default()
        },
        &Silent,
    )
    .unwrap_err();
    assert!(err.to_string().contains("'sources' = 300"), "{err}");
}

#[test]
fn one_thread_and_two_threads_give_identical_results() {
    let net = random_network(1500, 0.003, false, 4, false, 4);
    let run = |threads| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap()
            .install(|| distances(&net, &Silent).unwrap())
    };
    assert_eq!(run(1), run(2));
}

/// Lets the first `allowed` progress calls through, then interrupts.
struct StopAfter {
    allowed: u32,
    calls: AtomicU32,
}

impl Monitor for StopAfter {
    fn progress(&self, _: &str, _: u64, _: u64) -> Result<()> {
        if self.calls.fetch_add(1, Ordering::SeqCst) >= self.allowed {
            Err(TopolabError::Interrupted)
        } else {
            Ok(())
        }
    }
}

#[test]
fn interruption_is_honoured() {
    let net = random_network(2000, 0.002, false, 1, true, 5);
    let flag = AtomicBool::new(true);
    assert_eq!(
        distances(&net, &CancelFlag(&flag)),
        Err(TopolabError::Interrupted)
    );
    let monitor = StopAfter {
        allowed: 2,
        calls: AtomicU32::new(0),
    };
    assert_eq!(distances(&net, &monitor), Err(TopolabError::Interrupted));
    // 4 batches: at most the batches already running finish after the stop.
    assert!(monitor.calls.load(Ordering::SeqCst) <= 5);
}
