//! The 95% confidence intervals of a run (batch means over its measured sample periods) cover
//! the long-run value about 95% of the time: over many seeds, the accepted throughput's interval
//! contains the offered load (what a network below saturation accepts in the long run, by
//! conservation of flits), and the latency's interval contains the mean latency of long runs
//! with other seeds. The intervals must also be informative: narrow against the figure.

use crate::common;

use common::short;
use topolab_core::build_str;
use topolab_core::progress::Silent;
use topolab_sim::{simulate, RunResult};

const SPEC: &str = "slimfly:q=5,p=4";
const LOAD: f64 = 0.4;
const SEEDS: u64 = 80;

fn run(seed: u64, pairs: &[(&str, &str)]) -> RunResult {
    let net = build_str(SPEC).unwrap();
    let seed = seed.to_string();
    let mut all = vec![("seed", seed.as_str())];
    all.extend_from_slice(pairs);
    simulate(&net, "min", "uniform", LOAD, &short(&all), &Silent).unwrap()
}

fn covers(interval: [f64; 2], value: f64) -> bool {
    interval[0] <= value && value <= interval[1]
}

#[test]
fn intervals_cover_the_long_run_values_about_95_percent_of_the_time() {
    // The long-run latency: runs of 30 measured periods each (stopping_thres = 0 never counts a
    // period as converged), seeds apart from the ones tested.
    let long: Vec<f64> = (1000..1012)
        .map(|seed| {
            let r = run(
                seed,
                &[
                    ("max_samples", "31"),
                    ("stopping_thres", "0"),
                    ("acc_stopping_thres", "0"),
                ],
            );
            assert_eq!(r.sample_periods, 31);
            r.avg_latency
        })
        .collect();
    let long_latency = long.iter().sum::<f64>() / long.len() as f64;

    let (mut throughput_hits, mut latency_hits) = (0, 0);
    let mut widths = Vec::new();
    for seed in 0..SEEDS {
        let r = run(seed, &[]);
        assert!(!r.saturated, "seed {seed}: {}", r.saturation_reason);
        let acc = r
            .accepted_throughput_ci95
            .expect("two or more measured periods");
        let lat = r.avg_latency_ci95.expect("two or more measured periods");
        // Centred on the figure the run reports.
        assert!((acc[0] + acc[1]) / 2.0 - r.accepted_throughput < 1e-12);
        assert!((lat[0] + lat[1]) / 2.0 - r.avg_latency < 1e-9);
        throughput_hits += covers(acc, LOAD) as u32;
        latency_hits += covers(lat, long_latency) as u32;
        widths.push((acc[1] - acc[0]) / LOAD);
    }
    // 95% of 80 is 76; with the binomial spread of a true 95% coverage, fewer than 68 has a
    // probability below 0.1%. The t quantile with 2-3 degrees of freedom is wide, so coverage
    // near 100% is expected; what must not happen is an interval that misses often.
    for (what, hits) in [("throughput", throughput_hits), ("latency", latency_hits)] {
        assert!(
            hits >= 68,
            "{what}: {hits} of {SEEDS} intervals cover the long-run value"
        );
    }
    // Informative: the throughput interval is a few percent of the figure, not the whole range.
    let mean_width = widths.iter().sum::<f64>() / widths.len() as f64;
    assert!(mean_width < 0.1, "mean relative width {mean_width}");
}

#[test]
fn fewer_than_two_measured_periods_give_no_interval() {
    // An adaptive warm-up that never settles (thresholds 0): the run ends in its warm-up with
    // no period measured.
    let r = run(
        3,
        &[
            ("warmup_periods", "0"),
            ("max_samples", "3"),
            ("warmup_thres", "0"),
            ("acc_warmup_thres", "0"),
        ],
    );
    assert!(
        r.saturation_reason.contains("warm-up did not settle"),
        "{}",
        r.saturation_reason
    );
    assert!(r.accepted_throughput_ci95.is_none() && r.avg_latency_ci95.is_none());
}
