//! Cables that die during a run (`dynamic_failures` at `failure_cycle`), and the fabric's
//! reaction: new routing tables `reaction_delay` cycles later.
//!
//! What a dying cable does, in the order a fabric sees it:
//!
//! 1. At `failure_cycle` both directions of every failed cable stop carrying flits. The flits
//!    on the wire are lost; from then on, a flit the upstream router sends on the dead port is
//!    lost too, and its credit comes back at once, as an InfiniBand switch discards packets
//!    for a port that went down rather than holding them (a dead port never blocks its router).
//!    Every lost flit is counted (`Dropped`), so that at the end of every run
//!    offered = delivered + dropped + in flight.
//! 2. Until the tables change, routers keep routing by the old ones: packets routed onto a dead
//!    port are lost there.
//! 3. At `failure_cycle + reaction_delay` the routing is the one recomputed on the surviving
//!    network (the subnet manager's sweep and table upload): heads routed from then on avoid
//!    the dead cables. A packet routed before keeps its decision.
//!
//! Packets are single flits (`packet_size = 1`): a multi-flit packet cut by a dying cable would
//! leave its head half downstream without its tail, which this model does not terminate, so
//! such a configuration is refused. Routers do not fail during a run (their endpoints would be
//! cut off mid-run); a failure set that fails a router or cuts off an endpoint is refused, the
//! static `--failures` measures those.
//!
//! Nothing of this is on the fault-free path: the engine checks for an event once per batch
//! of cycles (`crate::engine`).

use crate::config::{RouterModel, SimConfig};
use crate::error::{Result, SimError};
use crate::flit::Flit;
use crate::router::RouterCore;
use crate::routing::Routing;
use crate::topo::SimTopology;
use serde::Serialize;
use topolab_core::progress::Monitor;
use topolab_core::Network;

/// One direction of a dead cable: router `up`'s output port `out_port` feeds router `down`'s
/// input port `in_port`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct DeadChannel {
    pub up: u32,
    pub out_port: u32,
    pub down: u32,
    pub in_port: u32,
}

/// The failure a run undergoes, prepared with the network (`crate::engine::Prepared`).
#[derive(Debug, Clone)]
pub struct DynamicFailure {
    /// The failure spec, as given.
    pub spec: String,
    /// Cycle from which the cables carry nothing.
    pub cycle: u32,
    /// Cycle from which heads are routed on the surviving network.
    pub reroute_cycle: u32,
    /// Both directions of every failed cable, ordered by (up, out_port).
    pub channels: Vec<DeadChannel>,
    pub failed_cables: u64,
    pub cables_before: u64,
    /// The topology as the recomputed routing reads it: the intact channels and ports (the
    /// routers' state keeps its shape), the neighbour lists of the surviving network, each
    /// pointing at the intact ports that survive.
    pub topo_after: SimTopology,
    pub routing_after: Routing,
}

/// Flits lost to dead cables.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Dropped {
    /// On the wire when the cables died.
    pub on_wire: u64,
    /// Sent on a dead port afterwards.
    pub at_dead_port: u64,
}

impl Dropped {
    pub fn total(&self) -> u64 {
        self.on_wire + self.at_dead_port
    }
}

impl DynamicFailure {
    /// The failure `cfg.dynamic_failures` names on `net` (None when it names none), with the
    /// routing `routing` recomputed on what survives.
    pub fn new(
        net: &Network,
        topo: &SimTopology,
        routing: &str,
        cfg: &SimConfig,
        monitor: &dyn Monitor,
    ) -> Result<Option<DynamicFailure>> {
        let spec = cfg.dynamic_failures.trim();
        if spec.is_empty() {
            return Ok(None);
        }
        let refuse = |why: String| {
            Err(SimError::param(
                "dynamic_failures",
                format!("'{spec}'"),
                why,
            ))
        };
        if cfg.router != RouterModel::Iq {
            return refuse(
                "router=iq: the bufferless router has no credits to return from a dead port".into(),
            );
        }
        if cfg.largest_packet() != 1 {
            return refuse(format!(
                "single-flit packets (packet_size=1, no use_read_write): a {}-flit packet cut by a dying cable is not modelled",
                cfg.largest_packet()
            ));
        }
        let degraded = topolab_core::failures::apply(net, spec)?;
        if !degraded.failed_routers.is_empty() {
            return refuse(format!(
                "cables only: routers {:?} fail, and a router failing during a run cuts off its endpoints; \
                 fail it from the start with --failures (the static failure set)",
                degraded.failed_routers
            ));
        }
        if !degraded.cut_off_endpoints.is_empty() {
            return refuse(format!(
                "a failure set that leaves every endpoint reachable: this one cuts off {} endpoints; \
                 measure it from the start with --failures",
                degraded.cut_off_endpoints.len()
            ));
        }
        if degraded.failed_cables == 0 {
            return refuse("a failure set that fails at least one cable".into());
        }
        let after = &degraded.network;
        let n = topo.num_routers as usize;
        let mut channels = Vec::new();
        let mut nbr_ports = Vec::new();
        let mut csr_offset = Vec::with_capacity(n + 1);
        let mut csr_target = Vec::new();
        for r in 0..n {
            csr_offset.push(csr_target.len() as u32);
            let survivors = after.neighbors(r);
            let widths = after.neighbor_links(r);
            for (pos, &v) in topo.neighbors(r).iter().enumerate() {
                let (first, width) = topo.nbr_port(r, pos);
                let kept = match survivors.binary_search(&v) {
                    Ok(i) => after.links()[widths[i] as usize].width,
                    Err(_) => 0,
                };
                if kept > 0 {
                    csr_target.push(v);
                    nbr_ports.push((first, kept));
                }
                // The failed cables of a link are its last ports: parallel cables are alike.
                for p in first + kept..first + width {
                    let link = topo.out_link(r, p);
                    channels.push(DeadChannel {
                        up: r as u32,
                        out_port: p,
                        down: link.peer,
                        in_port: link.peer_port,
                    });
                }
            }
        }
        csr_offset.push(csr_target.len() as u32);
        let mut topo_after = topo.clone();
        topo_after.nbr_ports = nbr_ports;
        topo_after.csr_offset = csr_offset;
        topo_after.csr_target = csr_target;
        let routing_after = Routing::parse(routing, after, &topo_after, cfg, monitor)?;
        let cycle = cfg.failure_cycle;
        Ok(Some(DynamicFailure {
            spec: spec.to_string(),
            cycle,
            reroute_cycle: cycle.saturating_add(cfg.reaction_delay),
            channels,
            failed_cables: degraded.failed_cables,
            cables_before: degraded.cables_before,
            topo_after,
            routing_after,
        }))
    }

    /// Removes from the receivers' wheels every flit on a dead channel (all of them delivered:
    /// one thread, or after `deliver_pending`), counting it in `dropped` and in its receiver's
    /// ejections (it is no longer in flight), and returns its credit to the sender, which
    /// processes it `credit_delay` cycles after `now`.
    pub fn drop_dead_arrivals(
        &self,
        cores: &mut [RouterCore],
        now: u32,
        credit_delay: u32,
        dropped: &mut Dropped,
        on_wire: bool,
    ) {
        let mut lost: Vec<(u32, Flit)> = Vec::new();
        for ch in &self.channels {
            lost.clear();
            let down = &mut cores[ch.down as usize];
            down.flit_wheel
                .remove_where(|(p, _)| *p == ch.in_port, &mut lost);
            for (_, f) in &lost {
                down.stats.count_dropped(f);
            }
            let n = lost.len() as u64;
            if on_wire {
                dropped.on_wire += n;
            } else {
                dropped.at_dead_port += n;
            }
            let up = &mut cores[ch.up as usize];
            for (_, f) in &lost {
                up.credit_wheel
                    .push(now + credit_delay, (ch.out_port, f.vc));
            }
        }
    }
}

/// Refuses `prep`'s dynamic failure in a run of kind `what` other than a timeline: its
/// figures would mix the intact and the degraded network and say nothing of the flits lost.
pub fn only_in_timelines(prep: &crate::engine::Prepared, what: &str) -> Result<()> {
    match &prep.failure {
        None => Ok(()),
        Some(f) => Err(SimError::param(
            "dynamic_failures",
            format!("'{}'", f.spec),
            format!(
                "none in {what}: a failure during a run is measured window by window \
                 (`topolab sim --timeline`, topolab.timeline); a failure set from the start is --failures"
            ),
        )),
    }
}

topolab_core::result_type! {
    /// What the network carried in one window of a timeline run.
    pub struct TimelineWindow {
        /// First cycle of the window.
        pub start: u64,
        pub cycles: u64,
        /// Flits accepted per sending endpoint per cycle (the unit of the offered load).
        #[unit = "flits/active endpoint/cycle"]
        pub accepted: f64,
        /// Packets that arrived, and their average and 99th-percentile latency (creation to
        /// arrival, source queueing included; NaN without packets).
        pub packets: u64,
        #[unit = "cycles"]
        pub avg_latency: f64,
        #[unit = "cycles"]
        pub p99_latency: f64,
        /// Flits lost to dead cables in the window.
        #[unit = "flits"]
        pub dropped: u64,
        /// Flits created and neither delivered nor dropped at the window's end.
        #[unit = "flits"]
        pub in_flight: u64,
    }
}

topolab_core::result_type! {
    /// A run cut into windows around cables dying during it (`dynamic_failures`): what the
    /// network carried in each window, before the failure, after it and once rerouted
    /// (docs/resilience.md, "Failures during a run").
    pub struct Timeline {
        pub routing: String,
        pub traffic: String,
        #[unit = "flits/active endpoint/cycle"]
        pub load: f64,
        /// The failure spec, its cycle and the cycle the routing changed (None: no failure).
        pub failures: Option<String>,
        pub failure_cycle: Option<u64>,
        pub reroute_cycle: Option<u64>,
        pub failed_cables: u64,
        pub cables_before: u64,
        pub window: u64,
        pub cycles: u64,
        /// Endpoints that send under the traffic pattern (the unit of the throughputs).
        pub senders: u32,
        pub windows: Vec<TimelineWindow>,
        /// Before the failure (the second half of the cycles before it, warmed up): mean
        /// accepted throughput and latency over its windows, with 95% batch-means intervals
        /// over them.
        #[unit = "flits/active endpoint/cycle"]
        pub accepted_before: f64,
        pub accepted_before_ci95: Option<[f64; 2]>,
        #[unit = "cycles"]
        pub latency_before: f64,
        pub latency_before_ci95: Option<[f64; 2]>,
        /// After recovery (from `recovery_cycles` on): the same over the windows to the end;
        /// None without such windows.
        #[unit = "flits/active endpoint/cycle"]
        pub accepted_after: Option<f64>,
        pub accepted_after_ci95: Option<[f64; 2]>,
        #[unit = "cycles"]
        pub latency_after: Option<f64>,
        pub latency_after_ci95: Option<[f64; 2]>,
        /// Cycles from the failure to the start of the first window from which every window
        /// drops nothing and accepts at least (1 - saturation_tolerance) of the throughput
        /// before; None when the run ends first.
        #[unit = "cycles"]
        pub recovery_cycles: Option<u64>,
        /// Flits the sources created, delivered to their endpoints, lost (on the wire when the
        /// cables died, or sent to a dead port afterwards), and in flight at the end:
        /// created = delivered + dropped + in flight, checked.
        pub created_flits: u64,
        pub delivered_flits: u64,
        pub dropped_flits: u64,
        pub dropped_on_wire: u64,
        pub dropped_at_dead_port: u64,
        pub in_flight_flits: u64,
    }
}

/// Mean of `values` and its 95% interval over them as batches.
fn mean_interval(values: &[f64]) -> (f64, Option<[f64; 2]>) {
    let mean = values.iter().sum::<f64>() / values.len().max(1) as f64;
    (mean, crate::stats::batch_means_interval(mean, values))
}

/// A timeline's length when the caller gives none: twice the failure cycle plus the reaction
/// delay, so that the run after the reroute lasts as long as the one before the failure.
pub fn default_timeline_cycles(cfg: &SimConfig) -> u64 {
    2 * cfg.failure_cycle as u64 + cfg.reaction_delay as u64
}

/// A timeline's load, window and length, checked before anything is wired (`run_timeline`
/// checks them again, with the failure cycle against them).
pub fn check_timeline(load: f64, window: u64, cycles: u64) -> Result<()> {
    use crate::engine::MAX_CYCLES;
    crate::measure::check_load("load", load)?;
    if cycles == 0 || cycles > MAX_CYCLES {
        return Err(SimError::param(
            "cycles",
            cycles,
            format!("1 to {MAX_CYCLES}"),
        ));
    }
    if window == 0 || window > cycles {
        return Err(SimError::param(
            "window",
            window,
            format!("1 to the run's length ({cycles} cycles)"),
        ));
    }
    Ok(())
}

/// Runs `traffic` at `load` from an empty network for `cycles` cycles, cut into windows of
/// `window` cycles, through the dynamic failure of `prep` (if any): what a fabric shows around
/// a cable dying and its subnet manager reacting.
pub fn run_timeline(
    prep: &crate::engine::Prepared,
    traffic: &str,
    load: f64,
    window: u64,
    cycles: u64,
    monitor: &dyn Monitor,
) -> Result<Timeline> {
    use crate::engine::Engine;
    check_timeline(load, window, cycles)?;
    let failure = prep.failure.as_deref();
    if let Some(f) = failure {
        let windows_before = f.cycle as u64 / window;
        if windows_before < 4 || f.cycle as u64 >= cycles {
            return Err(SimError::param(
                "failure_cycle",
                f.cycle,
                format!(
                    "a cycle within the run ({cycles} cycles) after at least 4 windows of {window} \
                     cycles (the throughput before the failure is measured over the second half of them)"
                ),
            ));
        }
    }
    let (source, active, _) = crate::measure::pattern_source(prep, traffic, load)?;
    let mut eng = Engine::new(prep, source)?;
    let nodes = active as f64;
    let mut windows = Vec::new();
    let mut dropped_before = 0u64;
    let mut start = 0u64;
    while start < cycles {
        let span = window.min(cycles - start);
        eng.clear_stats();
        eng.run_cycles(span, monitor, "timeline", cycles, start)?;
        let t = eng.totals();
        let mut samples = eng.latency_samples();
        let dropped = eng.dropped.total();
        windows.push(TimelineWindow {
            start,
            cycles: span,
            accepted: t.accepted_flits as f64 / span as f64 / nodes,
            packets: t.packets,
            avg_latency: t.plat_sum as f64 / t.packets as f64,
            p99_latency: crate::stats::quantile(&mut samples, 0.99),
            dropped: dropped - dropped_before,
            in_flight: t.in_flight_flits,
        });
        dropped_before = dropped;
        start += span;
    }
    let created: u64 = eng.cores.iter().map(|c| c.stats.gen_flits).sum();
    let ejected: u64 = eng.cores.iter().map(|c| c.stats.ej_flits).sum();
    let in_flight = eng.totals().in_flight_flits;
    let dropped = eng.dropped;
    let delivered = ejected - dropped.total();
    if created != delivered + dropped.total() + in_flight {
        return Err(SimError::Conservation {
            cycle: eng.now as u64,
            reason: format!(
                "{created} flits created, {delivered} delivered, {} dropped, {in_flight} in flight",
                dropped.total()
            ),
        });
    }
    let fail_at = failure.map_or(cycles, |f| f.cycle as u64);
    let full = |w: &&TimelineWindow| w.cycles == window;
    let before: Vec<&TimelineWindow> = windows
        .iter()
        .filter(|w| w.start >= fail_at / 2 && w.start + w.cycles <= fail_at)
        .filter(full)
        .collect();
    let series = |ws: &[&TimelineWindow], f: fn(&TimelineWindow) -> f64| {
        ws.iter()
            .map(|w| f(w))
            .filter(|x| x.is_finite())
            .collect::<Vec<f64>>()
    };
    let (accepted_before, accepted_before_ci95) = mean_interval(&series(&before, |w| w.accepted));
    let (latency_before, latency_before_ci95) = mean_interval(&series(&before, |w| w.avg_latency));
    let floor = (1.0 - prep.cfg.saturation_tolerance) * accepted_before;
    let recovered_from = failure.and_then(|_| {
        let after: Vec<&TimelineWindow> = windows.iter().filter(|w| w.start >= fail_at).collect();
        let bad = after
            .iter()
            .rposition(|w| w.dropped > 0 || (full(w) && w.accepted < floor));
        match bad {
            None => after.first().map(|w| w.start),
            Some(i) => after.get(i + 1).map(|w| w.start),
        }
    });
    let after: Vec<&TimelineWindow> = match recovered_from {
        Some(from) => windows
            .iter()
            .filter(|w| w.start >= from)
            .filter(full)
            .collect(),
        None => Vec::new(),
    };
    let (accepted_after, accepted_after_ci95) = mean_interval(&series(&after, |w| w.accepted));
    let (latency_after, latency_after_ci95) = mean_interval(&series(&after, |w| w.avg_latency));
    let has_after = !after.is_empty();
    Ok(Timeline {
        routing: prep.routing_name.clone(),
        traffic: traffic.to_string(),
        load,
        failures: failure.map(|f| f.spec.clone()),
        failure_cycle: failure.map(|f| f.cycle as u64),
        reroute_cycle: failure.map(|f| f.reroute_cycle as u64),
        failed_cables: failure.map_or(0, |f| f.failed_cables),
        cables_before: failure.map_or(0, |f| f.cables_before),
        window,
        cycles,
        senders: active,
        windows,
        accepted_before,
        accepted_before_ci95,
        latency_before,
        latency_before_ci95,
        accepted_after: has_after.then_some(accepted_after),
        accepted_after_ci95,
        latency_after: has_after.then_some(latency_after),
        latency_after_ci95,
        recovery_cycles: recovered_from.map(|from| from - fail_at),
        created_flits: created,
        delivered_flits: delivered,
        dropped_flits: dropped.total(),
        dropped_on_wire: dropped.on_wire,
        dropped_at_dead_port: dropped.at_dead_port,
        in_flight_flits: in_flight,
    })
}
