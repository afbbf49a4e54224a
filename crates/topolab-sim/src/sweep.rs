//! Load sweeps: the latency-load curve and the saturation point.
//!
//! Runs the given loads (by default 0.1, 0.2, ...) in increasing order up to the first saturated
//! one, then bisects between the highest load that did not saturate and the lowest that did until
//! they are `load_resolution` apart. Loads above the first saturated one are skipped: a higher offered
//! load cannot be unsaturated where a lower one saturated (up to noise, which a skipped run could
//! only turn into a wrong, non-monotone saturation load), so they would cost runs without moving
//! the saturation load. `every_load` runs them anyway, for a latency-load curve that plots its
//! saturated points. A run is saturated when BookSim2's latency threshold declares it unstable
//! or when it accepts less than (1 - saturation_tolerance) of the offered load. The saturation
//! load is the highest load found not saturated; the saturation throughput is the highest
//! accepted throughput of any run (what the network delivers when overloaded). The search's
//! bracket is [saturation_load, saturated_load]: the highest load a run carried and the lowest
//! load above it a run saturated at, both among `points`, so the saturation load lies within it
//! (at most `load_resolution` wide after the bisection).

use crate::engine::Prepared;
use crate::error::{Result, SimError};
use crate::measure::{run, RunResult};
use topolab_core::progress::Monitor;

topolab_core::result_type! {
    /// A latency-load sweep: every run by increasing offered load and the saturation bracket.
    pub struct SweepResult {
        /// Every run, by increasing offered load.
        pub points: Vec<RunResult>,
        /// The highest load a run carried (0 when every run saturated): the bracket's lower end.
        #[unit = "flits/active endpoint/cycle (highest load a run carried)"]
        pub saturation_load: f64,
        /// The lowest load above `saturation_load` a run saturated at: the bracket's upper end,
        /// so the network saturates within [saturation_load, saturated_load]; None when no run
        /// above `saturation_load` saturated (the saturation load is at least the highest load
        /// run).
        #[unit = "flits/active endpoint/cycle (lowest saturated load above saturation_load)"]
        pub saturated_load: Option<f64>,
        /// The highest accepted throughput of any run (what the network delivers overloaded).
        #[unit = "flits/active endpoint/cycle"]
        pub saturation_throughput: f64,
    }
}

/// Stage reporting that runs within a sweep.
struct Nested<'a> {
    inner: &'a dyn Monitor,
    stage: String,
}

impl Monitor for Nested<'_> {
    fn progress(&self, _stage: &str, done: u64, total: u64) -> topolab_core::Result<()> {
        self.inner.progress(&self.stage, done, total)
    }
}

pub const DEFAULT_LOADS: [f64; 10] = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0];

/// The finest bisection resolution: 20 halvings of [0, 1]. Below it the runs' noise decides
/// the result, and below the spacing of adjacent doubles `hi - lo > load_resolution` never ends.
pub const MIN_LOAD_RESOLUTION: f64 = 1e-6;
/// Halvings of [lo, hi] at MIN_LOAD_RESOLUTION, rounded up: a bound the loop keeps even if `lo` and
/// `hi` stop moving.
pub const MAX_BISECTION_RUNS: u32 = 21;

pub fn sweep(
    prep: &Prepared,
    traffic: &str,
    loads: Option<&[f64]>,
    load_resolution: f64,
    every_load: bool,
    monitor: &dyn Monitor,
) -> Result<SweepResult> {
    if !(load_resolution == 0.0 || (MIN_LOAD_RESOLUTION..1.0).contains(&load_resolution)) {
        return Err(SimError::param(
            "load_resolution",
            load_resolution,
            format!(
                "0 (no bisection) or a load difference from {MIN_LOAD_RESOLUTION:e} to 1 \
                 (at most {MAX_BISECTION_RUNS} bisection runs)"
            ),
        ));
    }
    let mut grid: Vec<f64> = loads.map(|l| l.to_vec()).unwrap_or(DEFAULT_LOADS.to_vec());
    grid.sort_by(|a, b| a.partial_cmp(b).unwrap_or(std::cmp::Ordering::Equal));
    grid.dedup();
    let mut points: Vec<RunResult> = Vec::new();
    let one = |load: f64, points: &mut Vec<RunResult>| -> Result<bool> {
        let nested = Nested {
            inner: monitor,
            stage: format!("load {load:.4}"),
        };
        let r = run(prep, traffic, load, &nested)?;
        let sat = r.saturated;
        points.push(r);
        Ok(sat)
    };
    for &load in &grid {
        let sat = one(load, &mut points)?;
        if sat && !every_load {
            break;
        }
    }
    if load_resolution > 0.0 {
        let below = |p: &&RunResult| !p.saturated;
        let mut lo = points
            .iter()
            .filter(below)
            .map(|p| p.offered_load)
            .fold(0.0, f64::max);
        let hi_of = |points: &[RunResult], lo: f64| {
            points
                .iter()
                .filter(|p| p.saturated && p.offered_load > lo)
                .map(|p| p.offered_load)
                .fold(f64::INFINITY, f64::min)
        };
        let mut hi = hi_of(&points, lo);
        let mut runs = 0;
        while hi.is_finite() && hi - lo > load_resolution && runs < MAX_BISECTION_RUNS {
            runs += 1;
            let mid = (lo + hi) / 2.0;
            if one(mid, &mut points)? {
                hi = mid;
            } else {
                lo = mid;
            }
        }
    }
    points.sort_by(|a, b| {
        a.offered_load
            .partial_cmp(&b.offered_load)
            .unwrap_or(std::cmp::Ordering::Equal)
    });
    let saturation_load = points
        .iter()
        .filter(|p| !p.saturated)
        .map(|p| p.offered_load)
        .fold(0.0, f64::max);
    let saturated_load = points
        .iter()
        .filter(|p| p.saturated && p.offered_load > saturation_load)
        .map(|p| p.offered_load)
        .reduce(f64::min);
    let saturation_throughput = points
        .iter()
        .map(|p| p.accepted_throughput)
        .filter(|x| x.is_finite())
        .fold(0.0, f64::max);
    Ok(SweepResult {
        points,
        saturation_load,
        saturated_load,
        saturation_throughput,
    })
}
