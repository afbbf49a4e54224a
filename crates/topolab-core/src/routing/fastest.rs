//! Fastest Routing as a table routing (Fujiwara et al., IPDPS 2014, §II-E): packets follow
//! lowest-latency paths, where a hop costs the switch delay plus the cable delay of the placed link
//! (physical/latency.rs's model: 60 ns per switch and 5 ns/m by default, on the floor and placement
//! the physical models use). Among paths of equal latency the fewest hops win, as in latency.rs's
//! Fastest Routing; all next hops that keep both minimal are offered (ties spread traffic).
//!
//! The latencies are latency.rs's: one `LatencyGraph::search(t, Fastest)` per destination t
//! (the arc delays are symmetric on an undirected network, so the latency from t to r is the
//! latency from r to t). At router r towards t a neighbour v is a next hop when
//! (L(v,t) + w(r,v), H(v,t) + 1) = (L(r,t), H(r,t)).
//!
//! VCs: hop-indexed, VC k on hop k, as many as the longest fastest path has hops (a path's VC
//! strictly increases, so the channel dependency graph is acyclic).

use super::catalog::{Definition, RoutingEntry, BOTH};
use super::rule::{Hop, HopRouting, RouteState};
use crate::error::{Result, TopolabError};
use crate::network::Network;
use crate::physical::latency::{LatencyGraph, Routing, Scratch, UNREACHED};
use crate::physical::{link_lengths, Floor, LatencyModel, Placement};
use crate::progress::{Counter, Monitor};
use crate::spec::Params;
use crate::topology::{ParamDef, ParamKind};
use rayon::prelude::*;

/// Fastest Routing on the floor and placement the physical models use (Fujiwara et al., IPDPS 2014,
/// §II-E): floor (default skywalk, the floor of Fujiwara et al., IPDPS 2014), placement
/// family|sequential|FILE, per_cabinet, and the latency model's switch and cable delays (Fujiwara
/// et al.'s (IPDPS 2014) 60 ns and 5 ns/m by default).
pub fn from_params(net: &Network, params: &Params, monitor: &dyn Monitor) -> Result<Fastest> {
    use crate::physical::{
        load_placement, place, Floor, LatencyModel, PlaceOptions, PlacementRule,
    };
    let floor = Floor::resolve(
        &params
            .opt_text("floor")?
            .unwrap_or_else(|| "skywalk".into()),
    )?;
    let rule = match params.opt_text("placement")?.as_deref() {
        None | Some("family") => PlacementRule::Family,
        Some("sequential") => PlacementRule::Sequential,
        Some(path) => {
            let p = std::path::Path::new(path);
            if !p.is_file() {
                return Err(params.invalid(
                    "placement",
                    path,
                    "family, sequential or the path of a placement file (router cabinet per line)",
                ));
            }
            PlacementRule::Given(load_placement(p, net.num_routers())?)
        }
    };
    let per_cabinet = params.opt_u32("per_cabinet", 1, u32::MAX)?;
    let placement = place(net, &floor, &PlaceOptions { rule, per_cabinet })?;
    let default = LatencyModel::default();
    let model = LatencyModel {
        switch_delay_ns: params
            .opt_float("switch_delay_ns", 0.0, 1e6)?
            .unwrap_or(default.switch_delay_ns),
        cable_ns_per_m: params
            .opt_float("cable_ns_per_m", 0.0, 1e3)?
            .unwrap_or(default.cable_ns_per_m),
        ..default
    };
    Fastest::new(net, &placement, &floor, &model, monitor)
}

/// Largest router count: the table holds n² latencies (8 bytes) and hop counts (2 bytes).
pub const MAX_FASTEST_ROUTERS: usize = 12_000;

/// Next hops along the lowest-latency paths of a placed network.
pub struct Fastest {
    n: usize,
    offsets: Vec<u32>,
    targets: Vec<u32>,
    arc_ps: Vec<u32>,
    /// latency_ps[t·n + r]: lowest latency from r to t (path weight, without the constant
    /// injection and first-switch terms).
    latency_ps: Vec<u64>,
    /// hops[t·n + r]: hops of the fewest-hop lowest-latency path.
    hops: Vec<u16>,
    longest: u32,
    description: String,
}

impl Fastest {
    /// `placement` is where `net`'s routers stand on `floor` (`physical::place`).
    pub fn new(
        net: &Network,
        placement: &Placement,
        floor: &Floor,
        model: &LatencyModel,
        monitor: &dyn Monitor,
    ) -> Result<Self> {
        let n = net.num_routers();
        if net.directed() {
            return Err(TopolabError::InvalidNetwork(
                "fastest routing needs an undirected network (latencies to a destination are \
                 searched from it)"
                    .into(),
            ));
        }
        if n > MAX_FASTEST_ROUTERS {
            return Err(TopolabError::InvalidNetwork(format!(
                "fastest routing keeps n² latencies and supports at most {MAX_FASTEST_ROUTERS} \
                 routers; this network has {n}"
            )));
        }
        let lengths = link_lengths(net, placement, floor);
        let graph = LatencyGraph::new(net, &lengths, model)?;
        let counter = Counter::new(monitor, "fastest paths", n as u64);
        let rows: Vec<(Vec<u64>, Vec<u16>)> = (0..n)
            .into_par_iter()
            .map_init(
                || Scratch::new(n),
                |scratch, t| {
                    graph.search(t, Routing::Fastest, scratch);
                    if let Some(r) = scratch.latency_ps.iter().position(|&l| l == UNREACHED) {
                        return Err(TopolabError::InvalidNetwork(format!(
                            "fastest routing needs a connected network; router {r} cannot reach \
                             router {t}"
                        )));
                    }
                    let base = scratch.latency_ps[t];
                    let lat = scratch.latency_ps.iter().map(|&l| l - base).collect();
                    let hops = scratch
                        .hops
                        .iter()
                        .map(|&h| h.min(u16::MAX as u32) as u16)
                        .collect();
                    counter.add(1)?;
                    Ok((lat, hops))
                },
            )
            .collect::<Result<_>>()?;
        let mut latency_ps = Vec::with_capacity(n * n);
        let mut hops = Vec::with_capacity(n * n);
        for (l, h) in rows {
            latency_ps.extend_from_slice(&l);
            hops.extend_from_slice(&h);
        }
        let traffic = super::cdg::traffic_routers(net);
        let mut longest = 0u32;
        for &t in &traffic {
            for &s in &traffic {
                longest = longest.max(hops[t * n + s] as u32);
            }
        }
        let (offsets, targets) = net.csr();
        Ok(Fastest {
            n,
            offsets: offsets.to_vec(),
            targets: targets.to_vec(),
            arc_ps: graph.arc_ps().to_vec(),
            latency_ps,
            hops,
            longest,
            description: format!(
                "fastest:floor={},switch_delay_ns={},cable_ns_per_m={}",
                floor.name, model.switch_delay_ns, model.cable_ns_per_m
            ),
        })
    }

    /// Lowest latency from r to t in ps, excluding injection/ejection and the first switch
    /// (latency.rs adds `injection_ns + switch_delay_ns` to every path).
    pub fn latency_ps(&self, r: usize, t: usize) -> u64 {
        self.latency_ps[t * self.n + r]
    }

    /// Hops of the fastest path from r to t.
    pub fn hops(&self, r: usize, t: usize) -> u32 {
        self.hops[t * self.n + r] as u32
    }

    /// Delay of the arc from r to its neighbour at position `nb`, in ps.
    pub fn arc_delay_ps(&self, r: usize, nb: usize) -> u64 {
        self.arc_ps[self.offsets[r] as usize + nb] as u64
    }
}

impl HopRouting for Fastest {
    fn name(&self) -> String {
        self.description.clone()
    }
    fn vc_classes(&self) -> u32 {
        self.longest.max(1)
    }
    fn max_hops(&self) -> u32 {
        self.longest.max(1)
    }
    fn start(&self, _s: u32, _t: u32, out: &mut Vec<(RouteState, f64)>) {
        out.push((RouteState::default(), 1.0));
    }
    fn next(&self, r: u32, t: u32, hop: u32, st: RouteState, out: &mut dyn FnMut(Hop)) {
        let (r, t) = (r as usize, t as usize);
        let row = t * self.n;
        let (lat, h) = (self.latency_ps[row + r], self.hops[row + r]);
        if h == 0 {
            return;
        }
        let lo = self.offsets[r] as usize;
        let nbrs = &self.targets[lo..self.offsets[r + 1] as usize];
        let vc = hop.min(self.vc_classes() - 1) as u8;
        for (i, &v) in nbrs.iter().enumerate() {
            let v = v as usize;
            if self.hops[row + v] + 1 == h
                && self.latency_ps[row + v] + self.arc_ps[lo + i] as u64 == lat
            {
                out(Hop {
                    detour: 0,
                    nb: i as u32,
                    vc,
                    state: st,
                });
            }
        }
    }
}

/// The catalog entry of `fastest` (`catalog::ROUTINGS`).
pub const FASTEST: RoutingEntry = RoutingEntry {
    name: "fastest",
    params: &[
        ParamDef {
            name: "floor",
            kind: ParamKind::Text,
            default: Some("skywalk"),
            help: "the machine-room floor the routers are placed on",
        },
        ParamDef {
            name: "placement",
            kind: ParamKind::Text,
            default: Some("family"),
            help: "family, sequential or the path of a placement file (router cabinet per line)",
        },
        ParamDef {
            name: "per_cabinet",
            kind: ParamKind::Int,
            default: Some("the placement's"),
            help: "routers per cabinet",
        },
        ParamDef {
            name: "switch_delay_ns",
            kind: ParamKind::Float,
            default: Some("60"),
            help: "switch delay (ns)",
        },
        ParamDef {
            name: "cable_ns_per_m",
            kind: ParamKind::Float,
            default: Some("5"),
            help: "cable delay (ns per metre)",
        },
    ],
    readers: BOTH,
    summary: "Fastest Routing: lowest-latency paths (switch + cable delay on the placed floor, default skywalk), all equal next hops; hop VCs",
    source: "Fujiwara et al., IPDPS 2014, §II-E",
    definition: Definition::Rule(|net, p, m| Ok(super::fastest::from_params(net, p, m)?.into())),
};
