//! The endpoints attached to one router: their source queues, injection channels with the
//! buffer state of the router's input VCs, and ejection channels (BookSim2's TrafficManager
//! side of each node, _Step). An endpoint consumes every flit the cycle it arrives and returns
//! its credit at once; it injects at most one flit per cycle, choosing a VC for each head round
//! robin from the last one used among the VCs the routing allows, free and with space.

use super::{CycleCtx, Phase};
use crate::config::FlowControl;
use crate::flit::{Flit, Wheel, HEAD, MEASURED, TAIL};
use crate::injection::{Source, NEVER};
use crate::stats::RouterStats;
use rand_chacha::ChaCha8Rng;

const NO_VC: u8 = u8::MAX;

#[derive(Debug, Clone)]
pub struct Endpoints {
    pub n: u32,
    pub first: u32,
    vcs: u32,
    buf: u32,
    latency: u32,
    /// Cycle of the next packet creation.
    pub next_gen: Vec<u64>,
    pub partial: Vec<Flit>,
    /// Flits of the current packet not yet injected (0: none).
    pub left: Vec<u32>,
    cur_vc: Vec<u8>,
    last_vc: Vec<u8>,
    /// Injection channel buffer state, per (endpoint, vc).
    pub vc_busy: Vec<bool>,
    pub vc_used: Vec<u32>,
    vc_tail_sent: Vec<bool>,
    /// Exchange progress: (message index, packets left in it).
    msg: Vec<(u32, u32)>,
    /// Flits (endpoint, flit) and injection-channel credits (endpoint, vc) arriving from the
    /// router. What endpoints send goes into the router's own wheels.
    pub ej_wheel: Wheel<(u32, Flit)>,
    pub cr_wheel: Wheel<(u32, u8)>,
    arrived: Vec<(u32, Flit)>,
    credits: Vec<(u32, u8)>,
}

impl Endpoints {
    pub fn new(n: u32, first: u32, vcs: u32, buf: u32, latency: u32) -> Endpoints {
        let nv = (n * vcs) as usize;
        Endpoints {
            n,
            first,
            vcs,
            buf,
            latency,
            next_gen: vec![NEVER; n as usize],
            partial: vec![Flit::default(); n as usize],
            left: vec![0; n as usize],
            cur_vc: vec![NO_VC; n as usize],
            last_vc: vec![NO_VC; n as usize],
            vc_busy: vec![false; nv],
            vc_used: vec![0; nv],
            vc_tail_sent: vec![false; nv],
            msg: vec![(0, 0); n as usize],
            ej_wheel: Wheel::new(latency + 1),
            cr_wheel: Wheel::new(latency + 1),
            arrived: Vec::new(),
            credits: Vec::new(),
        }
    }

    /// First creation cycles (Bernoulli) or first messages (exchange).
    pub fn start(&mut self, source: &Source, rng: &mut ChaCha8Rng) {
        for e in 0..self.n as usize {
            match source {
                Source::Bernoulli { .. } => self.next_gen[e] = source.gap(rng),
                Source::Exchange(x) => {
                    let src = (self.first as usize) + e;
                    self.msg[e] = (0, 0);
                    if let Some(list) = x.per_source.get(src) {
                        if let Some(&(_, packets)) = list.first() {
                            self.msg[e] = (0, packets);
                        }
                    }
                    self.next_gen[e] = 0;
                }
            }
        }
    }

    /// One cycle of every endpoint: ejection, credits, packet creation, injection. Flits and
    /// credits for the router go into its wheels (`to_router`, `credits_to_router`).
    #[allow(clippy::too_many_arguments)]
    pub fn cycle(
        &mut self,
        ctx: &CycleCtx,
        rng_inject: &mut ChaCha8Rng,
        rng_traffic: &mut ChaCha8Rng,
        rng_route: &mut ChaCha8Rng,
        stats: &mut RouterStats,
        to_router: &mut Wheel<(u32, Flit)>,
        credits_to_router: &mut Wheel<(u32, u8)>,
    ) {
        let now = ctx.now;
        let counting = matches!(ctx.phase, Phase::WarmingUp | Phase::Running);
        let v = self.vcs as usize;
        let back = now + self.latency + 1;
        // Ejection: each flit is consumed and its credit sent back.
        if self.ej_wheel.has(now) {
            self.ej_wheel.take(now, &mut self.arrived);
            for &(e, f) in &self.arrived {
                debug_assert_eq!(f.dest, self.first + e, "flit ejected at the wrong endpoint");
                retire(&f, now, ctx.phase, counting, stats);
                credits_to_router.push(back, (e, f.vc));
            }
        }
        // Credits for the injection channels.
        if self.cr_wheel.has(now) {
            self.cr_wheel.take(now, &mut self.credits);
            let wait_tail = ctx.cfg.wait_for_tail_credit;
            for &(e, vc) in &self.credits {
                let i = e as usize * v + vc as usize;
                self.vc_used[i] -= 1;
                if wait_tail && self.vc_tail_sent[i] && self.vc_used[i] == 0 {
                    self.vc_tail_sent[i] = false;
                    self.vc_busy[i] = false;
                }
            }
        }
        for e in 0..self.n as usize {
            if self.left[e] == 0 {
                if !ctx.generating || self.next_gen[e] > now as u64 {
                    continue;
                }
                self.create(e, ctx, rng_inject, rng_traffic, stats);
            }
            if self.left[e] > 0 {
                self.inject(e, ctx, counting, rng_route, stats, to_router);
            }
        }
    }

    fn create(
        &mut self,
        e: usize,
        ctx: &CycleCtx,
        rng_inject: &mut ChaCha8Rng,
        rng_traffic: &mut ChaCha8Rng,
        stats: &mut RouterStats,
    ) {
        let now = ctx.now as u64;
        let src = self.first + e as u32;
        let dest_and_time = match ctx.source {
            Source::Bernoulli { traffic, .. } => {
                let mut found = None;
                while self.next_gen[e] <= now {
                    let ctime = self.next_gen[e];
                    self.next_gen[e] = ctime
                        .saturating_add(1)
                        .saturating_add(ctx.source.gap(rng_inject));
                    if let Some(d) = traffic.destination(src, rng_traffic) {
                        found = Some((d, ctime as u32));
                        break;
                    }
                }
                found
            }
            Source::Exchange(x) => {
                let (idx, left) = self.msg[e];
                if left == 0 {
                    None
                } else {
                    let list = &x.per_source[src as usize];
                    let dest = list[idx as usize].0;
                    self.msg[e] = if left > 1 {
                        (idx, left - 1)
                    } else {
                        // Next message with packets.
                        let mut k = idx as usize + 1;
                        while k < list.len() && list[k].1 == 0 {
                            k += 1;
                        }
                        if k < list.len() {
                            (k as u32, list[k].1)
                        } else {
                            (k as u32, 0)
                        }
                    };
                    if self.msg[e].1 == 0 {
                        self.next_gen[e] = NEVER;
                    }
                    Some((dest, ctx.now))
                }
            }
        };
        let Some((dest, ctime)) = dest_and_time else {
            return;
        };
        let measured = match ctx.phase {
            Phase::Running => true,
            Phase::Draining | Phase::Emptying => ctime < ctx.drain_time,
            Phase::WarmingUp => false,
        };
        let size = ctx.cfg.packet_size;
        self.partial[e] = Flit {
            src,
            dest,
            dest_router: ctx.topo.endpoint_router(dest),
            ctime,
            itime: 0,
            intermediate: 0,
            hops: 0,
            flags: if measured { MEASURED } else { 0 },
            phase: 0,
            vc: 0,
        };
        self.left[e] = size;
        self.cur_vc[e] = NO_VC;
        stats.gen_flits += size as u64;
        stats.gen_ctime = stats.gen_ctime.wrapping_add(ctime as u64 * size as u64);
        if measured {
            stats.meas_gen_flits += size as u64;
        }
    }

    fn inject(
        &mut self,
        e: usize,
        ctx: &CycleCtx,
        counting: bool,
        rng_route: &mut ChaCha8Rng,
        stats: &mut RouterStats,
        to_router: &mut Wheel<(u32, Flit)>,
    ) {
        let now = ctx.now;
        let v = self.vcs;
        let size = ctx.cfg.packet_size;
        let need = if ctx.cfg.flow_control == FlowControl::Vct {
            size
        } else {
            1
        };
        let base = e * v as usize;
        if self.cur_vc[e] == NO_VC {
            let (lo, hi) = ctx
                .routing
                .injection_vcs(v, ctx.cfg.booksim_compat, rng_route);
            let count = (hi - lo + 1) as u32;
            let last = self.last_vc[e];
            for i in 1..=count {
                let vc = if last < lo || last > hi {
                    lo
                } else {
                    lo + ((last - lo) as u32 + i).rem_euclid(count) as u8
                };
                let k = base + vc as usize;
                if !self.vc_busy[k] && self.buf - self.vc_used[k] >= need {
                    self.vc_busy[k] = true;
                    self.vc_tail_sent[k] = false;
                    self.last_vc[e] = vc;
                    self.cur_vc[e] = vc;
                    self.partial[e].itime = now;
                    break;
                }
            }
            if self.cur_vc[e] == NO_VC {
                return;
            }
        }
        let vc = self.cur_vc[e];
        let k = base + vc as usize;
        if self.vc_used[k] >= self.buf {
            return;
        }
        let mut f = self.partial[e];
        f.vc = vc;
        if self.left[e] == size {
            f.flags |= HEAD;
        }
        if self.left[e] == 1 {
            f.flags |= TAIL;
        }
        self.vc_used[k] += 1;
        if f.is_tail() {
            self.vc_tail_sent[k] = true;
            if !ctx.cfg.wait_for_tail_credit {
                self.vc_busy[k] = false;
            }
        }
        to_router.push(now + self.latency + 1, (e as u32, f));
        self.left[e] -= 1;
        if self.left[e] == 0 {
            self.cur_vc[e] = NO_VC;
        }
        if counting {
            stats.sent_flits += 1;
        }
        stats.moved += 1;
    }

    /// Brings these endpoints' state into the cache ahead of their turn (see `crate::read_ahead`).
    pub fn read_ahead(&self, now: u32) {
        use crate::read_ahead::slice;
        slice(&self.next_gen);
        slice(&self.left);
        slice(&self.partial);
        slice(&self.cur_vc);
        slice(&self.vc_busy);
        slice(&self.vc_used);
        self.ej_wheel.read_ahead(now);
        self.cr_wheel.read_ahead(now);
    }

    /// Some endpoint holds a packet it is injecting.
    pub fn busy(&self) -> bool {
        self.left.iter().any(|&l| l > 0)
    }

    /// Earliest future event of the endpoints after `now`: a creation or an arrival from the
    /// router.
    pub fn next_wake(&self, now: u32, generating: bool) -> u32 {
        let mut w = self
            .ej_wheel
            .next_after(now)
            .min(self.cr_wheel.next_after(now));
        if generating {
            for e in 0..self.n as usize {
                if self.left[e] == 0 && self.next_gen[e] < w as u64 {
                    w = self.next_gen[e] as u32;
                }
            }
        }
        w
    }

    /// Every endpoint has created all the packets stamped before `drain_time`.
    pub fn drained(&self, drain_time: u32) -> bool {
        self.next_gen.iter().all(|&g| g >= drain_time as u64)
    }
}

/// A flit reaches its endpoint: throughput and, at the tail, packet statistics.
#[inline]
fn retire(f: &Flit, now: u32, phase: Phase, counting: bool, stats: &mut RouterStats) {
    if counting {
        stats.accepted_flits += 1;
    }
    stats.ej_flits += 1;
    stats.max_hops = stats.max_hops.max(f.hops as u32);
    stats.last_eject = now;
    stats.ej_ctime = stats.ej_ctime.wrapping_add(f.ctime as u64);
    stats.moved += 1;
    if f.measured() {
        stats.meas_ej_flits += 1;
    }
    if f.is_tail() && (phase == Phase::WarmingUp || f.measured()) {
        let plat = now - f.ctime;
        stats.packets += 1;
        stats.plat_sum += plat as u64;
        stats.nlat_sum += (now - f.itime) as u64;
        stats.hops_sum += f.hops as u64;
        stats.plat_samples.push(plat);
    }
}
