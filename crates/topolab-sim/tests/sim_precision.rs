//! `precision`: a run's measurement ends once the 95% intervals of its accepted throughput and
//! average latency (batch means) are both narrower than the requested fraction of their figure,
//! after at least the three measured periods BookSim2's convergence rule needs; short of it, the
//! run measures until max_samples. The result says whether the precision was reached.

mod common;

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
