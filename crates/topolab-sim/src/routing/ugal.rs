//! UGAL for any topology: the source router's choice between the minimal path and n random
//! Valiant paths by queue state; everything else is the core's candidates rule (the candidates
//! and their hops, `topolab_core::routing::ugal_candidates::UgalCandidates`: shortest paths, or
//! BookSim2 dragonflynew's with `paths=dragonfly`), read through the `Rule` adapter.
//!
//! At the packet's source router every candidate (the minimal path and `n` Valiant paths, each
//! with a first hop drawn as the rule's hop-by-hop reading would) gets a cost:
//! - UGAL-L (Besta & Hoefler, SC14, §IV-C2, Kathareios et al., SC15, §3.3): the occupancy q of the
//!   candidate's first output port (all VCs, credits in use), times the path length in hops when
//!   `hops` (Besta & Hoefler, SC14: "multiplies the length of each path (in hops) by the local
//!   output queue length");
//! - UGAL-G (Besta & Hoefler, SC14, §IV-C1): the sum of the output queues along the whole candidate
//!   path, read from every router's published state of the previous cycle (`RouteCtx::global`).
//!
//! Valiant candidates' costs are multiplied by `c` (Kathareios et al., SC15, §3.3: C_I = c·q_I).
//! With `hops` and c = c_SF this is Kathareios et al.'s (SC15) Slim Fly cost C_I = (L_I /
//! L_M)·c_SF·q_I against C_M = q_M (both sides multiplied by L_M); `bias` credits are added to a
//! Valiant candidate's cost (BookSim2 dragonflynew: minimal while q_min <= 2 q_nonmin + 30, i.e.
//! n=1, c=2, hops=false, bias=30: the `dragonfly_ugal` alias). The minimal path wins ties. With
//! `threshold` T (percent), the packet goes minimally whenever its minimal first queue is below T%
//! of the port's buffer (Kathareios et al., SC15, §3.3's UGAL with threshold). After the choice the
//! packet follows the chosen path's rule (state in the flit), with the rule's VC classes.

use super::rule::RuleRouting;
use super::{RouteChoice, RouteCtx};
use crate::error::Result;
use crate::flit::Flit;
use rand_chacha::ChaCha8Rng;
use std::sync::Arc;
use topolab_core::routing::catalog::UgalChoice;
use topolab_core::routing::ugal_candidates::{UgalCandidates, UgalSource};
use topolab_core::routing::{Hop, HopRouting, Reading, RouteState, Select};

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
    hop: RuleRouting<UgalCandidates>,
    pub kind: UgalKind,
    /// Valiant candidates per packet.
    pub n: u32,
    /// Cost factor of Valiant candidates.
    pub c: f64,
    /// Multiply costs by path length.
    pub hops: bool,
    /// Go minimal when the minimal first queue is below this many credits.
    pub threshold: Option<f64>,
    /// Credits added to a Valiant candidate's cost.
    pub bias: f64,
    /// Draws ahead of the generator whose intermediates' table entries the source decision asks
    /// for before drawing (`speculation_window`; 0: none).
    speculated_draws: u32,
}

/// Networks of more routers than this ask ahead (`speculation_window`). Compare's designs of
/// 1,000-12,000 routers ran 14-20% faster with it (docs/simulator.md); its PolarFly q = 27
/// (757 routers) showed no change beyond the spread (its search took 70.0 and 70.2 CPU-s in
/// whole compare runs without and with it). Smaller networks, whose tables come nearer to a
/// core's own caches (compare's Slim Fly q = 19 has 722 routers), were not measured, and there
/// the copy of the generator and the draws would cost 8.6% more instructions for nothing.
const SPECULATE_ABOVE_ROUTERS: usize = 724;

impl std::fmt::Debug for UgalRouting {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "UgalRouting({}, {})", self.name(), self.hop.rule.name())
    }
}

impl UgalRouting {
    /// `reading`'s ports and VC split apply to the hops; UGAL selects by queue itself and
    /// draws among a candidate's hops at random.
    pub fn new(
        ugal: Arc<UgalCandidates>,
        kind: UgalKind,
        choice: UgalChoice,
        reading: Reading,
        num_vcs: u32,
        vc_buf_size: u32,
    ) -> Result<Self> {
        let reading = Reading {
            select: Select::Random,
            ..reading
        };
        let speculated_draws = Self::speculation_window(&ugal, choice.n);
        let hop = RuleRouting::new(ugal, reading, num_vcs, Some("vcs=single"))?;
        Ok(UgalRouting {
            hop,
            kind,
            n: choice.n,
            c: choice.c,
            hops: choice.hops.unwrap_or(kind == UgalKind::Local),
            threshold: choice
                .threshold
                .map(|t| t / 100.0 * (num_vcs * vc_buf_size) as f64),
            bias: choice.bias,
            speculated_draws,
        })
    }

    /// How many draws ahead the source decision asks for its Valiant candidates' table entries
    /// (`UgalSource::speculative_reads`). On a network of thousands of routers each candidate's
    /// length and first hop are reads that miss the caches, and the candidates follow each
    /// other: where in the generator's stream a candidate's intermediate is drawn depends on
    /// how many draws the previous candidates' first hops took, which their entries tell. So
    /// the n misses would come one after the other. Asking first for the entries of every
    /// intermediate that the next draws could give lets them overlap. Each intermediate takes
    /// one draw, and each first hop (the minimal candidate's too) one more per candidate hop
    /// after its first: with at most two candidate hops each, the last intermediate is among
    /// the first 2n draws, and 2n + 2 leave two to spare (a first hop of three candidates, an
    /// intermediate drawn twice); past them a candidate only misses as before. Nothing is
    /// drawn: the decisions are the same.
    fn speculation_window(ugal: &UgalCandidates, n: u32) -> u32 {
        match ugal {
            UgalCandidates::Shortest(u) => {
                if u.min.table.num_routers() > SPECULATE_ABOVE_ROUTERS {
                    2 * n + 2
                } else {
                    0
                }
            }
            // Its candidates' paths are walked through the groups and the neighbour lists,
            // arrays of a few entries per router.
            UgalCandidates::Dragonfly(_) => 0,
        }
    }

    /// The hop-by-hop reading of the candidates (injection VCs, hot-potato refusal).
    pub fn hops(&self) -> &RuleRouting<UgalCandidates> {
        &self.hop
    }

    pub fn name(&self) -> String {
        let kind = match self.kind {
            UgalKind::Local => "ugal_l",
            UgalKind::Global => "ugal_g",
        };
        format!("{kind}:n={},c={},hops={}", self.n, self.c, self.hops)
    }

    /// Sum of published output queues along a path drawn hop by hop from the first hop on.
    // Out of line: UGAL-L's per-packet cost stays small enough to inline.
    #[inline(never)]
    fn path_queues<C: UgalSource>(
        &self,
        cands: &C,
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
        let limit = cands.max_hops() + 1;
        while hop <= limit {
            // Random next hop by reservoir sampling, as the adapter draws it later.
            let mut chosen: Option<Hop> = None;
            let mut seen = 0u32;
            cands.next_each(r, t, hop, st, |h: Hop| {
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

    /// The hop count a candidate's cost weighs its queue by (1 without `hops`).
    #[inline(always)]
    fn length<C: UgalSource>(&self, cands: &C, ctx: &RouteCtx, t: u32, st: RouteState) -> f64 {
        if self.hops {
            cands.length(ctx.router, t, st) as f64
        } else {
            1.0
        }
    }

    /// Cost of a candidate of `len` hops whose first hop leaves through `port`.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn cost<C: UgalSource>(
        &self,
        cands: &C,
        ctx: &RouteCtx,
        t: u32,
        st: RouteState,
        len: f64,
        port: u32,
        first: Hop,
        rng: &mut ChaCha8Rng,
    ) -> f64 {
        let queue = match self.kind {
            UgalKind::Local => ctx.port_used[port as usize] as f64,
            UgalKind::Global => self.path_queues(cands, ctx, t, port, first, rng),
        };
        if cands.is_minimal(st) {
            len * queue
        } else {
            self.c * len * queue + self.bias
        }
    }

    // Out of line: with its candidates' hops inlined it is large, and `Routing::route` stays
    // small enough to inline into the router for the table and rule routings.
    #[inline(never)]
    pub fn route(&self, ctx: &RouteCtx, f: &mut Flit, rng: &mut ChaCha8Rng) -> RouteChoice {
        // One match per packet and router; the rest is compiled for each candidates type.
        match &*self.hop.rule {
            UgalCandidates::Shortest(u) => self.route_over(u, ctx, f, rng),
            UgalCandidates::Dragonfly(d) => self.route_over(d, ctx, f, rng),
        }
    }

    /// The source decision at the packet's first router; after it, the chosen candidate's
    /// hop, drawn as the rule's hop-by-hop reading draws it.
    #[inline(always)]
    fn route_over<C: UgalSource>(
        &self,
        cands: &C,
        ctx: &RouteCtx,
        f: &mut Flit,
        rng: &mut ChaCha8Rng,
    ) -> RouteChoice {
        if ctx.from_endpoint {
            return self.decide(cands, ctx, f, rng);
        }
        let (r, t) = (ctx.router, f.dest_router);
        let st = RouteState::new(f.phase, f.intermediate);
        let picked = self
            .hop
            .pick_random_in(cands, ctx, r, t, f.hops as u32, st, f.dest, rng);
        self.hop.take(ctx, f, st, picked, rng)
    }

    /// The source router's choice among the minimal candidate and n non-minimal ones of
    /// `cands` (the module's doc gives the costs).
    #[inline(always)]
    fn decide<C: UgalSource>(
        &self,
        cands: &C,
        ctx: &RouteCtx,
        f: &mut Flit,
        rng: &mut ChaCha8Rng,
    ) -> RouteChoice {
        let (r, t, dest) = (ctx.router, f.dest_router, f.dest);
        if self.speculated_draws > 0 {
            cands.speculative_reads(r, t, rng, self.speculated_draws, |entry| {
                crate::read_ahead::prefetch(entry)
            });
        }
        let min_state = cands.minimal_start(r, t);
        // Each candidate's length is read before its first hop is drawn: on networks of
        // thousands of routers both are table reads that miss the cache, and the draw must
        // wait for its own (the next candidate's draws depend on it) but not for the length's,
        // so the two misses overlap instead of following each other.
        let min_len = self.length(cands, ctx, t, min_state);
        let pick = |st: RouteState, rng: &mut ChaCha8Rng| {
            self.hop.pick_random_in(cands, ctx, r, t, 0, st, dest, rng)
        };
        let Some((min_port, min_hop)) = pick(min_state, rng) else {
            // Source and destination share the router.
            return self.hop.eject(ctx, f, min_state);
        };
        let mut best = (min_port, min_hop);
        let q_min = ctx.port_used[min_port as usize] as f64;
        if self.threshold.is_none_or(|th| q_min >= th) {
            let mut best_cost =
                self.cost(cands, ctx, t, min_state, min_len, min_port, min_hop, rng);
            for _ in 0..self.n {
                let st = cands.sample_nonminimal(r, t, rng);
                let len = self.length(cands, ctx, t, st);
                if let Some((port, h)) = pick(st, rng) {
                    let c = self.cost(cands, ctx, t, st, len, port, h, rng);
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::SimConfig;
    use crate::routing::test_support::at_source;
    use crate::routing::Routing;
    use crate::topo::SimTopology;
    use rand::{Rng, RngCore, SeedableRng};
    use topolab_core::build_str;
    use topolab_core::progress::Silent;

    fn ugal_l(spec: &str) -> (SimTopology, UgalRouting) {
        let net = build_str(spec).unwrap();
        let cfg = SimConfig::default();
        let topo = SimTopology::new(&net, &cfg).unwrap();
        match Routing::parse("ugal_l", &net, &topo, &cfg, &Silent).unwrap() {
            Routing::Ugal(u) => (topo, u),
            _ => panic!("ugal_l is a UGAL routing"),
        }
    }

    /// Asking for the entries ahead changes no decision: the same ports, VCs, flit states and
    /// generator states with and without it, over random pairs and queue states.
    #[test]
    fn asking_ahead_decides_as_without() {
        let (topo, plain) = ugal_l("slimfly:q=5");
        assert_eq!(plain.speculated_draws, 0, "50 routers: below the size");
        let ahead = UgalRouting {
            speculated_draws: 2 * plain.n + 2,
            ..plain.clone()
        };
        let n = topo.num_routers;
        let mut setup = ChaCha8Rng::seed_from_u64(5);
        let (mut rng_plain, mut rng_ahead) =
            (ChaCha8Rng::seed_from_u64(9), ChaCha8Rng::seed_from_u64(9));
        let mut nonminimal = 0;
        for _ in 0..5_000 {
            let router = setup.random_range(0..n);
            let target = setup.random_range(0..n);
            let used: Vec<u32> = (0..topo.num_out(router as usize))
                .map(|_| setup.random_range(0..12))
                .collect();
            let ctx = at_source(&topo, router, 4, &used);
            let flit = Flit {
                dest_router: target,
                dest: topo.ep_offset[target as usize],
                ..Flit::default()
            };
            let (mut f_plain, mut f_ahead) = (flit, flit);
            let got_plain = plain.route(&ctx, &mut f_plain, &mut rng_plain);
            let got_ahead = ahead.route(&ctx, &mut f_ahead, &mut rng_ahead);
            assert_eq!(got_plain, got_ahead, "{router} -> {target}");
            assert_eq!(f_plain, f_ahead, "{router} -> {target}");
            nonminimal +=
                (f_plain.phase != topolab_core::routing::ugal_candidates::UGAL_MINIMAL) as u32;
        }
        assert_eq!(rng_plain.next_u64(), rng_ahead.next_u64());
        assert!(nonminimal > 500, "{nonminimal} Valiant decisions of 5,000");
    }

    #[test]
    fn networks_past_the_caches_ask_ahead() {
        // 1,058 routers asks ahead; compare's Slim Fly q = 19, 722 routers, does not
        let (topo, u) = ugal_l("slimfly:q=23");
        assert_eq!(topo.num_routers, 1058);
        assert_eq!(u.speculated_draws, 2 * u.n + 2);
        let (topo, u) = ugal_l("slimfly:q=19");
        assert_eq!(topo.num_routers, 722);
        assert_eq!(u.speculated_draws, 0);
    }
}
