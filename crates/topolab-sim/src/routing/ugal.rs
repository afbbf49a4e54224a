//! UGAL for any topology: the source router's choice between the minimal path and n random
//! Valiant paths by queue state; everything else is the core's `Ugal` rule (the candidates and
//! their hops, `topolab_core::routing::generic::Ugal`), read through the `Rule` adapter.
//!
//! At the packet's source router every candidate (the minimal path and `n` Valiant paths, each
//! with a first hop drawn as the rule's hop-by-hop reading would) gets a cost:
//! - UGAL-L (000 §IV-C2, 001 §3.3): the occupancy q of the candidate's first output port (all
//!   VCs, credits in use), times the path length in hops when `hops` (000: "multiplies the
//!   length of each path (in hops) by the local output queue length");
//! - UGAL-G (000 §IV-C1): the sum of the output queues along the whole candidate path, read
//!   from every router's published state of the previous cycle (`RouteCtx::global`).
//!
//! Valiant candidates' costs are multiplied by `c` (001 §3.3: C_I = c·q_I). With `hops` and
//! c = c_SF this is 001's Slim Fly cost C_I = (L_I / L_M)·c_SF·q_I against C_M = q_M (both
//! sides multiplied by L_M). The minimal path wins ties. With `threshold` T (percent), the
//! packet goes minimally whenever its minimal first queue is below T% of the port's buffer
//! (001 §3.3's UGAL with threshold). After the choice the packet follows the chosen path's
//! rule (state in the flit), with the rule's VC classes.

use super::rule::RuleRouting;
use super::{RouteChoice, RouteCtx};
use crate::error::Result;
use crate::flit::Flit;
use rand_chacha::ChaCha8Rng;
use std::sync::Arc;
use topolab_core::routing::generic::{Ugal, UGAL_MINIMAL};
use topolab_core::routing::{Hop, HopRouting, RouteState, Select};

/// Which queues a candidate's cost reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UgalKind {
    /// The source router's own output queues.
    Local,
    /// Every router's output queues along the path.
    Global,
}

#[derive(Clone)]
pub struct UgalRouting {
    ugal: Arc<Ugal>,
    hop: RuleRouting,
    pub kind: UgalKind,
    /// Valiant candidates per packet.
    pub n: u32,
    /// Cost factor of Valiant candidates.
    pub c: f64,
    /// Multiply costs by path length.
    pub hops: bool,
    /// Go minimal when the minimal first queue is below this many credits.
    pub threshold: Option<f64>,
}

impl std::fmt::Debug for UgalRouting {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "UgalRouting({}, {})", self.name(), self.ugal.name())
    }
}

impl UgalRouting {
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        ugal: Arc<Ugal>,
        kind: UgalKind,
        n: u32,
        c: f64,
        hops: bool,
        threshold_percent: Option<f64>,
        num_vcs: u32,
        vc_buf_size: u32,
    ) -> Result<Self> {
        let hop = RuleRouting::new(ugal.clone(), Select::Random, num_vcs, Some("vcs=single"))?;
        Ok(UgalRouting {
            ugal,
            hop,
            kind,
            n,
            c,
            hops,
            threshold: threshold_percent.map(|t| t / 100.0 * (num_vcs * vc_buf_size) as f64),
        })
    }

    pub fn name(&self) -> String {
        let kind = match self.kind {
            UgalKind::Local => "ugal_l",
            UgalKind::Global => "ugal_g",
        };
        format!("{kind}:n={},c={},hops={}", self.n, self.c, self.hops)
    }

    /// Hops of the candidate path from r to t starting in `st`.
    #[inline]
    fn length(&self, r: u32, t: u32, st: RouteState) -> u32 {
        let table = &self.ugal.min.table;
        let (r, t) = (r as usize, t as usize);
        if st.phase == UGAL_MINIMAL || st.aux as usize == r {
            return table.dist(r, t) as u32;
        }
        // Valiant: phase 0 via the intermediate `aux`; phase 1 (no admissible intermediate)
        // minimal.
        if st.phase == 0 {
            let i = st.aux as usize;
            table.dist(r, i) as u32 + table.dist(i, t) as u32
        } else {
            table.dist(r, t) as u32
        }
    }

    /// Sum of published output queues along a path drawn hop by hop from the first hop on.
    fn path_queues(
        &self,
        ctx: &RouteCtx,
        t: u32,
        port: u32,
        first: Hop,
        rng: &mut ChaCha8Rng,
    ) -> f64 {
        let mut total = ctx.port_used[port as usize] as f64;
        let mut r = ctx.topo.neighbors(ctx.router as usize)[first.nb as usize];
        let mut st = first.state;
        let mut hop = 1u32;
        let limit = self.ugal.max_hops() + 1;
        while hop <= limit {
            // Random next hop by reservoir sampling, as the adapter draws it later.
            let mut chosen: Option<Hop> = None;
            let mut seen = 0u32;
            self.ugal.next(r, t, hop, st, &mut |h: Hop| {
                seen += 1;
                if seen == 1 || rand::Rng::random_range(&mut *rng, 0..seen) == 0 {
                    chosen = Some(h);
                }
            });
            let Some(h) = chosen else { break };
            let (p, _) = ctx.topo.nbr_port(r as usize, h.nb as usize);
            total += ctx.global.port_used(r, p) as f64;
            r = ctx.topo.neighbors(r as usize)[h.nb as usize];
            st = h.state;
            hop += 1;
        }
        total
    }

    /// Cost of a candidate whose first hop leaves through `port`.
    #[inline]
    fn cost(
        &self,
        ctx: &RouteCtx,
        t: u32,
        st: RouteState,
        port: u32,
        first: Hop,
        rng: &mut ChaCha8Rng,
    ) -> f64 {
        let queue = match self.kind {
            UgalKind::Local => ctx.port_used[port as usize] as f64,
            UgalKind::Global => self.path_queues(ctx, t, port, first, rng),
        };
        let len = if self.hops {
            self.length(ctx.router, t, st) as f64
        } else {
            1.0
        };
        let factor = if st.phase == UGAL_MINIMAL {
            1.0
        } else {
            self.c
        };
        factor * len * queue
    }

    #[inline]
    pub fn route(&self, ctx: &RouteCtx, f: &mut Flit, rng: &mut ChaCha8Rng) -> RouteChoice {
        if !ctx.from_endpoint {
            return self.hop.route(ctx, f, rng);
        }
        let (r, t) = (ctx.router, f.dest_router);
        let min_state = RouteState::new(UGAL_MINIMAL, 0);
        let Some((min_port, min_hop)) = self.hop.pick(ctx, r, t, 0, min_state, rng) else {
            return ctx.eject(f); // source and destination share the router
        };
        let mut best = (min_port, min_hop);
        let q_min = ctx.port_used[min_port as usize] as f64;
        if self.threshold.is_none_or(|th| q_min >= th) {
            let mut best_cost = self.cost(ctx, t, min_state, min_port, min_hop, rng);
            for _ in 0..self.n {
                let st = self.ugal.val.sample_start(r, t, rng);
                if let Some((port, h)) = self.hop.pick(ctx, r, t, 0, st, rng) {
                    let c = self.cost(ctx, t, st, port, h, rng);
                    if c < best_cost {
                        best_cost = c;
                        best = (port, h);
                    }
                }
            }
        }
        self.hop.commit(f, best.0, best.1)
    }
}
