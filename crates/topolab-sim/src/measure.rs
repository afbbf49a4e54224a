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

use crate::config::SimConfig;
use crate::engine::{Engine, Prepared, WarmState, MAX_CYCLES};
use crate::error::{Result, SimError};
use crate::injection::Source;
use crate::router::Phase;
use crate::stats::{batch_means_interval, quantile, Batches, Totals};
use crate::traffic::{Exchange, Traffic};
use std::sync::Arc;
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

/// The sources of `traffic` at `load` flits per endpoint per cycle, how many endpoints send
/// under it, and their rate in packets per endpoint per cycle.
pub(crate) fn pattern_source(
    prep: &Prepared,
    traffic: &str,
    load: f64,
) -> Result<(Source, u32, f64)> {
    if !(0.0..=1.0).contains(&load) || load.is_nan() {
        return Err(SimError::param(
            "load",
            load,
            "an offered load from 0 to 1 flit per endpoint per cycle",
        ));
    }
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
    let is_warm = warm.is_some();
    let mut eng = match warm {
        None => Engine::new(prep, source)?,
        Some(state) => Engine::resume(prep, source, state)?,
    };
    let cfg = prep.cfg.clone();
    let (warmup_periods, max_samples) = if is_warm {
        let measuring = cfg.max_samples.saturating_sub(cfg.warmup_periods);
        (cfg.warm_start_periods, measuring + cfg.warm_start_periods)
    } else {
        (cfg.warmup_periods, cfg.max_samples)
    };
    let period = cfg.sample_period as u64;
    // The cycle this run started at (0 from an empty network); the budget counts from it.
    let start = eng.now as u64;
    let budget = cycle_budget(&cfg);
    let budget_end = start + budget;
    let (active_before, hops_before) = {
        let t = eng.totals();
        (t.active_cycles, t.flit_hops)
    };
    // Throughputs per active endpoint, the unit of the offered load.
    let nodes = active as f64;
    let estimate = (warmup_periods.max(1) as u64 + max_samples as u64) * period;
    let stage = "simulating";

    let mut reset_time = start;
    let mut converged = 0u32;
    let (mut prev_lat, mut prev_acc) = (0.0f64, 0.0f64);
    let mut clear_last = false;
    let mut phases = 0u32;
    let mut unstable = false;
    let mut reason = String::new();
    let mut early = String::new();
    // Flits accepted since the statistics were last cleared, at the start of this period.
    let mut accepted_before = 0u64;
    // (accepted flits, packets, latency sum) since the measurement started, at the end of each
    // measured period: the batches of the confidence intervals.
    let mut batch_marks: Vec<(u64, u64, u64)> = Vec::new();
    // `precision`: both intervals narrow enough (then BookSim2's convergence rule is not used).
    let mut precise = false;
    let by_precision = cfg.precision > 0.0;
    eng.clear_stats();
    while phases < max_samples
        && (eng.phase != Phase::Running
            || !(if by_precision {
                precise
            } else {
                converged >= 3
            }))
    {
        if clear_last || (eng.phase == Phase::WarmingUp && phases.is_multiple_of(2)) {
            clear_last = false;
            eng.clear_stats();
            reset_time = eng.now as u64;
            accepted_before = 0;
        }
        eng.run_cycles(period, monitor, stage, estimate, eng.now as u64 - start)?;
        let now = eng.now as u64;
        let t = eng.totals();
        let last_period_acc = (t.accepted_flits - accepted_before) as f64 / period as f64 / nodes;
        accepted_before = t.accepted_flits;
        let cur_lat = t.plat_sum as f64 / t.packets as f64;
        let cur_acc = t.accepted_flits as f64 / (now - reset_time) as f64 / nodes;
        let lat_change = ((cur_lat - prev_lat) / cur_lat).abs();
        let acc_change = ((cur_acc - prev_acc) / cur_acc).abs();
        prev_lat = cur_lat;
        prev_acc = cur_acc;
        let seen = t.latency_with_in_flight(now);
        if cfg.latency_thres >= 0.0 && seen > cfg.latency_thres {
            unstable = true;
            reason = format!(
                "unstable: average latency of finished packets and flits in flight {seen:.1} > \
                 latency_thres = {} at cycle {}",
                cfg.latency_thres,
                now - start
            );
            eng.drain_time = now as u32;
            break;
        }
        match eng.phase {
            Phase::WarmingUp => {
                let settled = if warmup_periods > 0 {
                    phases + 1 >= warmup_periods
                } else {
                    settled(lat_change, cfg.warmup_thres)
                        && settled(acc_change, cfg.acc_warmup_thres)
                };
                if settled {
                    clear_last = true;
                    eng.phase = Phase::Running;
                }
            }
            _ => {
                batch_marks.push((t.accepted_flits, t.packets, t.plat_sum));
                if by_precision {
                    precise = precise_enough(
                        &batch_marks,
                        cur_acc,
                        cur_lat,
                        period as f64 * nodes,
                        cfg.precision,
                    );
                }
                if settled(lat_change, cfg.stopping_thres)
                    && settled(acc_change, cfg.acc_stopping_thres)
                {
                    converged += 1;
                } else {
                    converged = 0;
                }
                if cfg.early_verdict {
                    let window = Window {
                        load,
                        accepted: cur_acc,
                        expected_packets: rate * (now - reset_time) as f64 * nodes,
                        flits: (now - reset_time) as f64 * nodes,
                        period_expected_packets: rate * period as f64 * nodes,
                        period_flits: period as f64 * nodes,
                        latency_change: lat_change,
                        latency_seen: seen,
                        last_period_accepted: last_period_acc,
                        measured_periods: ((now - reset_time) / period) as u32,
                        accepted_interval: Batches::new(&batch_marks)
                            .accepted(period as f64 * nodes)
                            .and_then(|rates| batch_means_interval(cur_acc, &rates)),
                    };
                    match clear_verdict(&cfg, &window, phases + 1) {
                        Some(Verdict::Saturated(why)) => {
                            reason = format!("early verdict (early_verdict = true): {why}");
                            early = format!("saturated: {why}");
                            eng.drain_time = now as u32;
                            phases += 1;
                            break;
                        }
                        Some(Verdict::Stable(why)) => {
                            early = format!("stable: {why}");
                            phases += 1;
                            break;
                        }
                        None => {}
                    }
                }
            }
        }
        phases += 1;
    }
    // The measurement ended by BookSim2's rule. The window's throughput is final (the drain
    // counts no accepted flit) and the drain can only add "unstable", so with early_verdict a
    // shortfall past the tolerance is the full run's verdict already: stop here.
    if cfg.early_verdict && eng.phase == Phase::Running && !unstable && reason.is_empty() {
        let now = eng.now as u64;
        let span = (now - reset_time) as f64;
        let accepted = eng.totals().accepted_flits as f64 / span / nodes;
        if let Some(why) = throughput_shortfall(&cfg, load, accepted, span, nodes) {
            reason = format!(
                "early verdict (early_verdict = true): at the end of the measurement, {why}"
            );
            early = format!("saturated: at the end of the measurement (no drain), {why}");
            eng.drain_time = now as u32;
        }
    }
    // An early saturated verdict stops like an unstable run: no drain, the window's figures.
    let stopped_saturated = !reason.is_empty();
    let measured_running = eng.phase == Phase::Running && !unstable && !stopped_saturated;
    // The measured packets still undelivered when an early verdict ended the drain.
    let mut cut: Option<Outstanding> = None;
    if measured_running {
        converged += 1;
        eng.phase = Phase::Draining;
        eng.drain_time = eng.now;
        let mut steps = 0u64;
        // With early_verdict the drain may end before the last measured packet arrives (see
        // `drain_decided`): from latency_thres cycles on, a packet still in flight has a
        // latency over the threshold by itself, and near saturation a few hot flows held the
        // drain for thousands of cycles.
        let cut_from = (cfg.early_verdict && cfg.latency_thres >= 0.0)
            .then(|| cfg.latency_thres.ceil() as u64);
        loop {
            let t = eng.totals();
            if t.measured_in_flight == 0 && eng.sources_drained() {
                break;
            }
            if cut_from.is_some_and(|from| steps >= from && (steps - from).is_multiple_of(1000)) {
                let now = eng.now as u64;
                let left = outstanding(&eng, &t, rate, cfg.packet_size);
                let to_budget = budget_end.saturating_sub(now);
                if let Some(why) = drain_decided(&cfg, &t, &left, now, to_budget, steps) {
                    cut = Some(left);
                    early = if early.is_empty() {
                        format!("stable: {why}")
                    } else {
                        format!("{early}; {why}")
                    };
                    break;
                }
            }
            if eng.now as u64 >= budget_end {
                unstable = true;
                converged = 0;
                reason = format!(
                    "the packets created while measuring were not all delivered within the \
                     cycle budget of {budget} cycles (2 x max_samples x sample_period + \
                     latency_thres + deadlock_timeout)"
                );
                break;
            }
            eng.run_cycles(1, monitor, "draining", estimate, eng.now as u64 - start)?;
            steps += 1;
            if steps.is_multiple_of(1000) {
                let t = eng.totals();
                let now = eng.now as u64;
                let seen = t.latency_with_in_flight(now);
                if cfg.latency_thres >= 0.0 && seen > cfg.latency_thres {
                    unstable = true;
                    converged = 0;
                    reason = format!(
                        "unstable while draining: average latency of finished packets and \
                         flits in flight {seen:.1} > latency_thres = {} at cycle {}",
                        cfg.latency_thres,
                        now - start
                    );
                    break;
                }
            }
        }
    } else if !unstable && !stopped_saturated {
        // max_samples reached while still warming up (warmup_periods = 0): the figures are
        // those of the last warm-up window.
        converged = 0;
        eng.drain_time = eng.now;
        reason = format!(
            "the warm-up did not settle within max_samples = {} periods (warmup_periods = 0: \
             latency and throughput changed by more than warmup_thres = {} / \
             acc_warmup_thres = {} each period)",
            max_samples, cfg.warmup_thres, cfg.acc_warmup_thres
        );
    }
    let window_end = eng.drain_time as u64;
    let t = eng.totals();
    let mut samples = eng.latency_samples();
    // Emptying the network (BookSim2 drains every packet before it ends) changes no measured
    // figure, only `cycles` and the activity counts; a saturation search needs only the
    // verdict, and near saturation the backlog of a few hot flows took thousands of cycles.
    let emptied = !unstable && !stopped_saturated && !cfg.early_verdict;
    if emptied {
        eng.phase = Phase::Emptying;
        eng.stop_generating();
        while !(eng.totals().in_flight_flits == 0 && eng.quiet()) && (eng.now as u64) < budget_end {
            eng.run_cycles(1, monitor, "emptying", estimate, eng.now as u64 - start)?;
        }
    }
    let all = eng.totals();
    let span = (window_end - reset_time) as f64;
    let accepted = t.accepted_flits as f64 / span / nodes;
    let avg_latency = match &cut {
        None => ratio(t.plat_sum as f64, t.packets as f64),
        Some(left) => ratio(
            t.plat_sum as f64 + left.age_sum,
            t.packets as f64 + left.packets,
        ),
    };
    // The network fills from empty during the warm-up: a packet to an average destination
    // needs about twice what the fastest one (nearest destination, no queueing) took. With a
    // shorter warm-up the window counts the fill-up (accepted far below injected). Judged on
    // the fastest packet, which queueing past saturation does not slow down. A warm start's
    // network is full already.
    let fastest = samples.iter().copied().min().unwrap_or(0) as u64;
    if !is_warm && !unstable && !stopped_saturated && reset_time < 2 * fastest {
        return Err(SimError::param(
            "sample_period",
            format!(
                "{} (warmup_periods = {}: a warm-up of {reset_time} cycles)",
                cfg.sample_period, cfg.warmup_periods
            ),
            format!(
                "a warm-up of at least twice the fastest measured packet's latency \
                 ({fastest} cycles): shorter, the network is still filling when the \
                 measurement starts and the accepted throughput counts flits not yet arrived; \
                 raise sample_period or warmup_periods"
            ),
        ));
    }
    if reason.is_empty() {
        if let Some(why) = throughput_shortfall(&cfg, load, accepted, span, nodes) {
            reason = why;
        }
    }
    let saturated = !reason.is_empty();
    let cycles = eng.now as u64 - start;
    let batches = Batches::new(&batch_marks);
    let accepted_throughput_ci95 = batches
        .accepted(period as f64 * nodes)
        .and_then(|rates| batch_means_interval(accepted, &rates));
    let avg_latency_ci95 = batch_means_interval(avg_latency, &batches.latencies());
    let result = RunResult {
        routing: prep.routing_name.clone(),
        traffic: traffic.trim().to_string(),
        offered_load: load,
        accepted_throughput: accepted,
        accepted_throughput_ci95,
        injected_throughput: t.sent_flits as f64 / span / nodes,
        avg_latency,
        avg_latency_ci95,
        p99_latency: quantile(&mut samples, 0.99),
        avg_network_latency: ratio(t.nlat_sum as f64, t.packets as f64),
        avg_hops: ratio(t.hops_sum as f64, t.packets as f64),
        saturated,
        saturation_reason: reason,
        unstable,
        converged: converged > 0 && !unstable,
        cycles,
        cycle_budget: budget,
        measured_packets: t.packets,
        sample_periods: phases,
        routers: prep.topo.num_routers,
        endpoints: prep.topo.num_endpoints,
        active_endpoints: active,
        wall_seconds: started.elapsed().as_secs_f64(),
        router_cycles: prep.topo.num_routers as u64 * cycles,
        active_router_cycles: all.active_cycles - active_before,
        flit_hops: all.flit_hops - hops_before,
        deflection_rate: if t.router_hops == 0 {
            0.0
        } else {
            t.deflections as f64 / t.router_hops as f64
        },
        max_hops: all.max_hops,
        early_verdict: early,
        precision_reached: precise && !unstable,
    };
    let state = (!saturated && !emptied).then(|| eng.into_warm());
    Ok((result, state))
}

/// The final test on the throughput: the window (`span` cycles, `nodes` active endpoints)
/// accepted less than (1 - saturation_tolerance) x offered by more flits than the Bernoulli
/// noise of the packets created; the words, or None when it did not.
fn throughput_shortfall(
    cfg: &SimConfig,
    load: f64,
    accepted: f64,
    span: f64,
    nodes: f64,
) -> Option<String> {
    if accepted >= (1.0 - cfg.saturation_tolerance) * load {
        return None;
    }
    let expected_packets = load / cfg.packet_size as f64 * span * nodes;
    let shortfall_flits = (load - accepted) * span * nodes;
    let noise_flits = bernoulli_noise(cfg, expected_packets);
    (shortfall_flits > noise_flits).then(|| {
        format!(
            "accepted {accepted:.4} < (1 - saturation_tolerance = {}) x offered {load}: \
             {shortfall_flits:.0} flits short over the {span} cycle window, more than the \
             Bernoulli noise ({SHORTFALL_SIGMAS} sigma = {noise_flits:.0} flits)",
            cfg.saturation_tolerance
        )
    })
}

/// The measured packets not delivered yet: in flight (counted by their flits) and not yet
/// created by sources that fell behind (the packets their creation rate gives them).
struct Outstanding {
    packets: f64,
    /// Sum of their ages at the cycle they were counted.
    age_sum: f64,
}

fn outstanding(eng: &Engine, t: &Totals, rate: f64, packet_size: u32) -> Outstanding {
    let now = eng.now as f64;
    let size = packet_size.max(1) as f64;
    let flits = t.measured_in_flight as f64;
    let flit_ages = flits * now - t.measured_in_flight_ctime as f64;
    let end = eng.drain_time as u64;
    let (mut packets, mut age_sum) = (flits / size, flit_ages / size);
    for next in eng.next_creations().filter(|&g| g < end) {
        // Creation cycles spread evenly over [next, end): their average age.
        let behind = rate * (end - next) as f64;
        packets += behind;
        age_sum += behind * (now - (next + end) as f64 / 2.0);
    }
    Outstanding { packets, age_sum }
}

/// `early_verdict` while draining: the drain is taken to leave the verdict as it is when the
/// latency BookSim2 tests (finished packets and flits in flight) is below half the threshold,
/// and the measured packets' average latency would stay below half of it even if every one
/// still outstanding waited until the cycle budget (`to_budget` cycles after `now`); the words,
/// or None otherwise.
fn drain_decided(
    cfg: &SimConfig,
    t: &Totals,
    left: &Outstanding,
    now: u64,
    to_budget: u64,
    steps: u64,
) -> Option<String> {
    let half = cfg.latency_thres / 2.0;
    let seen = t.latency_with_in_flight(now);
    let packets = t.packets as f64 + left.packets;
    let waiting = left.age_sum + left.packets * to_budget as f64;
    let worst = (t.plat_sum as f64 + waiting) / packets;
    (seen <= half && worst <= half).then(|| {
        format!(
            "drain ended {steps} cycles after the measurement with {:.0} measured packets \
             outstanding (counted in the latency at their age then): latency {seen:.1}, and \
             {worst:.1} if they all waited until the cycle budget ({to_budget} cycles on), both \
             below latency_thres / 2",
            left.packets
        )
    })
}

/// What one measured window shows, for `clear_verdict`.
struct Window {
    load: f64,
    /// Flits ejected per active endpoint per cycle since the window began.
    accepted: f64,
    /// Packets the Bernoulli process is expected to create in the window.
    expected_packets: f64,
    /// Active endpoints x cycles of the window (flits per unit of throughput).
    flits: f64,
    latency_change: f64,
    /// Average latency of finished packets and flits in flight.
    latency_seen: f64,
    /// Flits ejected per active endpoint per cycle in the window's last period alone.
    last_period_accepted: f64,
    measured_periods: u32,
    /// `expected_packets` and `flits` of one period.
    period_expected_packets: f64,
    period_flits: f64,
    /// The 95% interval of `accepted` by batch means over the measured periods (None before
    /// two).
    accepted_interval: Option<[f64; 2]>,
}

/// Measured periods after which a window short of the offered load has settled: in runs
/// between the early margins, from the third period to the seventh the window's
/// accepted/offered rose by at most 0.003 (uniform traffic, its network still filling) or
/// fell (permutations, UGAL-L under its worst case): benches/results/simulator-speed.csv.
/// The margin below, 0.2 x saturation_tolerance (0.006 by default), is twice that rise.
const SETTLED_PERIODS: u32 = 3;

enum Verdict {
    Saturated(String),
    Stable(String),
}

/// `early_verdict`: the verdict of a run whose first measured periods leave no doubt, judged
/// with twice the margins of the final test, so that a full run would give the same verdict:
/// saturated when the window accepts less than (1 - 2 x saturation_tolerance) x offered by more
/// than the Bernoulli noise, or after SETTLED_PERIODS periods less than (1 - 1.2 x
/// saturation_tolerance) x offered with its last period no better; stable when it accepts
/// within saturation_tolerance / 2 (or the noise) of offered, its last period fell short of
/// the offered load by no more than one period's Bernoulli noise, the latency changed by at
/// most stopping_thres since the previous period and stays below half the latency threshold,
/// or after SETTLED_PERIODS periods it accepts at least (1 - 0.8 x saturation_tolerance) x
/// offered with its last period no lower. Anything between runs on by BookSim2's rule.
fn clear_verdict(cfg: &SimConfig, w: &Window, periods: u32) -> Option<Verdict> {
    let noise = bernoulli_noise(cfg, w.expected_packets);
    let shortfall = (w.load - w.accepted) * w.flits;
    let tol = cfg.saturation_tolerance;
    if w.accepted < (1.0 - 2.0 * tol) * w.load && shortfall > noise {
        return Some(Verdict::Saturated(format!(
            "accepted {:.4} < (1 - 2 x saturation_tolerance = {tol}) x offered {} after {periods} \
             periods: {shortfall:.0} flits short, more than the Bernoulli noise ({noise:.0} flits)",
            w.accepted, w.load
        )));
    }
    // Between the margins: short of (1 - 1.2 x saturation_tolerance) x offered after
    // SETTLED_PERIODS periods, and not recovering (its last period accepted no more than the
    // window did): the final test cannot be passed by a window that has settled there.
    if w.measured_periods >= SETTLED_PERIODS
        && w.accepted < (1.0 - 1.2 * tol) * w.load
        && w.last_period_accepted <= w.accepted
        && shortfall > noise
    {
        return Some(Verdict::Saturated(format!(
            "accepted {:.4} < (1 - 1.2 x saturation_tolerance = {tol}) x offered {} after \
             {} measured periods, the last of them accepting {:.4}, no more: {shortfall:.0} \
             flits short, more than the Bernoulli noise ({noise:.0} flits)",
            w.accepted, w.load, w.measured_periods, w.last_period_accepted
        )));
    }
    let latency_ok = cfg.latency_thres < 0.0 || w.latency_seen <= cfg.latency_thres / 2.0;
    // Short by no more than the noise, and past the final test's margin: on a few dozen
    // endpoints one period's noise exceeds the margin (a 5x6 torus of 30 endpoints under
    // tornado at 0.56: 3.5% short within it after one measured period, 4.4% short and past
    // it after seven, as the full run ends), so the noise alone does not make a verdict clear.
    let delivered = w.accepted >= (1.0 - tol / 2.0) * w.load
        || (shortfall <= noise && w.accepted >= (1.0 - tol) * w.load);
    // Steady: the last period delivered what it was offered, within the noise of one period's
    // creations, so that the flits in the network and in the source queues stopped growing.
    // Without it a network just past its saturation was judged stable after its first
    // measured period, accepting 98.8-99.1% while its backlog grew and its throughput then
    // fell period after period to a window the full run judges saturated (a 625-router
    // Jellyfish and a 627-router Xpander under uniform traffic,
    // benches/results/simulator-speed.csv).
    let period_noise = bernoulli_noise(cfg, w.period_expected_packets);
    let period_shortfall = (w.load - w.last_period_accepted) * w.period_flits;
    let steady = period_shortfall <= period_noise;
    if delivered && steady && latency_ok && settled(w.latency_change, cfg.stopping_thres) {
        return Some(Verdict::Stable(format!(
            "accepted {:.4} of offered {} after {periods} periods, {:.4} in the last one \
             ({period_shortfall:.0} flits short, within the Bernoulli noise of {period_noise:.0}), \
             latency {:.1} (changed by {:.1}% <= stopping_thres = {}, below latency_thres / 2)",
            w.accepted,
            w.load,
            w.last_period_accepted,
            w.latency_seen,
            100.0 * w.latency_change,
            cfg.stopping_thres
        )));
    }
    // Between the margins the other way: at least 1 - 0.8 x saturation_tolerance of offered
    // after SETTLED_PERIODS periods, its last period no lower (not falling towards the final
    // test's 1 - saturation_tolerance). A permutation's busiest flows leave such a window
    // short by the same share period after period (a 625-router Jellyfish under `randperm` at
    // 0.34-0.36: 97.4-98.1% after three measured periods and after seven, within 0.0003), and
    // their growing backlog keeps the latency changing, so the run would otherwise measure all
    // its periods. A window that falls is left to the rules above (the collapse described
    // there falls from its first measured period on).
    if w.measured_periods >= SETTLED_PERIODS
        && w.accepted >= (1.0 - 0.8 * tol) * w.load
        && w.last_period_accepted >= w.accepted
        && latency_ok
    {
        return Some(Verdict::Stable(format!(
            "accepted {:.4} >= (1 - 0.8 x saturation_tolerance = {tol}) x offered {} after {} \
             measured periods, the last of them accepting {:.4}, no less; latency {:.1}, below \
             latency_thres / 2",
            w.accepted, w.load, w.measured_periods, w.last_period_accepted, w.latency_seen,
        )));
    }
    if cfg.precision > 0.0 {
        return interval_verdict(cfg, w, noise, shortfall, latency_ok);
    }
    None
}

/// With `precision` > 0, between the margins above: the verdict the final test would give
/// when the accepted rate's 95% interval (batch means, after MIN_PRECISION_PERIODS measured
/// periods) lies wholly on one side of (1 - saturation_tolerance) x offered: saturated below
/// it when the last period accepted no more than the window (a network still filling accepts
/// more in its last period) and the window is short by more than the Bernoulli noise; stable
/// at or above it when the last period is at or above it too (a collapsing network's last
/// period falls first) and the latency stays below half the threshold. A large network's windows are narrow, so its runs near saturation, which
/// otherwise measure every period, end after three.
fn interval_verdict(
    cfg: &SimConfig,
    w: &Window,
    noise: f64,
    shortfall: f64,
    latency_ok: bool,
) -> Option<Verdict> {
    let [low, high] = w.accepted_interval?;
    if (w.measured_periods as usize) < MIN_PRECISION_PERIODS {
        return None;
    }
    let line = (1.0 - cfg.saturation_tolerance) * w.load;
    let figures = format!(
        "accepted {:.4}, 95% interval [{low:.4}, {high:.4}] after {} measured periods, the last \
         accepting {:.4}, against (1 - saturation_tolerance = {}) x offered {} = {line:.4}",
        w.accepted, w.measured_periods, w.last_period_accepted, cfg.saturation_tolerance, w.load
    );
    if high < line && w.last_period_accepted <= w.accepted && shortfall > noise {
        return Some(Verdict::Saturated(format!(
            "{figures}: the interval lies below, {shortfall:.0} flits short (Bernoulli noise \
             {noise:.0})"
        )));
    }
    if low >= line && w.last_period_accepted >= line && latency_ok {
        return Some(Verdict::Stable(format!(
            "{figures}: the interval lies above; latency {:.1}, below latency_thres / 2",
            w.latency_seen
        )));
    }
    None
}

topolab_core::result_type! {
    /// The outcome of a fixed exchange (Kathareios et al., SC15, §4.4).
    pub struct ExchangeResult {
        pub name: String,
        pub routing: String,
        /// Cycles until the last flit was delivered.
        #[unit = "cycles"]
        pub completion_cycles: u64,
        pub packets: u64,
        pub flits: u64,
        /// Packets and flits the endpoints received, counted at ejection; at completion no flit is
        /// in flight, so they equal `packets` and `flits` unless one was lost or duplicated.
        pub delivered_packets: u64,
        pub delivered_flits: u64,
        /// Flits the endpoints generated.
        pub sent_flits: u64,
        /// Flits delivered per endpoint per cycle until completion.
        #[unit = "flits/endpoint/cycle"]
        pub effective_throughput: f64,
        #[unit = "cycles"]
        pub avg_latency: f64,
        #[unit = "cycles"]
        pub p99_latency: f64,
        #[unit = "routers traversed"]
        pub avg_hops: f64,
        #[unit = "s"]
        pub wall_seconds: f64,
    }
}

/// Runs an exchange to completion: every endpoint sends its messages in order, one packet as
/// soon as the previous one is injected.
pub fn run_exchange(
    prep: &Prepared,
    exchange: &Exchange,
    monitor: &dyn Monitor,
) -> Result<ExchangeResult> {
    let nodes = prep.topo.num_endpoints;
    if exchange.per_source.len() > nodes as usize {
        return Err(SimError::param(
            "exchange",
            format!("{} sources", exchange.per_source.len()),
            format!("at most one list per endpoint ({nodes})"),
        ));
    }
    let mut packets = 0u64;
    for list in &exchange.per_source {
        for &(dest, p) in list {
            if dest >= nodes {
                return Err(SimError::param(
                    "exchange",
                    format!("destination {dest}"),
                    format!("an endpoint id below {nodes}"),
                ));
            }
            packets += p as u64;
        }
    }
    let flits = packets * prep.cfg.packet_size as u64;
    let started = Instant::now();
    crate::failure::only_in_timelines(prep, "an exchange")?;
    let mut eng = Engine::new(prep, Source::Exchange(Arc::new(exchange.clone())))?;
    eng.phase = Phase::Running;
    eng.drain_time = u32::MAX;
    eng.clear_stats();
    let chunk = 64u64;
    loop {
        let t = eng.totals();
        if t.packets >= packets && t.in_flight_flits == 0 {
            break;
        }
        eng.run_cycles(chunk, monitor, "exchange", flits, t.accepted_flits)?;
    }
    let t = eng.totals();
    let completion = eng
        .cores
        .iter()
        .map(|c| c.stats.last_eject)
        .max()
        .unwrap_or(0) as u64
        + 1;
    let mut samples = eng.latency_samples();
    Ok(ExchangeResult {
        name: exchange.name.clone(),
        routing: prep.routing_name.clone(),
        completion_cycles: if packets == 0 { 0 } else { completion },
        packets,
        flits,
        delivered_packets: t.packets,
        delivered_flits: t.accepted_flits,
        sent_flits: t.sent_flits,
        effective_throughput: if packets == 0 {
            0.0
        } else {
            flits as f64 / completion as f64 / nodes as f64
        },
        avg_latency: ratio(t.plat_sum as f64, t.packets as f64),
        p99_latency: quantile(&mut samples, 0.99),
        avg_hops: ratio(t.hops_sum as f64, t.packets as f64),
        wall_seconds: started.elapsed().as_secs_f64(),
    })
}
