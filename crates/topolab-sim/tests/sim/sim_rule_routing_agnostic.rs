//! The algebraic, topology-agnostic, latency and Imase routings of topolab-core run in the
//! simulator: one short run each on a small network delivers packets at a low load without
//! saturating, with hop counts within the rule's own bound.

use crate::common;

use common::short;
use topolab_core::build_str;
use topolab_core::progress::Silent;
use topolab_sim::simulate;

/// Runs `routing` on `spec` at a low uniform load and checks delivery and hop counts.
fn delivers(spec: &str, routing: &str, num_vcs: &str, max_routers: f64) {
    let net = build_str(spec).unwrap();
    let cfg = short(&[("debug_checks", "1"), ("num_vcs", num_vcs)]);
    let r = simulate(&net, routing, "uniform", 0.05, &cfg, &Silent)
        .unwrap_or_else(|e| panic!("{spec} {routing}: {e}"));
    assert!(!r.saturated, "{spec} {routing}");
    assert!(r.measured_packets > 0, "{spec} {routing}");
    assert!(
        (r.accepted_throughput - 0.05).abs() < 0.01,
        "{spec} {routing}: accepted {}",
        r.accepted_throughput
    );
    assert!(
        r.avg_hops >= 1.0 && r.avg_hops <= max_routers,
        "{spec} {routing}: {} routers per packet",
        r.avg_hops
    );
}

#[test]
fn slimfly_mms_delivers() {
    // Paths of at most 2 hops visit at most 3 routers.
    delivers("slimfly:q=5", "slimfly_mms", "2", 3.0);
}

#[test]
fn distance_based_and_deflection_deliver() {
    // Slim Fly: D <= 2, E = 2: at most 4 hops (5 routers), VLs 0..3.
    delivers("slimfly:q=5", "distance_based:e=2", "4", 5.0);
    // Torus 4x4: D <= 4, E = 2: at most 6 hops, VLs 0..5; default select=queue and random.
    delivers("torus:dims=4x4", "deflection:e=2", "6", 7.0);
    delivers("torus:dims=4x4", "deflection:e=2,select=random", "6", 7.0);
}

#[test]
fn fastest_delivers() {
    for spec in ["torus:dims=4x4", "skywalk:z=4,c=16,di=3,do=3"] {
        let net = build_str(spec).unwrap();
        let rule = topolab_core::routing::catalog::build_rule(&net, "fastest", &Silent)
            .unwrap()
            .unwrap()
            .rule;
        let vcs = rule.vc_classes();
        delivers(spec, "fastest", &vcs.to_string(), vcs as f64 + 1.0);
    }
}

#[test]
fn imase_delivers_on_imase_and_kautz_digraphs() {
    // ceil(log_2 16) = 4 hops, 4 hop VCs; Kautz K(2,3): 3 hops.
    delivers("imase:n=16,d=2", "imase", "4", 5.0);
    delivers("kautz:d=2,k=3", "imase", "3", 4.0);
}
