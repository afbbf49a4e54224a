//! The bufferless hot-potato (deflection) router of Koibuchi et al., 2018, §III-B2
//! (`router=hotpotato`).
//!
//! No flow control and no credits between routers: every flit that arrives at a router in a
//! cycle leaves it `hotpotato_delay` cycles later through some output, so the input channel of
//! the next router is always free (Koibuchi et al., 2018, §III-B2: "each packet moves at each clock
//! cycle, meaning that the input channel of the next-hop switch is always guaranteed to be empty").
//! Per cycle:
//!
//! 1. the flits arriving from other routers are ranked by priority (`hotpotato_priority`): by
//!    default most routers traversed first (Koibuchi et al.'s (2018) hop counter in the header,
//!    which "avoids livelock"), then oldest (creation cycle), then input port, a total order, so
//!    the result does not depend on arrival order; `oldest` ranks by age first, `random` draws a
//!    new order every cycle (Koibuchi et al. (2018) state only the hop counter; these are the other
//!    readings);
//! 2. in that order each flit takes a free *preferred* output if one is left: its ejection
//!    port at its destination router, otherwise an output on a path the routing prefers (the
//!    `routing` argument: `min` = every minimal next hop from the hop tables, `min_static` =
//!    the one fixed shortest path, or any core rule routing = the rule's candidate hops, e.g.
//!    the Imase custom routing of Koibuchi et al., 2018, §III-B1 once it is a rule), chosen
//!    uniformly among the free ones; if none is free it is *deflected* (`hotpotato_deflect`) to a
//!    uniformly chosen free router output, or with `closest` to one whose next router is nearest
//!    the destination (by the routing's own path length from there);
//! 3. injection limitation (Koibuchi et al., 2018, §III-B3): an endpoint's next flit enters only
//!    through an output that step 2 left free (a preferred one, else any; or only a preferred one
//!    with `hotpotato_inject_preferred`), so injected traffic never blocks arriving traffic. As a
//!    router has at least as many router outputs as router inputs (checked when the run is
//!    prepared), an arriving flit always finds an output.
//!
//! Multi-flit packets (`hotpotato_switching`): Koibuchi et al. (2018) simulate 33-flit packets with
//! virtual cut-through and four VCs and does not say how a packet is deflected without buffers.
//! - `flit` (default): every flit carries the packet's header fields and is routed on its own
//!   (FLIT-BLESS, Moscibroda & Mutlu 2009);
//! - `packet`: a packet's flits follow its first flit as a worm that holds its output until
//!   the tail; as a worm holding an output could leave an arriving worm without one on a
//!   router with in-degree = out-degree, arriving worms preempt injection worms (`cycle_worms`).
//!
//! Either way the destination counts a packet when its last flit arrives, in whatever order,
//! reassembling by (source, creation cycle) (docs/simulator.md); under flit switching its
//! routers in `avg_hops` are the last flit's, or the mean over its flits with
//! `hotpotato_packet_hops = mean` (the flits of one packet take different paths).
//!
//! Endpoints are the same as for the input-queued router: they inject on the injection channel
//! with its credits (the router's injection queue per endpoint is the end of the source queue)
//! and consume every flit that reaches them.

use crate::config::{HotPotatoDeflect, HotPotatoPacketHops, HotPotatoPriority, SimConfig};
use crate::error::{Result, SimError};
use crate::flit::{Flit, Wheel, TAIL};
use crate::routing::Routing;
use crate::stats::RouterStats;
use crate::topo::{SimTopology, NONE};
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use std::cmp::Reverse;
use std::collections::{BTreeMap, VecDeque};
use topolab_core::routing::Hop;

/// The routings that can name preferred outputs.
pub const PREFERRED_ROUTINGS: &str =
    "min (every minimal next hop), min_static (one fixed shortest path) or a rule routing (its candidate hops)";

/// The routing spec as the hot-potato router reads it: VCs play no part in the preferred
/// outputs, so `min` and `min_static` take any VC unless told otherwise (their hop-indexed
/// default would demand num_vcs >= diameter for nothing).
pub fn routing_spec(spec: &str) -> String {
    let s = spec.trim();
    let (family, params) = s.split_once(':').unwrap_or((s, ""));
    let family = family.trim();
    if !matches!(family, "min" | "min_static") || params.contains("vcs") {
        return s.to_string();
    }
    if params.trim().is_empty() {
        format!("{family}:vcs=any")
    } else {
        format!("{family}:{params},vcs=any")
    }
}

/// Checks that the network and routing suit a bufferless router: every router has at least as
/// many router-to-router outputs as inputs (else an arriving flit could find every output
/// taken), and the routing names preferred outputs from the packet's position alone.
pub fn check(topo: &SimTopology, routing: &Routing, cfg: &SimConfig) -> Result<()> {
    for r in 0..topo.num_routers as usize {
        let n_ep = topo.num_ep(r);
        let (ins, outs) = (topo.num_in(r) - n_ep, topo.num_out(r) - n_ep);
        if ins > outs {
            return Err(SimError::param(
                "router",
                "'hotpotato'",
                format!(
                    "networks where every router has at least as many outgoing as incoming router links (router {r} has {ins} in, {outs} out: a bufferless router must send every arriving flit on)"
                ),
            ));
        }
    }
    match routing {
        Routing::MinStatic(_) | Routing::Rule(_) | Routing::Typed { .. } => {}
        _ => {
            return Err(SimError::param(
                "routing",
                "this routing with router=hotpotato",
                PREFERRED_ROUTINGS,
            ))
        }
    }
    if cfg.internal_speedup != 1.0 {
        return Err(SimError::param(
            "internal_speedup",
            cfg.internal_speedup,
            "1 with router=hotpotato (one routing decision per flit per cycle)",
        ));
    }
    Ok(())
}

#[derive(Debug, Clone)]
pub struct HotPotatoState {
    pub n_ep: u32,
    pub n_out: u32,
    /// Flits each endpoint sent, waiting for an output left free (injection limitation).
    pub inj: Vec<VecDeque<Flit>>,
    /// Endpoint tried first for injection this cycle (rotates every cycle).
    inj_first: u32,
    /// An output port is taken in cycle t when `taken[p] == t + 1`.
    taken: Vec<u32>,
    /// Routed flits in the router pipeline until their departure cycle: (output port, flit).
    pub pipe: Wheel<(u32, Flit)>,
    delay: u32,
    packet_size: u32,
    max_hops: u32,
    inject_preferred: bool,
    /// Flits received so far by this router's endpoints of packets still incomplete, and the
    /// sum of their routers traversed, by (source endpoint, creation cycle): unique, a source
    /// creates at most one packet a cycle.
    pub reassembly: BTreeMap<(u32, u32), (u32, u32)>,
    priority: HotPotatoPriority,
    deflect: HotPotatoDeflect,
    mean_packet_hops: bool,
    /// Router arrivals of this cycle, sorted by priority.
    order: Vec<(u32, Flit)>,
    /// First flit seen over `hotpotato_max_hops`: (cycle, flit).
    pub livelock: Option<(u32, Flit)>,
    /// Packet switching (`hotpotato_switching = packet`); the rest is its state, empty for
    /// flit switching.
    worms: bool,
    /// Holder of each output port: NONE, a router input port, or INJ + endpoint.
    held: Vec<u32>,
    /// Per input port: the output its current worm holds (NONE: no worm), whether that worm
    /// was deflected here, and the last cycle (+1) a flit of it arrived.
    worm_out: Vec<u32>,
    worm_deflected: Vec<bool>,
    worm_seen: Vec<u32>,
    /// Per output port held by an injection worm: whether that worm was deflected.
    inj_deflected: Vec<bool>,
}

/// Marks a flit that starts a worm on its channel (packet switching). Flag bits 1, 2, 4 are
/// the flit's own (flit.rs).
pub const WORM_START: u8 = 16;
/// Holder ids of injection worms: INJ + endpoint.
const INJ: u32 = 1 << 30;

impl HotPotatoState {
    pub fn new(topo: &SimTopology, r: usize, cfg: &SimConfig) -> Self {
        let n_ep = topo.num_ep(r);
        let n_out = topo.num_out(r);
        HotPotatoState {
            n_ep,
            n_out,
            inj: vec![VecDeque::new(); n_ep as usize],
            inj_first: 0,
            taken: vec![0; n_out as usize],
            pipe: Wheel::new(cfg.hotpotato_delay + 1),
            delay: cfg.hotpotato_delay,
            packet_size: cfg.packet_size,
            max_hops: cfg.hotpotato_max_hops,
            inject_preferred: cfg.hotpotato_inject_preferred,
            reassembly: BTreeMap::new(),
            priority: cfg.hotpotato_priority,
            deflect: cfg.hotpotato_deflect,
            mean_packet_hops: cfg.hotpotato_packet_hops == HotPotatoPacketHops::Mean,
            order: Vec::new(),
            livelock: None,
            worms: cfg.hotpotato_switching_packet,
            held: if cfg.hotpotato_switching_packet {
                vec![NONE; n_out as usize]
            } else {
                Vec::new()
            },
            worm_out: if cfg.hotpotato_switching_packet {
                vec![NONE; topo.num_in(r) as usize]
            } else {
                Vec::new()
            },
            worm_deflected: vec![false; topo.num_in(r) as usize],
            worm_seen: vec![0; topo.num_in(r) as usize],
            inj_deflected: vec![false; n_out as usize],
        }
    }

    /// Work left that needs the router processed next cycle.
    #[inline]
    pub fn busy(&self) -> bool {
        !self.pipe.is_empty()
            || self.inj.iter().any(|q| !q.is_empty())
            || self.worm_out.iter().any(|&o| o != NONE)
    }

    /// Flits held in the router: injection queues and pipeline.
    pub fn held_flits(&self) -> u64 {
        self.inj.iter().map(|q| q.len() as u64).sum::<u64>() + self.pipe.len() as u64
    }

    #[inline]
    fn free(&self, p: u32, now: u32) -> bool {
        self.taken[p as usize] != now.wrapping_add(1)
            && (!self.worms || self.held[p as usize] == NONE)
    }

    /// One cycle: `arrivals` are this cycle's flits (input port, flit); router-bound flits
    /// leaving now go to `staged`, endpoint-bound ones into `ej_wheel` at `ep_arrival`, and
    /// injection-channel credits into `cr_wheel` at `ep_arrival`.
    #[allow(clippy::too_many_arguments)]
    pub fn cycle(
        &mut self,
        topo: &SimTopology,
        routing: &Routing,
        r: u32,
        now: u32,
        arrivals: &[(u32, Flit)],
        rng: &mut ChaCha8Rng,
        stats: &mut RouterStats,
        staged: &mut Vec<(u32, Flit)>,
        ej_wheel: &mut Wheel<(u32, Flit)>,
        cr_wheel: &mut Wheel<(u32, u8)>,
        ep_arrival: u32,
    ) {
        // Departures of flits routed `delay - 1` cycles ago.
        if self.delay > 1 && self.pipe.has(now) {
            let mut due = std::mem::take(&mut self.order);
            self.pipe.take(now, &mut due);
            for &(p, f) in &due {
                self.depart(p, f, staged, ej_wheel, ep_arrival);
            }
            due.clear();
            self.order = due;
        }
        if self.worms {
            self.cycle_worms(
                topo, routing, r, now, arrivals, rng, stats, staged, ej_wheel, cr_wheel, ep_arrival,
            );
            return;
        }
        self.order.clear();
        for &(p, f) in arrivals {
            if p < self.n_ep {
                self.inj[p as usize].push_back(f);
            } else {
                self.order.push((p, f));
            }
        }
        let mut order = std::mem::take(&mut self.order);
        self.rank(&mut order, rng);
        for &(_, mut f) in &order {
            let (port, deflected) = self
                .assign(topo, routing, r, now, &mut f, false, rng)
                .expect("a router with as many outputs as inputs always has a free output");
            self.send(port, f, deflected, now, stats, staged, ej_wheel, ep_arrival);
        }
        self.order = order;
        // Injection through the outputs left free, endpoints in rotating order.
        let n_ep = self.n_ep;
        for k in 0..n_ep {
            let e = (self.inj_first + k) % n_ep;
            let Some(&front) = self.inj[e as usize].front() else {
                continue;
            };
            let mut f = front;
            if let Some((port, deflected)) = self.assign(topo, routing, r, now, &mut f, true, rng) {
                self.inj[e as usize].pop_front();
                cr_wheel.push(ep_arrival, (e, f.vc));
                self.send(port, f, deflected, now, stats, staged, ej_wheel, ep_arrival);
            }
        }
        if n_ep > 0 {
            self.inj_first = (self.inj_first + 1) % n_ep;
        }
    }

    /// One cycle with packet switching: a worm's first flit (WORM_START) is routed as a flit
    /// is in flit switching and its output is held for the flits behind it, which follow it
    /// one a cycle; the output is freed after the packet's tail, or when its channel carries no
    /// flit of the worm in a cycle. An arriving worm that finds every output held preempts an
    /// injection worm (whose remaining flits start a new worm later), so arriving traffic
    /// never blocks: router worms hold at most one output per router input. An injection worm
    /// into a local endpoint yields that ejection port to an arriving worm for it likewise.
    #[allow(clippy::too_many_arguments)]
    fn cycle_worms(
        &mut self,
        topo: &SimTopology,
        routing: &Routing,
        r: u32,
        now: u32,
        arrivals: &[(u32, Flit)],
        rng: &mut ChaCha8Rng,
        stats: &mut RouterStats,
        staged: &mut Vec<(u32, Flit)>,
        ej_wheel: &mut Wheel<(u32, Flit)>,
        cr_wheel: &mut Wheel<(u32, u8)>,
        ep_arrival: u32,
    ) {
        let stamp = now.wrapping_add(1);
        self.order.clear();
        for &(p, f) in arrivals {
            if p < self.n_ep {
                self.inj[p as usize].push_back(f);
            } else {
                self.order.push((p, f));
                self.worm_seen[p as usize] = if f.flags & WORM_START != 0 {
                    0 // a new worm: the previous one on this input has ended
                } else {
                    stamp
                };
            }
        }
        // Worms whose channel fell silent or started a new worm release their output.
        for i in self.n_ep as usize..self.worm_out.len() {
            let o = self.worm_out[i];
            if o != NONE && self.worm_seen[i] != stamp {
                self.held[o as usize] = NONE;
                self.worm_out[i] = NONE;
            }
        }
        // Flits behind a worm's head follow it; heads are routed by priority.
        let mut order = std::mem::take(&mut self.order);
        self.rank(&mut order, rng);
        order.retain(|&(p, f)| {
            let o = self.worm_out[p as usize];
            if o == NONE {
                return true; // a head, routed below
            }
            self.taken[o as usize] = stamp;
            let deflected = self.worm_deflected[p as usize];
            self.send(o, f, deflected, now, stats, staged, ej_wheel, ep_arrival);
            if f.is_tail() {
                self.release_input(p);
            }
            false
        });
        for &(p, mut f) in order.iter() {
            if f.dest_router == r {
                // Arriving traffic comes before injection at the ejection port too.
                let ej = (f.dest - topo.ep_offset[r as usize]) as usize;
                if self.held[ej] != NONE && self.held[ej] >= INJ {
                    self.held[ej] = NONE;
                }
            }
            let (port, deflected) = match self.assign(topo, routing, r, now, &mut f, false, rng) {
                Some(x) => x,
                None => {
                    self.preempt_injection();
                    self.assign(topo, routing, r, now, &mut f, false, rng)
                        .expect("a preempted injection worm leaves an output")
                }
            };
            f.flags |= WORM_START;
            self.send(port, f, deflected, now, stats, staged, ej_wheel, ep_arrival);
            if !f.is_tail() {
                self.held[port as usize] = p;
                self.worm_out[p as usize] = port;
                self.worm_deflected[p as usize] = deflected;
                self.worm_seen[p as usize] = stamp;
            }
        }
        self.order = order;
        // Injection: a worm in progress sends its next flit; a new one needs a free output.
        let n_ep = self.n_ep;
        for k in 0..n_ep {
            let e = (self.inj_first + k) % n_ep;
            let holding = (0..self.n_out).find(|&o| self.held[o as usize] == INJ + e);
            let Some(&front) = self.inj[e as usize].front() else {
                if let Some(o) = holding {
                    self.held[o as usize] = NONE; // a gap ends the worm
                }
                continue;
            };
            let mut f = front;
            let (port, deflected) = match holding {
                Some(o) => (o, self.worm_deflected_inj(o)),
                None => match self.assign(topo, routing, r, now, &mut f, true, rng) {
                    Some(x) => {
                        f.flags |= WORM_START;
                        x
                    }
                    None => continue,
                },
            };
            self.taken[port as usize] = stamp;
            self.inj[e as usize].pop_front();
            cr_wheel.push(ep_arrival, (e, f.vc));
            self.send(port, f, deflected, now, stats, staged, ej_wheel, ep_arrival);
            if f.is_tail() {
                self.held[port as usize] = NONE;
            } else if holding.is_none() {
                self.held[port as usize] = INJ + e;
                self.inj_deflected[port as usize] = deflected;
            }
        }
        if n_ep > 0 {
            self.inj_first = (self.inj_first + 1) % n_ep;
        }
    }

    /// Sorts this cycle's arrivals (input port, flit) into the order they take outputs
    /// (`hotpotato_priority`); the input port breaks ties, so the order is total.
    fn rank(&self, order: &mut [(u32, Flit)], rng: &mut ChaCha8Rng) {
        match self.priority {
            HotPotatoPriority::Hops => {
                order.sort_unstable_by_key(|&(p, f)| (Reverse(f.hops), f.ctime, p))
            }
            HotPotatoPriority::Oldest => {
                order.sort_unstable_by_key(|&(p, f)| (f.ctime, Reverse(f.hops), p))
            }
            HotPotatoPriority::Random => {
                // Sorted by input port first so that the shuffle's result does not depend on
                // the order the arrivals were listed in.
                order.sort_unstable_by_key(|&(p, _)| p);
                for i in (1..order.len()).rev() {
                    order.swap(i, rng.random_range(0..=i));
                }
            }
        }
    }

    fn release_input(&mut self, p: u32) {
        let o = self.worm_out[p as usize];
        if o != NONE {
            self.held[o as usize] = NONE;
            self.worm_out[p as usize] = NONE;
        }
    }

    fn worm_deflected_inj(&self, o: u32) -> bool {
        self.inj_deflected[o as usize]
    }

    /// Frees the lowest router output held by an injection worm; the worm's next flit will
    /// start a new worm.
    fn preempt_injection(&mut self) {
        let held = &self.held;
        if let Some(o) =
            (self.n_ep..self.n_out).find(|&o| held[o as usize] >= INJ && held[o as usize] != NONE)
        {
            self.held[o as usize] = NONE;
        }
    }

    /// Takes an output for `f`: a free preferred one, else (not for a flit being injected at
    /// its own destination router) a free router output. None when nothing suitable is free.
    #[allow(clippy::too_many_arguments)]
    fn assign(
        &mut self,
        topo: &SimTopology,
        routing: &Routing,
        r: u32,
        now: u32,
        f: &mut Flit,
        injected: bool,
        rng: &mut ChaCha8Rng,
    ) -> Option<(u32, bool)> {
        let t = f.dest_router;
        let ru = r as usize;
        let preferred = if t == r {
            let ej = f.dest - topo.ep_offset[ru];
            if !self.free(ej, now) && injected {
                // A flit for a neighbour endpoint waits in its queue rather than wander.
                return None;
            }
            self.free(ej, now).then_some(ej)
        } else {
            if injected {
                if let Routing::Rule(rr) | Routing::Typed { general: rr, .. } = routing {
                    let st = rr.rule.sample_start(r, t, rng);
                    f.phase = st.phase;
                    f.intermediate = st.aux;
                }
            }
            self.free_preferred(topo, routing, r, now, f, rng)
        };
        if let Some(p) = preferred {
            self.taken[p as usize] = now.wrapping_add(1);
            return Some((p, false));
        }
        if injected && self.inject_preferred {
            return None;
        }
        let p = deflection_port(
            topo,
            routing,
            r,
            t,
            self.n_ep..self.n_out,
            self.deflect,
            rng,
            |p| self.free(p, now),
        );
        let p = p?;
        self.taken[p as usize] = now.wrapping_add(1);
        if let Routing::Rule(rr) | Routing::Typed { general: rr, .. } = routing {
            // The rule's path is planned again from the router the flit is deflected to.
            let next = topo.out_link(ru, p).peer;
            let st = rr.rule.sample_start(next, t, rng);
            f.phase = st.phase;
            f.intermediate = st.aux;
        }
        Some((p, true))
    }

    /// A free output on a path the routing prefers, uniformly among the free ones (ports of a
    /// wide link each count), updating the flit's rule state for the hop taken.
    fn free_preferred(
        &self,
        topo: &SimTopology,
        routing: &Routing,
        r: u32,
        now: u32,
        f: &mut Flit,
        rng: &mut ChaCha8Rng,
    ) -> Option<u32> {
        let mut pick = None;
        let mut seen = 0u32;
        let mut chosen: Option<Hop> = None;
        routing.each_candidate(topo, r, f, |first, width, hop| {
            for p in first..first + width {
                if self.free(p, now) {
                    seen += 1;
                    if rng.random_range(0..seen) == 0 {
                        pick = Some(p);
                        chosen = hop;
                    }
                }
            }
        });
        let p = pick?;
        if let Some(h) = chosen {
            f.phase = h.state.phase;
            f.intermediate = h.state.aux;
        }
        Some(p)
    }

    #[allow(clippy::too_many_arguments)]
    fn send(
        &mut self,
        port: u32,
        mut f: Flit,
        deflected: bool,
        now: u32,
        stats: &mut RouterStats,
        staged: &mut Vec<(u32, Flit)>,
        ej_wheel: &mut Wheel<(u32, Flit)>,
        ep_arrival: u32,
    ) {
        f.hops = f.hops.saturating_add(1);
        stats.flit_hops += 1;
        stats.moved += 1;
        if port >= self.n_ep {
            stats.router_hops += 1;
            if deflected {
                stats.deflections += 1;
            }
        }
        stats.max_hops = stats.max_hops.max(f.hops as u32);
        if f.hops as u32 > self.max_hops && self.livelock.is_none() {
            self.livelock = Some((now, f));
        }
        if self.delay <= 1 {
            self.depart(port, f, staged, ej_wheel, ep_arrival);
        } else {
            self.pipe.push(now + self.delay - 1, (port, f));
        }
    }

    /// The flit leaves: to the next router, or to its endpoint (which counts the packet when
    /// its last flit arrives, whatever the order the flits took).
    fn depart(
        &mut self,
        port: u32,
        mut f: Flit,
        staged: &mut Vec<(u32, Flit)>,
        ej_wheel: &mut Wheel<(u32, Flit)>,
        ep_arrival: u32,
    ) {
        if port >= self.n_ep {
            staged.push((port, f));
            return;
        }
        if self.packet_size > 1 {
            let key = (f.src, f.ctime);
            let (got, hops) = self.reassembly.entry(key).or_insert((0, 0));
            *got += 1;
            *hops += f.hops as u32;
            if *got == self.packet_size {
                if self.mean_packet_hops {
                    let n = self.packet_size;
                    f.hops = ((*hops + n / 2) / n) as u16;
                }
                self.reassembly.remove(&key);
                f.flags |= TAIL;
            } else {
                f.flags &= !TAIL;
            }
        }
        ej_wheel.push(ep_arrival, (port, f));
    }
}

/// Where a flit or packet that finds no preferred output at router `r` is deflected: one of the
/// router outputs `ports` that `usable` accepts, uniformly (`Random`), or uniformly among those
/// whose next router is nearest destination router `t` by the routing's own path length
/// (`Closest`); None when none is usable. The bufferless router and the iq router's `deflect`
/// both choose by it.
#[allow(clippy::too_many_arguments)]
pub fn deflection_port(
    topo: &SimTopology,
    routing: &Routing,
    r: u32,
    t: u32,
    ports: std::ops::Range<u32>,
    how: HotPotatoDeflect,
    rng: &mut ChaCha8Rng,
    mut usable: impl FnMut(u32) -> bool,
) -> Option<u32> {
    let mut pick = None;
    let mut seen = 0u32;
    let mut nearest = u32::MAX;
    for p in ports {
        if !usable(p) {
            continue;
        }
        if how == HotPotatoDeflect::Closest {
            let next = topo.out_link(r as usize, p).peer;
            let d = routing.path_length(topo, next, t, rng);
            if d > nearest {
                continue;
            }
            if d < nearest {
                nearest = d;
                seen = 0;
            }
        }
        seen += 1;
        if rng.random_range(0..seen) == 0 {
            pick = Some(p);
        }
    }
    pick
}
