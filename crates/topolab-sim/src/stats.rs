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
    /// A flit lost to a dead cable (`crate::failure`) leaves the flits in flight as an
    /// ejected one does, without being accepted.
    pub fn count_dropped(&mut self, f: &crate::flit::Flit) {
        self.ej_flits += 1;
        self.ej_ctime = self.ej_ctime.wrapping_add(f.ctime as u64);
        self.moved += 1;
        if f.measured() {
            self.meas_ej_flits += 1;
            self.meas_ej_ctime = self.meas_ej_ctime.wrapping_add(f.ctime as u64);
        }
    }

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

/// The measurement's periods as batches (batch means; Law & Kelton, *Simulation Modeling and
/// Analysis*, §9.5.3): from cumulative (accepted flits, packets, latency sum) at the end of each
/// measured period, each period's own figures.
pub struct Batches {
    deltas: Vec<(u64, u64, u64)>,
}

impl Batches {
    pub fn new(marks: &[(u64, u64, u64)]) -> Batches {
        let mut previous = (0, 0, 0);
        let deltas = marks
            .iter()
            .map(|&m| {
                let d = (m.0 - previous.0, m.1 - previous.1, m.2 - previous.2);
                previous = m;
                d
            })
            .collect();
        Batches { deltas }
    }

    /// Each period's accepted throughput, its flits over `flits_offered_per_period` (period x
    /// active endpoints); None without periods.
    pub fn accepted(&self, flits_offered_per_period: f64) -> Option<Vec<f64>> {
        (!self.deltas.is_empty()).then(|| {
            self.deltas
                .iter()
                .map(|d| d.0 as f64 / flits_offered_per_period)
                .collect()
        })
    }

    /// Each period's average packet latency (periods that ejected no packet left out).
    pub fn latencies(&self) -> Vec<f64> {
        self.deltas
            .iter()
            .filter(|d| d.1 > 0)
            .map(|d| d.2 as f64 / d.1 as f64)
            .collect()
    }
}

/// The 95% interval `centre` ± t(0.975, k-1) · s / sqrt(k) from k batch means with sample
/// standard deviation s; None for fewer than 2 batches or a non-finite centre.
pub fn batch_means_interval(centre: f64, batches: &[f64]) -> Option<[f64; 2]> {
    let k = batches.len();
    if k < 2 || !centre.is_finite() {
        return None;
    }
    let mean = batches.iter().sum::<f64>() / k as f64;
    let variance = batches.iter().map(|b| (b - mean).powi(2)).sum::<f64>() / (k - 1) as f64;
    let half = student_t_975(k as u32 - 1) * (variance / k as f64).sqrt();
    Some([centre - half, centre + half])
}

/// Student's t quantile at 0.975 for `dof` degrees of freedom: exact table to 30, then the
/// Cornish-Fisher expansion around the normal quantile (error below 1e-3).
pub fn student_t_975(dof: u32) -> f64 {
    const TABLE: [f64; 30] = [
        12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160,
        2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056,
        2.052, 2.048, 2.045, 2.042,
    ];
    match dof {
        0 => f64::INFINITY,
        1..=30 => TABLE[dof as usize - 1],
        _ => {
            let (z, v): (f64, f64) = (1.959_964, dof as f64);
            z + (z.powi(3) + z) / (4.0 * v)
                + (5.0 * z.powi(5) + 16.0 * z.powi(3) + 3.0 * z) / (96.0 * v * v)
        }
    }
}
