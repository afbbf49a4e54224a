//! `early_verdict`: a run ends after a measured period whose verdict is already clear, with the
//! same verdict as the full BookSim2-style run, in fewer cycles, stating why; off by default
//! (no field of a default run changes: tests/sim_golden.rs).

use topolab_core::build_str;
use topolab_core::progress::Silent;
use topolab_sim::{simulate, RunResult, SimConfig};

/// A run of 500-cycle periods with or without the early verdict, and `overrides`, on seed 1 (the
/// seed whose runs these cases were chosen on: another seed changes the periods they judge).
fn config(early: bool, overrides: &[(&str, &str)]) -> SimConfig {
    let mut c = SimConfig::default();
    c.set("seed", "1").unwrap();
    c.set("sample_period", "500").unwrap();
    c.set("early_verdict", if early { "true" } else { "false" })
        .unwrap();
    for (key, value) in overrides {
        c.set(key, value).unwrap();
    }
    c.validate().unwrap();
    c
}

/// A DLN of 200 routers under `min` and `randperm` at `load`, with compare --simulate's router
/// and periods (docs/compare.md): its busiest channels' flows saturate near 0.32.
fn dln_randperm(load: f64, early: bool) -> RunResult {
    let net = build_str("dln:routers=200,shortcuts=8,p=6").unwrap();
    let compare = [("sample_period", "200"), ("internal_speedup", "2")];
    simulate(
        &net,
        "min",
        "randperm",
        load,
        &config(early, &compare),
        &Silent,
    )
    .unwrap()
}

/// The early run stopped measuring before the full one.
fn assert_fewer_periods(fast: &RunResult, full: &RunResult, load: f64) {
    assert!(
        fast.sample_periods < full.sample_periods,
        "load {load}: {} periods against {}",
        fast.sample_periods,
        full.sample_periods
    );
}

#[test]
fn clear_loads_get_the_full_runs_verdict_in_fewer_cycles() {
    // Slim Fly q=5 under minimal routing with 4 VCs accepts about 0.65 uniform at most; the
    // loads are well away from it (the full run at 0.75 goes all 10 periods, at 0.98 it is
    // unstable as soon as the early one would decide).
    let net = build_str("slimfly:q=5").unwrap();
    for (load, saturated) in [(0.2, false), (0.5, false), (0.75, true)] {
        let full = simulate(&net, "min", "uniform", load, &config(false, &[]), &Silent).unwrap();
        let fast = simulate(&net, "min", "uniform", load, &config(true, &[]), &Silent).unwrap();
        assert_eq!(full.saturated, saturated, "load {load}: {full:?}");
        assert_eq!(fast.saturated, saturated, "load {load}: {fast:?}");
        assert!(full.early_verdict.is_empty());
        let want = if saturated { "saturated: " } else { "stable: " };
        assert!(
            fast.early_verdict.starts_with(want),
            "load {load}: {}",
            fast.early_verdict
        );
        assert_fewer_periods(&fast, &full, load);
        assert!(fast.cycles <= fast.cycle_budget);
        assert_eq!(fast.saturated, !fast.saturation_reason.is_empty());
        if !saturated {
            // Stable runs still deliver their measured packets: a latency and the offered load.
            assert!(fast.avg_latency.is_finite());
            assert!((fast.accepted_throughput - load).abs() < 0.03 * load);
            assert!((fast.accepted_throughput - full.accepted_throughput).abs() < 0.02);
        } else {
            assert!(fast
                .saturation_reason
                .starts_with("early verdict (early_verdict = true)"));
        }
    }
}

/// The full run and the early-verdict run of `routing` under `traffic` on `spec` at each load
/// with compare --simulate's router and periods (4 VCs) give the verdict listed with it
/// (saturated or not), and the full run is not unstable.
fn assert_compare_verdicts(spec: &str, routing: &str, traffic: &str, verdicts: &[(f64, bool)]) {
    let net = build_str(spec).unwrap();
    let compare = [
        ("sample_period", "200"),
        ("internal_speedup", "2"),
        ("num_vcs", "4"),
    ];
    for &(load, saturated) in verdicts {
        let run = |early| {
            simulate(
                &net,
                routing,
                traffic,
                load,
                &config(early, &compare),
                &Silent,
            )
            .unwrap()
        };
        let (full, fast) = (run(false), run(true));
        assert_eq!(full.saturated, saturated, "{spec} load {load}: {full:?}");
        assert!(!full.unstable, "{spec} load {load}: {full:?}");
        assert_eq!(
            fast.saturated, saturated,
            "{spec} load {load}: {}",
            fast.early_verdict
        );
    }
}

#[test]
fn a_network_whose_throughput_falls_after_the_warm_up_is_not_judged_stable() {
    // A 100-router Jellyfish under uniform traffic at 0.86 and 0.88 with compare --simulate's
    // router and periods: the first measured period accepts 99.1% and 98.8% of the offered
    // load, as a stable network would, but the flits held in the network and the source queues
    // grow, and the throughput falls period after period to a window the full run judges
    // saturated. At 0.84 the last periods deliver what they are offered and both runs carry it.
    assert_compare_verdicts(
        "jellyfish:routers=100,degree=16,p=8",
        "min",
        "uniform",
        &[(0.84, false), (0.86, true), (0.88, true)],
    );
}

#[test]
fn a_shortfall_within_the_noise_but_past_the_final_margin_is_not_judged_stable() {
    // Thirty endpoints (a 5x6 torus of 4-wide bundles, one endpoint per router) under tornado
    // with compare --simulate's router and periods: one 200-cycle period's Bernoulli noise
    // is 5-6% of its flits, more than the final test's 3% margin. At 0.56 the first measured
    // period is 3.5% short, within that noise; the full run ends 4.4% short over seven periods,
    // past both, and judges it saturated. At 0.5 both carry it.
    assert_compare_verdicts(
        "torus:dims=5x6,widths=4x4,p=1",
        "dor",
        "tornado",
        &[(0.5, false), (0.56, true)],
    );
}

#[test]
fn a_window_settled_above_the_final_margin_is_carried_after_a_few_periods() {
    // The 200-router DLN under `randperm` at 0.29 and 0.30: its busiest flows keep the window
    // 1.5-2% short of the offered load period after period, between the early margins, and
    // their growing backlog keeps the latency changing, so the full run measures all its
    // periods and carries the load; the early run says so after three measured periods.
    for load in [0.29, 0.3] {
        let (full, fast) = (dln_randperm(load, false), dln_randperm(load, true));
        assert!(!full.saturated && full.early_verdict.is_empty(), "{full:?}");
        assert!(!fast.saturated, "{fast:?}");
        assert!(
            fast.early_verdict.starts_with("stable: accepted")
                && fast.early_verdict.contains("0.8 x saturation_tolerance"),
            "load {load}: {}",
            fast.early_verdict
        );
        assert_fewer_periods(&fast, &full, load);
        assert!((fast.accepted_throughput - full.accepted_throughput).abs() < 0.005 * load);
    }
}

#[test]
fn a_window_saturated_by_the_final_test_stops_without_the_drain() {
    // At 0.68 the Slim Fly q=5 accepts about 95% of the offered load: between the early margins
    // and, with two measured periods (max_samples 5), before a window counts as settled; so
    // both runs measure both periods; the full run then drains its measured packets and judges
    // the same window saturated (accepted < 97%), which the early one says at once.
    let net = build_str("slimfly:q=5").unwrap();
    let two_periods = [("max_samples", "5")];
    let full = simulate(
        &net,
        "min",
        "uniform",
        0.68,
        &config(false, &two_periods),
        &Silent,
    );
    let fast = simulate(
        &net,
        "min",
        "uniform",
        0.68,
        &config(true, &two_periods),
        &Silent,
    );
    let (full, fast) = (full.unwrap(), fast.unwrap());
    assert!(full.saturated && !full.unstable, "{full:?}");
    assert!(fast.saturated, "{fast:?}");
    assert!(
        fast.early_verdict
            .starts_with("saturated: at the end of the measurement"),
        "{}",
        fast.early_verdict
    );
    assert!(fast
        .saturation_reason
        .starts_with("early verdict (early_verdict = true)"));
    // the same measurement, the same window: only the drain is left out
    assert_eq!(fast.sample_periods, full.sample_periods);
    assert_eq!(fast.accepted_throughput, full.accepted_throughput);
    assert_eq!(fast.injected_throughput, full.injected_throughput);
    assert!(
        fast.cycles < full.cycles,
        "{} cycles against {}",
        fast.cycles,
        full.cycles
    );
}

#[test]
fn early_verdict_is_a_parameter_with_a_checked_value() {
    let mut c = SimConfig::default();
    let err = c.set("early_verdict", "maybe").unwrap_err().to_string();
    assert!(err.contains("early_verdict"), "{err}");
    assert!(!SimConfig::default().early_verdict);
}

#[test]
fn an_early_verdict_run_ends_once_its_measured_packets_are_delivered() {
    // One measured period: the full run ends it by BookSim2's rule (max_samples), the early one
    // by its stable verdict, at the same cycle; both drain the same measured packets, and only
    // the full run then empties the network, which changes no measured figure.
    let net = build_str("slimfly:q=5").unwrap();
    let one_period = |early: bool| {
        let c = config(early, &[("max_samples", "4")]);
        simulate(&net, "min", "uniform", 0.2, &c, &Silent).unwrap()
    };
    let (full, fast) = (one_period(false), one_period(true));
    assert!(
        fast.early_verdict.starts_with("stable: "),
        "{}",
        fast.early_verdict
    );
    assert_eq!(fast.sample_periods, full.sample_periods);
    assert_eq!(fast.saturated, full.saturated);
    assert_eq!(fast.measured_packets, full.measured_packets);
    assert_eq!(fast.accepted_throughput, full.accepted_throughput);
    assert_eq!(fast.injected_throughput, full.injected_throughput);
    assert_eq!(fast.avg_latency, full.avg_latency);
    assert_eq!(fast.p99_latency, full.p99_latency);
    assert!(
        fast.cycles < full.cycles,
        "{} against {}",
        fast.cycles,
        full.cycles
    );
    assert!(fast.flit_hops < full.flit_hops);
}

#[test]
fn a_drain_held_by_a_few_hot_flows_ends_once_it_cannot_change_the_verdict() {
    // A DLN under a random permutation at 0.31 (carried, just below its saturation near 0.32;
    // accepting 97.4%, below the settled margin, so both runs measure the same periods):
    // the flows of its busiest channels keep measured packets queued for thousands of cycles
    // after the measurement while the rest of the network is long done. The early run stops
    // draining once those packets, even waiting until the cycle budget, could not lift the
    // latency past half the threshold; its latency counts them at their age then, so it is a
    // lower bound of the full run's.
    let (full, fast) = (dln_randperm(0.31, false), dln_randperm(0.31, true));
    assert!(!full.saturated && !fast.saturated, "{full:?}\n{fast:?}");
    assert!(
        fast.early_verdict.contains("drain ended"),
        "{}",
        fast.early_verdict
    );
    assert_eq!(fast.sample_periods, full.sample_periods);
    assert_eq!(fast.accepted_throughput, full.accepted_throughput);
    assert!(fast.measured_packets < full.measured_packets);
    assert!(
        fast.avg_latency <= full.avg_latency,
        "{} against {}",
        fast.avg_latency,
        full.avg_latency
    );
    assert!(
        2 * fast.cycles < full.cycles,
        "{} cycles against {}",
        fast.cycles,
        full.cycles
    );
}

#[test]
fn a_window_settled_short_of_the_load_is_saturated_after_a_few_periods() {
    // The DLN above at 0.33 accepts about 96% of the offered load: between the early margins
    // (94% and 98.5%), so before this rule it measured all its periods. From three measured
    // periods on, once its window is below 96.4% and its last period no better: saturated, as
    // the full run says at the end of its measurement.
    let (full, fast) = (dln_randperm(0.33, false), dln_randperm(0.33, true));
    assert!(full.saturated && !full.unstable, "{full:?}");
    assert!(fast.saturated, "{fast:?}");
    assert!(
        fast.early_verdict
            .contains("measured periods, the last of them accepting"),
        "{}",
        fast.early_verdict
    );
    assert!(fast.sample_periods < full.sample_periods);
    assert!(
        (fast.accepted_throughput - full.accepted_throughput).abs() < 0.002,
        "{} against {}",
        fast.accepted_throughput,
        full.accepted_throughput
    );
}
