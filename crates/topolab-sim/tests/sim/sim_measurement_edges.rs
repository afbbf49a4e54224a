//! Measurement at the edges of its parameters (issue 13, part 2): tiny loads, warm-ups that
//! leave no measurement, periods shorter than a packet's latency, the cycle budget, the
//! saturation reason and `max_hops`; then random parameter combinations on small networks
//! checked against the invariants every result must satisfy.

use crate::common;

use common::short;
use proptest::prelude::*;
use proptest::test_runner::{Config as PropConfig, RngSeed, TestRunner};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use topolab_core::progress::Silent;
use topolab_core::{build_str, Network, TopolabError};
use topolab_sim::injection::{Source, NEVER};
use topolab_sim::traffic::Traffic;
use topolab_sim::{simulate, RunResult, SimConfig, SimError};

fn slimfly() -> Network {
    build_str("slimfly:q=5,p=3").unwrap()
}

/// The parameter a ParameterError names, or a panic naming what came instead.
fn named_param(err: SimError) -> String {
    match err {
        SimError::Core(TopolabError::InvalidParameter { param, .. }) => param,
        other => panic!("expected a parameter error, got {other}"),
    }
}

/// Mean gap between creations, over many draws, of a Bernoulli source at `rate`.
fn mean_gap(net: &Network, rate: f64, draws: u32) -> f64 {
    let src = Source::bernoulli(Traffic::parse("uniform", net).unwrap(), rate);
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    let sum: f64 = (0..draws).map(|_| src.gap(&mut rng) as f64).sum();
    sum / draws as f64
}

#[test]
fn bernoulli_gaps_follow_the_rate_down_to_rates_where_1_minus_p_rounds_to_1() {
    let net = slimfly();
    // Geometric distribution: mean failed cycles before a success (1 - p) / p.
    for rate in [0.5, 1e-3, 1e-6] {
        let want = (1.0 - rate) / rate;
        let got = mean_gap(&net, rate, 40_000);
        assert!(
            (got - want).abs() < 0.03 * want,
            "rate {rate}: mean gap {got}, geometric mean {want}"
        );
    }
    // Below ~1e-16, 1 - p == 1.0 in f64; the gap must still be astronomically long (it was 0).
    let src = Source::bernoulli(Traffic::parse("uniform", &net).unwrap(), 1e-20);
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    for _ in 0..1000 {
        assert_eq!(src.gap(&mut rng), NEVER);
    }
}

#[test]
fn tiny_loads_measure_nothing_and_are_not_saturated() {
    let net = slimfly();
    let cfg = short(&[]);
    for load in [1e-20, 1e-16, 1e-12] {
        let r = simulate(&net, "min", "uniform", load, &cfg, &Silent).unwrap();
        // 150 endpoints x ~2,000 cycles x 1e-12 expects ~3e-7 packets.
        assert_eq!(r.injected_throughput, 0.0, "load {load}: {r:?}");
        assert_eq!(r.accepted_throughput, 0.0, "load {load}");
        assert_eq!(r.measured_packets, 0, "load {load}");
        assert!(r.avg_latency.is_nan() && r.p99_latency.is_nan() && r.avg_hops.is_nan());
        assert!(!r.saturated, "load {load}: {}", r.saturation_reason);
        assert!(r.cycles <= r.cycle_budget);
    }
}

#[test]
fn a_sparse_load_with_few_samples_ends_within_its_budget() {
    // Was: the emptying phase waited for the next creation, ~1e8 / 150 cycles away.
    let net = slimfly();
    let cfg = short(&[("sample_period", "200"), ("max_samples", "3")]);
    let r = simulate(&net, "min", "uniform", 1e-8, &cfg, &Silent).unwrap();
    assert!(
        r.cycles <= r.cycle_budget,
        "{} > {}",
        r.cycles,
        r.cycle_budget
    );
    assert!(r.cycle_budget <= 2 * 3 * 200 + 500 + 10_000);
    assert!(!r.saturated, "{}", r.saturation_reason);
}

#[test]
fn warmup_at_least_max_samples_is_a_parameter_error() {
    let net = slimfly();
    for (warmup, max) in [("5", "3"), ("3", "3")] {
        let mut cfg = SimConfig::default();
        cfg.set("warmup_periods", warmup).unwrap();
        cfg.set("max_samples", max).unwrap();
        cfg.set("sample_period", "200").unwrap();
        let err = simulate(&net, "min", "uniform", 0.3, &cfg, &Silent).unwrap_err();
        let text = err.to_string();
        assert_eq!(named_param(err), "max_samples");
        assert!(text.contains("warmup_periods"), "{text}");
    }
}

#[test]
fn a_warmup_shorter_than_the_packet_latency_is_a_parameter_error() {
    // sample_period 1: 3 warm-up cycles, before any packet can cross the network; the window
    // counted no ejection (accepted 0) while 49 packets were measured.
    let net = slimfly();
    let mut cfg = SimConfig::default();
    cfg.set("sample_period", "1").unwrap();
    let err = simulate(&net, "min", "uniform", 0.5, &cfg, &Silent).unwrap_err();
    let text = err.to_string();
    assert_eq!(named_param(err), "sample_period", "{text}");
    assert!(text.contains("warmup_periods"), "{text}");
}

#[test]
fn an_overloaded_run_is_saturated_with_its_reason_and_ends_within_budget() {
    let net = slimfly();
    for thres in ["500", "-1"] {
        let cfg = short(&[("latency_thres", thres)]);
        let r = simulate(&net, "valiant", "uniform", 1.0, &cfg, &Silent).unwrap();
        assert!(r.saturated);
        assert!(!r.saturation_reason.is_empty());
        assert!(
            r.cycles <= r.cycle_budget,
            "{} > {}",
            r.cycles,
            r.cycle_budget
        );
        // VAL's two minimal segments halve what a Slim Fly accepts (Besta & Hoefler, SC14, §V-A:
        // below 50%).
        assert!(r.accepted_throughput < 0.6, "{r:?}");
    }
}

#[test]
fn iq_results_report_the_longest_path_in_routers() {
    // Slim Fly has diameter 2 (Besta & Hoefler, SC14, §II): minimal paths traverse at most 3
    // routers, and under uniform traffic among 150 endpoints some packets take the 2-hop paths.
    let net = slimfly();
    let r = simulate(&net, "min", "uniform", 0.3, &short(&[]), &Silent).unwrap();
    assert_eq!(r.max_hops, 3);
    assert!(r.avg_hops > 1.0 && r.avg_hops < 3.0);
    // Valiant: two minimal segments through a random intermediate router, at most 5 routers.
    let r = simulate(&net, "valiant", "uniform", 0.2, &short(&[]), &Silent).unwrap();
    assert_eq!(r.max_hops, 5);
}

/// The invariants of every result (docs/simulator.md, "Measurement").
fn check_invariants(r: &RunResult, cfg: &SimConfig) -> Result<(), TestCaseError> {
    let budget_bound = 2 * cfg.max_samples as u64 * cfg.sample_period as u64
        + cfg.latency_thres.max(0.0).ceil() as u64
        + cfg.deadlock_timeout as u64;
    prop_assert!(r.cycle_budget <= budget_bound);
    prop_assert!(
        r.cycles <= r.cycle_budget,
        "{} > {}",
        r.cycles,
        r.cycle_budget
    );
    let no_packets = r.measured_packets == 0;
    for (name, v) in [
        ("avg_latency", r.avg_latency),
        ("p99_latency", r.p99_latency),
        ("avg_network_latency", r.avg_network_latency),
        ("avg_hops", r.avg_hops),
    ] {
        prop_assert_eq!(
            v.is_nan(),
            no_packets,
            "{} = {} with {} packets",
            name,
            v,
            r.measured_packets
        );
    }
    if !no_packets {
        prop_assert!(r.avg_latency >= r.avg_network_latency);
        prop_assert!(r.avg_network_latency >= 1.0);
        prop_assert!(r.avg_hops >= 1.0);
        prop_assert!(r.max_hops as f64 >= r.avg_hops);
    }
    prop_assert_eq!(r.saturated, !r.saturation_reason.is_empty());
    prop_assert!(!r.unstable || r.saturated);
    prop_assert!(!(r.converged && r.unstable));
    for v in [r.accepted_throughput, r.injected_throughput] {
        prop_assert!(v.is_finite() && v >= 0.0, "{:?}", r);
    }
    // Ejection is at most one flit per endpoint and cycle.
    let most = r.endpoints as f64 / r.active_endpoints as f64;
    prop_assert!(r.accepted_throughput <= most + 1e-9);
    if !r.saturated {
        // Within 10% of the offered load, or within 6 sigma of the packet count over the
        // shortest window a run can measure (one sample period).
        let flits = r.offered_load * cfg.sample_period as f64 * r.active_endpoints as f64;
        let sigma = (flits / cfg.packet_size as f64).sqrt() * cfg.packet_size as f64
            / (cfg.sample_period as f64 * r.active_endpoints as f64);
        let slack = (0.1 * r.offered_load).max(6.0 * sigma);
        for (name, v) in [
            ("accepted", r.accepted_throughput),
            ("injected", r.injected_throughput),
        ] {
            prop_assert!(
                (v - r.offered_load).abs() <= slack,
                "{} {} vs offered {} (slack {}): {:?}",
                name,
                v,
                r.offered_load,
                slack,
                r
            );
        }
    }
    Ok(())
}

const PARAMS_NAMED: &[&str] = &[
    "max_samples",
    "sample_period",
    "warmup_periods",
    "load",
    "vc_buf_size",
];

#[test]
fn random_parameter_combinations_keep_every_invariant() {
    let nets = [
        build_str("slimfly:q=5,p=2").unwrap(),
        build_str("torus:dims=4x4").unwrap(),
        build_str("hyperx:dims=3x3").unwrap(),
    ];
    let strategy = (
        0..nets.len(),
        prop_oneof![Just("min"), Just("valiant"), Just("ugal_l")],
        prop_oneof![(-20i32..0).prop_map(|e| 10f64.powi(e)), 0.0f64..=1.0,],
        prop_oneof![Just(1u32), Just(7), 20u32..400],
        0u32..4,
        1u32..6,
        1u32..4,
        prop_oneof![Just(-1.0f64), Just(60.0), Just(500.0), Just(1e9)],
        any::<u16>(),
    );
    let mut runner = TestRunner::new(PropConfig {
        cases: 40,
        rng_seed: RngSeed::Fixed(13),
        failure_persistence: None,
        ..PropConfig::default()
    });
    runner
        .run(
            &strategy,
            |(n, routing, load, period, warmup, max, packet, thres, seed)| {
                let net = &nets[n];
                // min on a torus is deadlock-free only with dor's datelines; use dor there.
                let routing = if net.family() == "torus" {
                    "dor"
                } else {
                    routing
                };
                let mut cfg = SimConfig::default();
                for (k, v) in [
                    ("sample_period", period.to_string()),
                    ("warmup_periods", warmup.to_string()),
                    ("max_samples", max.to_string()),
                    ("packet_size", packet.to_string()),
                    ("latency_thres", thres.to_string()),
                    ("seed", seed.to_string()),
                ] {
                    cfg.set(k, &v).unwrap();
                }
                cfg.validate().unwrap();
                match simulate(net, routing, "uniform", load, &cfg, &Silent) {
                    Ok(r) => check_invariants(&r, &cfg),
                    Err(e) => {
                        let text = e.to_string();
                        let param = named_param(e);
                        prop_assert!(
                            PARAMS_NAMED.contains(&param.as_str()),
                            "unexpected parameter error: {}",
                            text
                        );
                        Ok(())
                    }
                }
            },
        )
        .unwrap();
}
