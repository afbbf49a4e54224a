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
pub mod ugal;

use crate::config::SimConfig;
use crate::error::{Result, SimError};
use crate::flit::Flit;
use crate::topo::SimTopology;
use rand_chacha::ChaCha8Rng;
use std::sync::Arc;
use topolab_core::progress::Monitor;
use topolab_core::routing::minimal::endpoint_diameter;
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
    /// BookSim2 anynet's fixed shortest-path table.
    MinStatic(minimal::MinStatic),
    TorusDor(torus::TorusDor),
    Dragonfly(dragonfly::DragonflyRouting),
    /// UGAL-L / UGAL-G: the source decision over the core's `Ugal` candidates.
    Ugal(ugal::UgalRouting),
    /// A hop-by-hop routing defined in topolab-core
    /// (`topolab_core::routing::catalog::RULE_ROUTINGS`): min, valiant, updown, ...
    Rule(rule::RuleRouting),
}

/// A routing only the simulator reads (the others are `RULE_ROUTINGS`, shared with static
/// analysis).
#[derive(Debug, Clone, Copy, serde::Serialize)]
pub struct SimRoutingEntry {
    pub name: &'static str,
    pub params: &'static [&'static str],
    pub summary: &'static str,
    /// Paper section (or reference implementation) the algorithm comes from.
    pub source: &'static str,
}

/// `RULE_ROUTINGS` the simulator refuses: `ugal` is UGAL's candidate union for static
/// analysis; the simulator decides among the candidates as `ugal_l` / `ugal_g`.
pub const STATIC_ONLY_RULES: &[&str] = &["ugal"];

/// Every routing name `Routing::parse` accepts besides `RULE_ROUTINGS`.
pub const ROUTINGS: &[SimRoutingEntry] = &[
    SimRoutingEntry {
        name: "min_static",
        params: &["vcs"],
        summary: "minimal, one fixed shortest path per router and destination (BookSim2 anynet: Dijkstra, lowest id first); vcs=any (default) or vcs=hop",
        source: "Besta & Hoefler, SC14, §IV-A; BookSim2 anynet",
    },
    SimRoutingEntry {
        name: "dor",
        params: &[],
        summary: "torus/mesh dimension-order routing, one dateline per ring (two VC classes)",
        source: "Daryin & Korzh, JSFI 2014, §3.2; BookSim2 dim_order",
    },
    SimRoutingEntry {
        name: "dragonfly_min",
        params: &[],
        summary: "Dragonfly minimal (BookSim2 dragonflynew min): VC 0 before the global hop, VC 1 from it on",
        source: "Kim et al. 2008; BookSim2 dragonflynew",
    },
    SimRoutingEntry {
        name: "dragonfly_ugal",
        params: &[],
        summary: "Dragonfly UGAL-L decided at the source router (BookSim2 dragonflynew ugal), VCs 0/1/2 by phase",
        source: "Kim et al. 2008; BookSim2 dragonflynew",
    },
    SimRoutingEntry {
        name: "ugal_g",
        params: topolab_core::routing::catalog::UGAL_PARAMS,
        summary: "UGAL-G: minimal or one of n (default 4) Valiant paths, least sum of queues along the path (global view); c, hops, threshold as ugal_l",
        source: "Besta & Hoefler, SC14, §IV-C1",
    },
    SimRoutingEntry {
        name: "ugal_l",
        params: topolab_core::routing::catalog::UGAL_PARAMS,
        summary: "UGAL-L: minimal or one of n (default 4) Valiant paths by first-queue x hops (hops=false: queue only), Valiant cost x c; threshold=T: minimal while its queue < T% of the buffer",
        source: "Besta & Hoefler, SC14, §IV-C2, Kathareios et al., SC15, §3.3",
    },
];

/// The router-level traffic matrix of a simulator traffic spec (`uniform`, `shift:k=3`,
/// `worst`, ...) for static channel loads: the expected rates of `Traffic::destination`.
pub fn traffic_demands(
    net: &Network,
    traffic: &str,
) -> Result<topolab_core::routing::load::Demands> {
    let t = crate::traffic::Traffic::parse(traffic, net)?;
    let mut tmp = Vec::new();
    Ok(topolab_core::routing::load::Demands::from_endpoint_rates(
        net,
        |i, out| {
            tmp.clear();
            t.rates(i as u32, &mut tmp);
            out.extend(tmp.iter().map(|&(d, w)| (d as u64, w)));
        },
    ))
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
            "min_static" => {
                topolab_core::routing::catalog::check_keys(&parsed, &["vcs"])?;
                let hops = HopMatrix::build(net, monitor)?;
                let diameter = endpoint_diameter(net, &hops)?;
                let policy = vc_policy(&parsed, false, diameter, v)?;
                let table = topolab_core::routing::NextHopTable::build(net, &hops, monitor)?;
                Ok(Routing::MinStatic(minimal::MinStatic::new(
                    minimal::port_table(topo, &table)?,
                    policy,
                )))
            }
            "ugal_l" | "ugal_g" => {
                use topolab_core::routing::catalog::{ugal_from_params, UgalChoice, UGAL_PARAMS};
                topolab_core::routing::catalog::check_keys(&parsed, UGAL_PARAMS)?;
                let p = Params::new(&parsed.family, &parsed.params);
                let global = name == "ugal_g";
                let choice = UgalChoice::from_params(&p)?;
                let ugal = ugal_from_params(net, &p, monitor)?;
                let kind = if global {
                    ugal::UgalKind::Global
                } else {
                    ugal::UgalKind::Local
                };
                Ok(Routing::Ugal(ugal::UgalRouting::new(
                    Arc::new(ugal),
                    kind,
                    choice.n,
                    choice.c,
                    choice.hops.unwrap_or(!global),
                    choice.threshold,
                    v,
                    cfg.vc_buf_size,
                )?))
            }
            n if STATIC_ONLY_RULES.contains(&n) => Err(SimError::param(
                "routing",
                format!("'{n}'"),
                "ugal_l or ugal_g (the simulated UGAL variants); 'ugal' is their candidate union for static analysis",
            )),
            "dor" | "dim_order" => {
                topolab_core::routing::catalog::check_keys(&parsed, &[])?;
                Ok(Routing::TorusDor(torus::TorusDor::new(net, topo, v)?))
            }
            "dragonfly_min" | "dragonfly_ugal" => {
                topolab_core::routing::catalog::check_keys(&parsed, &[])?;
                Ok(Routing::Dragonfly(dragonfly::DragonflyRouting::new(
                    net,
                    topo,
                    v,
                    name == "dragonfly_ugal",
                )?))
            }
            other => match topolab_core::routing::catalog::build_rule(net, spec, monitor)? {
                Some(built) => {
                    let takes_vcs = topolab_core::routing::catalog::RULE_ROUTINGS
                        .iter()
                        .any(|e| e.name == other && e.params.contains(&"vcs"));
                    Ok(Routing::Rule(rule::RuleRouting::new(
                        built.rule,
                        built.select,
                        v,
                        takes_vcs.then_some("vcs=any (one VC class)"),
                    )?
                    .with_detour_penalty(cfg.vc_buf_size)))
                }
                None => Err(SimError::param(
                    "routing",
                    format!("'{other}'"),
                    format!(
                        "one of: {}",
                        ROUTINGS
                            .iter()
                            .map(|r| r.name)
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
            Routing::MinStatic(r) => r.route(ctx, f, rng),
            Routing::Ugal(r) => r.route(ctx, f, rng),
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
        matches!(self, Routing::Ugal(u) if u.kind == ugal::UgalKind::Global)
    }
}
