//! A sweep with an explicit load list stops at its first saturated load: it runs fewer loads and
//! finds the saturation load of the exhaustive list (`every_load`), whose runs above the first
//! saturated load are all saturated themselves (the monotone model the early stop relies on).

use crate::common;

use common::short;
use topolab_core::build_str;
use topolab_core::progress::Silent;
use topolab_sim::{sweep, Prepared, RunResult, SweepResult};

const LOADS: [f64; 12] = [0.05, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95, 1.0];

fn both(spec: &str, routing: &str, traffic: &str, vcs: &str) -> (SweepResult, SweepResult) {
    let net = build_str(spec).unwrap();
    let cfg = short(&[("num_vcs", vcs)]);
    let prep = Prepared::new(&net, routing, &cfg, &Silent).unwrap();
    let stopped = sweep(&prep, traffic, Some(&LOADS), 0.02, false, &Silent).unwrap();
    let every = sweep(&prep, traffic, Some(&LOADS), 0.02, true, &Silent).unwrap();
    (stopped, every)
}

/// The run's results without its wall time (which differs between two runs of the same load).
fn timeless(r: &RunResult) -> RunResult {
    RunResult {
        wall_seconds: 0.0,
        ..r.clone()
    }
}

#[test]
fn explicit_loads_stop_at_the_first_saturated_one() {
    for (spec, routing, traffic, vcs) in [
        ("slimfly:q=5,p=4", "min", "uniform", "2"),
        ("slimfly:q=5,p=4", "valiant", "slimfly_worst", "4"),
        ("hyperx:dims=2x2x2x2,p=4", "hyperx_dor", "bitcomp", "2"),
    ] {
        let what = format!("{spec} {routing} {traffic}");
        let (stopped, every) = both(spec, routing, traffic, vcs);
        let listed = |s: &SweepResult| {
            s.points
                .iter()
                .filter(|p| LOADS.contains(&p.offered_load))
                .count()
        };
        assert_eq!(listed(&every), LOADS.len(), "{what}: every load ran");
        let first_saturated = every
            .points
            .iter()
            .filter(|p| LOADS.contains(&p.offered_load) && p.saturated)
            .map(|p| p.offered_load)
            .fold(f64::INFINITY, f64::min);
        assert!(
            first_saturated < 1.0,
            "{what}: the list must saturate below 1 for the test to mean anything"
        );
        // The monotone model: above the first saturated load every run is saturated.
        for p in &every.points {
            assert!(
                p.offered_load < first_saturated || p.saturated,
                "{what}: load {} above the first saturated {first_saturated} not saturated",
                p.offered_load
            );
        }
        assert_eq!(
            stopped
                .points
                .iter()
                .map(|p| p.offered_load)
                .filter(|l| LOADS.contains(l))
                .fold(0.0, f64::max),
            first_saturated,
            "{what}: the stopped sweep's last listed load is the first saturated one"
        );
        assert!(
            listed(&stopped) < listed(&every),
            "{what}: {} listed runs stopped vs {} every",
            listed(&stopped),
            listed(&every)
        );
        assert_eq!(
            stopped.saturation_load, every.saturation_load,
            "{what}: same saturation load"
        );
        // Every run of the stopped sweep (the search's included) is the exhaustive sweep's run
        // at the same load: runs are deterministic per load, and the search takes the same
        // listed runs up to the first saturated one.
        for p in &stopped.points {
            let twin = every
                .points
                .iter()
                .find(|q| q.offered_load == p.offered_load)
                .unwrap_or_else(|| {
                    panic!(
                        "{what}: load {} not in the exhaustive sweep",
                        p.offered_load
                    )
                });
            assert_eq!(
                timeless(p),
                timeless(twin),
                "{what}: load {}",
                p.offered_load
            );
        }
    }
}

#[test]
fn no_list_is_the_default_list_stopped() {
    let net = build_str("slimfly:q=5,p=4").unwrap();
    let cfg = short(&[("num_vcs", "2")]);
    let prep = Prepared::new(&net, "min", &cfg, &Silent).unwrap();
    let default = sweep(&prep, "uniform", None, 0.05, false, &Silent).unwrap();
    let tenths: Vec<f64> = (1..=10).map(|i| i as f64 / 10.0).collect();
    let listed = sweep(&prep, "uniform", Some(&tenths), 0.05, false, &Silent).unwrap();
    let loads = |s: &SweepResult| s.points.iter().map(|p| p.offered_load).collect::<Vec<_>>();
    assert_eq!(loads(&default), loads(&listed));
    assert_eq!(default.saturation_load, listed.saturation_load);
}

/// The search's bracket [saturation_load, saturated_load]: both ends are loads it ran, a run of
/// its own at each end gives the verdict the bracket states (carried below, saturated above),
/// no run lies strictly inside it, and the saturation search closed it to the tolerance.
#[test]
fn the_bracket_is_two_runs_around_the_saturation_load() {
    let net = build_str("slimfly:q=5,p=4").unwrap();
    let cfg = short(&[("num_vcs", "2")]);
    let prep = Prepared::new(&net, "min", &cfg, &Silent).unwrap();
    for (tolerance, every_load) in [(0.02, false), (0.02, true), (0.0, false)] {
        let what = format!("tolerance {tolerance}, every_load {every_load}");
        let s = sweep(
            &prep,
            "uniform",
            Some(&LOADS),
            tolerance,
            every_load,
            &Silent,
        )
        .unwrap();
        let (lo, hi) = (
            s.saturation_load,
            s.saturated_load.expect("saturates below 1"),
        );
        assert!(lo > 0.0 && lo < hi, "{what}: bracket [{lo}, {hi}]");
        if tolerance > 0.0 {
            // the search's loads are decimals (4 places here): their difference in binary
            // may pass the tolerance by a rounding error
            assert!(
                hi - lo <= tolerance + 1e-9,
                "{what}: [{lo}, {hi}] wider than the tolerance"
            );
        } else {
            // without bisection the bracket is two neighbours of the list
            let above = LOADS.iter().position(|&l| l == lo).unwrap() + 1;
            assert_eq!(hi, LOADS[above], "{what}");
        }
        let at = |load: f64| s.points.iter().find(|p| p.offered_load == load);
        assert!(
            !at(lo).expect("lower end run").saturated,
            "{what}: {lo} carried"
        );
        assert!(
            at(hi).expect("upper end run").saturated,
            "{what}: {hi} saturated"
        );
        for p in &s.points {
            assert!(
                p.offered_load <= lo || p.offered_load >= hi,
                "{what}: run at {} inside the bracket [{lo}, {hi}]",
                p.offered_load
            );
        }
        assert!(
            !topolab_sim::run(&prep, "uniform", lo, &Silent)
                .unwrap()
                .saturated
        );
        assert!(
            topolab_sim::run(&prep, "uniform", hi, &Silent)
                .unwrap()
                .saturated
        );
    }
    // Nothing saturated: no upper end. Everything saturated: [0, the lowest load].
    let carried = sweep(&prep, "uniform", Some(&[0.05, 0.1]), 0.02, false, &Silent).unwrap();
    assert_eq!(
        (carried.saturation_load, carried.saturated_load),
        (0.1, None)
    );
    let overloaded = sweep(&prep, "uniform", Some(&[0.95, 1.0]), 0.0, true, &Silent).unwrap();
    assert_eq!(
        (overloaded.saturation_load, overloaded.saturated_load),
        (0.0, Some(0.95))
    );
}

/// The name of the parameter an argument check refuses, None when it passes.
fn refused(r: topolab_sim::Result<()>) -> Option<String> {
    match r {
        Ok(()) => None,
        Err(topolab_sim::SimError::Core(topolab_core::TopolabError::InvalidParameter {
            param,
            ..
        })) => Some(param),
        Err(e) => panic!("not a parameter error: {e}"),
    }
}

#[test]
fn the_arguments_of_a_sweep_and_a_timeline_are_checked_on_entry() {
    use topolab_sim::failure::check_timeline;
    use topolab_sim::sweep::check_arguments;
    assert_eq!(refused(check_arguments(Some(&[0.0, 1.0]), 0.0)), None);
    assert_eq!(refused(check_arguments(None, 1e-6)), None);
    assert_eq!(
        refused(check_arguments(Some(&[]), 0.01)).as_deref(),
        Some("loads")
    );
    assert_eq!(
        refused(check_arguments(Some(&[0.1, f64::NAN]), 0.01)).as_deref(),
        Some("loads[1]")
    );
    assert_eq!(
        refused(check_arguments(Some(&[1.5]), 0.01)).as_deref(),
        Some("loads[0]")
    );
    assert_eq!(
        refused(check_arguments(None, 1.0)).as_deref(),
        Some("load_resolution")
    );
    assert_eq!(refused(check_timeline(0.5, 50, 400)), None);
    assert_eq!(
        refused(check_timeline(-0.1, 50, 400)).as_deref(),
        Some("load")
    );
    assert_eq!(
        refused(check_timeline(0.5, 50, 0)).as_deref(),
        Some("cycles")
    );
    assert_eq!(
        refused(check_timeline(0.5, 0, 400)).as_deref(),
        Some("window")
    );
    assert_eq!(
        refused(check_timeline(0.5, 401, 400)).as_deref(),
        Some("window")
    );
    assert_eq!(
        refused(check_timeline(0.5, 50, u64::MAX)).as_deref(),
        Some("cycles")
    );
}
