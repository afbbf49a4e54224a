//! VC and switch allocation of the input-queued router (steps 3 and 4 of iq.rs's internal
//! step): BookSim2's separable input-first allocators with round-robin arbiters, their input
//! stages fused into the scans of the router's work lists (`vca_list`, `active_list`).

use super::{after, IqState, RouteEnv, ACTIVE, VC_ALLOC};
use crate::allocator::{first_from, next_mod, rr_distance};
use crate::router::hotpotato::deflection_port;
use crate::router::Outbox;
use crate::stats::RouterStats;
use crate::topo::NONE;
use crate::unchecked::Unchecked;
use rand::Rng;

/// A switch input port's arbiter: its pointers over outputs and over its VCs, and its pick
/// in the current allocation (`iv` NONE when it has none), side by side so that a request
/// reads one record.
#[derive(Debug, Clone, Copy)]
pub struct SwInput {
    /// (output distance << 8 | VC distance) of the pick, its input VC and its output port.
    pub key: u32,
    pub iv: u32,
    pub out: u32,
    /// Round-robin pointers: the output and the VC after the port's last winners.
    pub out_ptr: u16,
    pub vc_ptr: u16,
}

/// A head's priority under `vc_priority = hops`: the routers it traversed (beyond 255 alike).
#[inline]
fn rank(hops: u16) -> u8 {
    hops.min(u8::MAX as u16) as u8
}

impl IqState {
    /// VC allocation, input stage fused: each waiting head picks, among the free VCs of its
    /// route, the one first in round-robin order from its pointer; the output stage follows.
    #[allow(unsafe_code)]
    pub(super) fn vc_evaluate<const ONE_FLIT: bool>(
        &mut self,
        now: u32,
        step: u64,
        env: &mut RouteEnv,
    ) {
        self.vc_grants.clear();
        self.tried.clear();
        let v = self.vcs;
        let step = step as u32;
        for &iv in &self.vca_list {
            // SAFETY: a vca_list entry is an input VC ("lists", IqState's index invariants).
            let i = unsafe { self.iv.at(iv as usize) };
            if after(i.step, step) || i.ready > now || i.state != VC_ALLOC {
                continue;
            }
            // With vc_alloc_delay 1 a requester without a grant asks again in the next step
            // anyway (its `ready` stays at or before now): only longer delays need the list.
            if !ONE_FLIT && self.vc_delay > 1 {
                self.tried.push(iv);
            }
            let rt = i.route();
            let ptr = i.vc_ptr;
            let mut best = NONE;
            if !ONE_FLIT && self.vct {
                best = self.free_vct_vc(rt.port, rt.vc_lo, rt.vc_hi, ptr);
            } else {
                let lo = rt.port * v + rt.vc_lo as u32;
                if rt.vc_hi == rt.vc_lo {
                    // One candidate (a VC class per phase, as the Dragonfly's): no arbiter.
                    if self.ov_free.contains(lo) {
                        best = lo;
                    }
                } else {
                    let free = self.ov_free.range(lo, (rt.vc_hi - rt.vc_lo) as u32 + 1);
                    if free != 0 {
                        best = lo + first_from(free, ptr.wrapping_sub(lo));
                    }
                }
            }
            if ONE_FLIT || (self.deflect.is_none() && !self.hop_priority) {
                if best != NONE {
                    self.vc_out.offer(iv, best);
                }
            } else if best != NONE {
                if self.hop_priority {
                    let hops = self.flits[i.head as usize].hops;
                    self.vc_out.offer_with_priority(iv, best, rank(hops));
                } else {
                    self.vc_out.offer(iv, best);
                }
            } else if self.deflect.is_some() {
                self.blocked.push(iv);
            }
        }
        if !ONE_FLIT && !self.blocked.is_empty() {
            self.offer_detours(step, env);
        }
        self.vc_out.finish(&mut self.vc_grants);
    }

    /// The free output VC of `port` in `lo..=hi` with room for a whole packet (virtual
    /// cut-through), first in round-robin order from `ptr`; NONE if none.
    #[inline(always)]
    fn free_vct_vc(&self, port: u32, lo: u8, hi: u8, ptr: u32) -> u32 {
        let v = self.vcs;
        let size = self.n_out * v;
        let mut best = NONE;
        let mut best_d = u32::MAX;
        for vc in lo as u32..=hi as u32 {
            let ov = port * v + vc;
            let o = &self.ov[ov as usize];
            if o.owner != NONE || self.buf - (o.used as u32) < self.pkt {
                continue;
            }
            let d = rr_distance(ov, ptr, size);
            if d < best_d {
                best_d = d;
                best = ov;
            }
        }
        best
    }

    /// The free output VC of `port` in `lo..=hi` the VC allocator's input arbiter would pick
    /// (with virtual cut-through only one with room for a whole packet); NONE if none.
    fn free_vc(&self, port: u32, lo: u8, hi: u8, ptr: u32) -> u32 {
        if self.vct {
            return self.free_vct_vc(port, lo, hi, ptr);
        }
        let start = port * self.vcs + lo as u32;
        let free = self.ov_free.range(start, (hi - lo) as u32 + 1);
        if free == 0 {
            NONE
        } else {
            start + first_from(free, ptr.wrapping_sub(start))
        }
    }

    /// Deflection (`deflect`): every head in `blocked` found no VC on its route's output. It is
    /// offered a VC of the same range on another minimal output (uniformly among those with
    /// one), and, when none has one and it has waited `deflect_after` steps, on a router
    /// output off its minimal paths (uniformly, or among those whose next router is nearest
    /// its destination). The hop-indexed VC range depends on the hop number alone (the
    /// routings `check` admits), so it holds on every output. A head at its destination
    /// router waits for its ejection port.
    fn offer_detours(&mut self, step: u32, env: &mut RouteEnv) {
        let blocked = std::mem::take(&mut self.blocked);
        for &iv in &blocked {
            let i = self.iv[iv as usize];
            let f = self.flits[i.head as usize];
            if f.dest_router == self.router {
                continue;
            }
            let (lo, hi, ptr) = (i.vc_lo, i.vc_hi, i.vc_ptr);
            let mut pick = NONE;
            let mut seen = 0u32;
            let rng = &mut *env.rng;
            env.routing
                .each_candidate(env.topo, self.router, &f, |first, width, _| {
                    for p in first..first + width {
                        let ov = self.free_vc(p, lo, hi, ptr);
                        if ov != NONE {
                            seen += 1;
                            if rng.random_range(0..seen) == 0 {
                                pick = ov;
                            }
                        }
                    }
                });
            let mut deflected = false;
            let waited = step.wrapping_sub(i.step);
            if pick == NONE && waited >= self.deflect_after {
                // Every minimal output is blocked: any router output with a VC is off the
                // minimal paths.
                let how = self.deflect.expect("offer_detours runs with deflect on");
                let port = deflection_port(
                    env.topo,
                    env.routing,
                    self.router,
                    f.dest_router,
                    self.n_ep..self.n_out,
                    how,
                    env.rng,
                    |p| self.free_vc(p, lo, hi, ptr) != NONE,
                );
                if let Some(p) = port {
                    pick = self.free_vc(p, lo, hi, ptr);
                }
                deflected = pick != NONE;
            }
            if pick != NONE {
                self.detours.push((iv, pick, deflected));
                if self.hop_priority {
                    self.vc_out.offer_with_priority(iv, pick, rank(f.hops));
                } else {
                    self.vc_out.offer(iv, pick);
                }
            }
        }
        self.blocked = blocked;
        self.blocked.clear();
    }

    #[allow(unsafe_code)]
    pub(super) fn vc_apply<const ONE_FLIT: bool>(&mut self, now: u32, stats: &mut RouterStats) {
        // Requesters without a grant ask again vc_alloc_delay cycles on (`tried` is empty
        // with a delay of 1: they ask again in the next step).
        let retry = now + self.vc_delay;
        for k in 0..self.tried.len() {
            let iv = self.tried[k] as usize;
            self.iv[iv].ready = retry;
        }
        let nov = self.n_out * self.vcs;
        if !ONE_FLIT && self.deflect.is_some() {
            self.count_detours(stats);
        }
        for k in 0..self.vc_grants.len() {
            // SAFETY: k < vc_grants.len(), the loop's bound.
            let (iv, ov) = unsafe { *self.vc_grants.at(k) };
            // SAFETY: a granted output VC is one offered, an output VC ("held").
            let o = unsafe { self.ov.at_mut(ov as usize) };
            o.owner = iv;
            self.ov_free.remove(ov);
            // SAFETY: a granted input VC is an input VC ("lists").
            let i = unsafe { self.iv.at_mut(iv as usize) };
            i.ov = ov;
            i.state = ACTIVE;
            i.vc_ptr = next_mod(ov, nov);
            // Switch requests from the next step on, or vc_alloc_delay cycles later.
            i.ready = if !ONE_FLIT && self.vc_delay > 1 {
                now + self.vc_delay - 1
            } else {
                0
            };
            if !i.listed {
                i.listed = true;
                self.active_list.push(iv);
            }
        }
        if !self.vc_grants.is_empty() {
            let ivs = &self.iv;
            // SAFETY: a vca_list entry is an input VC ("lists").
            self.vca_list
                .retain(|&iv| unsafe { ivs.at(iv as usize) }.state == VC_ALLOC);
        }
        self.tried.clear();
        self.vc_grants.clear();
    }

    /// Deflection: the heads granted a VC on another output than their route's take that
    /// output as their route; the router's hops to other routers and the deflections among
    /// them are counted (a packet's flits all follow its head, so the share of deflected hops
    /// is the same per packet as per flit).
    fn count_detours(&mut self, stats: &mut RouterStats) {
        let by_v = self.by_v;
        for &(iv, ov) in &self.vc_grants {
            let port = by_v.quot(ov);
            if port < self.n_ep {
                continue;
            }
            stats.router_hops += 1;
            if let Some(&(_, _, deflected)) = self
                .detours
                .iter()
                .find(|&&(d_iv, d_ov, _)| d_iv == iv && d_ov == ov)
            {
                self.iv[iv as usize].port = port as u16;
                stats.deflections += deflected as u64;
            }
        }
        self.detours.clear();
    }

    /// Switch allocation, input stage fused: per input port, the output first in round-robin
    /// order from the port's pointer among those its active VCs (with a flit and a credit) ask
    /// for, and for that output the VC first from the VC after the port's last winner
    /// (BookSim2's per-input request replacement, RoundRobinArbiter::Supersedes); the output
    /// stage follows.
    #[allow(unsafe_code)]
    pub(super) fn sw_allocate<const ONE_FLIT: bool, const FUSED: bool>(
        &mut self,
        now: u32,
        step: u64,
        next_step_cycle: u32,
        env: &mut RouteEnv,
        stats: &mut RouterStats,
        out: &mut Outbox,
    ) {
        let (v, by_v) = (self.vcs, self.by_v);
        // Entries whose VC is no longer active (its tail left) are dropped here.
        let mut k = 0;
        while k < self.active_list.len() {
            // SAFETY: k < active_list.len(), the loop's bound.
            let iv = unsafe { *self.active_list.at(k) };
            // SAFETY: an active_list entry is an input VC ("lists").
            let i = unsafe { self.iv.at_mut(iv as usize) };
            if i.state != ACTIVE {
                i.listed = false;
                self.active_list.swap_remove(k);
                continue;
            }
            k += 1;
            if i.len == 0 || (i.ready != 0 && i.ready >= now) {
                continue;
            }
            // SAFETY: an active VC holds an output VC ("held").
            if unsafe { self.ov.at(i.ov as usize) }.used as u32 >= self.buf {
                continue;
            }
            let in_port = by_v.quot(iv);
            // An active VC's output VC lies on its route's port ("held").
            let out_port = i.port as u32;
            debug_assert_eq!(out_port, by_v.quot(i.ov));
            // SAFETY: iv < n_in x V ("lists"), so iv / V < n_in = sw_in.len() ("fixed").
            let a = unsafe { self.sw_in.at_mut(in_port as usize) };
            // (output distance, VC distance) as one number: VC distances are below 64.
            let key = rr_distance(out_port, a.out_ptr as u32, self.n_out) << 8
                | rr_distance(iv - in_port * v, a.vc_ptr as u32, v);
            if a.iv == NONE {
                self.sw_touched.push(in_port);
                (a.key, a.iv, a.out) = (key, iv, out_port);
            } else if key < a.key {
                (a.key, a.iv, a.out) = (key, iv, out_port);
            }
        }
        if self.sw_touched.is_empty() {
            return;
        }
        for &ip in &self.sw_touched {
            // SAFETY: a sw_touched entry is an input port ("lists").
            let op = unsafe { self.sw_in.at(ip as usize) }.out;
            self.sw_out.offer(ip, op);
        }
        self.sw_grants.clear();
        self.sw_out.finish(&mut self.sw_grants);
        let grants = std::mem::take(&mut self.sw_grants);
        for &(ip, op) in &grants {
            // SAFETY: a switch grant's input offered, so it is a sw_touched entry ("lists").
            let a = unsafe { self.sw_in.at_mut(ip as usize) };
            let iv = a.iv;
            let in_vc = iv - ip * v;
            a.out_ptr = next_mod(op, self.n_out) as u16;
            a.vc_ptr = next_mod(in_vc, v) as u16;
            self.send_flit::<ONE_FLIT, FUSED>(
                iv as usize,
                ip,
                in_vc,
                now,
                step,
                next_step_cycle,
                env,
                stats,
                out,
            );
        }
        for &ip in &self.sw_touched {
            // SAFETY: a sw_touched entry is an input port ("lists").
            unsafe { self.sw_in.at_mut(ip as usize) }.iv = NONE;
        }
        self.sw_touched.clear();
        self.sw_grants = grants;
        self.sw_grants.clear();
    }
}
