//! Simulation parameters: router micro-architecture, channels, packets, measurement and engine
//! settings. Names follow BookSim2 where it has one (num_vcs, vc_buf_size, routing_delay, ...), so
//! BookSim users can carry their configurations over; `PARAMS` is the one table of names,
//! defaults and meanings that `set`, the Python keywords, the command line and the docs read.
//!
//! Defaults are the BookSim2 reference setups of reference/booksim (iq router, 4 VCs
//! of 64 flits, credit delay 2, lookahead routing, 1-cycle allocators and crossbar, speedup 1,
//! 3 warm-up periods of 1,000 cycles, at most 10 samples, latency threshold 500).

use crate::error::{Result, SimError};
use serde::Serialize;
use std::collections::BTreeMap;

/// Router micro-architecture; enum dispatch in the engine (router/).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum RouterModel {
    /// Input-queued virtual-channel router (BookSim2 `iq`).
    Iq,
    /// Bufferless hot-potato (deflection) router, no flow control (Koibuchi et al., 2018, §III-B2).
    #[serde(rename = "hotpotato")]
    HotPotato,
}

impl RouterModel {
    pub const NAMES: &'static [&'static str] = &["iq", "hotpotato"];
}

/// How a head flit claims buffer space downstream.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum FlowControl {
    /// A head takes a free output VC; flits advance one credit at a time (BookSim2's iq router).
    Wormhole,
    /// Virtual cut-through: a head takes an output VC only when the whole packet fits in it.
    Vct,
}

/// Which arriving flits a hot-potato router serves first (Koibuchi et al., 2018, §III-B2 gives a
/// hop counter priority; the others are the readings its text leaves open).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum HotPotatoPriority {
    /// Most routers traversed first, then oldest (Koibuchi et al.'s (2018) hop counter).
    Hops,
    /// Oldest (creation cycle) first, then most routers traversed.
    Oldest,
    /// A fresh random order every cycle.
    Random,
}

/// Where a hot-potato router deflects a flit that finds no preferred output free.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum HotPotatoDeflect {
    /// Uniformly among the free router outputs.
    Random,
    /// To a free router output whose next router is nearest the destination (Koibuchi et al., 2018,
    /// §III-B2's "alternate paths" read as the next-best ones), uniformly among the nearest.
    Closest,
}

/// Which head a VC allocator's output arbiter grants among those asking for one output VC.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum VcPriority {
    /// Round robin over the input VCs (BookSim2's arbiter).
    RoundRobin,
    /// Most routers traversed first (Koibuchi et al., 2018, §III-B2's hop counter), round
    /// robin among equals.
    Hops,
}

impl HotPotatoDeflect {
    pub fn name(self) -> &'static str {
        match self {
            HotPotatoDeflect::Random => "random",
            HotPotatoDeflect::Closest => "closest",
        }
    }

    /// The deflection `text` names (trimmed, any case), as `hotpotato_deflect` and `deflect`
    /// read it.
    fn parse(text: &str) -> Option<HotPotatoDeflect> {
        let text = text.trim().to_ascii_lowercase();
        [HotPotatoDeflect::Random, HotPotatoDeflect::Closest]
            .into_iter()
            .find(|d| d.name() == text)
    }
}

/// `deflect` as the parameter's own words ("off" for None), so that a configuration written
/// out (a BookSim2 file read by `from_booksim`, a result's settings) can be passed back as
/// it is: parameters take no null.
fn serialize_deflect<S: serde::Serializer>(
    deflect: &Option<HotPotatoDeflect>,
    serializer: S,
) -> std::result::Result<S::Ok, S::Error> {
    serializer.serialize_str(deflect.map_or("off", HotPotatoDeflect::name))
}

/// The routers a multi-flit packet counts in `avg_hops` under flit switching, where its flits
/// may take different paths.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum HotPotatoPacketHops {
    /// Those of its last flit to arrive (the tail's count, as for the input-queued router).
    Last,
    /// The mean over its flits (rounded to the nearest router).
    Mean,
}

/// How each endpoint's packet creations are spaced in a run of a traffic pattern (BookSim2
/// `injection_process`, injection.cpp).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum InjectionProcess {
    /// A packet every cycle with probability `load / packet_size`.
    Bernoulli,
    /// A two-state Markov chain per endpoint: off -> on with probability `burst_alpha` per
    /// cycle, on -> off with `burst_beta`; while on, a packet with probability `burst_r1`.
    OnOff,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SimConfig {
    pub router: RouterModel,
    pub num_vcs: u32,
    pub vc_buf_size: u32,
    pub routing_delay: u32,
    pub vc_alloc_delay: u32,
    pub sw_alloc_delay: u32,
    pub st_final_delay: u32,
    pub credit_delay: u32,
    pub internal_speedup: f64,
    pub wait_for_tail_credit: bool,
    pub flow_control: FlowControl,
    pub booksim_compat: bool,
    pub packet_size: u32,
    pub injection_process: InjectionProcess,
    /// On/off injection: off -> on probability per cycle (< 0: derived from the others and the
    /// load, `crate::injection::OnOff`).
    pub burst_alpha: f64,
    /// On/off injection: on -> off probability per cycle (< 0: derived).
    pub burst_beta: f64,
    /// On/off injection: packet probability per cycle while on (< 0: derived).
    pub burst_r1: f64,
    /// Request-reply traffic (BookSim2 `use_read_write`): every packet the process creates is
    /// a read or write request whose arrival makes its destination send a reply back.
    pub use_read_write: bool,
    /// Share of the requests that are writes.
    pub write_fraction: f64,
    pub read_request_size: u32,
    pub read_reply_size: u32,
    pub write_request_size: u32,
    pub write_reply_size: u32,
    pub channel_latency: u32,
    /// `channel_latency = floor`: each router-to-router link's latency from its cable length on
    /// `floor` (the physical model's placement and cable rule) and `cycle_time_ns`.
    pub latency_from_floor: bool,
    /// Floor model for `channel_latency = floor`: a built-in name or a TOML path.
    pub floor: String,
    /// Length of a cycle in nanoseconds, for `channel_latency = floor`.
    pub cycle_time_ns: f64,
    /// Per link class latency overriding `channel_latency` ("global" -> 100).
    pub link_latency: BTreeMap<String, u32>,
    pub endpoint_latency: u32,
    pub warmup_periods: u32,
    pub sample_period: u32,
    pub max_samples: u32,
    pub latency_thres: f64,
    pub warmup_thres: f64,
    pub stopping_thres: f64,
    pub acc_warmup_thres: f64,
    pub acc_stopping_thres: f64,
    pub saturation_tolerance: f64,
    /// Ends the measurement once the 95% intervals of accepted throughput and average latency
    /// are both narrower than this fraction of their figure (measure); 0: BookSim2's rule.
    pub precision: f64,
    /// Ends a run after its first measured period when the verdict is already clear
    /// (measure, `early_verdict`): a saturation search needs the verdict, not the figures.
    pub early_verdict: bool,
    /// Warm-up periods of a run that starts from the network a carried run at a lower load
    /// left (`crate::session`, saturation searches).
    pub warm_start_periods: u32,
    pub seed: u64,
    pub threads: u32,
    pub deadlock_timeout: u32,
    pub debug_checks: bool,
    /// Cycles a flit spends in a hot-potato router (decision to departure).
    pub hotpotato_delay: u32,
    /// Routers a flit may traverse in a hot-potato network before the run stops (livelock).
    pub hotpotato_max_hops: u32,
    /// Injection enters only through a free preferred output (else any free output).
    pub hotpotato_inject_preferred: bool,
    /// Packets move as worms behind their first flit (else every flit is routed on its own).
    pub hotpotato_switching_packet: bool,
    pub hotpotato_priority: HotPotatoPriority,
    pub hotpotato_deflect: HotPotatoDeflect,
    pub hotpotato_packet_hops: HotPotatoPacketHops,
    /// Input-queued router: where a head that finds no output VC on its minimal outputs goes
    /// (`router::iq`, "Deflection"); None: it waits.
    #[serde(serialize_with = "serialize_deflect")]
    pub deflect: Option<HotPotatoDeflect>,
    /// Internal steps a head waits for a minimal output before it may be deflected.
    pub deflect_after: u32,
    pub vc_priority: VcPriority,
    /// A failure set whose cables die during the run (`crate::failure`); empty: none.
    pub dynamic_failures: String,
    pub failure_cycle: u32,
    pub reaction_delay: u32,
}

impl Default for SimConfig {
    /// Every parameter at its default in `PARAMS`, the one table of defaults (Python reads
    /// the same table through `sim_params`).
    fn default() -> Self {
        let mut cfg = SimConfig::unset();
        for p in PARAMS {
            cfg.set(p.name, p.default)
                .expect("every default in PARAMS is a value its parameter accepts");
        }
        cfg
    }
}

impl SimConfig {
    /// A configuration before `PARAMS` sets its defaults: each field at a placeholder that
    /// `set` overwrites (`Default` sets every one).
    fn unset() -> SimConfig {
        SimConfig {
            router: RouterModel::Iq,
            num_vcs: 0,
            vc_buf_size: 0,
            routing_delay: 0,
            vc_alloc_delay: 0,
            sw_alloc_delay: 0,
            st_final_delay: 0,
            credit_delay: 0,
            internal_speedup: 0.0,
            wait_for_tail_credit: false,
            flow_control: FlowControl::Wormhole,
            booksim_compat: false,
            packet_size: 0,
            injection_process: InjectionProcess::Bernoulli,
            burst_alpha: 0.0,
            burst_beta: 0.0,
            burst_r1: 0.0,
            use_read_write: false,
            write_fraction: 0.0,
            read_request_size: 0,
            read_reply_size: 0,
            write_request_size: 0,
            write_reply_size: 0,
            channel_latency: 0,
            latency_from_floor: false,
            floor: String::new(),
            cycle_time_ns: 0.0,
            link_latency: BTreeMap::new(),
            endpoint_latency: 0,
            warmup_periods: 0,
            sample_period: 0,
            max_samples: 0,
            latency_thres: 0.0,
            warmup_thres: 0.0,
            stopping_thres: 0.0,
            acc_warmup_thres: 0.0,
            acc_stopping_thres: 0.0,
            saturation_tolerance: 0.0,
            precision: 0.0,
            early_verdict: false,
            warm_start_periods: 0,
            seed: 0,
            threads: 0,
            deadlock_timeout: 0,
            debug_checks: false,
            hotpotato_delay: 0,
            hotpotato_max_hops: 0,
            hotpotato_inject_preferred: false,
            hotpotato_switching_packet: false,
            hotpotato_priority: HotPotatoPriority::Hops,
            hotpotato_deflect: HotPotatoDeflect::Random,
            hotpotato_packet_hops: HotPotatoPacketHops::Last,
            deflect: None,
            deflect_after: 0,
            vc_priority: VcPriority::RoundRobin,
            dynamic_failures: String::new(),
            failure_cycle: 0,
            reaction_delay: 0,
        }
    }
}

/// One settable parameter: its name, kind, default (as text) and meaning.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct ParamDoc {
    pub name: &'static str,
    pub kind: &'static str,
    pub default: &'static str,
    pub help: &'static str,
}

const fn doc(
    name: &'static str,
    kind: &'static str,
    default: &'static str,
    help: &'static str,
) -> ParamDoc {
    ParamDoc {
        name,
        kind,
        default,
        help,
    }
}

/// Every parameter `SimConfig::set` accepts.
pub const PARAMS: &[ParamDoc] = &[
    doc("router", "str", "iq", "router model: iq (input-queued VC router) or hotpotato (bufferless deflection router without flow control, Koibuchi et al., 2018, §III-B2; the routing names the preferred outputs)"),
    doc("num_vcs", "int", "4", "virtual channels per port (1-64)"),
    doc("vc_buf_size", "int", "64", "flit buffer per VC"),
    doc("routing_delay", "int", "0", "cycles of route computation; 0 = lookahead routing"),
    doc("vc_alloc_delay", "int", "1", "cycles of VC allocation (>= 1)"),
    doc("sw_alloc_delay", "int", "1", "cycles of switch allocation (>= 1)"),
    doc("st_final_delay", "int", "1", "cycles of crossbar traversal (>= 1)"),
    doc("credit_delay", "int", "2", "cycles to process a received credit"),
    doc("internal_speedup", "float", "1.0", "router internal steps per cycle (>= 1)"),
    doc("input_speedup", "int", "1", "crossbar inputs per input port (BookSim2); only 1 is modelled, other values are rejected"),
    doc("output_speedup", "int", "1", "crossbar outputs per output port (BookSim2); only 1 is modelled, other values are rejected"),
    doc("wait_for_tail_credit", "bool", "false", "free an output VC only when its tail's credit returns"),
    doc("flow_control", "str", "wormhole", "wormhole or vct (virtual cut-through)"),
    doc("booksim_compat", "bool", "false", "reproduce BookSim2's iq quirks: an output VC freed by a tail is reallocated one cycle later; torus datelines by BookSim's rule"),
    doc("packet_size", "int", "1", "flits per packet"),
    doc("injection_process", "str", "bernoulli", "how an endpoint spaces its packets (BookSim2's names): bernoulli (a packet each cycle with probability load / packet_size) or on_off (bursts: a two-state Markov chain per endpoint, burst_alpha, burst_beta, burst_r1; the same mean load)"),
    doc("burst_alpha", "float", "0.5", "injection_process=on_off: probability per cycle that an off endpoint turns on (BookSim2's burst interval); negative: derived from burst_beta, burst_r1 and the load"),
    doc("burst_beta", "float", "0.5", "injection_process=on_off: probability per cycle that an on endpoint turns off (BookSim2's burst length); negative: derived from burst_alpha, burst_r1 and the load"),
    doc("burst_r1", "float", "-1", "injection_process=on_off: probability of a packet per cycle while on; negative (the default): derived from the load, r1 = rate x (burst_alpha + burst_beta) / burst_alpha, so that the mean rate is the load. Exactly one of burst_alpha, burst_beta, burst_r1 is negative"),
    doc("use_read_write", "bool", "false", "request-reply traffic (BookSim2's use_read_write): every packet the injection process creates is a read or a write request to the traffic pattern's destination, and its tail arriving makes the destination send a reply back (before its own next request, stamped with the request's arrival); packet_size is then unused and the load counts the flits of requests and replies"),
    doc("write_fraction", "float", "0.5", "use_read_write: share of the requests that are writes"),
    doc("read_request_size", "int", "1", "use_read_write: flits of a read request"),
    doc("read_reply_size", "int", "1", "use_read_write: flits of a read reply"),
    doc("write_request_size", "int", "1", "use_read_write: flits of a write request"),
    doc("write_reply_size", "int", "1", "use_read_write: flits of a write reply"),
    doc("channel_latency", "str", "1", "router-to-router channel latency in cycles, or 'floor': ceil(cable length x 5 ns/m / cycle_time_ns) per link from the floor plan"),
    doc("floor", "str", "slimfly", "floor model (built-in name or TOML path) for channel_latency=floor; routers placed by the family's rule"),
    doc("cycle_time_ns", "float", "1.0", "cycle time in ns for channel_latency=floor"),
    doc("link_latency", "str", "", "per link class latency, e.g. local:10,global:100 (overrides channel_latency)"),
    doc("endpoint_latency", "int", "1", "injection and ejection channel latency in cycles"),
    doc("warmup_periods", "int", "3", "sample periods of warm-up (0 = until latency and throughput settle)"),
    doc("sample_period", "int", "1000", "cycles per sample period"),
    doc("max_samples", "int", "10", "most sample periods, warm-up included"),
    doc("latency_thres", "float", "500", "average latency (finished and in flight) above which the run is declared saturated; < 0 disables"),
    doc("warmup_thres", "float", "0.05", "relative latency change ending warm-up (warmup_periods = 0)"),
    doc("stopping_thres", "float", "0.05", "relative latency change counting a period as converged"),
    doc("acc_warmup_thres", "float", "0.05", "relative throughput change ending warm-up (warmup_periods = 0)"),
    doc("acc_stopping_thres", "float", "0.05", "relative throughput change counting a period as converged"),
    doc("saturation_tolerance", "float", "0.03", "a run is saturated when accepted < (1 - this) x offered"),
    doc("precision", "float", "0", "end the measurement once the 95% confidence intervals of accepted throughput and average latency (batch means over the measured sample periods) both have a half-width below this fraction of their figure, after at least 3 measured periods (what BookSim2's convergence rule needs); it replaces that rule, so a run short of the precision measures until max_samples; the result's precision_reached says whether it was met; with early_verdict also a verdict once the accepted throughput's 95% interval lies wholly above or below (1 - saturation_tolerance) x offered after 3 measured periods; 0 = off (BookSim2's rule)"),
    doc("early_verdict", "bool", "false", "end the measurement after a measured period whose verdict is already clear: saturated when accepted < (1 - 2 x saturation_tolerance) x offered beyond the Bernoulli noise, or after 3 measured periods < (1 - 1.2 x saturation_tolerance) x offered with the last period no better, stable when accepted is within saturation_tolerance / 2 (or the noise) of offered and the latency changed by at most stopping_thres and stays below latency_thres / 2; and, when the measurement ends by BookSim2's rule with accepted short of offered by more than saturation_tolerance, skip the drain (the verdict is saturated already); and end without emptying the network after the drain (no measured figure changes, only cycles and the activity counts); the result's early_verdict says which and why (for saturation searches)"),
    doc("warm_start_periods", "int", "1", "sample periods of warm-up of a saturation search's run that starts from the network a carried run at a lower load left instead of an empty one (a saturation point's warm_start = true); its measurement may last as many periods as a cold run's, max_samples - warmup_periods"),
    doc("seed", "int", "0", "seed of every random stream (BookSim2's default)"),
    doc("threads", "int", "1", "worker threads within a cycle (0 = all cores); results do not depend on it"),
    doc("deadlock_timeout", "int", "10000", "cycles without any flit moving before the run stops with a deadlock error"),
    doc("debug_checks", "bool", "false", "check flit and credit conservation every cycle (slow)"),
    doc("hotpotato_delay", "int", "1", "router=hotpotato: cycles from a flit's arrival at a router to its departure (>= 1)"),
    doc("hotpotato_max_hops", "int", "10000", "router=hotpotato: a flit traversing more routers stops the run with a livelock error"),
    doc("hotpotato_switching", "str", "flit", "router=hotpotato: flit (every flit routed and deflected on its own) or packet (a packet's flits follow its first flit as a worm; arriving worms preempt injection)"),
    doc("hotpotato_inject_preferred", "bool", "true", "router=hotpotato: a flit enters the network only through a free preferred (minimal) output; false: through any output left free (BLESS)"),
    doc("hotpotato_priority", "str", "hops", "router=hotpotato: which arriving flits take their outputs first: hops (most routers traversed, Koibuchi et al., 2018, §III-B2's hop counter), oldest (creation cycle) or random (a new order every cycle)"),
    doc("hotpotato_deflect", "str", "random", "router=hotpotato: a flit with no preferred output free goes to a random free router output, or closest (a free one whose next router is nearest its destination)"),
    doc("hotpotato_packet_hops", "str", "last", "router=hotpotato, flit switching: the routers a multi-flit packet counts in avg_hops: last (its last flit's) or mean (the mean over its flits)"),
    doc("deflect", "str", "off", "router=iq, routing min or min_static: off (a head waits for a VC on its route's output), or a buffered deflection router (Koibuchi et al., 2018, §III-B3's virtual cut-through switches running §III-B2's hot-potato routing): a head that finds no free output VC on its route (with flow_control=vct none with room for its whole packet) takes one on another minimal output, and once it has waited deflect_after cycles and no minimal output has one, on a non-minimal router output: random (any with a free VC) or closest (one whose next router is nearest its destination); a deflected hop keeps its hop's VCs (min's class min(hops, classes - 1)), which is not deadlock-free: a deadlock stops the run with the simulator's deadlock error"),
    doc("deflect_after", "int", "0", "deflect: cycles (internal steps) a head waits for a minimal output before a non-minimal one is offered; 0: as soon as every minimal output is blocked"),
    doc("vc_priority", "str", "round_robin", "router=iq: which head the VC allocator grants an output VC asked for by several: round_robin (BookSim2's arbiter) or hops (most routers traversed first, Koibuchi et al., 2018, §III-B2's hop counter; round robin among equals)"),
    doc("dynamic_failures", "str", "", "a failure set (the --failures spec, docs/resilience.md: links:fraction=0.01,seed=1, bundle:..., file:path=...) whose cables die at failure_cycle during the run: flits on them and sent to them afterwards are dropped and counted, and the routing is recomputed on the surviving network reaction_delay cycles later; cables only, every endpoint left reachable, single-flit packets, router=iq; empty: none"),
    doc("failure_cycle", "int", "10000", "dynamic_failures: the cycle at which the cables die"),
    doc("reaction_delay", "int", "1000", "dynamic_failures: cycles from the failure until heads are routed on the surviving network (the subnet manager's sweep and table upload; milliseconds in InfiniBand fabrics, 10^5-10^6 cycles of 1 ns)"),
];

/// Latest failure cycle and longest reaction delay: both fit the engine's u32 clock together.
const MAX_FAILURE_CYCLE: u32 = 1 << 30;

fn names() -> String {
    PARAMS.iter().map(|p| p.name).collect::<Vec<_>>().join(", ")
}

fn parse_u32(key: &str, value: &str, min: u32, max: u32) -> Result<u32> {
    let v = value.trim();
    let parsed = v.parse::<i64>().ok().or_else(|| {
        v.parse::<f64>()
            .ok()
            .filter(|f| f.fract() == 0.0)
            .map(|f| f as i64)
    });
    match parsed {
        Some(x) if x >= min as i64 && x <= max as i64 => Ok(x as u32),
        _ => Err(SimError::param(
            key,
            format!("'{v}'"),
            format!("an integer from {min} to {max}"),
        )),
    }
}

fn parse_f64(key: &str, value: &str, min: f64, max: f64) -> Result<f64> {
    let v = value.trim();
    match v.parse::<f64>() {
        Ok(x) if x.is_finite() && x >= min && x <= max => Ok(x),
        _ => Err(SimError::param(
            key,
            format!("'{v}'"),
            format!("a number from {min} to {max}"),
        )),
    }
}

fn parse_bool(key: &str, value: &str) -> Result<bool> {
    match value.trim().to_ascii_lowercase().as_str() {
        "1" | "true" | "yes" | "on" => Ok(true),
        "0" | "false" | "no" | "off" => Ok(false),
        other => Err(SimError::param(
            key,
            format!("'{other}'"),
            "true or false (1 or 0)",
        )),
    }
}

/// A probability of the on/off process, or a negative number for one derived from the others
/// (BookSim2 marks those with -1).
fn parse_burst(key: &str, value: &str) -> Result<f64> {
    parse_f64(key, value, f64::MIN, 1.0).map_err(|_| {
        SimError::param(
            key,
            format!("'{}'", value.trim()),
            "a probability from 0 to 1, or negative for one derived from the other two and the load",
        )
    })
}

/// Parses `class:cycles,class:cycles`.
pub fn parse_link_latency(value: &str) -> Result<BTreeMap<String, u32>> {
    let mut map = BTreeMap::new();
    for item in value.split(',').map(str::trim).filter(|s| !s.is_empty()) {
        let Some((class, cycles)) = item.split_once(':') else {
            return Err(SimError::param(
                "link_latency",
                format!("'{item}'"),
                "entries class:cycles separated by commas, e.g. local:10,global:100",
            ));
        };
        let cycles = parse_u32("link_latency", cycles, 1, 1_000_000)?;
        map.insert(class.trim().to_string(), cycles);
    }
    Ok(map)
}

impl SimConfig {
    /// Sets parameter `key` from its text form; unknown keys are rejected with the valid ones.
    pub fn set(&mut self, key: &str, value: &str) -> Result<()> {
        let key = key.trim().to_ascii_lowercase();
        let k = key.as_str();
        match k {
            "router" => {
                self.router = match value.trim().to_ascii_lowercase().as_str() {
                    "iq" => RouterModel::Iq,
                    "hotpotato" | "hot_potato" | "hot-potato" => RouterModel::HotPotato,
                    other => {
                        return Err(SimError::param(
                            k,
                            format!("'{other}'"),
                            format!("one of: {}", RouterModel::NAMES.join(", ")),
                        ))
                    }
                }
            }
            "num_vcs" => self.num_vcs = parse_u32(k, value, 1, 64)?,
            "vc_buf_size" => self.vc_buf_size = parse_u32(k, value, 1, 65_535)?,
            "routing_delay" => self.routing_delay = parse_u32(k, value, 0, 1000)?,
            "vc_alloc_delay" => self.vc_alloc_delay = parse_u32(k, value, 1, 1000)?,
            "sw_alloc_delay" => self.sw_alloc_delay = parse_u32(k, value, 1, 1000)?,
            "st_final_delay" => self.st_final_delay = parse_u32(k, value, 1, 1000)?,
            "credit_delay" => self.credit_delay = parse_u32(k, value, 0, 1000)?,
            "internal_speedup" => self.internal_speedup = parse_f64(k, value, 1.0, 64.0)?,
            // BookSim2's crossbar speedups: accepted at their only modelled value so that
            // BookSim2 parameter sets carry over; anything else is refused by name.
            "input_speedup" | "output_speedup" => {
                if parse_u32(k, value, 1, 1).is_err() {
                    return Err(SimError::param(
                        k,
                        format!("'{}'", value.trim()),
                        "1: topolab's iq router has one crossbar input and output per port \
                         (internal_speedup runs the whole router faster instead)",
                    ));
                }
            }
            "wait_for_tail_credit" => self.wait_for_tail_credit = parse_bool(k, value)?,
            "flow_control" => {
                self.flow_control = match value.trim().to_ascii_lowercase().as_str() {
                    "wormhole" => FlowControl::Wormhole,
                    "vct" | "virtual_cut_through" | "cut_through" => FlowControl::Vct,
                    other => {
                        return Err(SimError::param(
                            k,
                            format!("'{other}'"),
                            "wormhole or vct (virtual cut-through)",
                        ))
                    }
                }
            }
            "booksim_compat" => self.booksim_compat = parse_bool(k, value)?,
            "packet_size" => self.packet_size = parse_u32(k, value, 1, 65_535)?,
            "injection_process" => {
                self.injection_process = match value.trim().to_ascii_lowercase().as_str() {
                    "bernoulli" => InjectionProcess::Bernoulli,
                    "on_off" | "onoff" => InjectionProcess::OnOff,
                    other => {
                        return Err(SimError::param(
                            k,
                            format!("'{other}'"),
                            "bernoulli or on_off (BookSim2's injection processes)",
                        ))
                    }
                }
            }
            "use_read_write" => self.use_read_write = parse_bool(k, value)?,
            "write_fraction" => self.write_fraction = parse_f64(k, value, 0.0, 1.0)?,
            "read_request_size" => self.read_request_size = parse_u32(k, value, 1, 65_535)?,
            "read_reply_size" => self.read_reply_size = parse_u32(k, value, 1, 65_535)?,
            "write_request_size" => self.write_request_size = parse_u32(k, value, 1, 65_535)?,
            "write_reply_size" => self.write_reply_size = parse_u32(k, value, 1, 65_535)?,
            "burst_alpha" => self.burst_alpha = parse_burst(k, value)?,
            "burst_beta" => self.burst_beta = parse_burst(k, value)?,
            "burst_r1" => self.burst_r1 = parse_burst(k, value)?,
            "channel_latency" => {
                if value.trim().eq_ignore_ascii_case("floor") {
                    self.latency_from_floor = true;
                } else {
                    self.latency_from_floor = false;
                    self.channel_latency = parse_u32(k, value, 1, 1_000_000).map_err(|_| {
                        SimError::param(
                            k,
                            format!("'{}'", value.trim()),
                            "an integer from 1 to 1000000 (cycles), or 'floor'",
                        )
                    })?;
                }
            }
            "floor" => self.floor = value.trim().to_string(),
            "cycle_time_ns" => self.cycle_time_ns = parse_f64(k, value, 1e-3, 1e6)?,
            "link_latency" => self.link_latency = parse_link_latency(value)?,
            "endpoint_latency" => self.endpoint_latency = parse_u32(k, value, 1, 1_000_000)?,
            "warmup_periods" => self.warmup_periods = parse_u32(k, value, 0, 1_000_000)?,
            "sample_period" => self.sample_period = parse_u32(k, value, 1, 100_000_000)?,
            "max_samples" => self.max_samples = parse_u32(k, value, 1, 1_000_000)?,
            "latency_thres" => self.latency_thres = parse_f64(k, value, -1.0, 1e9)?,
            "warmup_thres" => self.warmup_thres = parse_f64(k, value, 0.0, 1e9)?,
            "stopping_thres" => self.stopping_thres = parse_f64(k, value, 0.0, 1e9)?,
            "acc_warmup_thres" => self.acc_warmup_thres = parse_f64(k, value, 0.0, 1e9)?,
            "acc_stopping_thres" => self.acc_stopping_thres = parse_f64(k, value, 0.0, 1e9)?,
            "saturation_tolerance" => self.saturation_tolerance = parse_f64(k, value, 0.0, 1.0)?,
            "precision" => self.precision = parse_f64(k, value, 0.0, 1.0)?,
            "early_verdict" => self.early_verdict = parse_bool(k, value)?,
            "warm_start_periods" => self.warm_start_periods = parse_u32(k, value, 1, 1_000_000)?,
            "seed" => {
                self.seed = value.trim().parse::<u64>().map_err(|_| {
                    SimError::param(k, format!("'{}'", value.trim()), "a non-negative integer")
                })?
            }
            "threads" => self.threads = parse_u32(k, value, 0, 4096)?,
            "deadlock_timeout" => self.deadlock_timeout = parse_u32(k, value, 1, u32::MAX / 2)?,
            "debug_checks" => self.debug_checks = parse_bool(k, value)?,
            "dynamic_failures" => self.dynamic_failures = value.trim().to_string(),
            "failure_cycle" => self.failure_cycle = parse_u32(k, value, 1, MAX_FAILURE_CYCLE)?,
            "reaction_delay" => self.reaction_delay = parse_u32(k, value, 0, MAX_FAILURE_CYCLE)?,
            "hotpotato_delay" => self.hotpotato_delay = parse_u32(k, value, 1, 1000)?,
            "hotpotato_max_hops" => self.hotpotato_max_hops = parse_u32(k, value, 1, 60_000)?,
            "hotpotato_switching" => {
                self.hotpotato_switching_packet = match value.trim().to_ascii_lowercase().as_str() {
                    "flit" => false,
                    "packet" | "worm" => true,
                    other => {
                        return Err(SimError::param(
                            k,
                            format!("'{other}'"),
                            "flit (every flit deflected on its own) or packet (worms)",
                        ))
                    }
                }
            }
            "hotpotato_inject_preferred" => self.hotpotato_inject_preferred = parse_bool(k, value)?,
            "hotpotato_priority" => {
                self.hotpotato_priority = match value.trim().to_ascii_lowercase().as_str() {
                    "hops" => HotPotatoPriority::Hops,
                    "oldest" => HotPotatoPriority::Oldest,
                    "random" => HotPotatoPriority::Random,
                    other => {
                        return Err(SimError::param(
                            k,
                            format!("'{other}'"),
                            "hops (most routers traversed first), oldest or random",
                        ))
                    }
                }
            }
            "hotpotato_deflect" => {
                self.hotpotato_deflect = HotPotatoDeflect::parse(value).ok_or_else(|| {
                    SimError::param(
                        k,
                        format!("'{}'", value.trim().to_ascii_lowercase()),
                        "random (any free router output) or closest (nearest the destination)",
                    )
                })?
            }
            "hotpotato_packet_hops" => {
                self.hotpotato_packet_hops = match value.trim().to_ascii_lowercase().as_str() {
                    "last" => HotPotatoPacketHops::Last,
                    "mean" => HotPotatoPacketHops::Mean,
                    other => {
                        return Err(SimError::param(
                            k,
                            format!("'{other}'"),
                            "last (the last flit's routers) or mean (the mean over the flits)",
                        ))
                    }
                }
            }
            "deflect" => {
                self.deflect = match value.trim().to_ascii_lowercase().as_str() {
                    "off" | "none" | "false" => None,
                    other => Some(HotPotatoDeflect::parse(other).ok_or_else(|| {
                        SimError::param(
                            k,
                            format!("'{other}'"),
                            "off, random (any router output with a free VC) or closest (the one nearest the destination)",
                        )
                    })?),
                }
            }
            "deflect_after" => self.deflect_after = parse_u32(k, value, 0, 1_000_000)?,
            "vc_priority" => {
                self.vc_priority = match value.trim().to_ascii_lowercase().as_str() {
                    "round_robin" | "rr" => VcPriority::RoundRobin,
                    "hops" => VcPriority::Hops,
                    other => {
                        return Err(SimError::param(
                            k,
                            format!("'{other}'"),
                            "round_robin or hops (most routers traversed first)",
                        ))
                    }
                }
            }
            _ => {
                return Err(SimError::Core(
                    topolab_core::TopolabError::UnknownParameter {
                        context: "simulation".into(),
                        param: key.clone(),
                        valid: names(),
                    },
                ))
            }
        }
        Ok(())
    }

    /// A configuration from (key, value) pairs applied in order over the defaults.
    pub fn from_pairs<'a>(pairs: impl IntoIterator<Item = (&'a str, &'a str)>) -> Result<Self> {
        let mut c = SimConfig::default();
        for (k, v) in pairs {
            c.set(k, v)?;
        }
        c.validate()?;
        Ok(c)
    }

    /// Cross-parameter checks.
    pub fn validate(&self) -> Result<()> {
        if self.latency_from_floor && !self.link_latency.is_empty() {
            return Err(SimError::param(
                "link_latency",
                format!("'{}'", self.link_latency_text()),
                "empty with channel_latency=floor (link latencies then come from cable lengths)",
            ));
        }
        if self.flow_control == FlowControl::Vct && self.vc_buf_size < self.packet_size {
            return Err(SimError::param(
                "vc_buf_size",
                self.vc_buf_size,
                format!(
                    "at least packet_size = {} with virtual cut-through (a VC holds a whole packet)",
                    self.packet_size
                ),
            ));
        }
        if self.injection_process == InjectionProcess::OnOff {
            let derived = [
                ("burst_alpha", self.burst_alpha),
                ("burst_beta", self.burst_beta),
                ("burst_r1", self.burst_r1),
            ]
            .into_iter()
            .filter(|p| p.1 < 0.0)
            .map(|p| p.0)
            .collect::<Vec<_>>();
            if derived.len() != 1 {
                let (name, value) = if derived.is_empty() {
                    ("burst_r1", self.burst_r1)
                } else if derived[0] == "burst_alpha" {
                    ("burst_beta", self.burst_beta)
                } else {
                    ("burst_r1", self.burst_r1)
                };
                return Err(SimError::param(
                    name,
                    value,
                    format!(
                        "with injection_process=on_off exactly one of burst_alpha ({}), burst_beta \
                         ({}) and burst_r1 ({}) negative: that one is derived from the other two \
                         and the load (BookSim2's rule); now {} are",
                        self.burst_alpha,
                        self.burst_beta,
                        self.burst_r1,
                        if derived.is_empty() {
                            "none".to_string()
                        } else {
                            derived.join(" and ")
                        }
                    ),
                ));
            }
        }
        if self.use_read_write {
            if self.router != RouterModel::Iq {
                return Err(SimError::param(
                    "use_read_write",
                    "true",
                    "false with router=hotpotato (request-reply traffic runs on the iq router)",
                ));
            }
            if self.flow_control == FlowControl::Vct {
                return Err(SimError::param(
                    "use_read_write",
                    "true",
                    "false with flow_control=vct (request-reply traffic runs with wormhole flow control)",
                ));
            }
        }
        if self.router == RouterModel::HotPotato {
            if let Some(d) = self.deflect {
                return Err(SimError::param(
                    "deflect",
                    format!("'{}'", d.name()),
                    "off with router=hotpotato (the bufferless router deflects by hotpotato_deflect)",
                ));
            }
            if self.vc_priority != VcPriority::RoundRobin {
                return Err(SimError::param(
                    "vc_priority",
                    "'hops'",
                    "round_robin with router=hotpotato (it ranks flits by hotpotato_priority)",
                ));
            }
        }
        if self.vc_buf_size > u16::MAX as u32 * 16 {
            return Err(SimError::param(
                "vc_buf_size",
                self.vc_buf_size,
                "at most 1048576",
            ));
        }
        Ok(())
    }

    fn link_latency_text(&self) -> String {
        self.link_latency
            .iter()
            .map(|(c, v)| format!("{c}:{v}"))
            .collect::<Vec<_>>()
            .join(",")
    }

    /// Flits a packet the injection process creates brings into the network on average:
    /// `packet_size`, or with `use_read_write` those of a request and its reply. The offered
    /// load divided by it is the process's rate.
    pub fn flits_per_injection(&self) -> f64 {
        if self.use_read_write {
            let w = self.write_fraction;
            (1.0 - w) * (self.read_request_size + self.read_reply_size) as f64
                + w * (self.write_request_size + self.write_reply_size) as f64
        } else {
            self.packet_size as f64
        }
    }

    /// The most flits a packet may have.
    pub fn largest_packet(&self) -> u32 {
        if self.use_read_write {
            self.read_request_size
                .max(self.read_reply_size)
                .max(self.write_request_size)
                .max(self.write_reply_size)
        } else {
            self.packet_size
        }
    }

    /// Latency of a router-to-router link of class `class`.
    pub fn latency_of(&self, class: &str) -> u32 {
        self.link_latency
            .get(class)
            .copied()
            .unwrap_or(self.channel_latency)
    }

    /// Router internal steps in cycle `t` (BookSim2 accumulates `internal_speedup` per cycle and
    /// runs one step per whole unit).
    #[inline]
    pub fn steps_in_cycle(&self, t: u64) -> u32 {
        if self.internal_speedup == 1.0 {
            return 1;
        }
        let s = self.internal_speedup;
        ((t + 1) as f64 * s + 1e-9).floor() as u32 - (t as f64 * s + 1e-9).floor() as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A configuration written out (`from_booksim`'s parameters, a result's settings) is passed
    /// back as keyword arguments, which take no null: every declared parameter it holds reads
    /// back through `set` to the same configuration, with deflection off and on.
    #[test]
    fn a_written_configuration_sets_back_as_it_is() {
        for deflect in ["off", "closest"] {
            let mut written = SimConfig::default();
            written.set("deflect", deflect).unwrap();
            let value = serde_json::to_value(&written).unwrap();
            let fields = value.as_object().unwrap();
            for (k, v) in fields {
                assert!(!v.is_null(), "{k} written as null");
            }
            let mut read = SimConfig::default();
            let mut set = 0;
            for p in PARAMS {
                let Some(v) = fields.get(p.name) else {
                    continue;
                };
                let text = match v {
                    serde_json::Value::String(s) => s.clone(),
                    serde_json::Value::Bool(b) => b.to_string(),
                    serde_json::Value::Number(n) => n.to_string(),
                    // A map (per-class link latencies) is set by its own keys.
                    _ => continue,
                };
                read.set(p.name, &text)
                    .unwrap_or_else(|e| panic!("{} = {text}: {e}", p.name));
                set += 1;
            }
            assert!(set > 20, "only {set} parameters written");
            assert_eq!(
                serde_json::to_value(&read).unwrap(),
                value,
                "deflect = {deflect}"
            );
        }
    }
}
