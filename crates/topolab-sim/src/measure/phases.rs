//! A measured run's phases, in order: the sample periods (warm-up, then measurement with the
//! early verdict), the verdict at the end of the measurement, the drain of the measured
//! packets, and the emptying of the network (module `measure` says how BookSim2 measures).

use super::verdict::{
    clear_verdict, drain_decided, outstanding, throughput_shortfall, Outstanding, Verdict, Window,
};
use super::{cycle_budget, precise_enough, ratio, settled, RunResult};
use crate::config::SimConfig;
use crate::engine::{Engine, Prepared, WarmState};
use crate::error::{Result, SimError};
use crate::injection::Source;
use crate::router::Phase;
use crate::stats::{batch_means_interval, quantile, Batches, Totals};
use std::time::Instant;
use topolab_core::progress::Monitor;

/// A measured run in progress: the engine, what is fixed for the run, and what each phase
/// hands on to the next.
pub(super) struct MeasuredRun<'p, 'm> {
    prep: &'p Prepared,
    eng: Engine<'p>,
    monitor: &'m dyn Monitor,
    load: f64,
    /// Packets per active endpoint per cycle.
    rate: f64,
    /// Endpoints that send: throughputs are per active endpoint, the unit of the offered load.
    active: u32,
    nodes: f64,
    period: u64,
    is_warm: bool,
    warmup_periods: u32,
    max_samples: u32,
    /// The cycle this run started at (0 from an empty network); the budget counts from it.
    start: u64,
    budget: u64,
    budget_end: u64,
    /// Cycles the progress monitor expects.
    estimate: u64,
    /// Activity counts before this run (a warm start's engine has counted before).
    active_before: u64,
    hops_before: u64,
    /// When the statistics were last cleared: at the end, the start of the measured window.
    reset_time: u64,
    converged: u32,
    /// Sample periods run, warm-up included.
    periods: u32,
    unstable: bool,
    /// Why the run counts as saturated ("" while it does not).
    reason: String,
    early: String,
    /// (accepted flits, packets, latency sum) since the measurement started, at the end of
    /// each measured period: the batches of the confidence intervals.
    batch_marks: Vec<(u64, u64, u64)>,
    /// `precision`: both intervals narrow enough (then BookSim2's convergence rule is not used).
    precise: bool,
    /// The measurement stopped on a saturated verdict (unstable or early), so there is no
    /// drain and the window's figures are final; set when the drain would begin.
    stopped_saturated: bool,
    /// The measured packets still undelivered when an early verdict ended the drain.
    cut: Option<Outstanding>,
}

/// What one sample period ends with.
struct PeriodFigures {
    now: u64,
    totals: Totals,
    /// Flits ejected per active endpoint per cycle in this period alone.
    last_period_accepted: f64,
    /// Average packet latency and accepted rate since the statistics were last cleared.
    latency: f64,
    accepted: f64,
    /// Their relative change since the previous period.
    latency_change: f64,
    accepted_change: f64,
    /// Average latency of finished packets and flits in flight.
    latency_seen: f64,
}

/// Whether the sample periods go on after a measured period.
enum Next {
    Continue,
    /// An early verdict ended the measurement.
    Stop,
}

impl<'p, 'm> MeasuredRun<'p, 'm> {
    pub(super) fn start(
        prep: &'p Prepared,
        source: Source,
        warm: Option<WarmState>,
        active: u32,
        load: f64,
        rate: f64,
        monitor: &'m dyn Monitor,
    ) -> Result<Self> {
        let is_warm = warm.is_some();
        let eng = match warm {
            None => Engine::new(prep, source)?,
            Some(state) => Engine::resume(prep, source, state)?,
        };
        let cfg = &prep.cfg;
        let (warmup_periods, max_samples) = if is_warm {
            let measuring = cfg.max_samples.saturating_sub(cfg.warmup_periods);
            (cfg.warm_start_periods, measuring + cfg.warm_start_periods)
        } else {
            (cfg.warmup_periods, cfg.max_samples)
        };
        let period = cfg.sample_period as u64;
        let start = eng.now as u64;
        let budget = cycle_budget(cfg);
        let totals = eng.totals();
        Ok(MeasuredRun {
            prep,
            monitor,
            load,
            rate,
            active,
            nodes: active as f64,
            period,
            is_warm,
            warmup_periods,
            max_samples,
            start,
            budget,
            budget_end: start + budget,
            estimate: (warmup_periods.max(1) as u64 + max_samples as u64) * period,
            active_before: totals.active_cycles,
            hops_before: totals.flit_hops,
            reset_time: start,
            converged: 0,
            periods: 0,
            unstable: false,
            reason: String::new(),
            early: String::new(),
            batch_marks: Vec::new(),
            precise: false,
            stopped_saturated: false,
            cut: None,
            eng,
        })
    }

    fn cfg(&self) -> &'p SimConfig {
        &self.prep.cfg
    }

    /// `n` cycles, reported to the monitor as `stage`.
    fn run_cycles(&mut self, n: u64, stage: &str) -> Result<()> {
        let done = self.eng.now as u64 - self.start;
        self.eng
            .run_cycles(n, self.monitor, stage, self.estimate, done)
    }

    /// Warm-up and measurement, period by period, until BookSim2's convergence rule (or
    /// `precision`) ends the measurement, `max_samples` periods have run, the latency passes
    /// the threshold, or an early verdict is clear.
    pub(super) fn sample_periods(&mut self) -> Result<()> {
        let by_precision = self.cfg().precision > 0.0;
        let mut clear_last = false;
        let (mut prev_latency, mut prev_accepted) = (0.0f64, 0.0f64);
        // Flits accepted since the statistics were last cleared, at the start of this period.
        let mut accepted_before = 0u64;
        self.eng.clear_stats();
        while self.periods < self.max_samples
            && (self.eng.phase != Phase::Running
                || !(if by_precision {
                    self.precise
                } else {
                    self.converged >= 3
                }))
        {
            if clear_last || (self.eng.phase == Phase::WarmingUp && self.periods.is_multiple_of(2))
            {
                clear_last = false;
                self.eng.clear_stats();
                self.reset_time = self.eng.now as u64;
                accepted_before = 0;
            }
            self.run_cycles(self.period, "simulating")?;
            let figures = self.period_figures(accepted_before, prev_latency, prev_accepted);
            accepted_before = figures.totals.accepted_flits;
            prev_latency = figures.latency;
            prev_accepted = figures.accepted;
            if self.over_latency_threshold(&figures) {
                break;
            }
            match self.eng.phase {
                Phase::WarmingUp => {
                    if self.warm_up_settled(&figures) {
                        clear_last = true;
                        self.eng.phase = Phase::Running;
                    }
                }
                _ => {
                    if let Next::Stop = self.measured_period(&figures) {
                        self.periods += 1;
                        break;
                    }
                }
            }
            self.periods += 1;
        }
        Ok(())
    }

    fn period_figures(
        &self,
        accepted_before: u64,
        prev_latency: f64,
        prev_accepted: f64,
    ) -> PeriodFigures {
        let now = self.eng.now as u64;
        let totals = self.eng.totals();
        let last_period_accepted =
            (totals.accepted_flits - accepted_before) as f64 / self.period as f64 / self.nodes;
        let latency = totals.plat_sum as f64 / totals.packets as f64;
        let accepted = totals.accepted_flits as f64 / (now - self.reset_time) as f64 / self.nodes;
        PeriodFigures {
            now,
            last_period_accepted,
            latency,
            accepted,
            latency_change: ((latency - prev_latency) / latency).abs(),
            accepted_change: ((accepted - prev_accepted) / accepted).abs(),
            latency_seen: totals.latency_with_in_flight(now),
            totals,
        }
    }

    /// BookSim2's stability test after every period: past `latency_thres`, the run is
    /// unstable and stops.
    fn over_latency_threshold(&mut self, f: &PeriodFigures) -> bool {
        let cfg = self.cfg();
        if cfg.latency_thres >= 0.0 && f.latency_seen > cfg.latency_thres {
            self.unstable = true;
            self.reason = format!(
                "unstable: average latency of finished packets and flits in flight {:.1} > \
                 latency_thres = {} at cycle {}",
                f.latency_seen,
                cfg.latency_thres,
                f.now - self.start
            );
            self.eng.drain_time = f.now as u32;
            return true;
        }
        false
    }

    /// Whether the warm-up ends with this period: after `warmup_periods`, or (0) once latency
    /// and throughput changed by at most warmup_thres / acc_warmup_thres.
    fn warm_up_settled(&self, f: &PeriodFigures) -> bool {
        let cfg = self.cfg();
        if self.warmup_periods > 0 {
            self.periods + 1 >= self.warmup_periods
        } else {
            settled(f.latency_change, cfg.warmup_thres)
                && settled(f.accepted_change, cfg.acc_warmup_thres)
        }
    }

    /// A measured period: its batch, the precision and convergence counts, and with
    /// `early_verdict` the verdict if it is clear.
    fn measured_period(&mut self, f: &PeriodFigures) -> Next {
        let cfg = self.cfg();
        let t = &f.totals;
        self.batch_marks
            .push((t.accepted_flits, t.packets, t.plat_sum));
        let period_flits = self.period as f64 * self.nodes;
        if cfg.precision > 0.0 {
            self.precise = precise_enough(
                &self.batch_marks,
                f.accepted,
                f.latency,
                period_flits,
                cfg.precision,
            );
        }
        if settled(f.latency_change, cfg.stopping_thres)
            && settled(f.accepted_change, cfg.acc_stopping_thres)
        {
            self.converged += 1;
        } else {
            self.converged = 0;
        }
        if !cfg.early_verdict {
            return Next::Continue;
        }
        let span = (f.now - self.reset_time) as f64;
        let window = Window {
            load: self.load,
            accepted: f.accepted,
            expected_packets: self.rate * span * self.nodes,
            flits: span * self.nodes,
            period_expected_packets: self.rate * self.period as f64 * self.nodes,
            period_flits,
            latency_change: f.latency_change,
            latency_seen: f.latency_seen,
            last_period_accepted: f.last_period_accepted,
            measured_periods: ((f.now - self.reset_time) / self.period) as u32,
            accepted_interval: Batches::new(&self.batch_marks)
                .accepted(period_flits)
                .and_then(|rates| batch_means_interval(f.accepted, &rates)),
        };
        match clear_verdict(cfg, &window, self.periods + 1) {
            Some(Verdict::Saturated(why)) => {
                self.reason = format!("early verdict (early_verdict = true): {why}");
                self.early = format!("saturated: {why}");
                self.eng.drain_time = f.now as u32;
                Next::Stop
            }
            Some(Verdict::Stable(why)) => {
                self.early = format!("stable: {why}");
                Next::Stop
            }
            None => Next::Continue,
        }
    }

    /// The measurement ended by BookSim2's rule. The window's throughput is final (the drain
    /// counts no accepted flit) and the drain can only add "unstable", so with early_verdict a
    /// shortfall past the tolerance is the full run's verdict already: stop here.
    pub(super) fn end_of_measurement_verdict(&mut self) {
        let cfg = self.cfg();
        if !(cfg.early_verdict
            && self.eng.phase == Phase::Running
            && !self.unstable
            && self.reason.is_empty())
        {
            return;
        }
        let now = self.eng.now as u64;
        let span = (now - self.reset_time) as f64;
        let accepted = self.eng.totals().accepted_flits as f64 / span / self.nodes;
        if let Some(why) = throughput_shortfall(cfg, self.load, accepted, span, self.nodes) {
            self.reason = format!(
                "early verdict (early_verdict = true): at the end of the measurement, {why}"
            );
            self.early = format!("saturated: at the end of the measurement (no drain), {why}");
            self.eng.drain_time = now as u32;
        }
    }

    /// After a measurement that ran to its end: the drain until every packet created while
    /// measuring is delivered (BookSim2 checks the latency threshold every 1,000 cycles), which
    /// `early_verdict` may cut short. After a warm-up that never settled: its last window is
    /// the figures.
    pub(super) fn drain(&mut self) -> Result<()> {
        // An early saturated verdict stops like an unstable run: no drain, the window's figures.
        self.stopped_saturated = !self.reason.is_empty();
        let measured_running =
            self.eng.phase == Phase::Running && !self.unstable && !self.stopped_saturated;
        if measured_running {
            self.converged += 1;
            self.eng.phase = Phase::Draining;
            self.eng.drain_time = self.eng.now;
            self.drain_measured_packets()
        } else {
            if !self.unstable && !self.stopped_saturated {
                // max_samples reached while still warming up (warmup_periods = 0): the figures
                // are those of the last warm-up window.
                let cfg = self.cfg();
                self.converged = 0;
                self.eng.drain_time = self.eng.now;
                self.reason = format!(
                    "the warm-up did not settle within max_samples = {} periods (warmup_periods \
                     = 0: latency and throughput changed by more than warmup_thres = {} / \
                     acc_warmup_thres = {} each period)",
                    self.max_samples, cfg.warmup_thres, cfg.acc_warmup_thres
                );
            }
            Ok(())
        }
    }

    fn drain_measured_packets(&mut self) -> Result<()> {
        let cfg = self.cfg();
        let mut steps = 0u64;
        // With early_verdict the drain may end before the last measured packet arrives (see
        // `drain_decided`): from latency_thres cycles on, a packet still in flight has a
        // latency over the threshold by itself, and near saturation a few hot flows held the
        // drain for thousands of cycles.
        let cut_from = (cfg.early_verdict && cfg.latency_thres >= 0.0)
            .then(|| cfg.latency_thres.ceil() as u64);
        loop {
            let t = self.eng.totals();
            if t.measured_in_flight == 0 && self.eng.sources_drained() {
                return Ok(());
            }
            if cut_from.is_some_and(|from| steps >= from && (steps - from).is_multiple_of(1000)) {
                let now = self.eng.now as u64;
                let left = outstanding(&self.eng, &t, self.rate, cfg.packet_size);
                let to_budget = self.budget_end.saturating_sub(now);
                if let Some(why) = drain_decided(cfg, &t, &left, now, to_budget, steps) {
                    self.cut = Some(left);
                    self.early = if self.early.is_empty() {
                        format!("stable: {why}")
                    } else {
                        format!("{}; {why}", self.early)
                    };
                    return Ok(());
                }
            }
            if self.eng.now as u64 >= self.budget_end {
                self.unstable = true;
                self.converged = 0;
                self.reason = format!(
                    "the packets created while measuring were not all delivered within the \
                     cycle budget of {} cycles (2 x max_samples x sample_period + \
                     latency_thres + deadlock_timeout)",
                    self.budget
                );
                return Ok(());
            }
            self.run_cycles(1, "draining")?;
            steps += 1;
            if steps.is_multiple_of(1000) {
                let t = self.eng.totals();
                let now = self.eng.now as u64;
                let seen = t.latency_with_in_flight(now);
                if cfg.latency_thres >= 0.0 && seen > cfg.latency_thres {
                    self.unstable = true;
                    self.converged = 0;
                    self.reason = format!(
                        "unstable while draining: average latency of finished packets and \
                         flits in flight {seen:.1} > latency_thres = {} at cycle {}",
                        cfg.latency_thres,
                        now - self.start
                    );
                    return Ok(());
                }
            }
        }
    }

    /// Emptying the network (BookSim2 drains every packet before it ends) changes no measured
    /// figure, only `cycles` and the activity counts; a saturation search needs only the
    /// verdict, and near saturation the backlog of a few hot flows took thousands of cycles.
    /// Whether the network was emptied.
    fn empty(&mut self) -> Result<bool> {
        let emptied = !self.unstable && !self.stopped_saturated && !self.cfg().early_verdict;
        if emptied {
            self.eng.phase = Phase::Emptying;
            self.eng.stop_generating();
            while !(self.eng.totals().in_flight_flits == 0 && self.eng.quiet())
                && (self.eng.now as u64) < self.budget_end
            {
                self.run_cycles(1, "emptying")?;
            }
        }
        Ok(emptied)
    }

    /// The figures of the measured window, after emptying the network when the run does so:
    /// the result and, when the run was not saturated and left the network loaded, the state
    /// a warm start may take.
    pub(super) fn finish(
        mut self,
        traffic: &str,
        started: Instant,
    ) -> Result<(RunResult, Option<WarmState>)> {
        let cfg = self.cfg();
        let window_end = self.eng.drain_time as u64;
        let t = self.eng.totals();
        let mut samples = self.eng.latency_samples();
        let emptied = self.empty()?;
        let all = self.eng.totals();
        let nodes = self.nodes;
        let reset_time = self.reset_time;
        let span = (window_end - reset_time) as f64;
        let accepted = t.accepted_flits as f64 / span / nodes;
        let avg_latency = match &self.cut {
            None => ratio(t.plat_sum as f64, t.packets as f64),
            Some(left) => ratio(
                t.plat_sum as f64 + left.age_sum,
                t.packets as f64 + left.packets,
            ),
        };
        // The network fills from empty during the warm-up: a packet to an average destination
        // needs about twice what the fastest one (nearest destination, no queueing) took. With
        // a shorter warm-up the window counts the fill-up (accepted far below injected). Judged
        // on the fastest packet, which queueing past saturation does not slow down. A warm
        // start's network is full already.
        let fastest = samples.iter().copied().min().unwrap_or(0) as u64;
        if !self.is_warm && !self.unstable && !self.stopped_saturated && reset_time < 2 * fastest {
            return Err(SimError::param(
                "sample_period",
                format!(
                    "{} (warmup_periods = {}: a warm-up of {reset_time} cycles)",
                    cfg.sample_period, cfg.warmup_periods
                ),
                format!(
                    "a warm-up of at least twice the fastest measured packet's latency \
                     ({fastest} cycles): shorter, the network is still filling when the \
                     measurement starts and the accepted throughput counts flits not yet \
                     arrived; raise sample_period or warmup_periods"
                ),
            ));
        }
        let mut reason = std::mem::take(&mut self.reason);
        if reason.is_empty() {
            if let Some(why) = throughput_shortfall(cfg, self.load, accepted, span, nodes) {
                reason = why;
            }
        }
        let saturated = !reason.is_empty();
        let cycles = self.eng.now as u64 - self.start;
        let batches = Batches::new(&self.batch_marks);
        let period_flits = self.period as f64 * nodes;
        let accepted_throughput_ci95 = batches
            .accepted(period_flits)
            .and_then(|rates| batch_means_interval(accepted, &rates));
        let avg_latency_ci95 = batch_means_interval(avg_latency, &batches.latencies());
        let prep = self.prep;
        let result = RunResult {
            routing: prep.routing_name.clone(),
            traffic: traffic.trim().to_string(),
            offered_load: self.load,
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
            unstable: self.unstable,
            converged: self.converged > 0 && !self.unstable,
            cycles,
            cycle_budget: self.budget,
            measured_packets: t.packets,
            sample_periods: self.periods,
            routers: prep.topo.num_routers,
            endpoints: prep.topo.num_endpoints,
            active_endpoints: self.active,
            wall_seconds: started.elapsed().as_secs_f64(),
            router_cycles: prep.topo.num_routers as u64 * cycles,
            active_router_cycles: all.active_cycles - self.active_before,
            flit_hops: all.flit_hops - self.hops_before,
            deflection_rate: if t.router_hops == 0 {
                0.0
            } else {
                t.deflections as f64 / t.router_hops as f64
            },
            max_hops: all.max_hops,
            early_verdict: std::mem::take(&mut self.early),
            precision_reached: self.precise && !self.unstable,
        };
        let state = (!saturated && !emptied).then(|| self.eng.into_warm());
        Ok((result, state))
    }
}
