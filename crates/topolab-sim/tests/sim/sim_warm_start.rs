//! Warm starts (`SearchSession`): a saturation search's run starts from the network the highest
//! carried run below its load left. Checked against runs from an empty network at the same
//! loads: the same verdicts, the same throughput within the noise, in fewer cycles.

use topolab_core::build_str;
use topolab_core::progress::Silent;
use topolab_sim::{simulate, RunResult, SearchSession, SimConfig};

/// compare --simulate's setup (docs/compare.md): 200-cycle periods, speedup 2, early verdicts.
fn compare_config(overrides: &[(&str, &str)]) -> SimConfig {
    let mut c = SimConfig::default();
    let compare = [
        ("sample_period", "200"),
        ("internal_speedup", "2"),
        ("early_verdict", "true"),
    ];
    for (key, value) in compare.iter().chain(overrides) {
        c.set(key, value).unwrap();
    }
    c.validate().unwrap();
    c
}

/// The runs of a search at `loads` in order, warm-started, and each load from an empty network.
fn warm_and_cold(
    spec: &str,
    routing: &str,
    traffic: &str,
    loads: &[f64],
) -> Vec<(RunResult, RunResult)> {
    let net = build_str(spec).unwrap();
    let cfg = compare_config(&[]);
    let mut session = SearchSession::new(&net, routing, traffic, &cfg, true, &Silent).unwrap();
    loads
        .iter()
        .map(|&load| {
            let warm = session.run(load, &Silent).unwrap();
            let cold = simulate(&net, routing, traffic, load, &cfg, &Silent).unwrap();
            (warm, cold)
        })
        .collect()
}

#[test]
fn warm_runs_give_the_verdicts_of_runs_from_an_empty_network_in_fewer_cycles() {
    // Slim Fly q = 5 (minimal, uniform) and a 6x6 torus (tornado) are carried over these loads;
    // the DLN (randperm) is carried to 0.31 and saturated from 0.32, its busiest channels
    // oversubscribed from 0.205 on.
    let cases = [
        ("slimfly:q=5", "min", "uniform", &[0.4, 0.55, 0.6, 0.64][..]),
        (
            "torus:dims=6x6",
            "dor",
            "tornado",
            &[0.2, 0.25, 0.3, 0.32][..],
        ),
        (
            "dln:routers=200,shortcuts=8,p=6",
            "min",
            "randperm",
            &[0.2, 0.28, 0.3, 0.31, 0.32, 0.33][..],
        ),
    ];
    for (spec, routing, traffic, loads) in cases {
        let runs = warm_and_cold(spec, routing, traffic, loads);
        let (mut warm_cycles, mut cold_cycles) = (0, 0);
        for (&load, (warm, cold)) in loads.iter().zip(&runs) {
            let at = format!("{spec} {routing} {traffic} at {load}");
            assert_eq!(warm.saturated, cold.saturated, "{at}:\n{warm:?}\n{cold:?}");
            assert!(
                (warm.accepted_throughput - cold.accepted_throughput).abs() <= 0.01,
                "{at}: accepted {} warm, {} cold",
                warm.accepted_throughput,
                cold.accepted_throughput
            );
            // the sources run at this load, not the run before's
            assert!(
                (warm.injected_throughput - load).abs() <= 0.02 * load,
                "{at}: injected {}",
                warm.injected_throughput
            );
            assert!(warm.cycles <= warm.cycle_budget);
            warm_cycles += warm.cycles;
            cold_cycles += cold.cycles;
        }
        // the first run starts empty: the same run
        assert_eq!(runs[0].0.cycles, runs[0].1.cycles);
        assert!(
            (warm_cycles as f64) < 0.85 * cold_cycles as f64,
            "{spec}: {warm_cycles} cycles warm against {cold_cycles}"
        );
    }
}

#[test]
fn a_warm_run_warms_up_for_warm_start_periods() {
    let net = build_str("slimfly:q=5").unwrap();
    for periods in [1u32, 2] {
        let cfg = compare_config(&[("warm_start_periods", &periods.to_string())]);
        let mut session = SearchSession::new(&net, "min", "uniform", &cfg, true, &Silent).unwrap();
        let first = session.run(0.4, &Silent).unwrap();
        let next = session.run(0.5, &Silent).unwrap();
        assert!(first.early_verdict.starts_with("stable"), "{first:?}");
        assert!(next.early_verdict.starts_with("stable"), "{next:?}");
        // stable after its first measured period, as the cold run after warmup_periods = 3
        assert_eq!(first.sample_periods, 4);
        assert_eq!(next.sample_periods, periods + 1, "{next:?}");
    }
    let mut cfg = compare_config(&[]);
    let err = cfg.set("warm_start_periods", "0").unwrap_err().to_string();
    assert!(err.contains("warm_start_periods"), "{err}");
}

#[test]
fn the_state_kept_is_the_highest_carried_runs_with_a_short_drain() {
    let net = build_str("dln:routers=200,shortcuts=8,p=6").unwrap();
    let cfg = compare_config(&[]);
    let mut session = SearchSession::new(&net, "min", "randperm", &cfg, true, &Silent).unwrap();
    assert_eq!(session.warm_load(), None);
    session.run(0.2, &Silent).unwrap();
    assert_eq!(session.warm_load(), Some(0.2));
    // carried, but its measured packets of the oversubscribed flows took 500 cycles to arrive
    let long_drain = session.run(0.3, &Silent).unwrap();
    assert!(!long_drain.saturated);
    assert!(long_drain.cycles - 200 * long_drain.sample_periods as u64 > 200);
    assert_eq!(session.warm_load(), Some(0.2));
    let saturated = session.run(0.5, &Silent).unwrap();
    assert!(saturated.saturated);
    assert_eq!(session.warm_load(), Some(0.2));
    // a lower load starts empty: the run from an empty network
    let lower = session.run(0.1, &Silent).unwrap();
    let cold = simulate(&net, "min", "randperm", 0.1, &cfg, &Silent).unwrap();
    assert_eq!(
        (lower.cycles, lower.accepted_throughput, lower.avg_latency),
        (cold.cycles, cold.accepted_throughput, cold.avg_latency)
    );
    assert_eq!(session.warm_load(), Some(0.2));
}

#[test]
fn one_and_two_threads_give_the_same_warm_runs() {
    let net = build_str("slimfly:q=5").unwrap();
    let runs = |threads: &str| {
        let cfg = compare_config(&[("threads", threads)]);
        let mut session =
            SearchSession::new(&net, "ugal_l", "uniform", &cfg, true, &Silent).unwrap();
        [0.3, 0.45, 0.6, 0.9]
            .iter()
            .map(|&load| {
                let mut r = session.run(load, &Silent).unwrap();
                r.wall_seconds = 0.0;
                r
            })
            .collect::<Vec<_>>()
    };
    assert_eq!(runs("1"), runs("2"));
}
