//! Hop-by-hop routings from topolab-core (`routing::rule`) in the simulator: packets are
//! delivered with flits and credits conserved, and the simulated hop counts follow the path
//! distribution that static analysis enumerates from the same definition.

use crate::common;

use common::{short, static_mean_routers};
use topolab_core::build_str;
use topolab_core::progress::Silent;
use topolab_sim::simulate;

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

#[test]
fn detours_are_taken_only_when_preferred_outputs_are_busy() {
    // Daryin & Korzh, JSFI 2014, §3.7: Distance Based + E prefers minimal hops, then sideways ones,
    // then deflection. At low load the preferred outputs are free, so packets travel minimally
    // under either selection; the detours exist (static candidate union is longer) but are not
    // taken.
    let net = build_str("hyperx:dims=4x4").unwrap();
    let cfg = short(&[("num_vcs", "8")]);
    let minimal = simulate(&net, "min:vcs=any", "uniform", 0.05, &cfg, &Silent).unwrap();
    for routing in [
        "distance_based:e=2",
        "distance_based:e=2,select=random",
        "deflection:e=2",
        "deflection:e=2,select=random",
    ] {
        let r = simulate(&net, routing, "uniform", 0.05, &cfg, &Silent).unwrap();
        assert!(
            (r.avg_hops - minimal.avg_hops).abs() < 0.03 * minimal.avg_hops,
            "{routing}: {} routers per packet vs minimal {}",
            r.avg_hops,
            minimal.avg_hops
        );
    }
    // Past minimal routing's saturation under an adversarial permutation the queue-selected
    // detours carry traffic.
    let heavy = short(&[("num_vcs", "8"), ("vc_buf_size", "4")]);
    let min_heavy = simulate(&net, "min:vcs=any", "tornado", 0.05, &heavy, &Silent).unwrap();
    let db_heavy = simulate(&net, "distance_based:e=2", "tornado", 0.9, &heavy, &Silent).unwrap();
    assert!(
        db_heavy.avg_hops > min_heavy.avg_hops,
        "distance_based under tornado at 0.9: {} routers per packet, min at 0.05 {}",
        db_heavy.avg_hops,
        min_heavy.avg_hops
    );
}
