//! The input-queued virtual-channel router (BookSim2 `iq`, IQRouter::_InternalStep).
//!
//! Per input port V virtual channels, each a FIFO of flits; per output port V output VCs with
//! the credits in use downstream. One internal step (`internal_speedup` per cycle) runs, in
//! BookSim2's order:
//!
//! 1. credits whose `credit_delay` has elapsed return to their output VC (all of a cycle's
//!    are due at its first step: `RouterCore::cycle` returns them from the credit wheel
//!    just before it);
//! 2. crossbar: flits that finished traversal enter their output port's queue;
//! 3. VC allocation for head flits at the front of their VC (separable input-first, round
//!    robin, or by routers traversed first with `vc_priority = hops`): an input VC asks for
//!    every free VC of its route's range on its route's port; with `deflect`, a head that
//!    finds none there asks on another minimal output, and after `deflect_after` steps on a
//!    non-minimal one (iq_alloc.rs, `offer_detours`);
//! 4. switch allocation for active VCs with a flit and a credit: per input port one VC per
//!    output (round robin from the VC after the last winner), then separable input-first;
//! 5. granted flits leave their buffer: the hop count grows, the upstream credit is queued, the
//!    flit takes a downstream credit and enters the crossbar (`st_final_delay` cycles); a tail
//!    frees its output VC (at once, or when its credit returns with wait_for_tail_credit); a head
//!    behind it routes (lookahead: immediately when routing_delay = 0) and asks for a VC in the
//!    next step.
//!
//! At the end of the cycle each output port sends one flit and each input port one credit.
//!
//! BookSim2 evaluates VC allocation before the switch allocation of the same step: an output VC
//! freed by a tail can be taken again only in the next cycle, and the head behind a departing
//! tail asks for an output VC only in the next cycle. Either way a VC carries a new packet at
//! most every second cycle, which caps what one VC carries with single-flit packets at half a
//! flit per cycle (README of the reference data). `booksim_compat` keeps that order. topolab's
//! default runs switch allocation first and VC allocation after it, so both the freed output VC
//! and the exposed head take part in the same step's VC allocation: a VC can carry one packet
//! per cycle. Zero-load timing is the same in both modes.
//!
//! Delays above 1 (vc_alloc_delay, sw_alloc_delay) are pipelined: the decision is taken and its
//! resources reserved in the first cycle, its effect appears delay - 1 cycles later, and the
//! requester does not ask again in between (BookSim2 re-checks availability at the end instead).

use super::Outbox;

#[path = "iq_alloc.rs"]
mod alloc;
use alloc::SwInput;
#[path = "iq_read_ahead.rs"]
mod read_ahead;
use crate::allocator::{ByVcs, OutputStage, OvSet};
use crate::config::{FlowControl, HotPotatoDeflect, SimConfig, VcPriority};
use crate::error::{Result, SimError};
use crate::flit::Flit;
use crate::routing::{GlobalView, RouteChoice, RouteCtx, Routing};
use crate::stats::RouterStats;
use crate::topo::{SimTopology, NONE};
use crate::unchecked::Unchecked;
use rand_chacha::ChaCha8Rng;
use std::collections::VecDeque;

pub const IDLE: u8 = 0;
pub const ROUTING: u8 = 1;
pub const VC_ALLOC: u8 = 2;
pub const ACTIVE: u8 = 3;

/// What route computation needs besides the router's own state.
pub struct RouteEnv<'a> {
    pub topo: &'a SimTopology,
    pub routing: &'a Routing,
    pub global: &'a dyn GlobalView,
    pub rng: &'a mut ChaCha8Rng,
}

/// Checks that the routing suits deflection (`deflect`): a deflected head keeps the VC range
/// of its route, right on every output only when that range follows from the hop number alone,
/// as for `min` and `min_static` (hop-indexed or any VC), and a deflection needs minimal
/// candidates to prefer. `spec`: the routing as given, which the error names.
pub fn check_deflect(routing: &Routing, spec: &str, cfg: &SimConfig) -> Result<()> {
    let Some(d) = cfg.deflect else {
        return Ok(());
    };
    let minimal = match routing {
        Routing::MinStatic(_) => true,
        Routing::Rule(r) | Routing::Typed { general: r, .. } => {
            matches!(*r.rule, topolab_core::routing::Rule::Minimal(_))
        }
        Routing::Ugal(_) => false,
    };
    if !minimal {
        return Err(SimError::param(
            "routing",
            format!("'{}' with deflect={}", spec.trim(), d.name()),
            "min or min_static (a deflected head keeps its hop's VCs, which only these assign \
             by the hop number alone)",
        ));
    }
    Ok(())
}

#[derive(Debug, Clone, Copy)]
struct Xbar {
    slot: u32,
    port: u32,
    ready: u32,
    /// VC the flit takes on the output channel.
    vc: u8,
    step: u64,
}

/// State of one input VC, 32 bytes in one cache line: the allocation loops touch a VC's
/// fields together, and every router's state is cold when its turn comes in a cycle, so one
/// line per VC is what a VC costs (records of plain data rather than one array per field).
#[derive(Debug, Clone, Copy)]
#[repr(align(32))]
pub struct InputVc {
    /// Slab slots of the first and last flit.
    pub head: u32,
    pub tail: u32,
    /// Output VC held (port * V + vc), NONE if none.
    pub ov: u32,
    /// Internal step from which the VC may ask for an output VC (wrapping).
    pub step: u32,
    /// Routing / VC allocation: cycle from which the stage may proceed. Active: switch
    /// requests wait until after this cycle (pipelined allocation delays).
    pub ready: u32,
    /// VC allocator's input arbiter pointer (over output VCs).
    pub vc_ptr: u32,
    pub len: u16,
    /// Route: output port and VC range.
    pub port: u16,
    pub state: u8,
    pub vc_lo: u8,
    pub vc_hi: u8,
    /// Listed in `active_list` (removal there is lazy).
    pub listed: bool,
}

impl Default for InputVc {
    fn default() -> Self {
        InputVc {
            head: NONE,
            tail: NONE,
            ov: NONE,
            step: 0,
            ready: 0,
            vc_ptr: 0,
            len: 0,
            port: 0,
            state: IDLE,
            vc_lo: 0,
            vc_hi: 0,
            listed: false,
        }
    }
}

impl InputVc {
    #[inline]
    pub fn route(&self) -> RouteChoice {
        RouteChoice {
            port: self.port as u32,
            vc_lo: self.vc_lo,
            vc_hi: self.vc_hi,
        }
    }
}

/// State of one output VC: its owner and the credits in use downstream.
#[derive(Debug, Clone, Copy)]
#[repr(align(16))]
pub struct OutputVc {
    /// Input VC holding it, NONE when free.
    pub owner: u32,
    pub used: u16,
    pub tail_sent: bool,
}

/// `a` comes after `b` in wrapping step order.
#[inline]
fn after(a: u32, b: u32) -> bool {
    (a.wrapping_sub(b) as i32) > 0
}

/// A router's state.
///
/// **Index invariants** (what the allocation loops' unchecked accesses rest on,
/// crate::unchecked; the fields are private to the crate so that nothing else breaks them):
/// - (fixed) `iv` (n_in x V), `ov` (n_out x V), `op_used` (n_out) and `sw_in` (n_in) keep
///   the lengths `new` gives them;
/// - (lists) every entry of `vca_list`, `active_list`, `routing_list` and `tried`, and every
///   input VC of `vc_grants`, is an input VC index below `iv.len()`: each is pushed only right
///   after a checked access to the same index, or taken from another list; every entry of
///   `sw_touched` is an input port below n_in (an active VC's port), and every input of
///   `sw_grants` is one of them;
/// - (held) an input VC's `ov` is NONE or below `ov.len()`, and not NONE while the VC is
///   ACTIVE: it is set only from a VC grant, and every output VC offered to the VC allocator
///   is one whose record or free bit was read with a checked access (a route's
///   `port * V + vc`, whose port and VC range `compute_route` checks where a routing's choice
///   enters the router; a detour's, `free_vc`), `ov_free` holding output VCs only; a VC
///   leaves ACTIVE when its `ov` becomes NONE; an ACTIVE VC's `port` is its `ov`'s port
///   (`ov / V`): a route's VCs are offered on the route's port, and a granted detour's
///   port is rewritten to its output VC's (`count_detours`); either way below n_out;
/// - (slab) `flits` and `next` have the same length and never shrink; a VC's `head` and
///   `tail` are NONE or slots below it, and `head` is a slot whenever `len > 0`.
#[derive(Debug, Clone)]
pub struct IqState {
    pub router: u32,
    pub vcs: u32,
    by_v: ByVcs,
    /// Unit switch and crossbar delays: a flit granted the switch in one internal step leaves
    /// the crossbar at the next, so the crossbar is `crossing` (this step's grants) instead of
    /// the general timed queue `xbar`.
    unit_xbar: bool,
    /// One internal step per cycle and unit switch and crossbar delays (`fused_output`).
    fused_output: bool,
    /// One-flit packets, wormhole, unit VC allocation, switch and crossbar delays, at any
    /// internal speedup: the reference configurations' case (speedup 1, with `fused_output`)
    /// and `compare`'s (speedup 2). The step is compiled for it apart (`step_as::<true, _>`),
    /// its configuration tests decided at compile time.
    one_flit: bool,
    pub n_in: u32,
    pub n_out: u32,
    pub n_ep: u32,
    pub buf: u32,
    pkt: u32,
    vct: bool,
    booksim: bool,
    wait_tail: bool,
    routing_delay: u32,
    vc_delay: u32,
    sw_delay: u32,
    xbar_delay: u32,
    /// Deflection (`deflect`): where a head goes when no minimal output has a VC for it, and
    /// after how many internal steps of waiting; None: it waits.
    deflect: Option<HotPotatoDeflect>,
    deflect_after: u32,
    /// The VC allocator's output arbiters grant the head with the most routers traversed.
    hop_priority: bool,

    /// Input VCs, index in_port * V + vc.
    pub(crate) iv: Vec<InputVc>,
    /// Output VCs, index out_port * V + vc.
    pub(crate) ov: Vec<OutputVc>,
    /// Credits in use per output port, all VCs (BookSim2 GetUsedCredit).
    pub(crate) op_used: Vec<u32>,
    /// The output VCs without an owner: VC allocation reads a head's candidates as one word
    /// (`num_vcs` <= 64) instead of looping over its range.
    ov_free: OvSet,

    /// Switch arbiters per input port (pointers and this allocation's pick); the output
    /// stages keep the output arbiters' pointers (VC allocation: per output VC over input VCs;
    /// switch: per output port over input ports).
    sw_in: Vec<SwInput>,
    vc_out: OutputStage,
    sw_out: OutputStage,
    /// The input ports with a pick in this allocation.
    sw_touched: Vec<u32>,

    // Flits held by the router: a slab with FIFO links.
    pub(crate) flits: Vec<Flit>,
    next: Vec<u32>,
    free: Vec<u32>,
    /// Flits in input buffers.
    pub buffered: u32,

    // Work lists.
    pub(crate) vca_list: Vec<u32>,
    pub(crate) active_list: Vec<u32>,
    routing_list: Vec<u32>,
    xbar: VecDeque<Xbar>,
    /// With `unit_xbar` the crossbar is `crossing` instead: the flits granted the switch in
    /// the last internal step, which leave it at the next. With `fused_output` (one step per
    /// cycle) these are the flits granted in this cycle, and `leaving` those granted in the
    /// previous one, which are sent now.
    crossing: Vec<Xbar>,
    leaving: Vec<Xbar>,
    oq_head: Vec<u32>,
    oq_tail: Vec<u32>,
    pub oq_len: Vec<u32>,
    oq_ports: Vec<u32>,
    /// Credits to send upstream: (input port, vc, earliest cycle).
    pub credit_q: VecDeque<(u32, u8, u32)>,
    /// Per input port: its credits in `credit_q`.
    credit_backlog: Vec<u32>,
    credit_sent: Vec<u32>,

    // Scratch.
    vc_grants: Vec<(u32, u32)>,
    sw_grants: Vec<(u32, u32)>,
    tried: Vec<u32>,
    credit_keep: Vec<(u32, u8, u32)>,
    /// Deflection: heads that found no VC on their route in this VC allocation, and the output
    /// VCs offered for them elsewhere (input VC, output VC, whether it is a deflection).
    blocked: Vec<u32>,
    detours: Vec<(u32, u32, bool)>,
}

impl IqState {
    pub fn new(topo: &SimTopology, r: usize, cfg: &SimConfig) -> IqState {
        let v = cfg.num_vcs;
        let (n_in, n_out, n_ep) = (topo.num_in(r), topo.num_out(r), topo.num_ep(r));
        let niv = (n_in * v) as usize;
        let nov = (n_out * v) as usize;
        IqState {
            router: r as u32,
            vcs: v,
            by_v: ByVcs::new(v),
            unit_xbar: cfg.sw_alloc_delay == 1 && cfg.st_final_delay == 1,
            fused_output: cfg.internal_speedup == 1.0
                && cfg.sw_alloc_delay == 1
                && cfg.st_final_delay == 1,
            one_flit: cfg.largest_packet() == 1
                && cfg.flow_control != FlowControl::Vct
                && cfg.sw_alloc_delay == 1
                && cfg.st_final_delay == 1
                && cfg.vc_alloc_delay == 1
                && cfg.deflect.is_none()
                && cfg.vc_priority == VcPriority::RoundRobin,
            n_in,
            n_out,
            n_ep,
            buf: cfg.vc_buf_size,
            pkt: cfg.largest_packet(),
            vct: cfg.flow_control == FlowControl::Vct,
            booksim: cfg.booksim_compat,
            wait_tail: cfg.wait_for_tail_credit,
            routing_delay: cfg.routing_delay,
            vc_delay: cfg.vc_alloc_delay,
            sw_delay: cfg.sw_alloc_delay,
            xbar_delay: cfg.st_final_delay,
            deflect: cfg.deflect,
            deflect_after: cfg.deflect_after,
            hop_priority: cfg.vc_priority == VcPriority::Hops,
            iv: vec![InputVc::default(); niv],
            ov: vec![
                OutputVc {
                    owner: NONE,
                    used: 0,
                    tail_sent: false
                };
                nov
            ],
            op_used: vec![0; n_out as usize],
            ov_free: OvSet::full(n_out * v),
            sw_in: vec![
                SwInput {
                    key: 0,
                    iv: NONE,
                    out: 0,
                    out_ptr: 0,
                    vc_ptr: 0
                };
                n_in as usize
            ],
            vc_out: OutputStage::new(nov, niv as u32),
            sw_out: OutputStage::new(n_out as usize, n_in),
            sw_touched: Vec::new(),
            flits: Vec::new(),
            next: Vec::new(),
            free: Vec::new(),
            buffered: 0,
            vca_list: Vec::new(),
            active_list: Vec::new(),
            routing_list: Vec::new(),
            xbar: VecDeque::new(),
            crossing: Vec::new(),
            leaving: Vec::new(),
            oq_head: vec![NONE; n_out as usize],
            oq_tail: vec![NONE; n_out as usize],
            oq_len: vec![0; n_out as usize],
            oq_ports: Vec::new(),
            credit_q: VecDeque::new(),
            credit_backlog: vec![0; n_in as usize],
            credit_sent: vec![u32::MAX; n_in as usize],
            vc_grants: Vec::new(),
            sw_grants: Vec::new(),
            tried: Vec::new(),
            credit_keep: Vec::new(),
            blocked: Vec::new(),
            detours: Vec::new(),
        }
    }

    // ----- slab -------------------------------------------------------------------------------

    #[inline]
    fn alloc_slot(&mut self, f: Flit) -> u32 {
        match self.free.pop() {
            Some(i) => {
                self.flits[i as usize] = f;
                self.next[i as usize] = NONE;
                i
            }
            None => {
                self.flits.push(f);
                self.next.push(NONE);
                (self.flits.len() - 1) as u32
            }
        }
    }

    /// Every flit the router holds is carried over to a warm start at `now` (`Flit::carry_over`).
    pub fn carry_over(&mut self, now: u32) {
        for f in self.flits.iter_mut() {
            f.carry_over(now);
        }
    }

    /// The front flit of input VC `iv`.
    #[inline]
    pub fn front(&self, iv: usize) -> Option<&Flit> {
        let h = self.iv[iv].head;
        (h != NONE).then(|| &self.flits[h as usize])
    }

    /// Flits of input VC `iv`, front first (for checks and diagnostics).
    pub fn iv_flits(&self, iv: usize) -> impl Iterator<Item = &Flit> + '_ {
        let mut at = self.iv[iv].head;
        std::iter::from_fn(move || {
            if at == NONE {
                None
            } else {
                let f = &self.flits[at as usize];
                at = self.next[at as usize];
                Some(f)
            }
        })
    }

    /// Flits in the crossbar and the output queues, with their output port and the VC they
    /// take on the output channel (set on the flit itself when it leaves the crossbar).
    pub fn outbound_flits(&self) -> impl Iterator<Item = (u32, u8, &Flit)> + '_ {
        let xbar = self
            .xbar
            .iter()
            .chain(&self.leaving)
            .chain(&self.crossing)
            .map(|x| (x.port, x.vc, &self.flits[x.slot as usize]));
        let queued = (0..self.n_out).flat_map(move |p| {
            let mut at = self.oq_head[p as usize];
            std::iter::from_fn(move || {
                if at == NONE {
                    None
                } else {
                    let f = &self.flits[at as usize];
                    at = self.next[at as usize];
                    Some((p, f.vc, f))
                }
            })
        });
        xbar.chain(queued)
    }

    // ----- arrivals and credits ---------------------------------------------------------------

    /// A flit arrives at input port `port` (in the receive phase of cycle `now`).
    pub fn accept_flit(
        &mut self,
        port: u32,
        f: Flit,
        now: u32,
        step: u64,
        next_step_cycle: u32,
        env: &mut RouteEnv,
    ) {
        let iv = (port * self.vcs + f.vc as u32) as usize;
        let slot = self.alloc_slot(f);
        let vc = &mut self.iv[iv];
        if vc.tail == NONE {
            vc.head = slot;
        } else {
            self.next[vc.tail as usize] = slot;
        }
        vc.tail = slot;
        vc.len += 1;
        self.buffered += 1;
        if vc.state == IDLE {
            debug_assert!(f.is_head(), "a body flit arrived at an idle VC");
            self.start_head(iv, false, now, step, next_step_cycle, env);
        }
    }

    /// A credit for VC `vc` of output port `port`, `credit_delay` cycles after it arrived,
    /// frees a buffer slot downstream.
    #[inline]
    pub fn return_credit(&mut self, port: u32, vc: u8) {
        let ov = port * self.vcs + vc as u32;
        let o = ov as usize;
        let out = &mut self.ov[o];
        debug_assert!(out.used > 0, "credit for an empty output VC");
        out.used -= 1;
        if self.wait_tail && out.tail_sent && out.used == 0 {
            out.tail_sent = false;
            out.owner = NONE;
            self.ov_free.insert(ov);
        }
        self.op_used[port as usize] -= 1;
    }

    /// The head flit at the front of `iv` starts routing. `at_update`: it became the front when
    /// the tail ahead of it won the switch in this step; BookSim2 lets it ask for an output VC
    /// only from the next step on, topolab's default in this step's VC allocation (which runs
    /// after the switch allocation).
    // Inlined into its three callers: it runs once per packet and hop, and as a call it cost
    // 1.1-1.4% more instructions (benches/results/simulator-speed.csv).
    #[inline(always)]
    fn start_head(
        &mut self,
        iv: usize,
        at_update: bool,
        now: u32,
        step: u64,
        next_step_cycle: u32,
        env: &mut RouteEnv,
    ) {
        let later = at_update && self.booksim;
        let step = step as u32;
        self.iv[iv].step = if later { step.wrapping_add(1) } else { step };
        if self.routing_delay == 0 {
            self.compute_route(iv, env);
            self.iv[iv].state = VC_ALLOC;
            self.iv[iv].ready = 0;
            self.vca_list.push(iv as u32);
        } else {
            let eval = if later { next_step_cycle } else { now };
            self.iv[iv].state = ROUTING;
            self.iv[iv].ready = eval + self.routing_delay - 1;
            self.routing_list.push(iv as u32);
        }
    }

    fn compute_route(&mut self, iv: usize, env: &mut RouteEnv) {
        let port = self.by_v.quot(iv as u32);
        let ctx = RouteCtx {
            topo: env.topo,
            router: self.router,
            in_port: port,
            from_endpoint: port < self.n_ep,
            in_vc: iv as u32 - port * self.vcs,
            num_vcs: self.vcs,
            port_used: &self.op_used,
            global: env.global,
            booksim: self.booksim,
        };
        let slot = self.iv[iv].head as usize;
        let choice = env.routing.route(&ctx, &mut self.flits[slot], env.rng);
        // The "held" invariant's entry point (unchecked indexing in the allocation loops):
        // checked in every build, once per head.
        assert!(
            choice.port < self.n_out
                && choice.vc_lo <= choice.vc_hi
                && (choice.vc_hi as u32) < self.vcs,
            "routing chose output port {} VCs {}..={} at a router of {} outputs and {} VCs",
            choice.port,
            choice.vc_lo,
            choice.vc_hi,
            self.n_out,
            self.vcs
        );
        let i = &mut self.iv[iv];
        i.port = choice.port as u16;
        i.vc_lo = choice.vc_lo;
        i.vc_hi = choice.vc_hi;
    }

    // ----- one internal step ------------------------------------------------------------------

    /// One internal step, compiled for the router's configuration (`step_as`).
    pub fn step(
        &mut self,
        now: u32,
        step: u64,
        next_step_cycle: u32,
        env: &mut RouteEnv,
        stats: &mut RouterStats,
        out: &mut Outbox,
    ) {
        match (self.one_flit, self.fused_output) {
            (true, true) => self.step_as::<true, true>(now, step, next_step_cycle, env, stats, out),
            (true, false) => {
                self.step_as::<true, false>(now, step, next_step_cycle, env, stats, out)
            }
            _ => self.step_as::<false, false>(now, step, next_step_cycle, env, stats, out),
        }
    }

    /// One internal step. `ONE_FLIT`: `one_flit` holds; `FUSED` (with `ONE_FLIT` only):
    /// `fused_output` holds as well. The general step (`ONE_FLIT` false) reads both from the
    /// configuration at run time.
    fn step_as<const ONE_FLIT: bool, const FUSED: bool>(
        &mut self,
        now: u32,
        step: u64,
        next_step_cycle: u32,
        env: &mut RouteEnv,
        stats: &mut RouterStats,
        out: &mut Outbox,
    ) {
        // With unit delays the flits granted in the last step leave the crossbar now; with
        // fused output `emit` sends them instead.
        let unit_crossing = if ONE_FLIT {
            !FUSED
        } else {
            !self.fused_output && self.unit_xbar
        };
        if unit_crossing && !self.crossing.is_empty() {
            let crossed = std::mem::take(&mut self.crossing);
            for x in &crossed {
                debug_assert!(x.ready <= now && x.step < step);
                self.leave_crossbar(x);
            }
            self.crossing = crossed;
            self.crossing.clear();
        }
        while let Some(x) = self.xbar.front().copied() {
            if ONE_FLIT || self.unit_xbar || x.ready > now || x.step >= step {
                break;
            }
            self.xbar.pop_front();
            self.leave_crossbar(&x);
        }
        if self.booksim {
            self.vc_evaluate::<ONE_FLIT>(now, step, env);
            self.sw_allocate::<ONE_FLIT, FUSED>(now, step, next_step_cycle, env, stats, out);
            self.vc_apply::<ONE_FLIT>(now, stats);
        } else {
            self.sw_allocate::<ONE_FLIT, FUSED>(now, step, next_step_cycle, env, stats, out);
            self.vc_evaluate::<ONE_FLIT>(now, step, env);
            self.vc_apply::<ONE_FLIT>(now, stats);
        }
        if !self.routing_list.is_empty() {
            self.finish_routing(now, step, env);
        }
    }

    /// A flit leaves the crossbar for its output queue. The hop and the output VC are written
    /// here rather than when the flit wins the switch: the switch allocation then reads only
    /// the VC records, not the flits.
    #[inline]
    fn leave_crossbar(&mut self, x: &Xbar) {
        let f = &mut self.flits[x.slot as usize];
        f.hops = f.hops.saturating_add(1);
        f.vc = x.vc;
        self.enqueue_output(x.slot, x.port);
    }

    fn enqueue_output(&mut self, slot: u32, port: u32) {
        let p = port as usize;
        self.next[slot as usize] = NONE;
        if self.oq_tail[p] == NONE {
            self.oq_head[p] = slot;
            self.oq_ports.push(port);
        } else {
            self.next[self.oq_tail[p] as usize] = slot;
        }
        self.oq_tail[p] = slot;
        self.oq_len[p] += 1;
    }

    /// The front flit of `iv` (an active input VC with a flit, granted the switch), VC
    /// `in_vc` of input port `in_port`, wins the switch: it leaves the input buffer for the
    /// crossbar. The switch allocation passes the port and VC it computed, so they are not
    /// divided out of `iv` again.
    #[allow(clippy::too_many_arguments, unsafe_code)]
    fn send_flit<const ONE_FLIT: bool, const FUSED: bool>(
        &mut self,
        iv: usize,
        in_port: u32,
        in_vc: u32,
        now: u32,
        step: u64,
        next_step_cycle: u32,
        env: &mut RouteEnv,
        stats: &mut RouterStats,
        out: &mut Outbox,
    ) {
        debug_assert_eq!(in_port * self.vcs + in_vc, iv as u32);
        // SAFETY: the granted VC comes from active_list ("lists").
        let i = unsafe { self.iv.at_mut(iv) };
        let slot = i.head;
        // SAFETY: the VC holds a flit (the switch scan skips empty ones), so its head is a
        // slot ("slab").
        i.head = unsafe { *self.next.at(slot as usize) };
        if i.head == NONE {
            i.tail = NONE;
        }
        i.len -= 1;
        let ov = i.ov;
        // An active VC's output VC lies on its route's port ("held").
        let port = i.port as u32;
        debug_assert_eq!(port, self.by_v.quot(ov));
        self.buffered -= 1;
        // Every packet has `pkt` flits: with one, each flit is a tail, known without reading it.
        let tail = ONE_FLIT || self.pkt == 1 || self.flits[slot as usize].is_tail();
        // SAFETY: an active VC holds an output VC ("held").
        let o = unsafe { self.ov.at_mut(ov as usize) };
        o.used += 1;
        if tail {
            o.tail_sent = true;
            if !self.wait_tail {
                o.owner = NONE;
                self.ov_free.insert(ov);
            }
        }
        // SAFETY: port = ov / V < n_out for an active VC ("held", "fixed").
        unsafe { *self.op_used.at_mut(port as usize) += 1 };
        let update = now + self.sw_delay - 1;
        let credit_vc = in_vc as u8;
        if ONE_FLIT && FUSED {
            // One grant per input port per cycle: always its port's first.
            out.credit(in_port, credit_vc, self.n_ep);
        } else if (ONE_FLIT || self.sw_delay == 1)
            && self.credit_sent[in_port as usize] != now
            && self.credit_backlog[in_port as usize] == 0
        {
            // `emit` would send it at the end of this cycle, as its port's first: sent now
            // (always so with one internal step). The credits of one cycle may go in any order
            // (their receivers only count them).
            self.credit_sent[in_port as usize] = now;
            out.credit(in_port, credit_vc, self.n_ep);
        } else {
            self.credit_backlog[in_port as usize] += 1;
            self.credit_q.push_back((in_port, credit_vc, update));
        }
        let xbar_start = if ONE_FLIT || self.sw_delay == 1 {
            next_step_cycle
        } else {
            update + 1
        };
        let x = Xbar {
            slot,
            port,
            ready: if ONE_FLIT {
                next_step_cycle
            } else {
                xbar_start + self.xbar_delay - 1
            },
            vc: (ov - port * self.vcs) as u8,
            step,
        };
        if ONE_FLIT || self.unit_xbar {
            self.crossing.push(x);
        } else {
            self.xbar.push_back(x);
        }
        if !ONE_FLIT && self.sw_delay > 1 {
            self.iv[iv].ready = update;
        }
        stats.flit_hops += 1;
        stats.moved += 1;
        if tail {
            // Leaves active_list at the next switch allocation scan.
            // SAFETY: as above, iv is an input VC ("lists").
            let i = unsafe { self.iv.at_mut(iv) };
            i.ov = NONE;
            if i.len == 0 {
                i.state = IDLE;
            } else {
                self.start_head(iv, true, now, step, next_step_cycle, env);
            }
        }
    }

    fn finish_routing(&mut self, now: u32, step: u64, env: &mut RouteEnv) {
        let mut k = 0;
        while k < self.routing_list.len() {
            let iv = self.routing_list[k] as usize;
            if !after(self.iv[iv].step, step as u32) && self.iv[iv].ready <= now {
                self.routing_list.swap_remove(k);
                self.compute_route(iv, env);
                let i = &mut self.iv[iv];
                i.state = VC_ALLOC;
                i.step = (step as u32).wrapping_add(1);
                i.ready = 0;
                self.vca_list.push(iv as u32);
            } else {
                k += 1;
            }
        }
    }

    // ----- end of cycle -----------------------------------------------------------------------

    /// Each output port sends one queued flit; each input port sends one credit. Router-bound
    /// ones are appended to `flits_out` / `credits_out`; endpoint-bound ones go into the
    /// endpoints' wheels at cycle `ep_arrival`.
    pub fn emit(&mut self, now: u32, out: &mut Outbox) {
        if self.fused_output {
            self.emit_fused(now, out);
        }
        let mut k = 0;
        while k < self.oq_ports.len() {
            let p = self.oq_ports[k] as usize;
            let slot = self.oq_head[p];
            self.oq_head[p] = self.next[slot as usize];
            self.oq_len[p] -= 1;
            out.flit(p as u32, self.flits[slot as usize], self.n_ep);
            self.free.push(slot);
            if self.oq_head[p] == NONE {
                self.oq_tail[p] = NONE;
                self.oq_ports.swap_remove(k);
            } else {
                k += 1;
            }
        }
        // Credits sent when produced (`send_flit`) never enter the queue.
        if self.credit_q.is_empty() {
            return;
        }
        self.credit_keep.clear();
        while let Some((port, vc, earliest)) = self.credit_q.pop_front() {
            if earliest <= now && self.credit_sent[port as usize] != now {
                self.credit_sent[port as usize] = now;
                self.credit_backlog[port as usize] -= 1;
                out.credit(port, vc, self.n_ep);
            } else {
                self.credit_keep.push((port, vc, earliest));
            }
        }
        self.credit_q.extend(self.credit_keep.drain(..));
    }

    /// The output stage with one internal step per cycle and unit switch and crossbar delays.
    /// A flit granted the switch in cycle A leaves the crossbar in A + 1 and is sent at the end
    /// of A + 1; each output port is granted at most once per cycle, so its output queue holds
    /// at most that one flit when it sends, and the queue is empty again between cycles. The
    /// flits granted in the previous cycle (`leaving`; a router holding any is processed in
    /// the next cycle, `busy`) are therefore sent straight from the crossbar, without passing
    /// through the output queues, in the order the queues would have sent them (`emit`'s scan
    /// with swap_remove: the first one entered, then the others from the last entered back),
    /// so the receivers see the same arrival order; this cycle's grants leave in the next.
    fn emit_fused(&mut self, now: u32, out: &mut Outbox) {
        debug_assert!(self.oq_ports.is_empty());
        debug_assert!(self.leaving.iter().all(|x| x.ready == now));
        let due = self.leaving.len();
        if due > 0 {
            for k in std::iter::once(0).chain((1..due).rev()) {
                let x = self.leaving[k];
                let f = &mut self.flits[x.slot as usize];
                f.hops = f.hops.saturating_add(1);
                f.vc = x.vc;
                out.flit(x.port, *f, self.n_ep);
                self.free.push(x.slot);
            }
            self.leaving.clear();
        }
        std::mem::swap(&mut self.leaving, &mut self.crossing);
    }

    /// Work left that needs the router processed next cycle even without arrivals.
    #[inline]
    pub fn busy(&self) -> bool {
        self.buffered > 0
            || !self.xbar.is_empty()
            || !self.crossing.is_empty()
            || !self.leaving.is_empty()
            || !self.oq_ports.is_empty()
            || !self.credit_q.is_empty()
    }

    /// Flits held in the router's input buffers, crossbar and output queues.
    pub fn held_flits(&self) -> u64 {
        self.buffered as u64
            + self.xbar.len() as u64
            + self.leaving.len() as u64
            + self.crossing.len() as u64
            + self.oq_len.iter().map(|&l| l as u64).sum::<u64>()
    }
}
