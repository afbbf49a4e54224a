//! Fastest Routing as a hop rule (Fujiwara et al., IPDPS 2014, §II-E): every path the rule offers
//! has exactly the lowest latency, checked against latency.rs's Fastest Routing (per pair and in
//! the report's max and average) and against an independent Floyd–Warshall over switch + cable
//! delays; the paths take more hops than minimal where a longer route is faster; hop VCs are
//! deadlock-free.
#![allow(clippy::needless_range_loop)]

use std::sync::Arc;
use topolab_core::physical::latency::{LatencyGraph, Routing, Scratch};
use topolab_core::physical::{latency, link_lengths, place, Floor, LatencyModel, PlaceOptions};
use topolab_core::progress::Silent;
use topolab_core::routing::catalog::{build_rule, build_static};
use topolab_core::routing::cdg::check;
use topolab_core::routing::path::PathSet;
use topolab_core::routing::rule::check_rule_paths;
use topolab_core::{build_str, Network};

/// Per-hop delay (switch + cable) in ps of the link between a and b (the fastest of parallel
/// links), from the placed cable lengths.
fn hop_ps(net: &Network, lengths: &[f64], model: &LatencyModel, a: usize, b: usize) -> u64 {
    net.neighbors(a)
        .iter()
        .zip(net.neighbor_links(a))
        .filter(|(&v, _)| v as usize == b)
        .map(|(_, &l)| {
            ((model.switch_delay_ns + model.cable_ns_per_m * lengths[l as usize]) * 1000.0).round()
                as u64
        })
        .min()
        .expect("consecutive routers are linked")
}

fn floyd_warshall(net: &Network, lengths: &[f64], model: &LatencyModel) -> Vec<Vec<u64>> {
    let n = net.num_routers();
    let mut d = vec![vec![u64::MAX / 4; n]; n];
    for a in 0..n {
        d[a][a] = 0;
        for &b in net.neighbors(a) {
            d[a][b as usize] = hop_ps(net, lengths, model, a, b as usize);
        }
    }
    for k in 0..n {
        for i in 0..n {
            for j in 0..n {
                let via = d[i][k] + d[k][j];
                if via < d[i][j] {
                    d[i][j] = via;
                }
            }
        }
    }
    d
}

#[test]
fn paths_have_the_fastest_latency_of_the_physical_model() {
    for (spec, floor_name) in [
        ("torus:dims=4x4", "skywalk"),
        ("skywalk:z=4,c=16,di=3,do=3", "skywalk"),
        ("slimfly:q=5", "slimfly"),
    ] {
        let net = build_str(spec).unwrap();
        let floor = Floor::builtin(floor_name).unwrap();
        let placement = place(&net, &floor, &PlaceOptions::default()).unwrap();
        let model = LatencyModel::default();
        let lengths = link_lengths(&net, &placement, &floor);
        let graph = LatencyGraph::new(&net, &lengths, &model).unwrap();
        let fw = floyd_warshall(&net, &lengths, &model);
        let routing = format!("fastest:floor={floor_name}");
        let def = build_static(&net, &routing, &Silent).unwrap();
        let n = net.num_routers();
        let base = ((model.injection_ns + model.switch_delay_ns) * 1000.0).round() as u64;
        let mut scratch = Scratch::new(n);
        let mut ps = PathSet::default();
        let (mut sum, mut max, mut pairs, mut longer) = (0u128, 0u64, 0u64, 0usize);
        let mut ties = 0usize;
        for s in 0..n {
            graph.search(s, Routing::Fastest, &mut scratch);
            let nearest_hops = {
                let mut sc = Scratch::new(n);
                graph.search(s, Routing::Nearest, &mut sc);
                sc.hops.clone()
            };
            for t in 0..n {
                if s == t {
                    continue;
                }
                def.paths(s, t, &mut ps).unwrap();
                assert!(!ps.is_empty());
                ties += (ps.len() > 1) as usize;
                for i in 0..ps.len() {
                    let (rs, _, _) = ps.path(i);
                    let lat: u64 = rs
                        .windows(2)
                        .map(|w| hop_ps(&net, &lengths, &model, w[0] as usize, w[1] as usize))
                        .sum();
                    assert_eq!(lat + base, scratch.latency_ps[t], "{spec} {s}->{t} {rs:?}");
                    assert_eq!(lat, fw[s][t], "{spec} {s}->{t}: Floyd-Warshall");
                    assert_eq!(rs.len() as u32 - 1, scratch.hops[t], "{spec} {s}->{t}");
                    longer += (scratch.hops[t] > nearest_hops[t]) as usize;
                }
                sum += scratch.latency_ps[t] as u128;
                max = max.max(scratch.latency_ps[t]);
                pairs += 1;
            }
        }
        let report = latency(&net, &placement, &floor, &model, Routing::Fastest, &Silent).unwrap();
        assert_eq!(report.pairs, pairs);
        assert!((report.max_latency_ns - max as f64 / 1000.0).abs() < 1e-6);
        assert!((report.avg_latency_ns - sum as f64 / pairs as f64 / 1000.0).abs() < 1e-6);
        println!(
            "{spec}: {pairs} pairs, {ties} with tied next hops, {longer} paths longer than minimal"
        );
        if spec.starts_with("skywalk") {
            assert!(
                longer > 0,
                "{spec}: Fastest Routing should beat minimal hops somewhere"
            );
        }
    }
}

#[test]
fn hop_vcs_up_to_the_longest_fastest_path_are_deadlock_free() {
    for spec in ["torus:dims=4x4", "skywalk:z=4,c=16,di=3,do=3"] {
        let net = build_str(spec).unwrap();
        let built = build_rule(&net, "fastest", &Silent).unwrap().unwrap();
        let longest = check_rule_paths(&net, Arc::clone(&built.rule)).unwrap();
        assert_eq!(built.rule.vc_classes(), longest, "{spec}");
        let def = build_static(&net, "fastest", &Silent).unwrap();
        let rep = check(&net, &*def, &Silent).unwrap();
        assert!(rep.acyclic, "{spec}: {:?}", rep.cycle);
        assert_eq!(rep.vcs_used, longest);
    }
}

#[test]
fn bad_parameters_are_named() {
    let net = build_str("torus:dims=4x4").unwrap();
    let e = build_rule(&net, "fastest:placement=nowhere.txt", &Silent)
        .err()
        .unwrap()
        .to_string();
    assert!(e.contains("placement") && e.contains("nowhere.txt"), "{e}");
    let e = build_rule(&net, "fastest:switch_delay_ns=-1", &Silent)
        .err()
        .unwrap()
        .to_string();
    assert!(e.contains("switch_delay_ns"), "{e}");
    let e = build_rule(&net, "fastest:floor=moon", &Silent)
        .err()
        .unwrap()
        .to_string();
    assert!(e.contains("moon"), "{e}");
    let directed = build_str("imase:n=8,d=2").unwrap();
    assert!(build_rule(&directed, "fastest", &Silent).is_err());
}
