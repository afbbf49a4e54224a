//! `precision`: a run's measurement ends once the 95% intervals of its accepted throughput and
//! average latency (batch means) are both narrower than the requested fraction of their figure,
//! after at least the three measured periods BookSim2's convergence rule needs; short of it, the
//! run measures until max_samples. The result says whether the precision was reached.

use crate::common;

use common::short;
use topolab_core::build_str;
use topolab_core::progress::Silent;
use topolab_sim::measure::MIN_PRECISION_PERIODS;
use topolab_sim::{simulate, RunResult};

const SPEC: &str = "slimfly:q=5,p=4";
/// Warm-up periods of `short` (the one its runs measure after).
const WARMUP: u32 = 1;

fn run(load: f64, pairs: &[(&str, &str)]) -> RunResult {
    let net = build_str(SPEC).unwrap();
    let mut all = vec![("max_samples", "24")];
    all.extend_from_slice(pairs);
    simulate(&net, "min", "uniform", load, &short(&all), &Silent).unwrap()
}

/// The larger of the two intervals' half-widths over their figures.
fn relative_half_width(r: &RunResult) -> f64 {
    let half = |figure: f64, interval: Option<[f64; 2]>| {
        let [low, high] = interval.expect("an interval");
        (high - low) / 2.0 / figure
    };
    half(r.accepted_throughput, r.accepted_throughput_ci95)
        .max(half(r.avg_latency, r.avg_latency_ci95))
}

#[test]
fn a_loose_precision_stops_before_booksims_rule_and_meets_it() {
    // Near saturation the latency keeps changing by more than stopping_thres from period to
    // period, so BookSim2's rule measures more periods than the minimum.
    let load = 0.6;
    let default = run(load, &[]);
    let measured = |r: &RunResult| r.sample_periods - WARMUP;
    assert!(!default.saturated && !default.precision_reached);
    assert!(
        measured(&default) > MIN_PRECISION_PERIODS as u32,
        "the default run measured {} periods: no room to stop earlier",
        measured(&default)
    );
    let loose = 0.2;
    let precise = run(load, &[("precision", "0.2")]);
    assert!(precise.precision_reached, "{precise:?}");
    assert_eq!(measured(&precise), MIN_PRECISION_PERIODS as u32);
    assert!(precise.cycles < default.cycles);
    assert!(relative_half_width(&precise) < loose);
}

#[test]
fn a_tight_precision_measures_on_until_it_is_met() {
    let load = 0.4;
    let default = run(load, &[]);
    let tight = default_width_fraction(&default);
    let r = run(load, &[("precision", &tight.to_string())]);
    assert!(r.precision_reached, "{tight}: {r:?}");
    assert!(r.sample_periods > default.sample_periods);
    assert!(relative_half_width(&r) < tight);
    // Out of reach within max_samples: the run measures every period and says so.
    let unreachable = run(load, &[("precision", "0.0001")]);
    assert!(!unreachable.precision_reached && !unreachable.saturated);
    assert_eq!(unreachable.sample_periods, 24);
}

/// Half the relative half-width the default run ends with: a precision it did not reach.
fn default_width_fraction(default: &RunResult) -> f64 {
    relative_half_width(default) / 2.0
}

#[test]
fn precision_is_a_fraction() {
    let mut cfg = short(&[]);
    for bad in ["-0.1", "1.5", "nan"] {
        let err = cfg.set("precision", bad).unwrap_err().to_string();
        assert!(err.contains("precision") && err.contains(bad), "{err}");
    }
}

/// compare's runs (200-cycle periods, internal speedup 2, `early_verdict`) on a 100-router
/// Jellyfish under `randperm`, at loads between the early verdict's margins: with `precision`
/// the run ends once its accepted throughput's 95% interval lies wholly above (0.348) or below
/// (0.37) the saturation line, in fewer cycles than the run without it, with the same verdict.
#[test]
fn with_early_verdict_an_interval_clear_of_the_line_ends_the_run_with_the_same_verdict() {
    let net = build_str("jellyfish:routers=100,degree=8,seed=0,p=4").unwrap();
    let config = |precision: &str| {
        short(&[
            ("seed", "0"),
            ("sample_period", "200"),
            ("warmup_periods", "3"),
            ("max_samples", "10"),
            ("internal_speedup", "2"),
            ("num_vcs", "6"),
            ("early_verdict", "true"),
            ("precision", precision),
        ])
    };
    for (load, saturated) in [(0.348, false), (0.37, true)] {
        let full = simulate(&net, "min", "randperm", load, &config("0"), &Silent).unwrap();
        let by_interval =
            simulate(&net, "min", "randperm", load, &config("0.05"), &Silent).unwrap();
        assert_eq!(full.saturated, saturated, "{load}: {full:?}");
        assert_eq!(by_interval.saturated, saturated, "{load}: {by_interval:?}");
        let side = if saturated { "saturated" } else { "stable" };
        assert!(
            by_interval.early_verdict.starts_with(side)
                && by_interval.early_verdict.contains("95% interval"),
            "{load}: {}",
            by_interval.early_verdict
        );
        assert!(!full.early_verdict.contains("95% interval"));
        assert!(by_interval.cycles < full.cycles, "{load}");
        // the interval lies on the verdict's side of (1 - saturation_tolerance) x offered
        let [low, high] = by_interval.accepted_throughput_ci95.unwrap();
        let line = (1.0 - 0.03) * load;
        assert!(
            if saturated { high < line } else { low >= line },
            "{load}: [{low}, {high}]"
        );
    }
}

/// Stopping on the interval's own width leaves its coverage about as it was: over 80 seeds at
/// load 0.4 (below saturation: the long-run accepted throughput is the offered load), the
/// accepted throughput's interval of runs ended by `precision = 0.005` contains 0.4 in at least
/// 68 (fewer has a probability under 0.1% at a true 95% coverage, as tests/sim_confidence.rs),
/// and every run met the precision.
#[test]
fn intervals_of_runs_ended_by_precision_still_cover() {
    let net = build_str(SPEC).unwrap();
    let mut hits = 0;
    for seed in 0..80u64 {
        let seed = seed.to_string();
        let cfg = short(&[
            ("seed", &seed),
            ("max_samples", "24"),
            ("precision", "0.005"),
        ]);
        let r = simulate(&net, "min", "uniform", 0.4, &cfg, &Silent).unwrap();
        assert!(
            r.precision_reached && relative_half_width(&r) < 0.005,
            "seed {seed}"
        );
        let [low, high] = r.accepted_throughput_ci95.unwrap();
        hits += usize::from(low <= 0.4 && 0.4 <= high);
    }
    assert!(
        hits >= 68,
        "{hits} of 80 intervals contain the offered load"
    );
}
