//! Cables dying during a run (`dynamic_failures`): every flit counted, the recomputed routing
//! avoids the dead cables, and once the fabric has reacted the network performs as the network
//! that survives does when simulated from the start (an independent run: its own ports, its own
//! routing tables).

use crate::common;

use common::short;
use topolab_core::progress::Silent;
use topolab_core::{build_str, failures};
use topolab_sim::engine::Engine;
use topolab_sim::failure::{run_timeline, Timeline};
use topolab_sim::{run, Prepared, SimConfig};

const NET: &str = "slimfly:q=5,p=2";
const FAILURES: &str = "links:fraction=0.05,seed=3";
const LOAD: f64 = 0.3;

fn failing(extra: &[(&str, &str)]) -> SimConfig {
    let mut pairs = vec![
        ("num_vcs", "8"),
        ("dynamic_failures", FAILURES),
        ("failure_cycle", "3000"),
        ("reaction_delay", "500"),
    ];
    pairs.extend_from_slice(extra);
    short(&pairs)
}

fn timeline(cfg: &SimConfig, cycles: u64) -> Timeline {
    let net = build_str(NET).unwrap();
    let prep = Prepared::new(&net, "min", cfg, &Silent).unwrap();
    run_timeline(&prep, "uniform", LOAD, 250, cycles, &Silent).unwrap()
}

#[test]
fn every_flit_is_counted_and_the_rerouted_network_recovers() {
    // debug_checks: after every cycle the engine compares the flits it holds with those created
    // and neither ejected nor dropped, and every output VC's credits with the flits downstream.
    let t = timeline(&failing(&[("debug_checks", "true")]), 8000);
    let fail = t.failure_cycle.unwrap();
    let reroute = t.reroute_cycle.unwrap();
    assert_eq!((fail, reroute), (3000, 3500));
    assert!(t.failed_cables > 0);
    assert_eq!(
        t.created_flits,
        t.delivered_flits + t.dropped_flits + t.in_flight_flits
    );
    assert!(
        t.dropped_flits > 0,
        "{} on the wire, {} at dead ports",
        t.dropped_on_wire,
        t.dropped_at_dead_port
    );
    let dropped_in = |from: u64, to: u64| -> u64 {
        t.windows
            .iter()
            .filter(|w| w.start >= from && w.start < to)
            .map(|w| w.dropped)
            .sum()
    };
    assert_eq!(dropped_in(0, fail), 0, "nothing is lost before the failure");
    assert_eq!(
        dropped_in(fail, t.cycles),
        t.dropped_flits,
        "the windows count every lost flit"
    );
    // Packets routed before the tables changed may still reach a dead port shortly after;
    // a few hundred cycles after the change nothing is sent there any more.
    assert_eq!(dropped_in(reroute + 500, t.cycles), 0);
    let recovery = t.recovery_cycles.expect("recovered within the run");
    assert!(recovery <= reroute - fail + 1000, "recovery {recovery}");
    let after = t.accepted_after.unwrap();
    assert!(
        (after - LOAD).abs() < 0.03 * LOAD,
        "accepted {after} at load {LOAD}"
    );
    assert!((t.accepted_before - LOAD).abs() < 0.03 * LOAD);
}

#[test]
fn once_rerouted_the_network_performs_as_the_surviving_network_does() {
    let t = timeline(&failing(&[]), 24_000);
    let degraded = failures::apply(&build_str(NET).unwrap(), FAILURES).unwrap();
    let cfg = short(&[
        ("num_vcs", "8"),
        ("sample_period", "2000"),
        ("max_samples", "10"),
    ]);
    let prep = Prepared::new(&degraded.network, "min", &cfg, &Silent).unwrap();
    let alone = run(&prep, "uniform", LOAD, &Silent).unwrap();
    let after = t.latency_after.unwrap();
    let [lo, hi] = t.latency_after_ci95.unwrap();
    // Both are measurements: the interval of the timeline's windows, widened by 3% for the
    // other run's own noise, must hold the surviving network's latency.
    assert!(
        alone.avg_latency > lo * 0.97 && alone.avg_latency < hi * 1.03,
        "after recovery {after:.2} ({lo:.2}-{hi:.2}), surviving network alone {:.2}",
        alone.avg_latency
    );
    // Minimal paths on the surviving network are longer than on the intact one.
    assert!(after > t.latency_before, "{after} vs {}", t.latency_before);
}

#[test]
fn one_thread_or_two_give_the_same_timeline() {
    let json = |threads: &str| {
        serde_json::to_string(&timeline(&failing(&[("threads", threads)]), 5000)).unwrap()
    };
    assert_eq!(json("1"), json("2"));
}

#[test]
fn failures_the_model_does_not_cover_are_refused_by_name() {
    let net = build_str(NET).unwrap();
    let refused = |extra: &[(&str, &str)]| {
        let err = Prepared::new(&net, "min", &failing(extra), &Silent)
            .expect_err("refused")
            .to_string();
        assert!(err.contains("dynamic_failures"), "{err}");
        err
    };
    assert!(refused(&[("packet_size", "4")]).contains("single-flit"));
    assert!(refused(&[("dynamic_failures", "router:id=3")]).contains("cables only"));
    assert!(refused(&[("dynamic_failures", "links:fraction=0.9,seed=1")]).contains("cuts off"));
    assert!(refused(&[("router", "hotpotato"), ("num_vcs", "1")]).contains("router=iq"));
    let err = SimConfig::default()
        .set("failure_cycle", "0")
        .unwrap_err()
        .to_string();
    assert!(err.contains("failure_cycle"), "{err}");
}

#[test]
fn a_warm_start_is_refused_with_a_failure_pending() {
    let net = build_str(NET).unwrap();
    let prep = Prepared::new(&net, "min", &failing(&[]), &Silent).unwrap();
    let source = || {
        let pattern = topolab_sim::traffic::Traffic::parse("uniform", &net).unwrap();
        topolab_sim::injection::Source::for_pattern(pattern, 0.1, &prep.cfg).unwrap()
    };
    let warm = Engine::new(&prep, source()).unwrap().into_warm();
    let err = Engine::resume(&prep, source(), warm)
        .err()
        .unwrap()
        .to_string();
    assert!(err.contains("dynamic_failures"), "{err}");
}

/// Random cable failure sets dying at random cycles, rerouted after random delays, on several
/// families, routings and loads below and past saturation: with the engine's conservation checks
/// after every cycle (`debug_checks`) every run ends with created = delivered + dropped + in
/// flight. Sets that cut off an endpoint are refused (tested above) and skipped here.
#[test]
fn no_flit_is_lost_or_duplicated_under_random_dynamic_failures() {
    use proptest::prelude::*;
    use proptest::test_runner::{Config as PropConfig, RngSeed, TestCaseError, TestRunner};
    let families = ["slimfly:q=5,p=2", "torus:dims=4x4", "dragonfly:a=4,h=2,p=2"];
    let nets: Vec<_> = families.iter().map(|s| build_str(s).unwrap()).collect();
    let strategy = (
        0..families.len(),
        prop::sample::select(vec![0.02, 0.05, 0.1]),
        0u64..1000,
        prop::sample::select(vec!["min", "updown", "valiant"]),
        prop::sample::select(vec![0.2, 0.6, 1.0]),
        1000u32..1600,
        prop::sample::select(vec![0u32, 1, 7, 300]),
    );
    let mut runner = TestRunner::new(PropConfig {
        cases: 16,
        rng_seed: RngSeed::Fixed(3),
        failure_persistence: None,
        ..PropConfig::default()
    });
    let ran = std::cell::Cell::new(0u32);
    runner
        .run(
            &strategy,
            |(f, fraction, seed, routing, load, cycle, delay)| {
                let spec = format!("links:fraction={fraction},seed={seed}");
                let lost = failures::apply(&nets[f], &spec).unwrap();
                prop_assume!(lost.cut_off_endpoints.is_empty() && lost.failed_cables > 0);
                let cfg = short(&[
                    ("num_vcs", "12"),
                    ("debug_checks", "true"),
                    ("dynamic_failures", spec.as_str()),
                    ("failure_cycle", cycle.to_string().as_str()),
                    ("reaction_delay", delay.to_string().as_str()),
                ]);
                // A Valiant path on a degraded graph may need more hop classes than 12 VCs.
                let prep = match Prepared::new(&nets[f], routing, &cfg, &Silent) {
                    Err(e) if e.to_string().contains("num_vcs") => {
                        return Err(TestCaseError::reject("VCs"))
                    }
                    other => other.unwrap(),
                };
                let t = run_timeline(&prep, "uniform", load, 200, 2400, &Silent).unwrap();
                prop_assert_eq!(
                    t.created_flits,
                    t.delivered_flits + t.dropped_flits + t.in_flight_flits
                );
                ran.set(ran.get() + 1);
                Ok(())
            },
        )
        .unwrap();
    assert!(ran.get() >= 8, "only {} cases ran", ran.get());
}
