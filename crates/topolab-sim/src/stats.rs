//! Counters each router keeps about its endpoints, merged by the engine in router order.
//!
//! "Period" counters are cleared at the start of every statistics window (BookSim2's
//! _ClearStats); "cumulative" ones never are, and give the flits in flight and their ages.
//! Sums of cycles are integers, so merging is exact and independent of the order of threads.

use serde::Serialize;

#[derive(Debug, Clone, Default)]
pub struct RouterStats {
    // Period counters.
    pub sent_flits: u64,
    pub accepted_flits: u64,
    pub packets: u64,
    pub plat_sum: u64,
    pub nlat_sum: u64,
    pub hops_sum: u64,
    /// Packet latencies of measured packets, for percentiles.
    pub plat_samples: Vec<u32>,
    /// Router-to-router flit hops, and those of them deflected off a preferred path (hot-potato).
    pub router_hops: u64,
    pub deflections: u64,
    // Cumulative counters.
    pub gen_flits: u64,
    /// Sum of creation cycles of generated flits (wrapping; differences are exact).
    pub gen_ctime: u64,
    pub ej_flits: u64,
    pub ej_ctime: u64,
    pub meas_gen_flits: u64,
    pub meas_ej_flits: u64,
    /// Sums of creation cycles of the measured flits generated and ejected (wrapping).
    pub meas_gen_ctime: u64,
    pub meas_ej_ctime: u64,
    /// Flits that moved: injected, through a crossbar, ejected (for the deadlock watchdog).
    pub moved: u64,
    /// Crossbar traversals (flit-hops).
    pub flit_hops: u64,
    /// Cycles this router was processed (router-cycles actually simulated).
    pub active_cycles: u64,
    /// Last cycle a flit was ejected at this router's endpoints.
    pub last_eject: u32,
    /// Most routers a flit had traversed when it left this router (hot-potato).
    pub max_hops: u32,
}

impl RouterStats {
    pub fn clear_period(&mut self) {
        self.sent_flits = 0;
        self.accepted_flits = 0;
        self.packets = 0;
        self.plat_sum = 0;
        self.nlat_sum = 0;
        self.hops_sum = 0;
        self.plat_samples.clear();
        self.router_hops = 0;
        self.deflections = 0;
    }
}

/// The network-wide sums of `RouterStats`.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Totals {
    pub sent_flits: u64,
    pub accepted_flits: u64,
    pub packets: u64,
    pub plat_sum: u64,
    pub nlat_sum: u64,
    pub hops_sum: u64,
    pub router_hops: u64,
    pub deflections: u64,
    pub max_hops: u32,
    pub in_flight_flits: u64,
    /// Sum over flits in flight (source queues included) of their creation cycle.
    pub in_flight_ctime: u64,
    pub measured_in_flight: u64,
    /// Sum over measured flits in flight of their creation cycle.
    pub measured_in_flight_ctime: u64,
    pub moved: u64,
    pub flit_hops: u64,
    pub active_cycles: u64,
}

impl Totals {
    pub fn add(&mut self, s: &RouterStats) {
        self.sent_flits += s.sent_flits;
        self.accepted_flits += s.accepted_flits;
        self.packets += s.packets;
        self.plat_sum += s.plat_sum;
        self.nlat_sum += s.nlat_sum;
        self.hops_sum += s.hops_sum;
        self.router_hops += s.router_hops;
        self.deflections += s.deflections;
        self.max_hops = self.max_hops.max(s.max_hops);
        self.in_flight_flits = self
            .in_flight_flits
            .wrapping_add(s.gen_flits.wrapping_sub(s.ej_flits));
        self.in_flight_ctime = self
            .in_flight_ctime
            .wrapping_add(s.gen_ctime.wrapping_sub(s.ej_ctime));
        self.measured_in_flight = self
            .measured_in_flight
            .wrapping_add(s.meas_gen_flits.wrapping_sub(s.meas_ej_flits));
        self.measured_in_flight_ctime = self
            .measured_in_flight_ctime
            .wrapping_add(s.meas_gen_ctime.wrapping_sub(s.meas_ej_ctime));
        self.moved += s.moved;
        self.flit_hops += s.flit_hops;
        self.active_cycles += s.active_cycles;
    }

    /// BookSim2's saturation test quantity: the average of finished packet latencies and the
    /// ages of all flits in flight, at cycle `now`.
    pub fn latency_with_in_flight(&self, now: u64) -> f64 {
        let ages = (self.in_flight_flits as u128 * now as u128)
            .saturating_sub(self.in_flight_ctime as u128) as f64;
        let count = (self.packets + self.in_flight_flits) as f64;
        if count == 0.0 {
            0.0
        } else {
            (self.plat_sum as f64 + ages) / count
        }
    }
}

/// The `q`-quantile (0..1) of `samples` by the nearest-rank method; sorts in place.
pub fn quantile(samples: &mut [u32], q: f64) -> f64 {
    if samples.is_empty() {
        return f64::NAN;
    }
    samples.sort_unstable();
    let rank = ((q * samples.len() as f64).ceil() as usize).clamp(1, samples.len());
    samples[rank - 1] as f64
}
