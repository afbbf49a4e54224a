//! Measurement the BookSim2 way (TrafficManager::_SingleSim and Run, sim_type = latency).
//!
//! Warm-up: `warmup_periods` sample periods of `sample_period` cycles; statistics are cleared at
//! the start of every even warm-up period and when warm-up ends (with warmup_periods = 0, warm-up
//! lasts until latency and throughput change by at most warmup_thres / acc_warmup_thres).
//! Measurement: periods until the relative change of the average packet latency and of the
//! accepted rate are both at most stopping_thres / acc_stopping_thres for 3 consecutive periods,
//! or `max_samples` periods in all (warm-up included; reaching it counts as converged). After
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

use crate::engine::{Engine, Prepared};
use crate::error::{Result, SimError};
use crate::injection::Source;
use crate::router::Phase;
use crate::stats::quantile;
use crate::traffic::{Exchange, Traffic};
use serde::Serialize;
use std::sync::Arc;
use std::time::Instant;
use topolab_core::progress::Monitor;

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RunResult {
    pub routing: String,
    pub traffic: String,
    /// Offered load, flits per active endpoint per cycle: every endpoint that sends under the
    /// traffic pattern (`active_endpoints`) offers this much; idle ones (outside the
    /// power-of-two subset of a bit pattern, 000 §V-B) offer nothing.
    pub offered_load: f64,
    /// Flits ejected per active endpoint per cycle over the measurement window (the same unit
    /// as `offered_load`, so that accepted = offered below saturation for every pattern).
    pub accepted_throughput: f64,
    /// Flits injected per active endpoint per cycle over the measurement window.
    pub injected_throughput: f64,
    /// Packet latency, creation to tail ejection (cycles).
    pub avg_latency: f64,
    pub p99_latency: f64,
    /// Network latency, head injection to tail ejection (cycles).
    pub avg_network_latency: f64,
    /// Routers traversed per packet (BookSim2's count: router-to-router hops + 1).
    pub avg_hops: f64,
    /// Unstable, or accepted below (1 - saturation_tolerance) x offered.
    pub saturated: bool,
    /// The latency threshold was exceeded (BookSim2: "Simulation unstable").
    pub unstable: bool,
    /// BookSim2's verdict: measurement ended normally (3 converged periods or max_samples).
    pub converged: bool,
    /// Cycles simulated, warm-up and drain included.
    pub cycles: u64,
    pub measured_packets: u64,
    pub sample_periods: u32,
    pub routers: u32,
    pub endpoints: u32,
    /// Endpoints that send under the traffic pattern (`Traffic::is_source`): the divisor of
    /// the throughputs.
    pub active_endpoints: u32,
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
    /// Most routers any flit traversed during the run (router=hotpotato; 0 otherwise).
    pub max_hops: u32,
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

/// One run at `load` flits per endpoint per cycle with the traffic pattern `traffic`.
pub fn run(prep: &Prepared, traffic: &str, load: f64, monitor: &dyn Monitor) -> Result<RunResult> {
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
    let rate = load / prep.cfg.packet_size as f64;
    let started = Instant::now();
    let mut eng = Engine::new(prep, Source::bernoulli(pattern, rate))?;
    let cfg = prep.cfg.clone();
    let period = cfg.sample_period as u64;
    // Throughputs per active endpoint, the unit of the offered load.
    let nodes = active as f64;
    let estimate = (cfg.warmup_periods.max(1) as u64 + cfg.max_samples as u64) * period;
    let stage = "simulating";

    let mut reset_time = 0u64;
    let mut converged = 0u32;
    let (mut prev_lat, mut prev_acc) = (0.0f64, 0.0f64);
    let mut clear_last = false;
    let mut phases = 0u32;
    let mut unstable = false;
    eng.clear_stats();
    while phases < cfg.max_samples && (eng.phase != Phase::Running || converged < 3) {
        if clear_last || (eng.phase == Phase::WarmingUp && phases.is_multiple_of(2)) {
            clear_last = false;
            eng.clear_stats();
            reset_time = eng.now as u64;
        }
        eng.run_cycles(period, monitor, stage, estimate, eng.now as u64)?;
        let now = eng.now as u64;
        let t = eng.totals();
        let cur_lat = t.plat_sum as f64 / t.packets as f64;
        let cur_acc = t.accepted_flits as f64 / (now - reset_time) as f64 / nodes;
        let lat_change = ((cur_lat - prev_lat) / cur_lat).abs();
        let acc_change = ((cur_acc - prev_acc) / cur_acc).abs();
        prev_lat = cur_lat;
        prev_acc = cur_acc;
        if cfg.latency_thres >= 0.0 && t.latency_with_in_flight(now) > cfg.latency_thres {
            unstable = true;
            eng.drain_time = now as u32;
            break;
        }
        match eng.phase {
            Phase::WarmingUp => {
                let settled = if cfg.warmup_periods > 0 {
                    phases + 1 >= cfg.warmup_periods
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
                if settled(lat_change, cfg.stopping_thres)
                    && settled(acc_change, cfg.acc_stopping_thres)
                {
                    converged += 1;
                } else {
                    converged = 0;
                }
            }
        }
        phases += 1;
    }
    let measured_running = eng.phase == Phase::Running && !unstable;
    if measured_running {
        converged += 1;
        eng.phase = Phase::Draining;
        eng.drain_time = eng.now;
        let mut steps = 0u64;
        loop {
            let t = eng.totals();
            if t.measured_in_flight == 0 && eng.sources_drained() {
                break;
            }
            eng.run_cycles(1, monitor, "draining", estimate, eng.now as u64)?;
            steps += 1;
            if steps.is_multiple_of(1000) {
                let t = eng.totals();
                if cfg.latency_thres >= 0.0
                    && t.latency_with_in_flight(eng.now as u64) > cfg.latency_thres
                {
                    unstable = true;
                    converged = 0;
                    break;
                }
            }
        }
    } else if !unstable {
        // max_samples reached while still warming up (warmup_periods = 0).
        converged = 0;
    }
    let window_end = eng.drain_time as u64;
    let t = eng.totals();
    let mut samples = eng.latency_samples();
    if !unstable {
        eng.phase = Phase::Emptying;
        eng.generating = false;
        loop {
            let t = eng.totals();
            let quiet = t.in_flight_flits == 0 && eng.quiet();
            if quiet {
                break;
            }
            eng.run_cycles(1, monitor, "emptying", estimate, eng.now as u64)?;
        }
    }
    let all = eng.totals();
    let span = (window_end - reset_time) as f64;
    let accepted = t.accepted_flits as f64 / span / nodes;
    let saturated = unstable || accepted < (1.0 - cfg.saturation_tolerance) * load;
    let cycles = eng.now as u64;
    Ok(RunResult {
        routing: prep.routing_name.clone(),
        traffic: traffic.trim().to_string(),
        offered_load: load,
        accepted_throughput: accepted,
        injected_throughput: t.sent_flits as f64 / span / nodes,
        avg_latency: ratio(t.plat_sum as f64, t.packets as f64),
        p99_latency: quantile(&mut samples, 0.99),
        avg_network_latency: ratio(t.nlat_sum as f64, t.packets as f64),
        avg_hops: ratio(t.hops_sum as f64, t.packets as f64),
        saturated,
        unstable,
        converged: converged > 0 && !unstable,
        cycles,
        measured_packets: t.packets,
        sample_periods: phases,
        routers: prep.topo.num_routers,
        endpoints: prep.topo.num_endpoints,
        active_endpoints: active,
        wall_seconds: started.elapsed().as_secs_f64(),
        router_cycles: prep.topo.num_routers as u64 * cycles,
        active_router_cycles: all.active_cycles,
        flit_hops: all.flit_hops,
        deflection_rate: if t.router_hops == 0 {
            0.0
        } else {
            t.deflections as f64 / t.router_hops as f64
        },
        max_hops: all.max_hops,
    })
}

/// The outcome of a fixed exchange (001 §4.4).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ExchangeResult {
    pub name: String,
    pub routing: String,
    /// Cycles until the last flit was delivered.
    pub completion_cycles: u64,
    pub packets: u64,
    pub flits: u64,
    /// Flits delivered per endpoint per cycle until completion.
    pub effective_throughput: f64,
    pub avg_latency: f64,
    pub p99_latency: f64,
    pub avg_hops: f64,
    pub wall_seconds: f64,
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
