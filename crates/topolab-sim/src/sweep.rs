//! Load sweeps: the latency-load curve and the saturation point.
//!
//! Runs the given loads (by default 0.1, 0.2, ...) in increasing order up to the first saturated
//! one, then closes the bracket between the highest load that did not saturate and the lowest
//! that did to `load_resolution` with the saturation search (`saturation.rs`, the one search of
//! topolab, which `compare --simulate` runs from the static bound): the listed runs are its
//! first runs, and it goes on from where they leave it. Loads above the first saturated one are
//! skipped: a higher offered load cannot be unsaturated where a lower one saturated (up to
//! noise, which a skipped run could only turn into a wrong, non-monotone saturation load), so
//! they would cost runs without moving the saturation load. `every_load` runs them anyway, for
//! a latency-load curve that plots its saturated points (they play no part in the search). A
//! run is saturated when BookSim2's latency threshold declares it unstable or when it accepts
//! less than (1 - saturation_tolerance) of the offered load. The saturation load is the highest
//! load found not saturated; the saturation throughput is the highest accepted throughput of
//! any run (what the network delivers when overloaded). The sweep's bracket is
//! [saturation_load, saturated_load]: the highest load a run carried and the lowest load above
//! it a run saturated at, both among `points`, so the saturation load lies within it (at most
//! `load_resolution` wide after the search).

use crate::engine::Prepared;
use crate::error::{Result, SimError};
use crate::measure::{check_load, run, RunResult};
use crate::saturation::{Search, Verdict, MIN_TOLERANCE};
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

/// The listed loads (None: `DEFAULT_LOADS`), each an offered load, and the resolution of the
/// saturation search.
pub fn check_arguments(loads: Option<&[f64]>, load_resolution: f64) -> Result<()> {
    if let Some(loads) = loads {
        if loads.is_empty() {
            return Err(SimError::param(
                "loads",
                "[]",
                "a non-empty list of offered loads from 0 to 1 (or none for the default list)",
            ));
        }
        for (i, &load) in loads.iter().enumerate() {
            check_load(&format!("loads[{i}]"), load)?;
        }
    }
    if !(load_resolution == 0.0 || (MIN_TOLERANCE..1.0).contains(&load_resolution)) {
        return Err(SimError::param(
            "load_resolution",
            load_resolution,
            format!(
                "0 (the listed loads only) or a load difference from {MIN_TOLERANCE:e} to \
                 below 1"
            ),
        ));
    }
    Ok(())
}

pub fn sweep(
    prep: &Prepared,
    traffic: &str,
    loads: Option<&[f64]>,
    load_resolution: f64,
    every_load: bool,
    monitor: &dyn Monitor,
) -> Result<SweepResult> {
    check_arguments(loads, load_resolution)?;
    let mut grid: Vec<f64> = loads.map(|l| l.to_vec()).unwrap_or(DEFAULT_LOADS.to_vec());
    grid.sort_by(|a, b| a.partial_cmp(b).unwrap_or(std::cmp::Ordering::Equal));
    grid.dedup();
    let mut points: Vec<RunResult> = Vec::new();
    let one = |load: f64, points: &mut Vec<RunResult>| -> Result<Verdict> {
        let nested = Nested {
            inner: monitor,
            stage: format!("load {load:.4}"),
        };
        let r = run(prep, traffic, load, &nested)?;
        let verdict = Verdict {
            saturated: r.saturated,
            accepted_throughput: r.accepted_throughput,
        };
        points.push(r);
        Ok(verdict)
    };
    // the listed runs up to the first saturated one are the search's first runs
    let mut search = (load_resolution > 0.0)
        .then(|| Search::new(load_resolution, prep.cfg.saturation_tolerance))
        .transpose()?;
    let mut next = None;
    let mut saturated = false;
    for &load in &grid {
        let r = one(load, &mut points)?;
        if let (Some(s), false) = (&mut search, saturated) {
            next = s.record(load, r);
        }
        saturated |= r.saturated;
        if saturated && !every_load {
            break;
        }
    }
    if let (Some(s), true) = (&mut search, saturated) {
        s.run_from_next(next, &mut |load| one(load, &mut points))?;
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
