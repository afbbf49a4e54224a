//! The simulator's reading of a hop-by-hop routing defined in topolab-core
//! (`topolab_core::routing::rule`): the source router draws the packet's starting state, every
//! router takes one of the candidate hops (uniformly, or the least occupied output port) and
//! one of its link's ports (`Ports`), and maps the hop's VC class onto a range of VCs
//! (`VcSplit`). The rule is the catalog's enum (`topolab_core::routing::Rule`): the cycle loop
//! dispatches by `match`, not through a trait object.

use super::{RouteChoice, RouteCtx};
use crate::error::{Result, SimError};
use crate::flit::Flit;
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use std::sync::Arc;
use topolab_core::routing::{Hop, HopRouting, Ports, Reading, RouteState, Rule, Select, VcSplit};

pub struct RuleRouting<R: HopRouting = Rule> {
    pub rule: Arc<R>,
    pub select: Select,
    ports: Ports,
    vc_split: VcSplit,
    /// VC range per VC class.
    ranges: Vec<(u8, u8)>,
    /// Credits in use charged per detour level under queue selection: a less preferred hop
    /// is taken only when the preferred outputs hold more than this much more (one VC buffer
    /// by default, set by `with_detour_penalty`).
    detour_penalty: u32,
}

// By hand: the rule is shared (`Arc`), so a copy needs no `R: Clone`.
impl<R: HopRouting> Clone for RuleRouting<R> {
    fn clone(&self) -> Self {
        RuleRouting {
            rule: self.rule.clone(),
            select: self.select,
            ports: self.ports,
            vc_split: self.vc_split,
            ranges: self.ranges.clone(),
            detour_penalty: self.detour_penalty,
        }
    }
}

impl<R: HopRouting> std::fmt::Debug for RuleRouting<R> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "RuleRouting({}, select={})",
            self.rule.name(),
            self.select.name()
        )
    }
}

impl<R: HopRouting> RuleRouting<R> {
    /// `fewer_vcs` says how to need fewer VCs (e.g. "vcs=any"), for the error message.
    pub fn new(
        rule: Arc<R>,
        reading: Reading,
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
            ranges: reading.vc_split.ranges(classes, num_vcs),
            rule,
            select: reading.select,
            ports: reading.ports,
            vc_split: reading.vc_split,
            detour_penalty: 1,
        })
    }

    /// Queue selection charges `credits` per detour level (`Hop::detour`).
    pub fn with_detour_penalty(mut self, credits: u32) -> Self {
        self.detour_penalty = credits;
        self
    }

    // Inlined whole into the router's route computation (with `pick` and the rule's
    // `draw_next`), so that the context stays in registers and the rule's loop calls no
    // function.
    #[inline(always)]
    pub fn route(&self, ctx: &RouteCtx, f: &mut Flit, rng: &mut ChaCha8Rng) -> RouteChoice {
        let r = ctx.router;
        let t = f.dest_router;
        if ctx.from_endpoint {
            let st = self.rule.sample_start(r, t, rng);
            f.phase = st.phase;
            f.intermediate = st.aux;
        }
        let st = RouteState::new(f.phase, f.intermediate);
        match self.pick(ctx, r, t, f.hops as u32, st, f.dest, rng) {
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
                self.eject(ctx, f, st)
            }
        }
    }

    /// Ejection at the destination router: any VC, or under `booksim_compat` with one VC per
    /// class the VC of the packet's state (BookSim2 dragonflynew ejects on the phase's VC).
    #[inline]
    pub fn eject(&self, ctx: &RouteCtx, f: &Flit, st: RouteState) -> RouteChoice {
        let mut choice = ctx.eject(f);
        if ctx.booksim && self.vc_split == VcSplit::One {
            let vc = self.rule.state_vc(st);
            choice.vc_lo = vc;
            choice.vc_hi = vc;
        }
        choice
    }

    /// VCs a packet may take on its injection channel: all, or under `booksim_compat` with
    /// one VC per class one drawn at random (BookSim2 dragonflynew).
    #[inline]
    pub fn injection_vcs(&self, num_vcs: u32, booksim: bool, rng: &mut ChaCha8Rng) -> (u8, u8) {
        if booksim && self.vc_split == VcSplit::One {
            let v = rng.random_range(0..num_vcs) as u8;
            (v, v)
        } else {
            (0, (num_vcs - 1) as u8)
        }
    }

    /// Takes hop `h` through output `port`: the packet's new state and the VC range of the
    /// hop's class.
    #[inline]
    pub fn commit(&self, f: &mut Flit, port: u32, h: Hop) -> RouteChoice {
        f.phase = h.state.phase;
        f.intermediate = h.state.aux;
        let (vc_lo, vc_hi) = self.ranges[h.vc as usize];
        RouteChoice { port, vc_lo, vc_hi }
    }

    /// One candidate hop at `router` (uniformly over ports, or the least occupied output of
    /// `ctx.port_used`) and its output port; None when the packet is delivered there.
    /// `dest` (the destination endpoint) picks the port for `Ports::Destination`.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    pub fn pick(
        &self,
        ctx: &RouteCtx,
        router: u32,
        t: u32,
        hop: u32,
        st: RouteState,
        dest: u32,
        rng: &mut ChaCha8Rng,
    ) -> Option<(u32, Hop)> {
        // One pass over the candidates, choosing on the fly (no list is built), with one
        // small callback per selection mode so that each is inlined into the rule's loop.
        match (self.select, self.ports) {
            (Select::Random, Ports::Random) => self.pick_port_uniform(ctx, router, t, hop, st, rng),
            (Select::Random, ports) => {
                // One draw among the candidates, each counted once; the port follows.
                let h = self.rule.draw_next(router, t, hop, st, rng)?;
                let (first, width) = ctx.topo.nbr_port(router as usize, h.nb as usize);
                let port = match ports {
                    Ports::Destination => first + dest % width,
                    _ => first,
                };
                Some((port, h))
            }
            (Select::Queue, _) => self.pick_least_used(ctx, router, t, hop, st, rng),
            (Select::TwoChoices, _) => self.pick_two_choices(ctx, router, t, hop, st, rng),
        }
    }

    /// Uniformly over the ports of the least-detouring candidates (a link of width w counts
    /// w times; the first single-cable candidate is taken without a draw).
    // Out of line, as `pick_least_used`: only the uniform draw is inlined into `route`.
    #[inline(never)]
    fn pick_port_uniform(
        &self,
        ctx: &RouteCtx,
        router: u32,
        t: u32,
        hop: u32,
        st: RouteState,
        rng: &mut ChaCha8Rng,
    ) -> Option<(u32, Hop)> {
        let mut chosen: Option<(u32, Hop)> = None;
        let mut seen = 0u32;
        let mut least = u8::MAX;
        let topo = ctx.topo;
        self.rule.next_each(router, t, hop, st, |h: Hop| {
            if h.detour > least {
                return;
            }
            if h.detour < least {
                least = h.detour;
                seen = 0;
            }
            let (first, width) = topo.nbr_port(router as usize, h.nb as usize);
            seen += width;
            let k = if seen == 1 {
                0
            } else {
                rng.random_range(0..seen)
            };
            if k < width {
                chosen = Some((first + k, h));
            }
        });
        chosen
    }

    /// Two ports drawn uniformly with replacement among the least-detouring candidates' ports
    /// (`pick_port_uniform` twice), the one with fewer credits in use taken, the first drawn on
    /// a tie (BookSim2's `anca_fattree`).
    #[inline(never)]
    fn pick_two_choices(
        &self,
        ctx: &RouteCtx,
        router: u32,
        t: u32,
        hop: u32,
        st: RouteState,
        rng: &mut ChaCha8Rng,
    ) -> Option<(u32, Hop)> {
        let first = self.pick_port_uniform(ctx, router, t, hop, st, rng)?;
        let second = self.pick_port_uniform(ctx, router, t, hop, st, rng)?;
        let used = ctx.port_used;
        Some(if used[first.0 as usize] > used[second.0 as usize] {
            second
        } else {
            first
        })
    }

    /// The output port with the fewest credits in use plus the detour penalty, over every
    /// candidate's ports, ties broken at random.
    #[inline(never)]
    fn pick_least_used(
        &self,
        ctx: &RouteCtx,
        router: u32,
        t: u32,
        hop: u32,
        st: RouteState,
        rng: &mut ChaCha8Rng,
    ) -> Option<(u32, Hop)> {
        let mut chosen: Option<(u32, Hop)> = None;
        let mut ties = 0u32;
        let mut best = u32::MAX;
        let (topo, used, penalty) = (ctx.topo, ctx.port_used, self.detour_penalty);
        self.rule.next_each(router, t, hop, st, |h: Hop| {
            let (first, width) = topo.nbr_port(router as usize, h.nb as usize);
            for port in first..first + width {
                let cost = used[port as usize] + h.detour as u32 * penalty;
                if cost < best {
                    best = cost;
                    ties = 1;
                    chosen = Some((port, h));
                } else if cost == best {
                    ties += 1;
                    if rng.random_range(0..ties) == 0 {
                        chosen = Some((port, h));
                    }
                }
            }
        });
        chosen
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::SimConfig;
    use crate::routing::{GlobalView, Routing};
    use crate::topo::SimTopology;
    use rand::SeedableRng;
    use topolab_core::build_str;
    use topolab_core::progress::Silent;

    struct NoGlobalView;
    impl GlobalView for NoGlobalView {
        fn port_used(&self, _router: u32, _port: u32) -> u32 {
            0
        }
    }

    /// The share of draws in which `spec` takes each up port at leaf 0 of `fattree:k=8` (4 up
    /// ports) for a packet to a leaf of another pod, with `used_on_up[i]` credits in use on up
    /// port i.
    fn up_port_shares(spec: &str, used_on_up: &[u32], draws: u32) -> Vec<f64> {
        let net = build_str("fattree:k=8").unwrap();
        let cfg = SimConfig::default();
        let topo = SimTopology::new(&net, &cfg).unwrap();
        let Routing::Rule(rule) = Routing::parse(spec, &net, &topo, &cfg, &Silent).unwrap() else {
            panic!("{spec} is a hop-by-hop rule");
        };
        // Leaves come first, pod by pod (k/2 = 4 per pod): leaf 4 is in pod 1.
        let (leaf, target) = (0usize, 4u32);
        let up: Vec<u32> = net
            .neighbors(leaf)
            .iter()
            .enumerate()
            .filter(|&(_, &v)| net.label(v as usize)[0] == 1)
            .map(|(pos, _)| topo.nbr_port(leaf, pos).0)
            .collect();
        assert_eq!(up.len(), used_on_up.len());
        let mut used = vec![0u32; topo.num_out(leaf) as usize];
        for (&port, &u) in up.iter().zip(used_on_up) {
            used[port as usize] = u;
        }
        let ctx = RouteCtx {
            topo: &topo,
            router: leaf as u32,
            in_port: 0,
            from_endpoint: true,
            in_vc: 0,
            num_vcs: cfg.num_vcs,
            port_used: &used,
            global: &NoGlobalView,
            booksim: false,
        };
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        let dest = topo.ep_offset[target as usize];
        let mut count = vec![0u32; up.len()];
        for _ in 0..draws {
            let (port, _) = rule
                .pick(
                    &ctx,
                    leaf as u32,
                    target,
                    0,
                    RouteState::new(0, target),
                    dest,
                    &mut rng,
                )
                .expect("a packet for another pod goes up");
            let i = up.iter().position(|&p| p == port).expect("an up port");
            count[i] += 1;
        }
        count.iter().map(|&c| c as f64 / draws as f64).collect()
    }

    /// BookSim2's `anca_fattree` (the ANCA of Besta & Hoefler, SC14, §V): two of the u up
    /// ports drawn uniformly with replacement, the less occupied taken, the first on a tie.
    /// With one port less occupied than the u - 1 others (equal), it is taken with probability
    /// 1 - ((u - 1)/u)^2 = 7/16 for u = 4 and every other with (1/u)((u - 1)/u) = 3/16; with
    /// all equal, each with 1/u whatever its port number. Taking the least occupied port
    /// always (select=queue) sends every packet routed in a step to the same port.
    #[test]
    fn anca_takes_the_less_occupied_of_two_random_up_ports() {
        let draws = 160_000;
        // Standard deviation of a share near 0.4 over 160,000 draws: 0.0012.
        let close = |got: f64, want: f64| (got - want).abs() < 0.008;
        let shares = up_port_shares("fattree_anca", &[5, 5, 2, 5], draws);
        for (i, &s) in shares.iter().enumerate() {
            let want = if i == 2 { 7.0 / 16.0 } else { 3.0 / 16.0 };
            assert!(
                close(s, want),
                "up port {i}: share {s}, want {want} ({shares:?})"
            );
        }
        let shares = up_port_shares("fattree_anca", &[3, 3, 3, 3], draws);
        assert!(shares.iter().all(|&s| close(s, 0.25)), "{shares:?}");
        // The reader keys still give the other readings.
        let shares = up_port_shares("fattree_anca:select=queue", &[5, 5, 2, 5], 1000);
        assert_eq!(shares, [0.0, 0.0, 1.0, 0.0]);
    }
}
