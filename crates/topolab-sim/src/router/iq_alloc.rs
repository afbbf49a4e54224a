//! VC and switch allocation of the input-queued router (steps 3 and 4 of iq.rs's internal
//! step): BookSim2's separable input-first allocators with round-robin arbiters, their input
//! stages fused into the scans of the router's work lists (`vca_list`, `active_list`).

use super::{after, IqState, RouteEnv, ACTIVE, VC_ALLOC};
use crate::allocator::{first_from, next_mod, rr_distance};
use crate::router::Outbox;
use crate::stats::RouterStats;
use crate::topo::NONE;
use crate::unchecked::Unchecked;

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

impl IqState {
    /// VC allocation, input stage fused: each waiting head picks, among the free VCs of its
    /// route, the one first in round-robin order from its pointer; the output stage follows.
    #[allow(unsafe_code)]
    pub(super) fn vc_evaluate<const ONE_FLIT: bool>(&mut self, now: u32, step: u64) {
        self.vc_grants.clear();
        self.tried.clear();
        let v = self.vcs;
        let size = self.n_out * v;
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
                let mut best_d = u32::MAX;
                for vc in rt.vc_lo as u32..=rt.vc_hi as u32 {
                    let ov = rt.port * v + vc;
                    // SAFETY: the route's port < n_out and vc <= vc_hi < V ("held").
                    let o = unsafe { self.ov.at(ov as usize) };
                    if o.owner != NONE || self.buf - (o.used as u32) < self.pkt {
                        continue;
                    }
                    let d = rr_distance(ov, ptr, size);
                    if d < best_d {
                        best_d = d;
                        best = ov;
                    }
                }
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
            if best != NONE {
                self.vc_out.offer(iv, best);
            }
        }
        self.vc_out.finish(&mut self.vc_grants);
    }

    #[allow(unsafe_code)]
    pub(super) fn vc_apply<const ONE_FLIT: bool>(&mut self, now: u32) {
        // Requesters without a grant ask again vc_alloc_delay cycles on (`tried` is empty
        // with a delay of 1: they ask again in the next step).
        let retry = now + self.vc_delay;
        for k in 0..self.tried.len() {
            let iv = self.tried[k] as usize;
            self.iv[iv].ready = retry;
        }
        let nov = self.n_out * self.vcs;
        for k in 0..self.vc_grants.len() {
            // SAFETY: k < vc_grants.len(), the loop's bound.
            let (iv, ov) = unsafe { *self.vc_grants.at(k) };
            // SAFETY: a granted output VC is one of a route's ("held").
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
            let out_port = by_v.quot(i.ov);
            // SAFETY: iv < n_in x V ("lists"), so iv / V < n_in = sw_in.len() ("fixed").
            let a = unsafe { self.sw_in.at_mut(in_port as usize) };
            // (output distance, VC distance) as one number: VC distances are below 64.
            let key = rr_distance(out_port, a.out_ptr as u32, self.n_out) << 8
                | rr_distance(by_v.modulo(iv), a.vc_ptr as u32, v);
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
            a.out_ptr = next_mod(op, self.n_out) as u16;
            a.vc_ptr = next_mod(by_v.modulo(iv), v) as u16;
            self.send_flit::<ONE_FLIT, FUSED>(
                iv as usize,
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
