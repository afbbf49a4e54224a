//! Hop-by-hop routings from topolab-core (`routing::rule`) in the simulator: packets are
//! delivered with flits and credits conserved, and the simulated hop counts follow the path
//! distribution that static analysis enumerates from the same definition.

mod common;

use common::short;
use topolab_core::progress::Silent;
use topolab_core::routing::catalog::build_static;
use topolab_core::routing::path::PathSet;
use topolab_core::{build_str, Network};
use topolab_sim::simulate;

/// Mean routers visited per packet under uniform traffic (every endpoint pair, self included
/// as in BookSim2's uniform pattern),
/// from the static path enumeration.
fn static_mean_routers(net: &Network, routing: &str) -> f64 {
    let def = build_static(net, routing, &Silent).unwrap();
    let ep = net.endpoints();
    let mut ps = PathSet::default();
    let (mut sum, mut count) = (0.0, 0.0);
    for s in 0..net.num_routers() {
        for t in 0..net.num_routers() {
            let pairs = (ep[s] * ep[t]) as f64;
            if pairs == 0.0 {
                continue;
            }
            def.paths(s, t, &mut ps).unwrap();
            let mean: f64 = (0..ps.len())
                .map(|i| {
                    let (rs, _, w) = ps.path(i);
                    w * rs.len() as f64
                })
                .sum();
            sum += pairs * mean;
            count += pairs;
        }
    }
    sum / count
}

#[test]
fn updown_delivers_and_follows_its_static_paths() {
    for spec in ["torus:dims=4x4", "jellyfish:routers=24,degree=4,p=2"] {
        let net = build_str(spec).unwrap();
        let cfg = short(&[("debug_checks", "1")]);
        let r = simulate(&net, "updown", "uniform", 0.05, &cfg, &Silent)
            .unwrap_or_else(|e| panic!("{spec}: {e}"));
        assert!(!r.saturated, "{spec}");
        assert!(
            (r.accepted_throughput - 0.05).abs() < 0.01,
            "{spec}: accepted {}",
            r.accepted_throughput
        );
        let want = static_mean_routers(&net, "updown");
        assert!(
            (r.avg_hops - want).abs() < 0.03 * want,
            "{spec}: simulated {} routers per packet, static paths give {want}",
            r.avg_hops
        );
        let q = simulate(&net, "updown:select=queue", "uniform", 0.05, &cfg, &Silent).unwrap();
        assert!(
            !q.saturated && q.measured_packets > 0,
            "{spec} select=queue"
        );
    }
}

#[test]
fn rule_routing_errors_name_the_parameter() {
    let net = build_str("torus:dims=4x4").unwrap();
    let cfg = short(&[]);
    let e = simulate(&net, "updown:select=fast", "uniform", 0.1, &cfg, &Silent)
        .unwrap_err()
        .to_string();
    assert!(e.contains("select") && e.contains("fast"), "{e}");
    let e = simulate(&net, "updown:level=2", "uniform", 0.1, &cfg, &Silent)
        .unwrap_err()
        .to_string();
    assert!(e.contains("level") && e.contains("root"), "{e}");
}
