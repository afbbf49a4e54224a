//! One definition of a routing algorithm, read two ways: by the simulator one hop at a time
//! (a candidate drawn at random or by queue state) and by static analysis as every path with
//! its probability (`RuleRoute`, a `RouteDef`). An algorithm written as a `HopRouting` is
//! therefore available to `topolab sim`, the deadlock checker, channel loads and forwarding
//! tables at once, and the two can never disagree about which paths exist.
//!
//! The contract:
//! - a packet from router s to router t starts in a state drawn from `start(s, t)` (e.g. the
//!   Valiant intermediate, or the Dragonfly global link to use);
//! - at every router r, `next(r, t, hop, state)` offers the candidate hops (neighbour, VC class,
//!   state after the hop, detour level); the simulator takes one (uniformly among the least
//!   detouring, weighted by link width, or by occupancy plus a penalty per detour level when
//!   the routing selects by queue), static analysis takes each least-detouring one with equal
//!   probability (every one, for a routing that selects by queue);
//! - a packet is delivered at the first router r == t where `next` offers nothing. `next` must
//!   offer at least one candidate wherever r != t (a dead end is reported as an error).

use super::path::{walk, PathSet, RouteDef};
use crate::error::{Result, TopolabError};
use crate::network::Network;
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use std::sync::Arc;

/// Per-packet routing state carried by the packet (the simulator keeps it in the flit's
/// `phase` and `intermediate` fields).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct RouteState {
    pub phase: u8,
    /// An intermediate router, a chosen dimension order, a virtual layer: the routing's own.
    pub aux: u32,
}

impl RouteState {
    pub const fn new(phase: u8, aux: u32) -> Self {
        RouteState { phase, aux }
    }
}

/// One candidate hop at a router.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Hop {
    /// How far the hop departs from the algorithm's preference: 0 for a productive (e.g.
    /// minimal) hop, higher for less preferred ones (Daryin & Korzh, JSFI 2014, §3.3, §3.5, §3.7
    /// order adaptive choices: minimal first, then sideways / extra hops, then deflection). Random
    /// selection and static analysis of an oblivious routing take only the lowest level offered;
    /// queue selection charges each level one VC buffer of occupancy (`RuleRouting`).
    pub detour: u8,
    /// Position of the next router in `net.neighbors(router)`.
    pub nb: u32,
    /// VC class of the hop, below `vc_classes()`. The simulator splits its VCs evenly among
    /// the classes; static analysis uses the class as the VC.
    pub vc: u8,
    /// Routing state after the hop.
    pub state: RouteState,
}

/// How the simulator picks among a router's candidate hops.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Select {
    /// Uniformly over candidate ports (a link of width w counts w times).
    Random,
    /// The candidate output port with the fewest credits in use, ties broken at random
    /// (adaptive variants: ADOR, lowest-queue minimal).
    Queue,
    /// Two candidate ports drawn uniformly, the first among the least-detouring candidates'
    /// ports, the second among every candidate's (with replacement); the second is taken when
    /// its credits in use plus one VC buffer per detour level (as `Queue` charges) are fewer
    /// than the first's. With candidates of one level: BookSim2's `anca_fattree` (the reading
    /// of Besta & Hoefler, SC14, §V's ANCA; docs/routing.md says why, as §V does not name its
    /// simulator). Unlike `Queue`, the packets routed in one step do not all pick the same
    /// least occupied port (credits in use count only flits that already crossed the switch).
    TwoChoices,
}

impl Select {
    pub fn parse(value: &str) -> Result<Select> {
        match value.trim().to_ascii_lowercase().as_str() {
            "random" => Ok(Select::Random),
            "queue" => Ok(Select::Queue),
            "two_choices" => Ok(Select::TwoChoices),
            other => Err(TopolabError::InvalidParameter {
                context: "routing".into(),
                param: "select".into(),
                value: other.into(),
                allowed: "random (uniform among candidates), queue (least occupied output) or \
                          two_choices (the less occupied of two drawn at random)"
                    .into(),
            }),
        }
    }
    pub fn name(self) -> &'static str {
        match self {
            Select::Random => "random",
            Select::Queue => "queue",
            Select::TwoChoices => "two_choices",
        }
    }
}

/// Which of a link's parallel ports (width > 1) the simulator takes for a chosen hop.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ports {
    /// Uniformly over all candidate ports (a link of width w counts w times).
    Random,
    /// Port number (destination endpoint mod width) of the hop drawn uniformly among the
    /// candidates (BookSim2's torus and anynet spread by destination).
    Destination,
    /// The link's first port, the hop drawn uniformly among the candidates.
    First,
}

impl Ports {
    pub fn parse(value: &str) -> Result<Ports> {
        match value.trim().to_ascii_lowercase().as_str() {
            "random" => Ok(Ports::Random),
            "destination" => Ok(Ports::Destination),
            "first" => Ok(Ports::First),
            other => Err(TopolabError::invalid(
                "routing",
                "ports",
                other,
                "random (uniform over parallel ports), destination (destination endpoint mod width, BookSim2) or first",
            )),
        }
    }
}

/// How the simulator maps V VCs onto a rule's k VC classes (static analysis uses the class).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum VcSplit {
    /// Class c takes VCs [c·⌊V/k⌋, (c+1)·⌊V/k⌋ − 1]; the V mod k last VCs stay unused.
    Even,
    /// As `Even`, the last class also takes the V mod k remaining VCs.
    Fill,
    /// BookSim2's dim_order_torus: class c takes [c·⌊V/k⌋, V − 1 − (k−1−c)·⌊V/k⌋], so the
    /// classes overlap when k does not divide V.
    Overlap,
    /// Class c is VC c alone (BookSim2's dragonflynew: VC = phase); under `booksim_compat` the
    /// injection VC is drawn at random and a packet ejects on its state's VC (`state_vc`).
    One,
}

impl VcSplit {
    pub fn parse(value: &str) -> Result<VcSplit> {
        match value.trim().to_ascii_lowercase().as_str() {
            "even" => Ok(VcSplit::Even),
            "fill" => Ok(VcSplit::Fill),
            "overlap" => Ok(VcSplit::Overlap),
            "one" => Ok(VcSplit::One),
            other => Err(TopolabError::invalid(
                "routing",
                "vc_split",
                other,
                "even (VCs split evenly among classes), fill (the last class takes the rest), overlap (BookSim2 dim_order) or one (VC = class, BookSim2 dragonflynew)",
            )),
        }
    }

    /// The VC range (first, last) of each of `classes` classes out of `num_vcs` VCs
    /// (`num_vcs` >= `classes` >= 1).
    pub fn ranges(self, classes: u32, num_vcs: u32) -> Vec<(u8, u8)> {
        let (k, v) = (classes.max(1), num_vcs);
        let per = v / k;
        (0..k)
            .map(|c| {
                let (lo, hi) = match self {
                    VcSplit::Even => (c * per, c * per + per - 1),
                    VcSplit::Fill if c + 1 == k => (c * per, v - 1),
                    VcSplit::Fill => (c * per, c * per + per - 1),
                    VcSplit::Overlap => (c * per, v - 1 - (k - 1 - c) * per),
                    VcSplit::One => (c, c),
                };
                (lo as u8, hi as u8)
            })
            .collect()
    }
}

/// How the simulator reads a rule: its choice among candidates, among parallel ports, and
/// its VC numbering (the catalog's reader keys `select`, `ports`, `vc_split`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Reading {
    pub select: Select,
    pub ports: Ports,
    pub vc_split: VcSplit,
}

/// A routing algorithm defined hop by hop.
pub trait HopRouting: Send + Sync {
    /// Name with parameters, e.g. "dor:vcs=dateline".
    fn name(&self) -> String;
    /// Number of VC classes the scheme needs (every `Hop::vc` is below it).
    fn vc_classes(&self) -> u32;
    /// An upper bound on path length in hops; a walk longer than this is a livelock.
    fn max_hops(&self) -> u32;
    /// How the simulator chooses among candidates unless the user says otherwise.
    fn default_select(&self) -> Select {
        Select::Random
    }
    /// False when even random selection does not make `start`/`next` probabilities the
    /// traffic split (UGAL's candidate union: the choice between its parts is adaptive). With
    /// `select=queue` no rule is oblivious (`catalog::build_static`).
    fn oblivious(&self) -> bool {
        true
    }
    /// The starting states of a packet from router s to router t with their probabilities
    /// (summing to 1), appended to `out`.
    fn start(&self, s: u32, t: u32, out: &mut Vec<(RouteState, f64)>);
    /// The starting state of a packet from router s to host number `d` of router t, for
    /// routings whose path depends on the destination host (Mixed DOR's SL = d mod 4, Daryin &
    /// Korzh, JSFI 2014, §3.3): what an InfiniBand export writes per destination LID. None when the
    /// start is drawn at random per packet; the default returns `start`'s state when it is the only
    /// one.
    fn host_start(&self, s: u32, t: u32, _d: u32) -> Option<RouteState> {
        let mut all = Vec::new();
        self.start(s, t, &mut all);
        match all.as_slice() {
            [(st, _)] => Some(*st),
            _ => None,
        }
    }
    /// One starting state drawn from the `start` distribution. Routings with many starting
    /// states (Valiant: every router) override this to avoid listing them per packet.
    fn sample_start(&self, s: u32, t: u32, rng: &mut ChaCha8Rng) -> RouteState {
        let mut all = Vec::new();
        self.start(s, t, &mut all);
        sample_weighted(&all, rng)
    }
    /// The VC class of a packet in state `st`, for readers that number VCs by routing phase:
    /// BookSim2's dragonflynew ejects a packet on the VC of its phase (`vc_split=one` under
    /// `booksim_compat`). Rules whose class is not a function of the state keep 0.
    fn state_vc(&self, _st: RouteState) -> u8 {
        0
    }
    /// The candidate hops at router r for a packet to router t after `hop` hops in state `st`;
    /// nothing when the packet is delivered (r == t).
    fn next(&self, r: u32, t: u32, hop: u32, st: RouteState, out: &mut dyn FnMut(Hop));
    /// The first byte of the table entry that `next(r, t, _, st)` will read, for the simulator
    /// to ask for its cache line a router's turn ahead for the flits arriving there
    /// (topolab-sim `read_ahead`): on networks of thousands of routers each lookup is
    /// otherwise a miss. Rules that compute their hops keep the default, None.
    #[inline]
    fn table_entry(&self, _r: u32, _t: u32, _st: RouteState) -> Option<&u8> {
        None
    }
    /// `next` with the callback's type known, for the simulator's per-hop loop: a rule on the
    /// hot path overrides it with its body made generic (`next` then forwards to it), so the
    /// callback is inlined instead of called through `dyn FnMut` per candidate. The default
    /// forwards to `next`.
    #[inline]
    fn next_each<F: FnMut(Hop)>(&self, r: u32, t: u32, hop: u32, st: RouteState, mut out: F)
    where
        Self: Sized,
    {
        self.next(r, t, hop, st, &mut out)
    }
    /// One of `next`'s least-detouring candidates drawn uniformly, each counted once
    /// (reservoir sampling: the first is taken without a draw): the simulator's hop under
    /// `select=random` with BookSim2's port choice. The `Rule` and UGAL enums forward it per
    /// variant, so the draw is compiled for each rule type and its state stays in registers.
    #[inline(always)]
    fn draw_next(
        &self,
        r: u32,
        t: u32,
        hop: u32,
        st: RouteState,
        rng: &mut ChaCha8Rng,
    ) -> Option<Hop>
    where
        Self: Sized,
    {
        let mut chosen: Option<Hop> = None;
        let mut seen = 0u32;
        let mut least = u8::MAX;
        self.next_each(r, t, hop, st, |h: Hop| {
            if h.detour > least {
                return;
            }
            if h.detour < least {
                least = h.detour;
                seen = 0;
            }
            seen += 1;
            if seen == 1 || rng.random_range(0..seen) == 0 {
                chosen = Some(h);
            }
        });
        chosen
    }
}

/// Draws one entry of a (value, weight) list by weight (the first when weights are zero).
pub fn sample_weighted<T: Copy>(items: &[(T, f64)], rng: &mut ChaCha8Rng) -> T {
    assert!(!items.is_empty(), "a routing offered no starting state");
    if items.len() == 1 {
        return items[0].0;
    }
    let total: f64 = items.iter().map(|x| x.1).sum();
    let mut x = rng.random::<f64>() * total;
    for &(v, w) in items {
        if x < w {
            return v;
        }
        x -= w;
    }
    items[items.len() - 1].0
}

/// A `HopRouting` seen by static analysis: every path with its probability.
pub struct RuleRoute<'a, R: HopRouting + ?Sized + 'a = dyn HopRouting + 'a> {
    pub net: &'a Network,
    pub rule: Arc<R>,
    /// False when the simulator would choose among candidates by queue state: the paths are
    /// then the candidates' union, not a traffic split.
    pub oblivious: bool,
    /// The reading's choice among a link's parallel ports (`Reading::ports`).
    pub ports: Ports,
}

impl<R: HopRouting + ?Sized> RouteDef for RuleRoute<'_, R> {
    fn name(&self) -> String {
        self.rule.name()
    }
    fn num_vcs(&self) -> u32 {
        self.rule.vc_classes()
    }
    fn oblivious(&self) -> bool {
        self.oblivious
    }
    fn ports(&self) -> Ports {
        self.ports
    }
    fn paths(&self, s: usize, t: usize, out: &mut PathSet) -> Result<()> {
        out.clear();
        let mut starts = Vec::new();
        self.rule.start(s as u32, t as u32, &mut starts);
        if starts.is_empty() {
            return Err(TopolabError::InvalidNetwork(format!(
                "routing {} offers no start from router {s} to router {t}",
                self.rule.name()
            )));
        }
        let max = self.rule.max_hops() as usize;
        let mut part = PathSet::default();
        for &(st0, w) in &starts {
            part.clear();
            walk(s, t, st0, max, &mut part, &mut |r, st, hop, c| {
                let nbrs = self.net.neighbors(r as usize);
                let links = self.net.neighbor_links(r as usize);
                let mut least = u8::MAX;
                let start = c.len();
                self.rule.next(r, t as u32, hop as u32, st, &mut |h: Hop| {
                    if self.oblivious && h.detour > least {
                        return;
                    }
                    if self.oblivious && h.detour < least {
                        least = h.detour;
                        c.truncate(start);
                    }
                    // The simulator draws uniformly over the candidates' ports with
                    // `ports=random` (a link of width w counts w times), else over the
                    // candidates.
                    let weight = match self.ports {
                        Ports::Random => {
                            self.net.links()[links[h.nb as usize] as usize].width as f64
                        }
                        Ports::Destination | Ports::First => 1.0,
                    };
                    c.push((nbrs[h.nb as usize], h.state, h.vc, weight));
                });
            })?;
            for i in 0..part.len() {
                let (rs, vcs, pw) = part.path(i);
                out.push(rs, vcs, w * pw);
            }
        }
        Ok(())
    }
}

/// Every VC class a rule uses must be below its `vc_classes()`, and every walk must end:
/// the checks the static adapter and the simulator rely on, for tests of new routings.
pub fn check_rule_paths<R: HopRouting + ?Sized>(net: &Network, rule: Arc<R>) -> Result<u32> {
    // Every candidate, whatever its detour level: all of them can be taken under queue
    // selection.
    let def = RuleRoute {
        net,
        rule,
        oblivious: false,
        ports: Ports::Random,
    };
    let classes = def.num_vcs();
    let mut longest = 0u32;
    let mut ps = PathSet::default();
    let routers: Vec<usize> = (0..net.num_routers())
        .filter(|&r| net.endpoints()[r] > 0 || net.num_endpoints() == 0)
        .collect();
    for &s in &routers {
        for &t in &routers {
            def.paths(s, t, &mut ps)?;
            let total: f64 = (0..ps.len()).map(|i| ps.path(i).2).sum();
            if (total - 1.0).abs() > 1e-9 {
                return Err(TopolabError::InvalidNetwork(format!(
                    "routing {} path probabilities from {s} to {t} sum to {total}",
                    def.name()
                )));
            }
            for i in 0..ps.len() {
                let (rs, vcs, _) = ps.path(i);
                if let Some(&v) = vcs.iter().find(|&&v| v as u32 >= classes) {
                    return Err(TopolabError::InvalidNetwork(format!(
                        "routing {} uses VC class {v} but declares {classes}",
                        def.name()
                    )));
                }
                longest = longest.max(rs.len() as u32 - 1);
            }
        }
    }
    Ok(longest)
}
