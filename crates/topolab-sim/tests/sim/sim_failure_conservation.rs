//! No flit lost or duplicated on the networks that random failure sets leave: several families,
//! links or routers failed, several routings recomputed on what survives, loads below and past
//! saturation, one- and multi-flit packets.
//!
//! Load runs use `debug_checks`: after every cycle the engine counts the flits physically held
//! (source and injection queues, router pipelines, channels, ejection) and compares them with
//! the flits created and not yet ejected, and checks every output VC's credits against the
//! flits downstream; any difference is an error. So "offered = delivered + in flight" holds at
//! every cycle of a run that returns Ok. Exchange runs (a fixed set of packets) must end with
//! every packet delivered and as many flits ejected as were sent.

use crate::common;

use common::short;
use proptest::prelude::*;
use proptest::test_runner::{Config as PropConfig, RngSeed, TestRunner};
use topolab_core::progress::Silent;
use topolab_core::routing::catalog::build_static;
use topolab_core::routing::cdg;
use topolab_core::traffic::{Exchange, MessageOrder};
use topolab_core::{build_str, failures, Network};
use topolab_sim::{run, run_exchange, Prepared};

const FAMILIES: &[&str] = &[
    "slimfly:q=5,p=2",
    "dragonfly:a=4,h=2,p=1",
    "torus:dims=4x4",
    "mesh:dims=4x5",
    // Links of width 2 along the first dimension: a failed cable leaves its link half alive.
    "hyperx:dims=3x4,widths=2x1,p=2",
];

/// Routings computed from the degraded graph itself (`_core.degraded_routings()`), as simulated
/// and as static analysis reads them (UGAL's static form is its candidates, min and Valiant).
const ROUTINGS: &[(&str, &str)] = &[
    ("min", "min"),
    ("updown", "updown"),
    ("valiant", "valiant"),
    ("ugal_l", "ugal"),
    ("ugal_g", "ugal"),
];

/// VCs for `routing` on `net`: the routing's channel dependency graph on the degraded network
/// must be acyclic with the VCs it uses, and the simulator gets twice that (at least 4), one per
/// VC class the rule declares.
fn vcs_for(net: &Network, routing: &str) -> u32 {
    let def = build_static(net, routing, &Silent).unwrap();
    let report = cdg::check(net, &*def, &Silent).unwrap();
    assert!(report.acyclic, "{routing}: {report:?}");
    (2 * report.vcs_used).max(4)
}

#[test]
fn no_flit_is_lost_or_duplicated_under_random_failure_sets() {
    let intact: Vec<Network> = FAMILIES.iter().map(|s| build_str(s).unwrap()).collect();
    let strategy = (
        0..FAMILIES.len(),
        prop::sample::select(vec!["links", "routers"]),
        prop::sample::select(vec![0.05, 0.1, 0.2, 0.3]),
        0u64..1000,
        0..ROUTINGS.len(),
        prop::sample::select(vec![0.2, 0.6, 1.0]),
        prop::sample::select(vec![1u32, 4]),
        0u64..1000,
    );
    let mut runner = TestRunner::new(PropConfig {
        cases: 24,
        rng_seed: RngSeed::Fixed(37),
        failure_persistence: None,
        ..PropConfig::default()
    });
    let degraded_runs = std::cell::Cell::new(0u32);
    runner
        .run(
            &strategy,
            |(f, kind, fraction, failure_seed, r, load, packet_size, seed)| {
                let spec = format!("{kind}:fraction={fraction},seed={failure_seed}");
                let lost = failures::apply(&intact[f], &spec).unwrap();
                let net = &lost.network;
                let n = net.num_endpoints() as u32;
                let (routing, static_form) = ROUTINGS[r];
                let case = format!("{} {spec} {routing} load {load}", FAMILIES[f]);
                if n < 2 {
                    return Ok(());
                }
                if lost.failed_cables > 0 || !lost.failed_routers.is_empty() {
                    degraded_runs.set(degraded_runs.get() + 1);
                }
                let cfg = short(&[
                    ("debug_checks", "1"),
                    ("num_vcs", &vcs_for(net, static_form).to_string()),
                    ("packet_size", &packet_size.to_string()),
                    ("seed", &seed.to_string()),
                ]);
                let prep = Prepared::new(net, routing, &cfg, &Silent).unwrap();
                // Offered = delivered + in flight, checked by the engine after every cycle.
                let result = run(&prep, "uniform", load, &Silent);
                prop_assert!(result.is_ok(), "{case}: {:?}", result.err());

                // Every surviving endpoint sends 2 packets to each of 3 others.
                let per_source = (0..n)
                    .map(|s| {
                        (1..=3)
                            .map(|k| ((s + k) % n, 2))
                            .filter(|&(d, _)| d != s)
                            .collect()
                    })
                    .collect();
                let exchange = Exchange {
                    name: "three-neighbours".into(),
                    per_source,
                    // Both orders keep every packet (the messages are of one size).
                    order: if seed % 2 == 0 {
                        MessageOrder::Interleaved
                    } else {
                        MessageOrder::Sequential
                    },
                };
                let done = run_exchange(&prep, &exchange, &Silent);
                prop_assert!(done.is_ok(), "{case}: {:?}", done.err());
                let done = done.unwrap();
                prop_assert!(done.packets > 0, "{case}");
                prop_assert_eq!(done.delivered_packets, done.packets, "{}", case);
                prop_assert_eq!(done.delivered_flits, done.flits, "{}", case);
                prop_assert_eq!(done.sent_flits, done.flits, "{}", case);
                Ok(())
            },
        )
        .unwrap();
    // The cases must exercise failures, not only intact networks (fraction 0.05 of few routers
    // can round to none).
    let degraded = degraded_runs.get();
    assert!(degraded >= 16, "only {degraded} of 24 cases degraded");
}
