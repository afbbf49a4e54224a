//! A fixed exchange run to completion (Kathareios et al., SC15, §4.4).

use super::ratio;
use crate::engine::{Engine, Prepared};
use crate::error::{Result, SimError};
use crate::injection::Source;
use crate::router::Phase;
use crate::stats::quantile;
use crate::traffic::{Exchange, MessageOrder};
use std::sync::Arc;
use std::time::Instant;
use topolab_core::progress::Monitor;

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

/// Runs an exchange to completion: every endpoint sends its messages in the exchange's order
/// (each whole in turn, or one packet of each in turn), one packet as soon as the previous one
/// is injected.
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
    if exchange.order == MessageOrder::Interleaved {
        if let Some((src, first, other)) = MessageOrder::unequal_sizes(&exchange.per_source) {
            return Err(SimError::param(
                "exchange",
                format!("source {src} with messages of {first} and {other} packets"),
                "messages of one size per source in interleaved order".to_string(),
            ));
        }
        for (src, list) in exchange.per_source.iter().enumerate() {
            let total: u64 = list.iter().map(|&(_, p)| p as u64).sum();
            if total > u32::MAX as u64 {
                return Err(SimError::param(
                    "exchange",
                    format!("source {src} with {total} packets"),
                    format!("at most {} packets per source", u32::MAX),
                ));
            }
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
