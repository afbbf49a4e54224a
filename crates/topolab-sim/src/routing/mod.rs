//! Routing: which output port and which VCs a head flit may take at a router.
//!
//! The engine calls `Routing::route` once per packet per router, when the head flit reaches the
//! front of its input VC, with a `RouteCtx`: the topology, the router, the input port and VC, and
//! the router's own output-queue state (credits in use per output port, for local adaptive
//! decisions such as UGAL-L); `global` offers every router's published output-queue state of the
//! previous cycle for global variants (UGAL-G). The routing keeps per-packet state (phase,
//! intermediate router) in the head flit. The answer is an output port and a VC range
//! (`RouteChoice`); the VC allocator picks a free VC in the range.
//!
//! Enum dispatch all the way down: `Routing` is an enum, and a core rule is the catalog's
//! `Rule` enum (`topolab_core::routing::catalog`), so the cycle loop calls no trait object.
//! Which routings the simulator reads, and the old names kept as aliases (`dor`,
//! `dragonfly_min`, `dragonfly_ugal`: BookSim2-compatible options of the core rules), is the
//! core's one catalog. A bufferless router model reads the same `route` answer as its preferred
//! port. Each routing checks that the network suits it and num_vcs against the VC classes it
//! needs when it is built.

pub mod minimal;
pub mod rule;
pub mod ugal;

use crate::config::SimConfig;
use crate::error::{Result, SimError};
use crate::flit::Flit;
use crate::topo::SimTopology;
use rand_chacha::ChaCha8Rng;
use std::sync::Arc;
use topolab_core::progress::Monitor;
use topolab_core::routing::catalog::{self, Definition};
use topolab_core::routing::minimal::{endpoint_diameter, Minimal};
use topolab_core::routing::rule::{HopRouting, RouteState};
use topolab_core::routing::Hop;
use topolab_core::routing::HopMatrix;
use topolab_core::routing::Rule;
use topolab_core::routing::{Ports, VcSplit};
use topolab_core::Network;

/// An output port and the VCs the head flit may be allocated there (inclusive range).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct RouteChoice {
    pub port: u32,
    pub vc_lo: u8,
    pub vc_hi: u8,
}

/// Output-queue state published by every router (credits in use per output port), as of the end
/// of the previous cycle.
pub trait GlobalView: Sync {
    fn port_used(&self, router: u32, port: u32) -> u32;
}

/// What a routing function sees at one router.
pub struct RouteCtx<'a> {
    pub topo: &'a SimTopology,
    pub router: u32,
    pub in_port: u32,
    /// The packet enters the network here (input port is an injection port).
    pub from_endpoint: bool,
    pub in_vc: u32,
    pub num_vcs: u32,
    /// Credits in use per output port of this router, all VCs (BookSim2's GetUsedCredit).
    pub port_used: &'a [u32],
    pub global: &'a dyn GlobalView,
    pub booksim: bool,
}

impl RouteCtx<'_> {
    /// The router of the packet's destination endpoint.
    #[inline]
    pub fn dest_router(&self, f: &Flit) -> u32 {
        f.dest_router
    }
    /// Ejection towards `f.dest` on any VC (the packet is at its destination router).
    #[inline]
    pub fn eject(&self, f: &Flit) -> RouteChoice {
        RouteChoice {
            port: f.dest - self.topo.ep_offset[self.router as usize],
            vc_lo: 0,
            vc_hi: (self.num_vcs - 1) as u8,
        }
    }
    /// Every VC.
    #[inline]
    pub fn all_vcs(&self, port: u32) -> RouteChoice {
        RouteChoice {
            port,
            vc_lo: 0,
            vc_hi: (self.num_vcs - 1) as u8,
        }
    }
}

/// How a path-based routing assigns VCs on router-to-router hops.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum VcPolicy {
    /// Any VC on any hop (BookSim2 anynet `min`; not deadlock-free in general).
    Any,
    /// VC class k on hop k, the VCs split evenly among `classes` classes (Besta & Hoefler, SC14,
    /// §IV-D).
    HopIndexed { classes: u32 },
}

impl VcPolicy {
    #[inline]
    pub fn range(self, hop: u32, num_vcs: u32) -> (u8, u8) {
        match self {
            VcPolicy::Any => (0, (num_vcs - 1) as u8),
            VcPolicy::HopIndexed { classes } => {
                let per = num_vcs / classes;
                let class = hop.min(classes - 1);
                ((class * per) as u8, (class * per + per - 1) as u8)
            }
        }
    }
}

#[derive(Debug, Clone)]
pub enum Routing {
    /// BookSim2 anynet's fixed shortest-path table.
    MinStatic(minimal::MinStatic),
    /// UGAL-L / UGAL-G: the source decision over the core's UGAL candidates.
    Ugal(ugal::UgalRouting),
    /// A hop-by-hop routing defined in topolab-core (`catalog::ROUTINGS`): min, valiant,
    /// torus_dor (also as `dor`), dragonfly_static (also as `dragonfly_min`), ...
    Rule(rule::RuleRouting),
    /// A rule the route computation reads often enough to be worth its own code (`TypedRule`):
    /// the rule routing as for every rule (`general`, what everything but the route
    /// computation reads) and the same over the rule's own type (`typed`), which `route` and
    /// the read-ahead take so that the rule's start state, candidate loop and table are
    /// inlined with no match on the rule enum per hop.
    Typed {
        general: rule::RuleRouting,
        typed: TypedRule,
    },
}

/// A rule routing over the rule's own type (`Routing::Typed`). `min` alone, compare's routing
/// under uniform traffic for most families: 3.8% fewer instructions on its Slim Fly q = 19.
/// Each typed rule's route is one more copy inlined into the router's route computation,
/// which costs every other routing: with `min` the torus's `dor` takes 0.9% more
/// instructions, and `dor` typed as well took 2.3% more on the torus itself.
#[derive(Debug, Clone)]
pub enum TypedRule {
    Minimal(rule::RuleRouting<Minimal>),
}

fn vc_policy(
    spec: &catalog::RoutingSpec,
    default_hop: bool,
    classes: u32,
    num_vcs: u32,
) -> Result<VcPolicy> {
    let p = spec.params();
    let choice = match spec.params.get("vcs").map(|v| v.to_string()) {
        None => {
            if default_hop {
                "hop".to_string()
            } else {
                "any".to_string()
            }
        }
        Some(s) => s.trim().to_ascii_lowercase(),
    };
    match choice.as_str() {
        "any" => Ok(VcPolicy::Any),
        "hop" => {
            if num_vcs < classes {
                return Err(SimError::param(
                    "num_vcs",
                    num_vcs,
                    format!(
                        "at least {classes} for {} with hop-indexed VCs (one class per hop of the longest path); or give vcs=any",
                        p.family()
                    ),
                ));
            }
            Ok(VcPolicy::HopIndexed { classes })
        }
        other => Err(SimError::Core(p.invalid(
            "vcs",
            format!("'{other}'"),
            "hop (VC class = hop number) or any",
        ))),
    }
}

impl Routing {
    /// The routing named by `spec` ("min", "valiant:vcs=any", an alias such as "dor", ...)
    /// for this network.
    pub fn parse(
        spec: &str,
        net: &Network,
        topo: &SimTopology,
        cfg: &SimConfig,
        monitor: &dyn Monitor,
    ) -> Result<Routing> {
        let spec = match catalog::RoutingSpec::parse(spec, cfg.booksim_compat) {
            Ok(spec) => spec,
            Err(topolab_core::TopolabError::InvalidParameter { param, value, .. })
                if param == "routing" =>
            {
                return Err(unknown_routing(&value))
            }
            Err(e) => return Err(e.into()),
        };
        let (asked, entry) = (spec.asked.as_str(), spec.entry);
        let name = entry.name;
        if !entry.readers.simulator {
            return Err(SimError::param(
                "routing",
                format!("'{name}'"),
                format!(
                    "a routing the simulator reads ('{name}' is for static analysis: {})",
                    entry.summary
                ),
            ));
        }
        let v = cfg.num_vcs;
        match entry.definition {
            Definition::Simulator => {
                // min_static, the one table routing the simulator defines itself.
                let hops = HopMatrix::build(net, monitor)?;
                let diameter = endpoint_diameter(net, &hops)?;
                let policy = vc_policy(&spec, false, diameter, v)?;
                let table = topolab_core::routing::NextHopTable::build(net, &hops, monitor)?;
                Ok(Routing::MinStatic(minimal::MinStatic::new(
                    minimal::port_table(topo, &table)?,
                    policy,
                )))
            }
            Definition::Ugal { global } => {
                let built = match catalog::build_rule_spec(net, &spec, monitor) {
                    Ok(built) => built.expect("UGAL is a rule"),
                    Err(topolab_core::TopolabError::InvalidNetwork(why)) if asked != name => {
                        return Err(SimError::param("routing", format!("'{asked}'"), why))
                    }
                    Err(e) => return Err(e.into()),
                };
                let choice = spec.ugal.expect("a UGAL spec carries its decision");
                let Ok(topolab_core::routing::Rule::Ugal(candidates)) = Arc::try_unwrap(built.rule)
                else {
                    unreachable!("a UGAL entry builds UGAL candidates, with one owner")
                };
                let kind = if global {
                    ugal::UgalKind::Global
                } else {
                    ugal::UgalKind::Local
                };
                Ok(Routing::Ugal(ugal::UgalRouting::new(
                    Arc::new(candidates),
                    kind,
                    choice,
                    built.reading,
                    v,
                    cfg.vc_buf_size,
                )?))
            }
            Definition::Rule(_) => {
                let built = match catalog::build_rule_spec(net, &spec, monitor) {
                    Ok(built) => built.expect("a rule"),
                    // The simulator's former routings (now aliases) refused an unsuitable
                    // network as a bad `routing` parameter; they still do.
                    Err(topolab_core::TopolabError::InvalidNetwork(why)) if asked != name => {
                        return Err(SimError::param("routing", format!("'{asked}'"), why))
                    }
                    Err(e) => return Err(e.into()),
                };
                let plain =
                    built.reading.ports == Ports::Random && built.reading.vc_split == VcSplit::Even;
                if cfg.router == crate::config::RouterModel::HotPotato && !plain {
                    // The bufferless router has no VCs and spreads over every port itself.
                    return Err(SimError::param(
                        "routing",
                        format!("'{asked}' with router=hotpotato"),
                        "a routing read with the default ports and vc_split (a BookSim2 alias \
                         fixes both; give its rule, e.g. torus_dor for dor)",
                    ));
                }
                let takes_vcs = entry.params.iter().any(|p| p.name == "vcs");
                let general = rule::RuleRouting::new(
                    built.rule,
                    built.reading,
                    v,
                    takes_vcs.then_some("vcs=any (one VC class)"),
                )?
                .with_detour_penalty(cfg.vc_buf_size);
                let typed = match &*general.rule {
                    Rule::Minimal(m) => Some(TypedRule::Minimal(general.over(Arc::new(m.clone())))),
                    _ => None,
                };
                Ok(match typed {
                    Some(typed) => Routing::Typed { general, typed },
                    None => Routing::Rule(general),
                })
            }
            Definition::Paths(_) => unreachable!("static-only routings are refused above"),
        }
    }

    /// Output port and VC range for the head flit `f` at `ctx.router`.
    // Always inlined into the router's route computation: left to LLVM, a larger rule variant
    // can tip it out of line, and the table routing of the reference configurations would pay
    // a call per flit-hop.
    #[inline(always)]
    pub fn route(&self, ctx: &RouteCtx, f: &mut Flit, rng: &mut ChaCha8Rng) -> RouteChoice {
        match self {
            Routing::MinStatic(r) => r.route(ctx, f, rng),
            Routing::Ugal(r) => r.route(ctx, f, rng),
            Routing::Rule(r) => r.route(ctx, f, rng),
            Routing::Typed { typed, .. } => match typed {
                TypedRule::Minimal(r) => r.route(ctx, f, rng),
            },
        }
    }

    /// Asks for the table entry that routing the head flit `f` at `router` will read
    /// (`HopRouting::table_entry`; see `crate::read_ahead`).
    #[inline]
    pub fn read_ahead(&self, topo: &SimTopology, router: u32, f: &Flit) {
        let st = RouteState::new(f.phase, f.intermediate);
        let entry = match self {
            Routing::MinStatic(r) => return r.read_ahead(topo, router, f.dest_router),
            Routing::Ugal(r) => r.hops().rule.table_entry(router, f.dest_router, st),
            Routing::Rule(r) => r.rule.table_entry(router, f.dest_router, st),
            Routing::Typed { typed, .. } => match typed {
                TypedRule::Minimal(r) => r.rule.table_entry(router, f.dest_router, st),
            },
        };
        if let Some(byte) = entry {
            crate::read_ahead::prefetch(byte);
        }
    }

    /// VCs a packet may use on its injection channel.
    #[inline]
    pub fn injection_vcs(&self, num_vcs: u32, booksim: bool, rng: &mut ChaCha8Rng) -> (u8, u8) {
        match self {
            Routing::Rule(r) | Routing::Typed { general: r, .. } => {
                r.injection_vcs(num_vcs, booksim, rng)
            }
            Routing::Ugal(r) => r.hops().injection_vcs(num_vcs, booksim, rng),
            Routing::MinStatic(_) => (0, (num_vcs - 1) as u8),
        }
    }

    /// Visits the output ports of every hop the routing offers head `f` at `router` (`min`:
    /// every minimal next hop; `min_static`: its one fixed hop; a rule: its candidate hops), as
    /// (first port, link width, the rule's hop) per candidate link, in the rule's order. The
    /// deflection routers read these as the preferred outputs (`router::hotpotato`, the iq
    /// router's `deflect`). UGAL offers none: its choice is the source's decision.
    pub fn each_candidate(
        &self,
        topo: &SimTopology,
        router: u32,
        f: &Flit,
        mut visit: impl FnMut(u32, u32, Option<Hop>),
    ) {
        let ru = router as usize;
        let t = f.dest_router;
        match self {
            Routing::MinStatic(m) => {
                let first = m.fixed[ru * topo.num_routers as usize + t as usize] as u32;
                let pos = topo.neighbor_pos(ru, topo.out_link(ru, first).peer);
                let width = pos.map_or(1, |pos| topo.nbr_port(ru, pos).1);
                visit(first, width, None);
            }
            Routing::Rule(rr) | Routing::Typed { general: rr, .. } => {
                let st = RouteState::new(f.phase, f.intermediate);
                rr.rule.next(router, t, f.hops as u32, st, &mut |h: Hop| {
                    let (first, width) = topo.nbr_port(ru, h.nb as usize);
                    visit(first, width, Some(h));
                });
            }
            Routing::Ugal(_) => {}
        }
    }

    /// Hops from router `from` to router `t` along the routing's own path (its first candidate
    /// at every step): the distance for `min` and `min_static`, the path the routing would take
    /// from there for a rule routing. Bounded by the number of routers (a routing that does not
    /// reach `t`, and UGAL, count as that far).
    pub fn path_length(&self, topo: &SimTopology, from: u32, t: u32, rng: &mut ChaCha8Rng) -> u32 {
        let n = topo.num_routers as usize;
        let mut at = from;
        let mut hops = 0u32;
        match self {
            Routing::MinStatic(m) => {
                while at != t && (hops as usize) < n {
                    let port = m.fixed[at as usize * n + t as usize] as u32;
                    at = topo.out_link(at as usize, port).peer;
                    hops += 1;
                }
            }
            Routing::Rule(rr) | Routing::Typed { general: rr, .. } => {
                let mut st = rr.rule.sample_start(at, t, rng);
                while at != t && (hops as usize) < n {
                    let mut first: Option<Hop> = None;
                    rr.rule.next(at, t, hops, st, &mut |h: Hop| {
                        first.get_or_insert(h);
                    });
                    let Some(h) = first else { break };
                    at = topo.neighbors(at as usize)[h.nb as usize];
                    st = h.state;
                    hops += 1;
                }
            }
            Routing::Ugal(_) => {}
        }
        if at == t {
            hops
        } else {
            n as u32
        }
    }

    /// Whether decisions read other routers' published state (`RouteCtx::global`).
    pub fn needs_global_view(&self) -> bool {
        matches!(self, Routing::Ugal(u) if u.kind == ugal::UgalKind::Global)
    }
}

/// Every routing name the simulator reads (catalog routings and aliases).
pub fn simulator_routings() -> Vec<&'static str> {
    let mut names: Vec<&str> = catalog::ROUTINGS
        .iter()
        .filter(|r| r.readers.simulator)
        .map(|r| r.name)
        .chain(catalog::ALIASES.iter().map(|a| a.name))
        .collect();
    names.sort_unstable();
    names
}

fn unknown_routing(name: &str) -> SimError {
    SimError::param(
        "routing",
        format!("'{name}'"),
        format!("one of: {}", simulator_routings().join(", ")),
    )
}

/// What the routings' unit tests build a decision from.
#[cfg(test)]
pub(crate) mod test_support {
    use super::{GlobalView, RouteCtx};
    use crate::topo::SimTopology;

    /// No router publishes queue state: every other router's ports read empty.
    pub struct NoGlobalView;
    impl GlobalView for NoGlobalView {
        fn port_used(&self, _router: u32, _port: u32) -> u32 {
            0
        }
    }

    /// The decision for a packet entering the network at `router` from an endpoint, with
    /// `used` credits in use on each of the router's output ports.
    pub fn at_source<'a>(
        topo: &'a SimTopology,
        router: u32,
        num_vcs: u32,
        used: &'a [u32],
    ) -> RouteCtx<'a> {
        RouteCtx {
            topo,
            router,
            in_port: 0,
            from_endpoint: true,
            in_vc: 0,
            num_vcs,
            port_used: used,
            global: &NoGlobalView,
            booksim: false,
        }
    }
}
