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
//! Enum dispatch, one file per routing family. New routings (the routing issue: UGAL variants,
//! DOR families, deflection) add a variant and a file; a bufferless router model reads the same
//! `route` answer as its preferred port. Each routing says which networks it supports and checks
//! num_vcs against the VC classes it needs when it is built.

pub mod dragonfly;
pub mod minimal;
pub mod rule;
pub mod torus;
pub mod valiant;

use crate::config::SimConfig;
use crate::error::{Result, SimError};
use crate::flit::Flit;
use crate::topo::SimTopology;
use rand_chacha::ChaCha8Rng;
use std::sync::Arc;
use topolab_core::progress::Monitor;
use topolab_core::routing::shortest::NO_PATH;
use topolab_core::routing::HopMatrix;
use topolab_core::{Network, Params, TopologySpec};

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
    /// VC class k on hop k, the VCs split evenly among `classes` classes (000 §IV-D).
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
    Minimal(minimal::Minimal),
    Valiant(valiant::Valiant),
    TorusDor(torus::TorusDor),
    Dragonfly(dragonfly::DragonflyRouting),
    /// A hop-by-hop routing defined in topolab-core (`topolab_core::routing::catalog::RULE_ROUTINGS`).
    Rule(rule::RuleRouting),
}

/// Every routing name `Routing::parse` accepts, with a summary.
pub const ROUTINGS: &[(&str, &str)] = &[
    ("min", "minimal: a random minimal next hop at every router; vcs=hop (VC class = hop, 000 §IV-D) or vcs=any"),
    ("min_static", "minimal, one fixed shortest path per router and destination (BookSim2 anynet: Dijkstra, lowest id first); vcs=any (default) or vcs=hop"),
    ("valiant", "Valiant: minimal to a random intermediate router, then minimal to the destination (000 §IV-B); vcs=hop (default) or vcs=any"),
    ("dor", "torus/mesh dimension-order routing, one dateline per ring (two VC classes)"),
    ("dragonfly_min", "Dragonfly minimal (BookSim2 dragonflynew min): VC 0 before the global hop, VC 1 from it on"),
    ("dragonfly_ugal", "Dragonfly UGAL-L decided at the source router (BookSim2 dragonflynew ugal), VCs 0/1/2 by phase"),
];

/// Largest minimal-next-hop mask table built (bytes).
pub const MASK_BUDGET: usize = 1 << 29;

/// Hop distances shared by the table-driven routings, built once per network.
#[derive(Debug, Clone)]
pub struct Tables {
    pub hops: Arc<HopMatrix>,
    /// Distances to each destination, row by destination (to_dest[t * n + v] = d(v, t)), so
    /// that the neighbours of a router are looked up within one row; None when the network is
    /// undirected and `hops` is symmetric.
    pub to_dest: Option<Arc<Vec<u16>>>,
    /// Per (router, destination router): bit i set when the router's i-th neighbour is one hop
    /// closer. Built when no router has more than 64 neighbours and it takes at most
    /// `MASK_BUDGET` bytes; a routing decision then reads one word instead of every
    /// neighbour's distance (a cache miss each on large networks).
    pub min_mask: Option<Arc<Vec<u64>>>,
    /// Longest shortest path between routers with endpoints.
    pub diameter: u32,
    /// Longest shortest path between any two routers (u32::MAX when not strongly connected).
    pub diameter_all: u32,
}

impl Tables {
    /// Hop distance from `v` to `t`, read from the destination's row.
    #[inline]
    pub fn dist_to(&self, v: usize, t: usize) -> u16 {
        match &self.to_dest {
            Some(rows) => rows[t * self.hops.num_routers() + v],
            None => self.hops.get(t, v),
        }
    }

    pub fn build(net: &Network, topo: &SimTopology, monitor: &dyn Monitor) -> Result<Tables> {
        let hops = HopMatrix::build(net, monitor)?;
        let mut diameter = 0u32;
        for s in 0..topo.num_routers as usize {
            if topo.num_ep(s) == 0 {
                continue;
            }
            for t in 0..topo.num_routers as usize {
                if topo.num_ep(t) == 0 {
                    continue;
                }
                let d = hops.get(s, t);
                if d == NO_PATH {
                    return Err(SimError::Core(topolab_core::TopolabError::InvalidNetwork(
                        format!("router {t} cannot be reached from router {s}; minimal routing needs every endpoint router to reach every other"),
                    )));
                }
                diameter = diameter.max(d as u32);
            }
        }
        let diameter_all = if hops.connected() {
            hops.max_finite() as u32
        } else {
            u32::MAX
        };
        let to_dest = if net.directed() {
            let n = topo.num_routers as usize;
            let mut t = vec![0u16; n * n];
            for v in 0..n {
                for d in 0..n {
                    t[d * n + v] = hops.get(v, d);
                }
            }
            Some(Arc::new(t))
        } else {
            None
        };
        let n = topo.num_routers as usize;
        let max_deg = (0..n).map(|r| topo.neighbors(r).len()).max().unwrap_or(0);
        let min_mask = if max_deg <= 64 && n * n * 8 <= MASK_BUDGET {
            use rayon::prelude::*;
            let rows: Vec<Vec<u64>> = (0..n)
                .into_par_iter()
                .map(|r| {
                    (0..n)
                        .map(|t| {
                            let d = hops.get(r, t);
                            if d == 0 || d == NO_PATH {
                                return 0;
                            }
                            let mut m = 0u64;
                            for (i, &v) in topo.neighbors(r).iter().enumerate() {
                                if hops.get(v as usize, t) == d - 1 {
                                    m |= 1 << i;
                                }
                            }
                            m
                        })
                        .collect()
                })
                .collect();
            Some(Arc::new(rows.concat()))
        } else {
            None
        };
        Ok(Tables {
            to_dest,
            min_mask,
            hops: Arc::new(hops),
            diameter: diameter.max(1),
            diameter_all: diameter_all.max(1),
        })
    }
}

fn vc_policy(
    spec: &TopologySpec,
    default_hop: bool,
    classes: u32,
    num_vcs: u32,
) -> Result<VcPolicy> {
    let p = Params::new(&spec.family, &spec.params);
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

fn check_keys(p: &TopologySpec, allowed: &[&str]) -> Result<()> {
    for k in p.params.keys() {
        if !allowed.contains(&k.as_str()) {
            return Err(SimError::Core(
                topolab_core::TopolabError::UnknownParameter {
                    context: format!("routing {}", p.family),
                    param: k.clone(),
                    valid: if allowed.is_empty() {
                        "none".into()
                    } else {
                        allowed.join(", ")
                    },
                },
            ));
        }
    }
    Ok(())
}

impl Routing {
    /// The routing named by `spec` ("min", "valiant:vcs=any", ...) for this network.
    pub fn parse(
        spec: &str,
        net: &Network,
        topo: &SimTopology,
        cfg: &SimConfig,
        monitor: &dyn Monitor,
    ) -> Result<Routing> {
        let parsed = TopologySpec::parse(spec)?;
        let name = parsed.family.as_str();
        let v = cfg.num_vcs;
        match name {
            "min" | "min_static" => {
                check_keys(&parsed, &["vcs"])?;
                let tables = Tables::build(net, topo, monitor)?;
                let policy = vc_policy(&parsed, name == "min", tables.diameter, v)?;
                let fixed = if name == "min_static" {
                    let table =
                        topolab_core::routing::NextHopTable::build(net, &tables.hops, monitor)?;
                    Some(minimal::port_table(topo, &table)?)
                } else {
                    None
                };
                Ok(Routing::Minimal(minimal::Minimal::new(
                    tables, fixed, policy,
                )))
            }
            "valiant" => {
                check_keys(&parsed, &["vcs"])?;
                let tables = Tables::build(net, topo, monitor)?;
                if tables.diameter_all == u32::MAX {
                    return Err(SimError::Core(topolab_core::TopolabError::InvalidNetwork(
                        "Valiant routing needs every router to reach every router".into(),
                    )));
                }
                let policy = vc_policy(&parsed, true, 2 * tables.diameter_all, v)?;
                Ok(Routing::Valiant(valiant::Valiant::new(tables, policy)))
            }
            "dor" | "dim_order" => {
                check_keys(&parsed, &[])?;
                Ok(Routing::TorusDor(torus::TorusDor::new(net, topo, v)?))
            }
            "dragonfly_min" | "dragonfly_ugal" => {
                check_keys(&parsed, &[])?;
                Ok(Routing::Dragonfly(dragonfly::DragonflyRouting::new(
                    net,
                    topo,
                    v,
                    name == "dragonfly_ugal",
                )?))
            }
            other => match topolab_core::routing::catalog::build_rule(net, spec, monitor)? {
                Some(built) => Ok(Routing::Rule(rule::RuleRouting::new(
                    built.rule,
                    built.select,
                    v,
                )?)),
                None => Err(SimError::param(
                    "routing",
                    format!("'{other}'"),
                    format!(
                        "one of: {}",
                        ROUTINGS
                            .iter()
                            .map(|r| r.0)
                            .chain(
                                topolab_core::routing::catalog::RULE_ROUTINGS
                                    .iter()
                                    .map(|r| r.name)
                            )
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                )),
            },
        }
    }

    /// Output port and VC range for the head flit `f` at `ctx.router`.
    #[inline]
    pub fn route(&self, ctx: &RouteCtx, f: &mut Flit, rng: &mut ChaCha8Rng) -> RouteChoice {
        match self {
            Routing::Minimal(r) => r.route(ctx, f, rng),
            Routing::Valiant(r) => r.route(ctx, f, rng),
            Routing::TorusDor(r) => r.route(ctx, f, rng),
            Routing::Dragonfly(r) => r.route(ctx, f, rng),
            Routing::Rule(r) => r.route(ctx, f, rng),
        }
    }

    /// VCs a packet may use on its injection channel.
    #[inline]
    pub fn injection_vcs(&self, num_vcs: u32, booksim: bool, rng: &mut ChaCha8Rng) -> (u8, u8) {
        match self {
            Routing::Dragonfly(r) => r.injection_vcs(num_vcs, booksim, rng),
            _ => (0, (num_vcs - 1) as u8),
        }
    }

    /// Whether decisions read other routers' published state (`RouteCtx::global`).
    pub fn needs_global_view(&self) -> bool {
        false
    }
}
