//! One router and its endpoints: the unit of work of a cycle.
//!
//! A cycle has two phases:
//!
//! 1. `RouterCore::cycle`, for every router in parallel (read inputs and evaluate): the
//!    endpoints eject, take credits, create and inject; the router takes the flits and credits
//!    arriving now from its own arrival wheels, runs its internal steps and stages what it
//!    sends to other routers;
//! 2. the engine's delivery (write outputs), in router order: every staged flit and credit is
//!    put in the receiving router's wheel at its arrival cycle (sent in cycle S over a channel of
//!    latency d, it arrives in cycle S + d + 1, as in BookSim2).
//!
//! In phase 1 a router touches only its own state, so the result does not depend on the number
//! of threads; each router draws from its own random streams (injection, traffic, routing),
//! seeded from the run's seed and the router's index.
//!
//! Routers are processed only in cycles where something happens: an arrival, a credit to
//! process, a flit buffered or queued, an endpoint event (`busy`, `own_wake`, the wheels).
//!
//! Router models are an enum (`Model`, chosen by the `router` parameter): the input-queued VC
//! router (`iq`) and the bufferless hot-potato router (`hotpotato`, Koibuchi et al., 2018,
//! §III-B2); both use the same endpoints, channels, statistics and measurement.

pub mod endpoint;
pub mod hotpotato;
pub mod iq;

use crate::config::{RouterModel, SimConfig};
use crate::flit::{Flit, Wheel};
use crate::injection::Source;
pub use crate::read_ahead::ReadAhead;
use crate::routing::{GlobalView, Routing};
use crate::stats::RouterStats;
use crate::topo::SimTopology;
use endpoint::Endpoints;
use hotpotato::HotPotatoState;
use iq::{IqState, RouteEnv};
use rand_chacha::ChaCha8Rng;
use topolab_core::rng::{stream, Stream};

/// Where the measurement is (BookSim2's _sim_state), which decides what is counted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Phase {
    WarmingUp,
    Running,
    /// Measurement over: waiting for the measured packets; sources keep creating.
    Draining,
    /// Sources stopped; the network empties.
    Emptying,
}

/// Read-only inputs of a cycle, shared by all routers.
pub struct CycleCtx<'a> {
    pub topo: &'a SimTopology,
    pub routing: &'a Routing,
    pub source: &'a Source,
    pub cfg: &'a SimConfig,
    pub global: &'a dyn GlobalView,
    pub now: u32,
    /// Global index of this cycle's first internal step.
    pub step_base: u64,
    pub steps: u32,
    pub phase: Phase,
    pub drain_time: u32,
    pub generating: bool,
}

/// Where a router's turn puts what it sends: router-bound flits and credits are staged for the
/// engine's delivery; endpoint-bound ones go straight into the endpoints' wheels, arriving in
/// cycle `ep_arrival`.
pub struct Outbox<'a> {
    pub flits: &'a mut Vec<(u32, Flit)>,
    pub credits: &'a mut Vec<(u32, u8)>,
    pub ep_flits: &'a mut Wheel<(u32, Flit)>,
    pub ep_credits: &'a mut Wheel<(u32, u8)>,
    pub ep_arrival: u32,
}

impl Outbox<'_> {
    /// Sends a credit for VC `vc` of input port `port` upstream (`n_ep`: the router's endpoint
    /// ports, which come first).
    #[inline]
    pub fn credit(&mut self, port: u32, vc: u8, n_ep: u32) {
        if port < n_ep {
            self.ep_credits.push(self.ep_arrival, (port, vc));
        } else {
            self.credits.push((port, vc));
        }
    }

    /// Sends flit `f` on output port `port`.
    #[inline]
    pub fn flit(&mut self, port: u32, f: Flit, n_ep: u32) {
        if port < n_ep {
            self.ep_flits.push(self.ep_arrival, (port, f));
        } else {
            self.flits.push((port, f));
        }
    }
}

/// Router model state, enum dispatch.
// One per router; the iq state stays inline (no box) for the hot loop.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone)]
pub enum Model {
    Iq(IqState),
    HotPotato(HotPotatoState),
}

#[derive(Debug, Clone)]
pub struct RouterCore {
    pub id: u32,
    pub model: Model,
    pub eps: Endpoints,
    rng_inject: ChaCha8Rng,
    rng_traffic: ChaCha8Rng,
    rng_route: ChaCha8Rng,
    /// Flits (input port, flit) and credits (output port, vc) arriving from other routers.
    pub flit_wheel: Wheel<(u32, Flit)>,
    pub credit_wheel: Wheel<(u32, u8)>,
    pub stats: RouterStats,
    /// Sent this cycle to other routers: (output port, flit) and (input port, vc).
    pub staged_flits: Vec<(u32, Flit)>,
    pub staged_credits: Vec<(u32, u8)>,
    arrivals: Vec<(u32, Flit)>,
    credit_arrivals: Vec<(u32, u8)>,
    pub busy: bool,
    pub own_wake: u32,
}

impl RouterCore {
    pub fn new(topo: &SimTopology, r: usize, cfg: &SimConfig, source: &Source) -> RouterCore {
        let n_ep = topo.num_ep(r);
        let mut eps = Endpoints::new(
            n_ep,
            topo.ep_offset[r],
            cfg.num_vcs,
            cfg.vc_buf_size,
            cfg.endpoint_latency,
        );
        let mut rng_inject = stream(cfg.seed, Stream::Injection, r as u64);
        eps.start(source, &mut rng_inject);
        RouterCore {
            id: r as u32,
            model: match cfg.router {
                RouterModel::Iq => Model::Iq(IqState::new(topo, r, cfg)),
                RouterModel::HotPotato => Model::HotPotato(HotPotatoState::new(topo, r, cfg)),
            },
            eps,
            rng_inject,
            rng_traffic: stream(cfg.seed, Stream::Traffic, r as u64),
            rng_route: stream(cfg.seed, Stream::Routing, r as u64),
            flit_wheel: Wheel::with_capacity(topo.max_latency + 1, topo.num_in(r)),
            // Credits wait in the wheel until processed, `credit_delay` after they arrive.
            credit_wheel: Wheel::with_capacity(
                topo.max_latency + 1 + topo.credit_delay,
                topo.num_out(r),
            ),
            stats: RouterStats::default(),
            staged_flits: Vec::new(),
            staged_credits: Vec::new(),
            arrivals: Vec::new(),
            credit_arrivals: Vec::new(),
            busy: true,
            own_wake: 0,
        }
    }

    /// A warm start at cycle `now` under `source` (`crate::engine::WarmState`; input-queued
    /// routers): the sources go on at the new rate, every flit in flight is carried over
    /// (`Flit::carry_over`: not measured, aged from `now`), and the measurement's counters
    /// start again.
    pub fn restart(&mut self, source: &Source, now: u32) {
        self.eps.restart(source, &mut self.rng_inject, now);
        if let Model::Iq(iq) = &mut self.model {
            iq.carry_over(now);
        }
        let pending = self.staged_flits.iter_mut().chain(&mut self.arrivals);
        for (_, f) in self.flit_wheel.items_mut().chain(pending) {
            f.carry_over(now);
        }
        let s = &mut self.stats;
        s.clear_period();
        // The network-wide sum of the creation cycles of the flits in flight (`Totals`), all
        // now `now`: each router's share of the flits in flight counted at `now`.
        let in_flight = s.gen_flits.wrapping_sub(s.ej_flits);
        s.gen_ctime = s.ej_ctime.wrapping_add(in_flight.wrapping_mul(now as u64));
        s.meas_gen_flits = 0;
        s.meas_ej_flits = 0;
        s.meas_gen_ctime = 0;
        s.meas_ej_ctime = 0;
        s.max_hops = 0;
        self.own_wake = self.own_wake.min(now);
    }

    /// The input-queued router state (watchdog diagnosis, published loads: iq runs only).
    #[inline]
    pub fn iq(&self) -> &IqState {
        match &self.model {
            Model::Iq(s) => s,
            Model::HotPotato(_) => panic!("router {} is not an input-queued router", self.id),
        }
    }

    /// Whether anything happens at this router in cycle `now`.
    #[inline]
    pub fn due(&self, now: u32) -> bool {
        self.due_within(now, 1)
    }

    /// Whether anything happens at this router in the `k` cycles from `first`, when its wheels
    /// already hold every arrival of those cycles (one thread: delivered before the batch). A
    /// router idle at `first` changes nothing then, so it is due later only through its wheels
    /// or its own wake-up time.
    #[inline]
    pub fn due_within(&self, first: u32, k: u32) -> bool {
        self.busy
            || self.own_wake < first + k
            || (first..first + k).any(|t| self.flit_wheel.has(t) || self.credit_wheel.has(t))
    }

    /// Brings what this router's state points to into the cache ahead of its turn in cycle
    /// `now`, and the routing table entries that routing the flits arriving then will read
    /// (`Routing::read_ahead`). The record itself should have been read a turn earlier
    /// (`read_ahead_record`), since following the pointers here needs it.
    pub fn read_ahead(&self, now: u32, topo: &SimTopology, routing: &Routing) {
        if let Model::Iq(iq) = &self.model {
            iq.read_ahead();
        }
        self.eps.read_ahead(now);
        for (_, f) in self.flit_wheel.arriving(now) {
            routing.read_ahead(topo, self.id, f);
        }
        self.credit_wheel.read_ahead(now);
    }

    /// Brings this router's record (the pointers `read_ahead` follows) into the cache.
    pub fn read_ahead_record(&self) {
        crate::read_ahead::value(self);
    }

    /// Phase 1 of a cycle.
    pub fn cycle(&mut self, ctx: &CycleCtx) {
        let now = ctx.now;
        if !self.due(now) {
            return;
        }
        self.stats.active_cycles += 1;
        let topo = ctx.topo;
        self.eps.cycle(
            ctx,
            &mut self.rng_inject,
            &mut self.rng_traffic,
            &mut self.rng_route,
            &mut self.stats,
            &mut self.flit_wheel,
            &mut self.credit_wheel,
        );
        let iq = match &mut self.model {
            Model::Iq(iq) => iq,
            Model::HotPotato(hp) => {
                self.flit_wheel.take(now, &mut self.arrivals);
                // Credits from the endpoints' ejection channels: a bufferless router keeps no
                // downstream state, they are dropped.
                self.credit_wheel.take(now, &mut self.credit_arrivals);
                let back = now + ctx.cfg.endpoint_latency + 1;
                hp.cycle(
                    topo,
                    ctx.routing,
                    self.id,
                    now,
                    &self.arrivals,
                    &mut self.rng_route,
                    &mut self.stats,
                    &mut self.staged_flits,
                    &mut self.eps.ej_wheel,
                    &mut self.eps.cr_wheel,
                    back,
                );
                self.busy = hp.busy() || self.eps.busy();
                self.own_wake = if self.busy {
                    now + 1
                } else {
                    self.eps.next_wake(now, ctx.generating)
                };
                return;
            }
        };
        let first_step = ctx.step_base;
        let first_next = if ctx.steps > 1 { now } else { now + 1 };
        let mut env = RouteEnv {
            topo,
            routing: ctx.routing,
            global: ctx.global,
            rng: &mut self.rng_route,
        };

        // Flits from upstream routers and from the endpoints.
        self.flit_wheel.take(now, &mut self.arrivals);
        for k in 0..self.arrivals.len() {
            let (p, f) = self.arrivals[k];
            iq.accept_flit(p, f, now, first_step, first_next, &mut env);
        }
        // Credits from downstream routers and from the endpoints, `credit_delay` cycles after
        // they arrived (the delivery puts each in the bucket of that cycle): returned where
        // BookSim2 processes them, at the start of the cycle's first internal step (every
        // cycle has one: internal_speedup >= 1), after the arriving heads were routed on the
        // ports' loads.
        debug_assert!(ctx.steps > 0);
        self.credit_wheel.take(now, &mut self.credit_arrivals);
        for &(q, vc) in &self.credit_arrivals {
            iq.return_credit(q, vc);
        }

        // Router-bound traffic is staged for delivery; endpoint-bound stays in this router.
        let mut out = Outbox {
            flits: &mut self.staged_flits,
            credits: &mut self.staged_credits,
            ep_flits: &mut self.eps.ej_wheel,
            ep_credits: &mut self.eps.cr_wheel,
            ep_arrival: now + ctx.cfg.endpoint_latency + 1,
        };
        for k in 0..ctx.steps {
            let next_step_cycle = if k + 1 < ctx.steps { now } else { now + 1 };
            iq.step(
                now,
                first_step + k as u64,
                next_step_cycle,
                &mut env,
                &mut self.stats,
                &mut out,
            );
        }
        iq.emit(now, &mut out);
        self.busy = iq.busy() || self.eps.busy();
        // A busy router is processed next cycle anyway; its wake-up time is only needed once idle.
        self.own_wake = if self.busy {
            now + 1
        } else {
            self.eps.next_wake(now, ctx.generating)
        };
    }
}

/// `GlobalView` over the loads the engine published after the previous cycle.
pub struct PublishedLoads<'a>(pub &'a [Vec<u32>]);

impl GlobalView for PublishedLoads<'_> {
    fn port_used(&self, router: u32, port: u32) -> u32 {
        self.0
            .get(router as usize)
            .and_then(|p| p.get(port as usize))
            .copied()
            .unwrap_or(0)
    }
}
