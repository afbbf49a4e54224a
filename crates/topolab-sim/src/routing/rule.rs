//! The simulator's reading of a hop-by-hop routing defined in topolab-core
//! (`topolab_core::routing::rule`): the source router draws the packet's starting state, every
//! router takes one of the candidate hops (uniformly over ports, or the least occupied output
//! port) and maps the hop's VC class onto a range of VCs (the VCs split evenly among classes).

use super::{RouteChoice, RouteCtx};
use crate::error::{Result, SimError};
use crate::flit::Flit;
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use std::sync::Arc;
use topolab_core::routing::{Hop, HopRouting, RouteState, Select};

#[derive(Clone)]
pub struct RuleRouting {
    pub rule: Arc<dyn HopRouting>,
    pub select: Select,
    /// VCs per VC class.
    per_class: u32,
    /// Credits in use charged per detour level under queue selection: a less preferred hop
    /// is taken only when the preferred outputs hold more than this much more (one VC buffer
    /// by default, set by `with_detour_penalty`).
    detour_penalty: u32,
}

impl std::fmt::Debug for RuleRouting {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "RuleRouting({}, select={})",
            self.rule.name(),
            self.select.name()
        )
    }
}

impl RuleRouting {
    /// `fewer_vcs` says how to need fewer VCs (e.g. "vcs=any"), for the error message.
    pub fn new(
        rule: Arc<dyn HopRouting>,
        select: Select,
        num_vcs: u32,
        fewer_vcs: Option<&str>,
    ) -> Result<Self> {
        let classes = rule.vc_classes().max(1);
        if num_vcs < classes {
            let hint = fewer_vcs.map_or(String::new(), |h| format!("; or give {h}"));
            return Err(SimError::param(
                "num_vcs",
                num_vcs,
                format!(
                    "at least {classes} for routing {} (one VC per VC class it uses){hint}",
                    rule.name()
                ),
            ));
        }
        Ok(RuleRouting {
            per_class: num_vcs / classes,
            rule,
            select,
            detour_penalty: 1,
        })
    }

    /// Queue selection charges `credits` per detour level (`Hop::detour`).
    pub fn with_detour_penalty(mut self, credits: u32) -> Self {
        self.detour_penalty = credits;
        self
    }

    #[inline]
    pub fn route(&self, ctx: &RouteCtx, f: &mut Flit, rng: &mut ChaCha8Rng) -> RouteChoice {
        let r = ctx.router;
        let t = f.dest_router;
        if ctx.from_endpoint {
            let st = self.rule.sample_start(r, t, rng);
            f.phase = st.phase;
            f.intermediate = st.aux;
        }
        let st = RouteState::new(f.phase, f.intermediate);
        match self.pick(ctx, r, t, f.hops as u32, st, rng) {
            Some((port, h)) => self.commit(f, port, h),
            None => {
                // The core's static checks (`rule::check_rule_paths`) and the rule's own tests
                // make this a routing bug, not a user error.
                assert_eq!(
                    r,
                    t,
                    "routing {} offers no hop at router {r} towards router {t}",
                    self.rule.name()
                );
                ctx.eject(f)
            }
        }
    }

    /// Takes hop `h` through output `port`: the packet's new state and the VC range of the
    /// hop's class.
    #[inline]
    pub fn commit(&self, f: &mut Flit, port: u32, h: Hop) -> RouteChoice {
        f.phase = h.state.phase;
        f.intermediate = h.state.aux;
        let lo = h.vc as u32 * self.per_class;
        RouteChoice {
            port,
            vc_lo: lo as u8,
            vc_hi: (lo + self.per_class - 1) as u8,
        }
    }

    /// One candidate hop at `router` (uniformly over ports, or the least occupied output of
    /// `ctx.port_used`) and its output port; None when the packet is delivered there.
    #[inline]
    pub fn pick(
        &self,
        ctx: &RouteCtx,
        router: u32,
        t: u32,
        hop: u32,
        st: RouteState,
        rng: &mut ChaCha8Rng,
    ) -> Option<(u32, Hop)> {
        // One pass over the candidates, choosing on the fly (no list is built). Random: reservoir
        // sampling over the ports of the least-detouring candidates. Queue: least credits in use
        // plus the detour penalty, random tie-breaking.
        let mut chosen: Option<(u32, Hop)> = None;
        let mut seen = 0u32; // Random: ports seen; Queue: ties at the best cost
        let mut best = u32::MAX;
        let mut least = u8::MAX;
        let topo = ctx.topo;
        let select = self.select;
        let penalty = self.detour_penalty;
        self.rule.next(router, t, hop, st, &mut |h: Hop| {
            let (first, width) = topo.nbr_port(router as usize, h.nb as usize);
            match select {
                Select::Random => {
                    if h.detour > least {
                        return;
                    }
                    if h.detour < least {
                        least = h.detour;
                        seen = 0;
                    }
                    seen += width;
                    // The first single-cable candidate is taken without a draw.
                    let k = if seen == 1 {
                        0
                    } else {
                        rng.random_range(0..seen)
                    };
                    if k < width {
                        chosen = Some((first + k, h));
                    }
                }
                Select::Queue => {
                    for port in first..first + width {
                        let cost = ctx.port_used[port as usize] + h.detour as u32 * penalty;
                        if cost < best {
                            best = cost;
                            seen = 1;
                            chosen = Some((port, h));
                        } else if cost == best {
                            seen += 1;
                            if rng.random_range(0..seen) == 0 {
                                chosen = Some((port, h));
                            }
                        }
                    }
                }
            }
        });
        chosen
    }
}
