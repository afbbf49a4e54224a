//! The saturation search: the highest offered load a network carries, found in a few runs. The
//! one search of topolab: `compare --simulate` runs it from the static bound
//! (python/topolab/design/saturation.py computes the bound and passes it as `start`), and a
//! latency-load sweep (`sweep.rs`) runs it past its list of loads.
//!
//! A run counts as carried while it accepts at least (1 - `shortfall`) x the offered load
//! (`shortfall`: the simulator's `saturation_tolerance`), so a network that keeps delivering A
//! past its saturation is judged carried up to A / (1 - `shortfall`): the next run is there
//! (kept inside the bracket), then the bracket [highest load carried, lowest load saturated] is
//! closed until it is `tolerance` wide:
//!
//! - after a saturated run, by its estimate A / (1 - `shortfall`);
//! - after an estimate that was carried, by one step of `tolerance` above it;
//! - a carried run that was no estimate (the step above a carried estimate, which undershot)
//!   is followed by a climb: 10% of the load (at least two steps of `tolerance`) above it,
//!   twice that after the next, never past the middle of the bracket;
//! - a carried run that accepted less than (1 - `shortfall` / 2) x its load (carried, but not
//!   clearly: the saturation load is near) starts the climb again from one step of
//!   `tolerance`;
//! - a saturated run that estimates nothing above the highest load carried is followed by
//!   bisection; so is a run at an estimate that saturated and whose own estimate is lower, by
//!   more than half of `tolerance`, than the one it ran at, when that new estimate would lie in
//!   the bracket's upper half: such a network delivers nearly what it is offered past its
//!   saturation, each overloaded run's estimate lies only a little below its load, and
//!   following them creeps down a step at a time. Before any load was carried the next run is
//!   then at `CREEPING_RESTART` of the new estimate instead of half the saturated load;
//! - a start that is carried climbs by 10% of the load and then twice as far each run.
//!
//! docs/compare.md §5 gives the measurements behind each rule. Loads are rounded to
//! `decimals(tolerance)` decimal places (4 at the default tolerance), a grid ten times finer
//! than the tolerance: every next load lies strictly inside the bracket (or above a carried
//! start), so each step runs a load of the grid not run before and the search ends. A run is
//! never repeated, and a guard stops a search after twice as many decisions as the grid has
//! loads.

use crate::error::{Result, SimError};

/// Where a search that started at full load goes when its estimates creep down before any load
/// was carried: this fraction of the last estimate.
pub const CREEPING_RESTART: f64 = 0.9;
/// The finest tolerance: below it the runs' noise decides the result.
pub const MIN_TOLERANCE: f64 = 1e-6;

/// What the search reads of a run.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Verdict {
    pub saturated: bool,
    /// Flits accepted per active endpoint per cycle (NaN when not measured).
    pub accepted_throughput: f64,
}

/// The search's state: the bracket, the runs so far and what decided the last step.
#[derive(Debug, Clone)]
pub struct Search {
    tolerance: f64,
    shortfall: f64,
    decimals: usize,
    /// The highest load carried (0: none) and the lowest saturated (infinite: none).
    lo: f64,
    hi: f64,
    /// The load just run was an estimate.
    estimated: bool,
    /// How far above the highest carried load the search climbs when no estimate guides it or
    /// the start was carried; it doubles with each climb.
    step: f64,
    /// The estimate of the last saturated run.
    last_estimate: f64,
    /// Every run: load and verdict, in the order run.
    runs: Vec<(f64, Verdict)>,
    steps: usize,
    /// The guard: decisions after which the search stops (twice the loads of its grid).
    max_steps: usize,
}

impl Search {
    /// A search closing its bracket to `tolerance` (from `MIN_TOLERANCE` to below 1) with
    /// runs judged carried down to (1 - `shortfall`) of their load (`shortfall` from 0 to
    /// below 1).
    pub fn new(tolerance: f64, shortfall: f64) -> Result<Search> {
        if !(MIN_TOLERANCE..1.0).contains(&tolerance) {
            return Err(SimError::param(
                "tolerance",
                tolerance,
                format!("a load difference from {MIN_TOLERANCE:e} to below 1"),
            ));
        }
        if !(0.0..1.0).contains(&shortfall) {
            return Err(SimError::param(
                "saturation_tolerance",
                shortfall,
                "a fraction from 0 to below 1",
            ));
        }
        Ok(Search {
            tolerance,
            shortfall,
            decimals: decimals(tolerance),
            lo: 0.0,
            hi: f64::INFINITY,
            estimated: false,
            step: 0.0,
            last_estimate: f64::NAN,
            runs: Vec::new(),
            steps: 0,
            max_steps: 2 * 10usize.pow(decimals(tolerance) as u32),
        })
    }

    /// The first load to run from `start` (the static bound; None or not finite: full load).
    fn first_load(&self, start: Option<f64>) -> f64 {
        let load = match start {
            Some(s) if s.is_finite() => s.max(self.tolerance).min(1.0),
            _ => 1.0,
        };
        self.round(load)
    }

    /// `load` rounded as the search runs loads.
    fn round(&self, load: f64) -> f64 {
        round_decimals(load, self.decimals)
    }

    /// The verdict of an earlier run at `load`, if any.
    fn known(&self, load: f64) -> Option<Verdict> {
        self.runs.iter().find(|r| r.0 == load).map(|r| r.1)
    }

    /// The highest load carried (0 when none was).
    pub fn saturation_load(&self) -> f64 {
        self.lo
    }

    /// The lowest load above `saturation_load` that saturated (None: none did).
    pub fn saturated_load(&self) -> Option<f64> {
        self.hi.is_finite().then_some(self.hi)
    }

    /// Takes the verdict of the run at `load` (rounded by `round`) and returns the next load to
    /// run, or None when the bracket is closed.
    pub fn record(&mut self, load: f64, v: Verdict) -> Option<f64> {
        if self.known(load).is_none() {
            self.runs.push((load, v));
        }
        self.steps += 1;
        let tol = self.tolerance;
        if v.saturated {
            self.hi = self.hi.min(load);
        } else {
            self.lo = self.lo.max(load);
        }
        let (lo, hi) = (self.lo, self.hi);
        if lo >= 1.0 || hi <= tol || hi - lo <= tol + 1e-9 || self.steps >= self.max_steps {
            return None;
        }
        // carried, but short of the offered load by more than half the shortfall allowed: the
        // saturation load is near, so the climb starts again from one step of tolerance
        let close = !v.saturated && v.accepted_throughput < (1.0 - self.shortfall / 2.0) * load;
        let next = if hi.is_infinite() {
            // carried at the start: the bound was cautious, climb
            self.step = self.climb(close, tol.max(0.1 * lo));
            self.estimated = false;
            (lo + self.step).min(1.0)
        } else {
            // the highest load judged carried at what the overloaded network delivered
            let estimate = if v.saturated && v.accepted_throughput.is_finite() {
                v.accepted_throughput / (1.0 - self.shortfall)
            } else {
                f64::NAN
            };
            if estimate > lo {
                let guess = (hi - tol).min((lo + tol).max(estimate));
                // an estimate saturated and estimates less than it did: the network delivers
                // less the less it is offered, and its estimates creep down to its saturation
                let creeping = self.estimated && estimate < self.last_estimate - tol / 2.0;
                self.last_estimate = estimate;
                if creeping && guess > (lo + hi) / 2.0 {
                    // with nothing carried yet the middle lies at half the saturated load, far
                    // below where such networks saturate
                    self.estimated = false;
                    if lo > 0.0 {
                        (lo + hi) / 2.0
                    } else {
                        (hi / 2.0).max(CREEPING_RESTART * estimate)
                    }
                } else {
                    self.estimated = true;
                    guess
                }
            } else if v.saturated {
                // nothing estimated above what was carried
                self.estimated = false;
                (lo + hi) / 2.0
            } else if self.estimated {
                // the estimate was carried: the saturation load is likely just above
                self.estimated = false;
                lo + tol
            } else {
                self.step = self.climb(close, (2.0 * tol).max(0.1 * lo));
                lo + self.step.min((hi - lo) / 2.0)
            }
        };
        Some(self.round(next))
    }

    /// The next climbing step: one step of tolerance when the run was carried but not clearly,
    /// twice the last step, or `first` for the first climb.
    fn climb(&self, close: bool, first: f64) -> f64 {
        if close {
            self.tolerance
        } else if self.step != 0.0 {
            2.0 * self.step
        } else {
            first
        }
    }
}

impl Search {
    /// Runs loads from `start` until the bracket is closed; `run`'s error type is the caller's
    /// (a Python exception from a Python run function).
    pub fn run_from<E>(
        &mut self,
        start: Option<f64>,
        run: &mut dyn FnMut(f64) -> std::result::Result<Verdict, E>,
    ) -> std::result::Result<(), E> {
        self.run_from_next(Some(self.first_load(start)), run)
    }

    /// Runs loads from `next` (what `record` returned last; None: the search is done) until
    /// the bracket is closed.
    pub fn run_from_next<E>(
        &mut self,
        mut next: Option<f64>,
        run: &mut dyn FnMut(f64) -> std::result::Result<Verdict, E>,
    ) -> std::result::Result<(), E> {
        while let Some(load) = next {
            let v = match self.known(load) {
                Some(v) => v,
                None => run(load)?,
            };
            next = self.record(load, v);
        }
        Ok(())
    }
}

/// Decimal places loads are rounded to: 4 at tolerances from 1e-3 up, finer below so that
/// the bracket always spans ten rounded steps.
fn decimals(tolerance: f64) -> usize {
    let finer = (-tolerance.log10()).ceil() as usize + 1;
    finer.max(4)
}

/// `x` rounded to `decimals` places as Python's `round(x, decimals)` does: to the nearest
/// decimal of the exact binary value, ties (exactly representable halves such as 0.03125)
/// to even. Rust's `{:.N}` formats the exact binary value and rounds its ties to even as well.
fn round_decimals(x: f64, decimals: usize) -> f64 {
    format!("{x:.decimals$}").parse().unwrap_or(x)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn search(
        start: Option<f64>,
        tolerance: f64,
        shortfall: f64,
        run: &mut dyn FnMut(f64) -> Result<Verdict>,
    ) -> Result<Search> {
        let mut s = Search::new(tolerance, shortfall)?;
        s.run_from(start, run)?;
        Ok(s)
    }

    /// A network that carries every load up to `sat` and delivers `after(load)` above it.
    fn stand_in(sat: f64, after: impl Fn(f64) -> f64) -> impl FnMut(f64) -> Result<Verdict> {
        move |load| {
            Ok(if load <= sat {
                Verdict {
                    saturated: false,
                    accepted_throughput: load,
                }
            } else {
                Verdict {
                    saturated: true,
                    accepted_throughput: after(load),
                }
            })
        }
    }

    #[test]
    fn the_bracket_closes_around_the_saturation_load_from_any_start() {
        for &sat in &[0.05, 0.2375, 0.41, 0.6667, 0.93] {
            for &start in &[None, Some(0.01), Some(0.3), Some(0.8), Some(1.0)] {
                let mut run = stand_in(sat, |_| sat);
                let s = search(start, 0.01, 0.03, &mut run).unwrap();
                let (lo, hi) = (s.saturation_load(), s.saturated_load().unwrap());
                assert!(
                    lo <= sat && sat < hi && hi - lo <= 0.01 + 1e-9,
                    "{sat} {start:?}: {lo} {hi}"
                );
                // no load is run twice
                let mut loads: Vec<f64> = s.runs.iter().map(|r| r.0).collect();
                loads.sort_by(f64::total_cmp);
                let mut distinct = loads.clone();
                distinct.dedup();
                assert_eq!(loads, distinct);
            }
        }
    }

    #[test]
    fn fine_tolerances_close_the_bracket() {
        // a flat overload throughput just above a 4-decimal load: at 4 decimals a bisection of
        // a bracket narrower than 1e-4 would run the same load for ever
        let mut run = stand_in(0.500_03, |_| 0.3);
        let s = search(Some(0.5), 1e-5, 0.0, &mut run).unwrap();
        let (lo, hi) = (s.saturation_load(), s.saturated_load().unwrap());
        assert!(
            lo <= 0.500_03 && 0.500_03 < hi && hi - lo <= 1e-5 + 1e-9,
            "{lo} {hi}"
        );
        assert!(s.runs.len() < 40);
    }

    #[test]
    fn rounding_ties_go_to_even_as_in_python() {
        // Python: round(0.03125, 4) == 0.0312, round(0.09375, 4) == 0.0938,
        // round(0.15625, 4) == 0.1562, round(0.123456, 4) == 0.1235
        assert_eq!(round_decimals(0.03125, 4), 0.0312);
        assert_eq!(round_decimals(0.09375, 4), 0.0938);
        assert_eq!(round_decimals(0.15625, 4), 0.1562);
        assert_eq!(round_decimals(0.123456, 4), 0.1235);
        assert_eq!(decimals(0.01), 4);
        assert_eq!(decimals(1e-5), 6);
    }

    #[test]
    fn bad_tolerances_are_errors_naming_the_parameter() {
        let e = Search::new(0.0, 0.0).unwrap_err().to_string();
        assert!(e.contains("tolerance") && e.contains('0'), "{e}");
        let e = Search::new(0.01, 1.0).unwrap_err().to_string();
        assert!(e.contains("saturation_tolerance"), "{e}");
    }
}
