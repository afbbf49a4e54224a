//! The structured routings of topolab-core (HyperX, torus, hypercube, fat tree, Dragonfly;
//! Daryin & Korzh, JSFI 2014, §3, Besta & Hoefler, SC14, §V) in the simulator: packets are
//! delivered at low load and the simulated routers per packet equal the mean of the static path
//! enumeration of the same rule.

use crate::common;

use common::{short, static_mean_routers};
use topolab_core::build_str;
use topolab_core::progress::Silent;
use topolab_sim::simulate;

/// (network, routing run with select=random so that the static mean is the expected one).
const CASES: &[(&str, &str)] = &[
    ("hyperx:dims=3x4,widths=2x1,p=2", "hyperx_dor"),
    (
        "hyperx:dims=3x4,widths=2x1,p=2",
        "hyperx_ador:select=random",
    ),
    ("hyperx:dims=3x4,p=4", "hyperx_dor:mixed=true,twisted=true"),
    (
        "hyperx:dims=3x4,p=4",
        "hyperx_ador:mixed=true,twisted=true,select=random",
    ),
    ("torus:dims=4x5", "torus_dor"),
    ("torus:dims=4x5", "torus_dor:vcs=booksim"),
    ("hypercube:n=4,p=2", "hypercube_nf:select=random"),
    ("hypercube:n=4,p=2", "hypercube_abo_nf:select=random"),
    ("hypercube:n=4,p=2", "hypercube_abo_pl:select=random"),
    ("fattree:k=4", "fattree_nca"),
    ("fattree:k=4", "fattree_anca:select=random"),
    ("dragonfly:h=2,p=1", "dragonfly_static"),
    (
        "dragonfly:h=2,p=1",
        "dragonfly_adaptive:extra=GSID,select=random",
    ),
];

#[test]
fn structured_rules_deliver_with_their_static_hop_counts() {
    let cfg = short(&[("debug_checks", "1"), ("num_vcs", "8")]);
    for &(spec, routing) in CASES {
        let net = build_str(spec).unwrap();
        let r = simulate(&net, routing, "uniform", 0.05, &cfg, &Silent)
            .unwrap_or_else(|e| panic!("{spec} {routing}: {e}"));
        assert!(!r.saturated, "{spec} {routing}");
        assert!(
            (r.accepted_throughput - 0.05).abs() < 0.01,
            "{spec} {routing}: accepted {}",
            r.accepted_throughput
        );
        let want = static_mean_routers(&net, routing);
        assert!(
            (r.avg_hops - want).abs() < 0.03 * want,
            "{spec} {routing}: simulated {} routers per packet, static paths give {want}",
            r.avg_hops
        );
    }
}

#[test]
fn adaptive_rules_run_with_queue_selection() {
    let cfg = short(&[("num_vcs", "8")]);
    // fattree_anca's default is select=two_choices; both adaptive readings run.
    for (spec, routing) in [
        ("hyperx:dims=3x4,p=2", "hyperx_ador"),
        ("hypercube:n=4,p=2", "hypercube_nf"),
        ("fattree:k=4", "fattree_anca"),
        ("fattree:k=4", "fattree_anca:select=queue"),
        ("dragonfly:h=2,p=1", "dragonfly_adaptive:extra=GS"),
    ] {
        let net = build_str(spec).unwrap();
        let r = simulate(&net, routing, "uniform", 0.2, &cfg, &Silent)
            .unwrap_or_else(|e| panic!("{spec} {routing}: {e}"));
        assert!(!r.saturated && r.measured_packets > 0, "{spec} {routing}");
    }
}

#[test]
fn torus_rule_and_the_simulators_dor_agree_on_hops() {
    // The simulator's BookSim2-compatible `dor` and the rule take the same paths (same tie
    // rule at distance K/2), so their mean hop counts agree.
    let net = build_str("torus:dims=4x4").unwrap();
    let cfg = short(&[("num_vcs", "4")]);
    let a = simulate(&net, "dor", "uniform", 0.1, &cfg, &Silent).unwrap();
    let b = simulate(&net, "torus_dor", "uniform", 0.1, &cfg, &Silent).unwrap();
    assert!(
        (a.avg_hops - b.avg_hops).abs() < 0.03 * a.avg_hops,
        "{} vs {}",
        a.avg_hops,
        b.avg_hops
    );
}

#[test]
fn too_few_vcs_are_refused_by_name() {
    let net = build_str("dragonfly:h=2,p=1").unwrap();
    let cfg = short(&[("num_vcs", "4")]);
    let e = simulate(
        &net,
        "dragonfly_adaptive:extra=GSID",
        "uniform",
        0.1,
        &cfg,
        &Silent,
    )
    .unwrap_err()
    .to_string();
    assert!(e.contains("num_vcs") && e.contains('6'), "{e}");
}
