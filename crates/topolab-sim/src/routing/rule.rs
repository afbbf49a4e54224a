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
        })
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
        // One pass over the candidates, choosing on the fly (no list is built): reservoir
        // sampling over ports for Random, least credits in use with random tie-breaking for
        // Queue.
        let mut chosen: Option<(u32, Hop)> = None;
        let mut seen = 0u32; // Random: ports seen; Queue: ties at the best occupancy
        let mut best = u32::MAX;
        let topo = ctx.topo;
        let select = self.select;
        self.rule.next(router, t, hop, st, &mut |h: Hop| {
            let (first, width) = topo.nbr_port(router as usize, h.nb as usize);
            match select {
                Select::Random => {
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
                        let used = ctx.port_used[port as usize];
                        if used < best {
                            best = used;
                            seen = 1;
                            chosen = Some((port, h));
                        } else if used == best {
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
