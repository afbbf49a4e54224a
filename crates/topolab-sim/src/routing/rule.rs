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

    /// The same reading over `rule`, this routing's rule as another type (the variant behind
    /// `Rule`, `Routing::Typed`).
    pub fn over<Q: HopRouting>(&self, rule: Arc<Q>) -> RuleRouting<Q> {
        RuleRouting {
            rule,
            select: self.select,
            ports: self.ports,
            vc_split: self.vc_split,
            ranges: self.ranges.clone(),
            detour_penalty: self.detour_penalty,
        }
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
        let picked = self.pick(ctx, r, t, f.hops as u32, st, f.dest, rng);
        self.take(ctx, f, st, picked, rng)
    }

    /// Routes the head flit `f` in state `st` by the hop `picked` for it at `ctx.router`: that
    /// hop, or with none the ejection at its destination router (a packet elsewhere starts
    /// afresh).
    #[inline(always)]
    pub fn take(
        &self,
        ctx: &RouteCtx,
        f: &mut Flit,
        st: RouteState,
        picked: Option<(u32, Hop)>,
        rng: &mut ChaCha8Rng,
    ) -> RouteChoice {
        match picked {
            Some((port, h)) => self.commit(f, port, h),
            None => {
                if ctx.router != f.dest_router {
                    return self.start_afresh(ctx, f, rng);
                }
                self.eject(ctx, f, st)
            }
        }
    }

    /// A packet whose state offers no hop here: one routed under another routing's state, the
    /// tables having changed under it (`crate::failure`: up*/down* recomputed on a new tree
    /// may have no down path for a packet already going down). It starts its route afresh at
    /// this router, as a packet entering here would, and takes one of the hops uniformly (a rare
    /// packet: the selection policy is not applied). Anything else is a routing bug: the core's
    /// static checks (`rule::check_rule_paths`) and the rule's own tests rule it out.
    // Through the rule's `next`, not `pick`: a second caller of `draw_next` would stop it being
    // inlined into the hot route computation (+0.8% instructions on the torus 8x8x8).
    #[cold]
    #[inline(never)]
    fn start_afresh(&self, ctx: &RouteCtx, f: &mut Flit, rng: &mut ChaCha8Rng) -> RouteChoice {
        let (r, t) = (ctx.router, f.dest_router);
        let st = self.rule.sample_start(r, t, rng);
        f.phase = st.phase;
        f.intermediate = st.aux;
        let mut hops = Vec::new();
        self.rule
            .next(r, t, f.hops as u32, st, &mut |h| hops.push(h));
        let Some(&h) = hops.get(rng.random_range(0..hops.len().max(1))) else {
            panic!(
                "routing {} offers no hop at router {r} towards router {t}",
                self.rule.name()
            );
        };
        let (first, width) = ctx.topo.nbr_port(r as usize, h.nb as usize);
        self.commit(f, first + rng.random_range(0..width), h)
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
            (Select::Random, Ports::Random) => {
                self.pick_port_uniform::<false>(ctx, router, t, hop, st, rng)
            }
            (Select::Random, ports) => {
                Self::draw_then_port(&*self.rule, ports, ctx, router, t, hop, st, dest, rng)
            }
            (Select::Queue, _) => self.pick_least_used(ctx, router, t, hop, st, rng),
            (Select::TwoChoices, _) => self.pick_two_choices(ctx, router, t, hop, st, rng),
        }
    }

    /// `pick` under random selection among the candidates of `rule`, a concrete candidates
    /// type behind this reading's rule (UGAL draws every hop through it: the source decision's
    /// 1 + n first hops, then the chosen candidate's), inlined whole: no call per candidate,
    /// and no match on the rule's enum per hop.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    pub fn pick_random_in<Q: HopRouting>(
        &self,
        rule: &Q,
        ctx: &RouteCtx,
        router: u32,
        t: u32,
        hop: u32,
        st: RouteState,
        dest: u32,
        rng: &mut ChaCha8Rng,
    ) -> Option<(u32, Hop)> {
        match self.ports {
            Ports::Random => port_uniform::<false, Q>(rule, ctx, router, t, hop, st, rng),
            ports => Self::draw_then_port(rule, ports, ctx, router, t, hop, st, dest, rng),
        }
    }

    /// One draw among `rule`'s candidates, each counted once; the port follows (`ports` is
    /// not `Ports::Random`).
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn draw_then_port<Q: HopRouting>(
        rule: &Q,
        ports: Ports,
        ctx: &RouteCtx,
        router: u32,
        t: u32,
        hop: u32,
        st: RouteState,
        dest: u32,
        rng: &mut ChaCha8Rng,
    ) -> Option<(u32, Hop)> {
        let h = rule.draw_next(router, t, hop, st, rng)?;
        let (first, width) = ctx.topo.nbr_port(router as usize, h.nb as usize);
        let port = match ports {
            Ports::Destination => first + dest % width,
            _ => first,
        };
        Some((port, h))
    }

    /// `port_uniform` over this reading's rule.
    #[inline(always)]
    fn pick_port_uniform<const EVERY_LEVEL: bool>(
        &self,
        ctx: &RouteCtx,
        router: u32,
        t: u32,
        hop: u32,
        st: RouteState,
        rng: &mut ChaCha8Rng,
    ) -> Option<(u32, Hop)> {
        port_uniform::<EVERY_LEVEL, R>(&self.rule, ctx, router, t, hop, st, rng)
    }

    /// Two ports drawn uniformly: the first among the least-detouring candidates' ports, the
    /// second among every candidate's ports (with replacement); the second is taken when its
    /// credits in use plus the detour penalty per level are fewer than the first's, else the
    /// first. With one detour level this is BookSim2's `anca_fattree`; with detours it is
    /// its UGAL's comparison of the minimal route with one random other, so a detour is taken
    /// only when the preferred output holds more than a penalty more, as under queue
    /// selection, without every packet of a step taking the same least occupied output.
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
        let first = self.pick_port_uniform::<false>(ctx, router, t, hop, st, rng)?;
        let second = self.pick_port_uniform::<true>(ctx, router, t, hop, st, rng)?;
        let cost = |(port, h): (u32, Hop)| {
            ctx.port_used[port as usize] + h.detour as u32 * self.detour_penalty
        };
        Some(if cost(first) > cost(second) {
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

/// One of `rule`'s candidate hops at `router` and its output port, uniformly over the ports of
/// the least-detouring candidates, or of every candidate when `EVERY_LEVEL` (a link of width w
/// counts w times; the first single-cable candidate is taken without a draw). Over candidates
/// of one detour level both draw alike.
#[inline(always)]
fn port_uniform<const EVERY_LEVEL: bool, Q: HopRouting>(
    rule: &Q,
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
    // The callback is inlined into each of the rule's loops (a rule with several, such as
    // UGAL's candidates, would otherwise call it per candidate hop).
    rule.next_each(
        router,
        t,
        hop,
        st,
        #[inline(always)]
        |h: Hop| {
            if !EVERY_LEVEL {
                if h.detour > least {
                    return;
                }
                if h.detour < least {
                    least = h.detour;
                    seen = 0;
                }
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
        },
    );
    chosen
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::SimConfig;
    use crate::routing::test_support::at_source;
    use crate::routing::Routing;
    use crate::topo::SimTopology;
    use rand::SeedableRng;
    use std::collections::BTreeMap;
    use topolab_core::build_str;
    use topolab_core::progress::Silent;

    /// The share of `draws` routing decisions in which `routing` sends a packet entering at
    /// `router` for router `target` to each neighbour (by router id), with `used_of(v)` credits
    /// in use on the output to neighbour v.
    fn choice_shares(
        net_spec: &str,
        routing: &str,
        (router, target): (u32, u32),
        used_of: &dyn Fn(u32) -> u32,
        draws: u32,
    ) -> BTreeMap<u32, f64> {
        let net = build_str(net_spec).unwrap();
        let cfg = SimConfig::default();
        let topo = SimTopology::new(&net, &cfg).unwrap();
        let Routing::Rule(rule) = Routing::parse(routing, &net, &topo, &cfg, &Silent).unwrap()
        else {
            panic!("{routing} is a hop-by-hop rule");
        };
        let r = router as usize;
        let mut used = vec![0u32; topo.num_out(r) as usize];
        let mut neighbour_of_port = vec![u32::MAX; used.len()];
        for (pos, &v) in net.neighbors(r).iter().enumerate() {
            let (first, width) = topo.nbr_port(r, pos);
            for port in first..first + width {
                used[port as usize] = used_of(v);
                neighbour_of_port[port as usize] = v;
            }
        }
        let ctx = at_source(&topo, router, cfg.num_vcs, &used);
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        let dest = topo.ep_offset[target as usize];
        let mut count: BTreeMap<u32, u32> = BTreeMap::new();
        for _ in 0..draws {
            let st = rule.rule.sample_start(router, target, &mut rng);
            let (port, _) = rule
                .pick(&ctx, router, target, 0, st, dest, &mut rng)
                .expect("the packet is not at its destination");
            *count.entry(neighbour_of_port[port as usize]).or_default() += 1;
        }
        count
            .into_iter()
            .map(|(v, c)| (v, c as f64 / draws as f64))
            .collect()
    }

    /// The share of draws in which `spec` takes each up port at leaf 0 of `fattree:k=8` (4 up
    /// ports) for a packet to a leaf of another pod, with `used_on_up[i]` credits in use on up
    /// port i.
    fn up_port_shares(spec: &str, used_on_up: &[u32], draws: u32) -> Vec<f64> {
        let net = build_str("fattree:k=8").unwrap();
        // Leaves come first, pod by pod (k/2 = 4 per pod): leaf 4 is in pod 1.
        let up: Vec<u32> = net
            .neighbors(0)
            .iter()
            .copied()
            .filter(|&v| net.label(v as usize)[0] == 1)
            .collect();
        assert_eq!(up.len(), used_on_up.len());
        let used_of = |v: u32| up.iter().position(|&u| u == v).map_or(0, |i| used_on_up[i]);
        let shares = choice_shares("fattree:k=8", spec, (0, 4), &used_of, draws);
        up.iter()
            .map(|v| shares.get(v).copied().unwrap_or(0.0))
            .collect()
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

    /// Two choices over candidates of two detour levels (`hyperx_ador` at switch (0, 0) of a
    /// 4 x 4 HyperX for switch (2, 0)): the first draw is the direct hop (the only one of
    /// level 0), the second uniform over the 3 switches of dimension 0 (the direct one and two
    /// detours); a detour is taken when its credits in use plus the detour penalty (one VC
    /// buffer, 64 credits by default) are fewer than the direct output's. With 200 credits in
    /// use towards the direct switch, 10 towards (1, 0) (74 < 200) and 150 towards (3, 0)
    /// (214 > 200): the direct hop 2/3, (1, 0) 1/3, (3, 0) never. Queue selection sends every
    /// packet to (1, 0); on an idle router both take the direct hop.
    #[test]
    fn two_choices_weigh_a_random_detour_against_the_direct_hop() {
        let spec = "hyperx:dims=4x4,p=1";
        let net = build_str(spec).unwrap();
        let at = |x: i64, y: i64| {
            (0..net.num_routers() as u32)
                .find(|&r| net.label(r as usize) == [x, y])
                .expect("every coordinate pair is a switch")
        };
        let (direct, light, heavy) = (at(2, 0), at(1, 0), at(3, 0));
        let used_of = |v: u32| match v {
            _ if v == direct => 200,
            _ if v == light => 10,
            _ if v == heavy => 150,
            _ => 0,
        };
        let draws = 90_000;
        let shares = choice_shares(
            spec,
            "hyperx_ador:select=two_choices",
            (at(0, 0), direct),
            &used_of,
            draws,
        );
        // Standard deviation of a share of 1/3 over 90,000 draws: 0.0016.
        let close =
            |v: u32, want: f64| (shares.get(&v).copied().unwrap_or(0.0) - want).abs() < 0.008;
        assert!(
            close(direct, 2.0 / 3.0) && close(light, 1.0 / 3.0),
            "{shares:?}"
        );
        assert!(!shares.contains_key(&heavy), "{shares:?}");
        let queue = choice_shares(
            spec,
            "hyperx_ador:select=queue",
            (at(0, 0), direct),
            &used_of,
            1000,
        );
        assert_eq!(queue, BTreeMap::from([(light, 1.0)]));
        for select in ["two_choices", "queue"] {
            let idle = choice_shares(
                spec,
                &format!("hyperx_ador:select={select}"),
                (at(0, 0), direct),
                &|_| 0,
                1000,
            );
            assert_eq!(idle, BTreeMap::from([(direct, 1.0)]), "{select}");
        }
    }

    /// `dragonflyplus_adaptive` at a leaf reads two choices by default: on
    /// `dragonflyplus:h=4,g=3` every one of the 4 spines above leaf 0 is a gateway to group 1
    /// (checked), so for a leaf of group 1 the 4 up ports are minimal candidates alike and the
    /// one less occupied than the 3 others is taken with 1 - (3/4)^2 = 7/16, each other with
    /// 3/16, as ANCA's up ports (the closed form above). The former default (select=queue) took
    /// it always, which herds with many spines (docs/routing.md, "Dragonfly+").
    #[test]
    fn dragonflyplus_adaptive_spreads_a_leafs_packets_over_its_spines() {
        let spec = "dragonflyplus:h=4,g=3";
        let net = build_str(spec).unwrap();
        let (leaf, target) = (0u32, 8u32);
        assert_eq!(
            net.label(target as usize),
            [1, 0],
            "router 8 is leaf 0 of group 1"
        );
        let spines: Vec<u32> = net.neighbors(leaf as usize).to_vec();
        assert_eq!(spines.len(), 4);
        for &s in &spines {
            let to_group_1 = net
                .neighbors(s as usize)
                .iter()
                .any(|&v| net.label(v as usize)[0] == 1);
            assert!(to_group_1, "spine {s} is a gateway to group 1");
        }
        let light = spines[2];
        let used_of = |v: u32| if v == light { 2 } else { 5 };
        let shares = choice_shares(
            spec,
            "dragonflyplus_adaptive",
            (leaf, target),
            &used_of,
            160_000,
        );
        for &s in &spines {
            let want = if s == light { 7.0 / 16.0 } else { 3.0 / 16.0 };
            let got = shares.get(&s).copied().unwrap_or(0.0);
            assert!(
                (got - want).abs() < 0.008,
                "spine {s}: {got}, want {want} ({shares:?})"
            );
        }
        let queue = choice_shares(
            spec,
            "dragonflyplus_adaptive:select=queue",
            (leaf, target),
            &used_of,
            1000,
        );
        assert_eq!(queue, BTreeMap::from([(light, 1.0)]));
    }
}
