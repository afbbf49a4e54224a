//! Distance Based + E and Deflection + E (Daryin & Korzh, JSFI 2014, §3.7) on a torus, a HyperX, a
//! Slim Fly and a random graph: every packet arrives, every path has between D and D + E hops (D
//! from an independent BFS), the extra hops are the kinds Daryin & Korzh (JSFI 2014) allow
//! (sideways only without deflection, which a bipartite torus never offers), and the CDG with
//! Daryin & Korzh's (JSFI 2014) 8 VLs is acyclic whenever diameter + E <= 8; when the VLs wrap the
//! checker finds a real cycle.

use std::collections::VecDeque;
use std::sync::Arc;
use topolab_core::progress::Silent;
use topolab_core::routing::catalog::{build_rule, build_static};
use topolab_core::routing::cdg::check;
use topolab_core::routing::path::PathSet;
use topolab_core::routing::rule::check_rule_paths;
use topolab_core::{build_str, Network};

fn bfs(net: &Network, s: usize) -> Vec<usize> {
    let mut d = vec![usize::MAX; net.num_routers()];
    d[s] = 0;
    let mut q = VecDeque::from([s]);
    while let Some(u) = q.pop_front() {
        for &v in net.neighbors(u) {
            if d[v as usize] == usize::MAX {
                d[v as usize] = d[u] + 1;
                q.push_back(v as usize);
            }
        }
    }
    d
}

/// (paths longer than D, paths with a step away from t) over all pairs; asserts that every
/// path runs s -> t over links in D..=D+E hops and only steps away from t when `deflection`.
#[allow(clippy::needless_range_loop)]
fn check_paths(net: &Network, routing: &str, e: usize, deflection: bool) -> (usize, usize) {
    let def = build_static(net, routing, &Silent).unwrap();
    let dist: Vec<Vec<usize>> = (0..net.num_routers()).map(|s| bfs(net, s)).collect();
    let mut ps = PathSet::default();
    let (mut longer, mut away) = (0, 0);
    for s in 0..net.num_routers() {
        for t in 0..net.num_routers() {
            if s == t {
                continue;
            }
            def.paths(s, t, &mut ps).unwrap();
            assert!(!ps.is_empty(), "{routing} {s}->{t}");
            for i in 0..ps.len() {
                let (rs, _, _) = ps.path(i);
                let h = rs.len() - 1;
                let d = dist[s][t];
                assert!(
                    d <= h && h <= d + e,
                    "{routing} {s}->{t}: {h} hops, D = {d}"
                );
                assert_eq!(*rs.last().unwrap() as usize, t);
                longer += (h > d) as usize;
                for w in rs.windows(2) {
                    assert!(net.neighbors(w[0] as usize).contains(&w[1]));
                    if dist[w[1] as usize][t] > dist[w[0] as usize][t] {
                        assert!(deflection, "{routing}: step away from {t} in {rs:?}");
                        away += 1;
                    }
                }
            }
        }
    }
    (longer, away)
}

const NETS: &[&str] = &[
    "torus:dims=4x4",
    "hyperx:dims=3x3",
    "slimfly:q=5",
    "jellyfish:routers=16,degree=4,p=1",
];

#[test]
fn every_path_has_d_to_d_plus_e_hops_of_the_allowed_kinds() {
    for spec in NETS {
        let net = build_str(spec).unwrap();
        let bipartite = spec.starts_with("torus");
        for (routing, e, defl) in [
            ("distance_based", 0, false),
            ("distance_based:e=2", 2, false),
            ("deflection:e=2", 2, true),
        ] {
            let (longer, away) = check_paths(&net, routing, e, defl);
            if e == 0 || (bipartite && !defl) {
                // No sideways neighbour exists in a bipartite graph (d_p = d ± 1).
                assert_eq!(longer, 0, "{spec} {routing}");
            } else {
                assert!(longer > 0, "{spec} {routing}: never took an extra hop");
            }
            if defl {
                assert!(away > 0, "{spec} {routing}: never deflected");
            }
        }
    }
}

#[test]
fn eight_vls_are_deadlock_free_when_diameter_plus_e_fits() {
    for spec in NETS {
        let net = build_str(spec).unwrap();
        // Deflection + 4 only where its path sets stay small (degree 4, diameter <= 4).
        let big = spec.starts_with("slimfly") || spec.starts_with("jellyfish");
        for routing in ["distance_based:e=2", "deflection:e=2", "deflection:e=4"] {
            if big && routing == "deflection:e=4" {
                continue;
            }
            let built = build_rule(&net, routing, &Silent).unwrap().unwrap();
            let max = check_rule_paths(&net, Arc::clone(&built.rule)).unwrap();
            assert!(max <= built.rule.max_hops());
            let def = build_static(&net, routing, &Silent).unwrap();
            let rep = check(&net, &*def, &Silent).unwrap();
            assert!(rep.acyclic, "{spec} {routing}: {:?}", rep.cycle);
            assert!(rep.vcs_used <= 8, "{spec} {routing}");
        }
    }
}

#[test]
fn wrapping_vls_are_reported_with_a_cycle() {
    // Ring of 12: diameter 6; Deflection + 4 needs 10 VLs, so VL arithmetic mod 8 wraps.
    let net = build_str("torus:dims=12").unwrap();
    let fits = build_static(&net, "deflection:e=2", &Silent).unwrap();
    assert!(check(&net, &*fits, &Silent).unwrap().acyclic);
    let wraps = build_static(&net, "deflection:e=4", &Silent).unwrap();
    let rep = check(&net, &*wraps, &Silent).unwrap();
    assert!(
        !rep.acyclic,
        "VL wrap on a ring of 12 should close a credit loop"
    );
    let enough = build_static(&net, "deflection:e=4,vls=10", &Silent).unwrap();
    assert!(check(&net, &*enough, &Silent).unwrap().acyclic);
}

#[test]
fn bad_parameters_are_named() {
    let net = build_str("torus:dims=4x4").unwrap();
    let e = build_rule(&net, "deflection:e=1", &Silent)
        .err()
        .unwrap()
        .to_string();
    assert!(
        e.contains("e") && e.contains('1') && e.contains("at least 2"),
        "{e}"
    );
    let e = build_rule(&net, "distance_based:vls=0", &Silent)
        .err()
        .unwrap()
        .to_string();
    assert!(e.contains("vls"), "{e}");
}
