//! Measurement the BookSim2 way (TrafficManager::_SingleSim and Run, sim_type = latency).
//!
//! Warm-up: `warmup_periods` sample periods of `sample_period` cycles; statistics are cleared at
//! the start of every even warm-up period and when warm-up ends (with warmup_periods = 0, warm-up
//! lasts until latency and throughput change by at most warmup_thres / acc_warmup_thres).
//! Measurement: periods until the relative change of the average packet latency and of the
//! accepted rate are both at most stopping_thres / acc_stopping_thres for 3 consecutive periods,
//! or `max_samples` periods in all (warm-up included; reaching it counts as converged). With
//! `precision` > 0 the measurement instead ends once the 95% intervals of the accepted rate and
//! of the average packet latency (batch means over the measured periods) both have a half-width
//! below `precision` times their figure, after at least `MIN_PRECISION_PERIODS` measured
//! periods, or at `max_samples`. After
//! every period, if the average over finished packets' latencies and in-flight flits' ages
//! exceeds `latency_thres`, the run is declared unstable (saturated) and stops there. Packets
//! created while measuring are marked; after the measurement the run drains until they are all
//! delivered (checking the threshold every 1,000 cycles), then stops injecting and empties.
//!
//! Reported (`RunResult`): average and 99th-percentile packet latency (creation to tail
//! ejection, source queueing included), average network latency (injection to ejection),
//! accepted throughput in flits per active endpoint per cycle over the measurement window (all
//! flits ejected, as BookSim2), and average hops counted as BookSim2 does: routers traversed, i.e.
//! router-to-router hops + 1. Unstable runs report the window they stopped in.
//!
//! The run's phases are `phases::MeasuredRun`'s methods; the early verdicts and the final
//! throughput test are in `verdict`; a fixed exchange run to completion is `exchange`.

mod exchange;
mod phases;
mod verdict;

pub use exchange::{run_exchange, ExchangeResult};

use crate::config::SimConfig;
use crate::engine::{Prepared, WarmState, MAX_CYCLES};
use crate::error::{Result, SimError};
use crate::injection::Source;
use crate::stats::{batch_means_interval, Batches};
use crate::traffic::Traffic;
use phases::MeasuredRun;
use std::time::Instant;
use topolab_core::progress::Monitor;

topolab_core::result_type! {
    /// One run, measured the BookSim2 way (warm-up, sample periods, convergence, latency
    /// threshold). Latencies in cycles; `offered_load`, `accepted_throughput` and
    /// `injected_throughput` in flits per *active* endpoint per cycle (`active_endpoints`: the
    /// endpoints that send under the pattern; bit patterns idle those outside the largest
    /// power-of-two subset, Besta & Hoefler, SC14, §V-B); `avg_hops` counts routers traversed
    /// (BookSim2's count: router-to-router hops + 1). A latency (and `avg_hops`) is NaN when no
    /// packet was measured; `saturated` comes with `saturation_reason` saying why (the figures
    /// compared); `cycles` never exceeds `cycle_budget`, which follows from the measurement
    /// parameters (docs/simulator.md, "Measurement").
    #[python = "SimResult"]
    pub struct RunResult {
        pub routing: String,
        pub traffic: String,
        /// Offered load, flits per active endpoint per cycle: every endpoint that sends under the
        /// traffic pattern (`active_endpoints`) offers this much; idle ones (outside the
        /// power-of-two subset of a bit pattern, Besta & Hoefler, SC14, §V-B) offer nothing.
        #[unit = "flits/active endpoint/cycle"]
        pub offered_load: f64,
        /// Flits ejected per active endpoint per cycle over the measurement window (the same unit
        /// as `offered_load`, so that accepted = offered below saturation for every pattern).
        #[unit = "flits/active endpoint/cycle"]
        pub accepted_throughput: f64,
        /// Flits injected per active endpoint per cycle over the measurement window.
        #[unit = "flits/active endpoint/cycle"]
        pub injected_throughput: f64,
        /// 95% confidence interval of `accepted_throughput` by batch means over the measurement's
        /// sample periods (each period one batch; Student's t with batches - 1 degrees of freedom),
        /// centred on the figure; None with fewer than 2 measured periods.
        #[unit = "flits/active endpoint/cycle (95% confidence interval, batch means)"]
        pub accepted_throughput_ci95: Option<[f64; 2]>,
        /// Packet latency, creation to tail ejection (cycles).
        #[unit = "cycles"]
        pub avg_latency: f64,
        /// 95% confidence interval of `avg_latency` by batch means: the spread of the periods'
        /// average latencies (packets ejected in each), centred on the figure; None with fewer than
        /// 2 measured periods that ejected packets.
        #[unit = "cycles (95% confidence interval, batch means)"]
        pub avg_latency_ci95: Option<[f64; 2]>,
        #[unit = "cycles"]
        pub p99_latency: f64,
        /// Network latency, head injection to tail ejection (cycles).
        #[unit = "cycles"]
        pub avg_network_latency: f64,
        /// Routers traversed per packet (BookSim2's count: router-to-router hops + 1).
        #[unit = "routers traversed"]
        pub avg_hops: f64,
        /// `saturation_reason` is not empty: unstable, the measured packets not delivered within
        /// the cycle budget, the adaptive warm-up not settled, or accepted below
        /// (1 - saturation_tolerance) x offered by more than the Bernoulli noise.
        pub saturated: bool,
        /// Why the run counts as saturated, in words with the figures compared ("" when not).
        pub saturation_reason: String,
        /// The latency threshold was exceeded (BookSim2: "Simulation unstable"), or the measured
        /// packets were not delivered within the cycle budget.
        pub unstable: bool,
        /// BookSim2's verdict: measurement ended normally (3 converged periods or max_samples),
        /// which BookSim2 also gives runs past saturation that stay below the latency threshold;
        /// never together with `unstable`.
        pub converged: bool,
        /// Cycles simulated, warm-up and drain included; at most `cycle_budget`.
        #[unit = "cycles"]
        pub cycles: u64,
        /// The most cycles this run could take, from its parameters (`cycle_budget`).
        pub cycle_budget: u64,
        pub measured_packets: u64,
        pub sample_periods: u32,
        pub routers: u32,
        pub endpoints: u32,
        /// Endpoints that send under the traffic pattern (`Traffic::is_source`): the divisor of
        /// the throughputs.
        pub active_endpoints: u32,
        #[unit = "s"]
        pub wall_seconds: f64,
        /// Routers x cycles (what a simulator that steps every router pays for).
        pub router_cycles: u64,
        /// Router-cycles actually processed (idle routers are skipped).
        pub active_router_cycles: u64,
        /// Flits through a crossbar, warm-up included.
        pub flit_hops: u64,
        /// Share of router-to-router flit hops in the measurement window that were deflections off
        /// a preferred path (router=hotpotato; 0 for the input-queued router).
        pub deflection_rate: f64,
        /// Most routers any flit traversed during the run (the unit of `avg_hops`).
        pub max_hops: u32,
        /// With `early_verdict = true`, why the measurement ended after `sample_periods` periods
        /// instead of BookSim2's rule: "saturated: ..." or "stable: ...", the figures compared
        /// ("" when the option is off or no verdict was clear). A saturated one is also the
        /// `saturation_reason`.
        pub early_verdict: String,
        /// With `precision` > 0: the measurement ended because both 95% intervals were narrower
        /// than `precision` times their figure (false: it ended otherwise, at max_samples or
        /// unstable; always false with `precision` = 0).
        pub precision_reached: bool,
    }
}

/// Measured periods before `precision` may end a measurement: the three periods BookSim2's
/// convergence rule needs at least (three consecutive converged periods), so that a loose
/// precision never measures less than BookSim2 would; a t-interval from two batches (t = 12.7)
/// would stop on chance agreement of two periods.
pub const MIN_PRECISION_PERIODS: usize = 3;

/// Whether the batches so far give 95% intervals of relative half-width below `precision`
/// for both the accepted rate (`accepted`, each batch over `flits_per_period`) and the average
/// latency (`latency`).
fn precise_enough(
    marks: &[(u64, u64, u64)],
    accepted: f64,
    latency: f64,
    flits_per_period: f64,
    precision: f64,
) -> bool {
    if marks.len() < MIN_PRECISION_PERIODS {
        return false;
    }
    let batches = Batches::new(marks);
    let relative = |figure: f64, interval: Option<[f64; 2]>| match interval {
        Some([low, high]) if figure.abs() > 0.0 => (high - low) / 2.0 / figure.abs(),
        _ => f64::INFINITY,
    };
    let rates = batches.accepted(flits_per_period).unwrap_or_default();
    relative(accepted, batch_means_interval(accepted, &rates)) < precision
        && relative(latency, batch_means_interval(latency, &batches.latencies())) < precision
}

/// A relative change within the threshold; NaN (no packets yet) counts as settled, as in
/// BookSim2's comparisons.
#[allow(clippy::neg_cmp_op_on_partial_ord)]
fn settled(change: f64, threshold: f64) -> bool {
    !(change > threshold)
}

fn ratio(a: f64, b: f64) -> f64 {
    if b == 0.0 {
        f64::NAN
    } else {
        a / b
    }
}

/// Standard deviations of the Bernoulli packet count a throughput shortfall must exceed to count
/// as saturation: below that, the shortfall is what the random creation process produces by
/// itself (a run expecting a handful of packets, or none, would otherwise read as saturated).
const SHORTFALL_SIGMAS: f64 = 3.0;

/// The shortfall in flits that a window expecting `expected_packets` packets shows by chance:
/// `SHORTFALL_SIGMAS` standard deviations of its Bernoulli packet count.
fn bernoulli_noise(cfg: &SimConfig, expected_packets: f64) -> f64 {
    SHORTFALL_SIGMAS * expected_packets.sqrt() * cfg.packet_size as f64
}

/// Cycles a run may take at most: `max_samples` periods of warm-up and measurement, as many
/// again plus `latency_thres` and `deadlock_timeout` for delivering the measured packets and
/// emptying the network (`deadlock_timeout`, the longest the simulator lets a network stand
/// still, keeps room for delivery when the periods are short or the threshold is off). A run
/// reaching it while draining counts as saturated (its measured packets waited longer than
/// the threshold allows); emptying stops there (it changes no measured figure).
pub fn cycle_budget(cfg: &SimConfig) -> u64 {
    let measuring = cfg.max_samples as u64 * cfg.sample_period as u64;
    2 * measuring + cfg.latency_thres.max(0.0).ceil() as u64 + cfg.deadlock_timeout as u64
}

/// The measurement parameters that leave no window to measure in, or exceed the cycle counter.
fn check_measurement(cfg: &SimConfig) -> Result<()> {
    if cfg.warmup_periods > 0 && cfg.max_samples <= cfg.warmup_periods {
        return Err(SimError::param(
            "max_samples",
            cfg.max_samples,
            format!(
                "more than warmup_periods = {} (max_samples counts the warm-up periods; with \
                 fewer, no period is left to measure)",
                cfg.warmup_periods
            ),
        ));
    }
    if cfg.warmup_periods == 0 && cfg.max_samples < 3 {
        return Err(SimError::param(
            "max_samples",
            cfg.max_samples,
            "at least 3 with warmup_periods = 0 (the adaptive warm-up compares two periods, \
             and one more is measured)",
        ));
    }
    if cycle_budget(cfg) >= MAX_CYCLES {
        return Err(SimError::param(
            "max_samples",
            format!(
                "{} (x sample_period = {})",
                cfg.max_samples, cfg.sample_period
            ),
            format!(
                "max_samples x sample_period at most {} cycles (the run's budget, twice that \
                 plus latency_thres and deadlock_timeout, must stay below {MAX_CYCLES})",
                MAX_CYCLES
                    .saturating_sub(cfg.latency_thres.max(0.0).ceil() as u64)
                    .saturating_sub(cfg.deadlock_timeout as u64)
                    / 2
            ),
        ));
    }
    Ok(())
}

/// One run at `load` flits per endpoint per cycle with the traffic pattern `traffic`.
pub fn run(prep: &Prepared, traffic: &str, load: f64, monitor: &dyn Monitor) -> Result<RunResult> {
    run_from(prep, traffic, load, None, monitor).map(|(result, _)| result)
}

/// `load` (the argument `name`) as an offered load: from 0 to 1 flit per endpoint per cycle.
/// Every entry point checks it before it wires a network, so that a bad load is an error of
/// the call, not of a run.
pub fn check_load(name: &str, load: f64) -> Result<f64> {
    if (0.0..=1.0).contains(&load) {
        Ok(load)
    } else {
        Err(SimError::param(
            name,
            load,
            "an offered load from 0 to 1 flit per endpoint per cycle",
        ))
    }
}

/// The sources of `traffic` at `load` flits per endpoint per cycle, how many endpoints send
/// under it, and their rate in packets per endpoint per cycle.
pub(crate) fn pattern_source(
    prep: &Prepared,
    traffic: &str,
    load: f64,
) -> Result<(Source, u32, f64)> {
    check_load("load", load)?;
    let pattern = Traffic::parse(traffic, &prep.net)?;
    let active = (0..prep.topo.num_endpoints)
        .filter(|&s| pattern.is_source(s))
        .count() as u32;
    if active == 0 {
        return Err(SimError::param(
            "traffic",
            traffic,
            "a pattern under which at least one endpoint sends",
        ));
    }
    let rate = load / prep.cfg.flits_per_injection();
    Ok((Source::for_pattern(pattern, rate, &prep.cfg)?, active, rate))
}

/// One run as `run`, from the network state `warm` that a run on `prep` with the same
/// `traffic` left (None: an empty network). A warm run's warm-up lasts `warm_start_periods`
/// periods instead of `warmup_periods`, and its measurement as many periods as an empty
/// network's could (max_samples - warmup_periods); its cycles and activity counts are its own.
/// Returns the result and, when the run was not saturated and left the network loaded
/// (`early_verdict`: no emptying), the state it left.
///
/// The phases, in order: the sample periods (warm-up, then measurement with the early
/// verdict), the verdict at the end of the measurement, the drain of the measured packets, and
/// the emptying of the network; each is a method of `MeasuredRun`.
pub fn run_from(
    prep: &Prepared,
    traffic: &str,
    load: f64,
    warm: Option<WarmState>,
    monitor: &dyn Monitor,
) -> Result<(RunResult, Option<WarmState>)> {
    check_measurement(&prep.cfg)?;
    crate::failure::only_in_timelines(prep, "a measured run")?;
    let (source, active, rate) = pattern_source(prep, traffic, load)?;
    let started = Instant::now();
    let mut run = MeasuredRun::start(prep, source, warm, active, load, rate, monitor)?;
    run.sample_periods()?;
    run.end_of_measurement_verdict();
    run.drain()?;
    run.finish(traffic, started)
}
