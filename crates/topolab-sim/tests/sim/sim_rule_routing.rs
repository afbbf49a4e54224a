//! Hop-by-hop routings from topolab-core (`routing::rule`) in the simulator: packets are
//! delivered with flits and credits conserved, and the simulated hop counts follow the path
//! distribution that static analysis enumerates from the same definition.

use crate::common;

use common::{short, static_mean_routers};
use std::sync::Arc;
use topolab_core::build_str;
use topolab_core::progress::Silent;
use topolab_core::routing::catalog::{build_rule, build_static};
use topolab_core::routing::path::{PathSet, RouteDef};
use topolab_core::routing::{Rule, RuleRoute, Select};
use topolab_sim::routing::{rule::RuleRouting, Routing};
use topolab_sim::{run, simulate, Prepared, RunResult};

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

/// One path: its routers, the VC of each hop and its probability.
type WeightedPath = (Vec<u32>, Vec<u8>, f64);

/// Every path with its VCs and probability, per pair of routers with endpoints.
fn all_paths(net: &topolab_core::Network, def: &dyn RouteDef) -> Vec<Vec<WeightedPath>> {
    let mut ps = PathSet::default();
    let ends: Vec<usize> = (0..net.num_routers())
        .filter(|&r| net.endpoints()[r] > 0)
        .collect();
    let mut out = Vec::new();
    for &s in &ends {
        for &t in &ends {
            def.paths(s, t, &mut ps).unwrap();
            out.push(
                (0..ps.len())
                    .map(|i| {
                        let (rs, vcs, w) = ps.path(i);
                        (rs.to_vec(), vcs.to_vec(), w)
                    })
                    .collect(),
            );
        }
    }
    out
}

/// The routing recipe (docs/routing.md, "Adding a routing") gives a new routing no variant of
/// `Rule`: its catalog entry wraps it in `Rule::boxed`. Both readers must read a boxed rule as
/// they read the same rule in its own variant: static analysis the same paths, VCs and
/// probabilities, the simulator the same run to the last field (the same draws in the same
/// order: random starts and hops for `valiant`, queue selection with detours for `hyperx_ador`,
/// two choices for `fattree_anca`, BookSim2's port and VC numbering for `dor`).
#[test]
fn a_boxed_rule_is_read_by_both_readers_as_its_own_variant() {
    for (net_spec, routing) in [
        ("jellyfish:routers=16,degree=4,p=2", "valiant"),
        ("hyperx:dims=4x4,p=2", "hyperx_ador"),
        ("fattree:k=4", "fattree_anca"),
        ("torus:dims=4x4,p=2", "dor"),
    ] {
        let net = build_str(net_spec).unwrap();
        let built = build_rule(&net, routing, &Silent).unwrap().unwrap();
        let variant = Arc::try_unwrap(built.rule).ok().expect("one owner");
        assert!(
            !matches!(variant, Rule::Boxed(_)),
            "{routing}: a catalog rule has its variant"
        );
        let boxed = Arc::new(Rule::boxed(variant));

        let static_def = build_static(&net, routing, &Silent).unwrap();
        let boxed_def = RuleRoute {
            net: &net,
            oblivious: built.reading.select == Select::Random && boxed.oblivious(),
            ports: built.reading.ports,
            rule: boxed.clone(),
        };
        assert_eq!(boxed_def.name(), static_def.name(), "{routing}");
        assert_eq!(boxed_def.num_vcs(), static_def.num_vcs(), "{routing}");
        assert_eq!(
            all_paths(&net, &boxed_def),
            all_paths(&net, &*static_def),
            "{routing} on {net_spec}: static paths"
        );

        let cfg = short(&[("num_vcs", "8")]);
        let prep = Prepared::new(&net, routing, &cfg, &Silent).unwrap();
        assert!(matches!(*prep.routing, Routing::Rule(_)), "{routing}");
        let reading = built.reading;
        let rule = RuleRouting::new(boxed, reading, cfg.num_vcs, None)
            .unwrap()
            .with_detour_penalty(cfg.vc_buf_size);
        let boxed_prep = Prepared {
            routing: Arc::new(Routing::Rule(rule)),
            ..prep.clone()
        };
        for load in [0.2, 0.9] {
            // Everything but the run's wall-clock time.
            let own = RunResult {
                wall_seconds: 0.0,
                ..run(&prep, "uniform", load, &Silent).unwrap()
            };
            let via_box = RunResult {
                wall_seconds: 0.0,
                ..run(&boxed_prep, "uniform", load, &Silent).unwrap()
            };
            assert!(own.measured_packets > 0, "{routing} at {load}");
            assert_eq!(via_box, own, "{routing} on {net_spec} at load {load}");
        }
    }
}
