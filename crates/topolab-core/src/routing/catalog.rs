//! Static routings by name: `name[:key=value,...]`, the same spec syntax as topologies.
//! Unknown names and keys are rejected with the valid ones listed.

use super::dfsssp::Dfsssp;
use super::generic::{Minimal, Union, UpDown, Valiant, VcRule};
use super::path::RouteDef;
use super::rule::{HopRouting, RuleRoute, Select};
use super::shortest::HopMatrix;
use crate::error::{Result, TopolabError};
use crate::network::Network;
use crate::progress::Monitor;
use crate::spec::{Params, TopologySpec};
use std::sync::Arc;

/// (name, parameters, summary) of every static routing.
pub const STATIC_ROUTINGS: &[(&str, &[&str], &str)] = &[
    ("min", &["vcs"], "minimal, uniform next hop; vcs=hop (default, 000 §IV-D) or single"),
    (
        "valiant",
        &["vcs", "endpoints_only", "max_hops"],
        "Valiant via a random intermediate (000 §IV-B); vcs=hop (default), phase (001 §3.4) or single",
    ),
    ("ugal", &["vcs", "endpoints_only", "max_hops"], "UGAL candidates: min ∪ valiant (000 §IV-C); adaptive"),
    ("dfsssp", &["max_vls"], "shortest paths with DFSSSP virtual layers (000 §IV-D)"),
];

fn check_keys(spec: &TopologySpec, allowed: &[&str]) -> Result<()> {
    for k in spec.params.keys() {
        if !allowed.contains(&k.as_str()) {
            return Err(TopolabError::UnknownParameter {
                context: format!("routing '{}'", spec.family),
                param: k.clone(),
                valid: if allowed.is_empty() {
                    "(none)".into()
                } else {
                    allowed.join(", ")
                },
            });
        }
    }
    Ok(())
}

/// Builds the static routing named by `spec` for `net`.
pub fn build_static<'a>(
    net: &'a Network,
    spec: &str,
    monitor: &dyn Monitor,
) -> Result<Box<dyn RouteDef + 'a>> {
    let sp = TopologySpec::parse(spec)?;
    if let Some(built) = build_rule(net, spec, monitor)? {
        return Ok(Box::new(RuleRoute {
            net,
            oblivious: built.select == Select::Random && built.rule.oblivious(),
            rule: built.rule,
        }));
    }
    let Some(&(_, keys, _)) = STATIC_ROUTINGS.iter().find(|r| r.0 == sp.family) else {
        return Err(TopolabError::InvalidParameter {
            context: "routing".into(),
            param: "routing".into(),
            value: sp.family.clone(),
            allowed: STATIC_ROUTINGS
                .iter()
                .map(|r| r.0)
                .chain(RULE_ROUTINGS.iter().map(|r| r.name))
                .collect::<Vec<_>>()
                .join(", "),
        });
    };
    check_keys(&sp, keys)?;
    let params = Params::new(&sp.family, &sp.params);
    let vcs = sp.params.get("vcs").map(|v| v.to_string());
    let rule = |allowed: &[VcRule]| match &vcs {
        Some(v) => VcRule::parse(v, allowed, &sp.family),
        None => Ok(VcRule::Hop),
    };
    let hops = || -> Result<Arc<HopMatrix>> { Ok(Arc::new(HopMatrix::build(net, monitor)?)) };
    let all = [VcRule::Single, VcRule::Hop, VcRule::Phase];
    Ok(match sp.family.as_str() {
        "min" => Box::new(Minimal::new(net, hops()?, rule(&all[..2])?)?),
        "valiant" | "ugal" => {
            let h = hops()?;
            let endpoints_only = params.opt_bool("endpoints_only")?.unwrap_or(false);
            let max_hops = params.opt_u32("max_hops", 1, 1000)?.map(|m| m as u16);
            let r = rule(&all)?;
            let val = Valiant::new(net, h.clone(), r, endpoints_only, max_hops)?;
            if sp.family == "valiant" {
                Box::new(val)
            } else {
                let min_rule = if r == VcRule::Phase {
                    VcRule::Single
                } else {
                    r
                };
                Box::new(Union {
                    name: format!("ugal({})", val.name()),
                    parts: vec![Box::new(Minimal::new(net, h, min_rule)?), Box::new(val)],
                })
            }
        }
        "dfsssp" => {
            let max = params.opt_u32("max_vls", 1, 255)?.unwrap_or(16);
            Box::new(Dfsssp::new(net, &*hops()?, max, monitor)?)
        }
        _ => unreachable!("name checked against STATIC_ROUTINGS"),
    })
}

/// Builds a hop-by-hop routing for a network from its parameters.
pub type BuildRule = fn(&Network, &Params, &dyn Monitor) -> Result<Arc<dyn HopRouting>>;

/// A routing defined hop by hop (`rule::HopRouting`): usable by the simulator and by static
/// analysis alike. Every entry also takes `select` (random or queue; the simulator's choice
/// among candidates).
pub struct RuleEntry {
    pub name: &'static str,
    /// Accepted parameters besides `select`.
    pub params: &'static [&'static str],
    pub summary: &'static str,
    /// Paper section the algorithm comes from.
    pub source: &'static str,
    pub build: BuildRule,
}

/// Every hop-by-hop routing, by name.
pub const RULE_ROUTINGS: &[RuleEntry] = &[
RuleEntry {
    name: "dragonfly_adaptive",
    params: &["extra"],
    summary: "Dragonfly adaptive family: extra=letters among G (extra global hop), S, I, D (extra local hop in source, intermediate, destination group); VLs 0-1 / 2-3 / 4-5 by group; select=queue",
    source: "003 §3.5",
    build: |net, params, _| {
        let extra = super::dragonfly::Extra::parse(&params.opt_text("extra").unwrap_or_default())?;
        Ok(Arc::new(super::dragonfly::DragonflyGsid::new(net, Some(extra))?))
    },
},
RuleEntry {
    name: "dragonfly_static",
    params: &[],
    summary: "Dragonfly Static: local hop to the router linked to the destination group, global hop, local hop; VLs 0 and 4 (2 VCs)",
    source: "003 §3.5",
    build: |net, _, _| Ok(Arc::new(super::dragonfly::DragonflyGsid::new(net, None)?)),
},
RuleEntry {
    name: "fattree_anca",
    params: &[],
    summary: "fat tree adaptive nearest common ancestor: any up port (select=queue), then the unique way down; one VL",
    source: "000 §V (ANCA, Gómez et al. [33]); 001 §2.2.1",
    build: |net, _, _| Ok(Arc::new(super::fattree::FatTreeNca::new(net, true)?)),
},
RuleEntry {
    name: "fattree_nca",
    params: &[],
    summary: "fat tree nearest common ancestor, up port by destination (d-mod-k), then the unique way down; one VL",
    source: "000 §V (ANCA, Gómez et al. [33]); 001 §2.2.1",
    build: |net, _, _| Ok(Arc::new(super::fattree::FatTreeNca::new(net, false)?)),
},
RuleEntry {
    name: "hypercube_abo_nf",
    params: &[],
    summary: "hypercube All-But-One Negative First: negative dimensions except dimension 1 first, then the rest, adaptively; one VL",
    source: "003 §3.4 (Glass & Ni turn model)",
    build: |net, _, _| {
        Ok(Arc::new(super::hypercube::HypercubeTurn::new(net, super::hypercube::TurnModel::AboNegativeFirst)?))
    },
},
RuleEntry {
    name: "hypercube_abo_pl",
    params: &[],
    summary: "hypercube All-But-One Positive Last: negative dimensions and dimension 1 first, then the positive ones, adaptively; one VL",
    source: "003 §3.4 (Glass & Ni turn model)",
    build: |net, _, _| {
        Ok(Arc::new(super::hypercube::HypercubeTurn::new(net, super::hypercube::TurnModel::AboPositiveLast)?))
    },
},
RuleEntry {
    name: "hypercube_nf",
    params: &[],
    summary: "hypercube Negative First: negative (1 -> 0) dimensions first, then positive ones, adaptively; one VL",
    source: "003 §3.4 (Glass & Ni turn model)",
    build: |net, _, _| {
        Ok(Arc::new(super::hypercube::HypercubeTurn::new(net, super::hypercube::TurnModel::NegativeFirst)?))
    },
},
RuleEntry {
    name: "hyperx_ador",
    params: &["mixed", "twisted"],
    summary: "HyperX/FlatFly adaptive DOR: any switch of the current dimension, then the direct hop; VLs 0/1 (x4 SLs when mixed); select=queue",
    source: "003 §3.3",
    build: |net, params, _| {
        let mixed = params.opt_bool("mixed")?.unwrap_or(false);
        let twisted = params.opt_bool("twisted")?.unwrap_or(false);
        Ok(Arc::new(super::hyperx::FlatFlyDor::new(net, true, mixed, twisted)?))
    },
},
RuleEntry {
    name: "hyperx_dor",
    params: &["mixed", "twisted"],
    summary: "HyperX/FlatFly (and hypercube) dimension-order routing; mixed=true: 4 orders by SL = d mod 4; twisted=true: first hop to d mod K_last",
    source: "003 §3.3, §3.4",
    build: |net, params, _| {
        let mixed = params.opt_bool("mixed")?.unwrap_or(false);
        let twisted = params.opt_bool("twisted")?.unwrap_or(false);
        Ok(Arc::new(super::hyperx::FlatFlyDor::new(net, false, mixed, twisted)?))
    },
},
RuleEntry {
    name: "torus_dor",
    params: &["vcs"],
    summary: "torus/mesh dimension-order routing, shorter way round (ties: either); vcs=dateline (class 1 from the wrap link on, default) or booksim (class fixed at ring entry)",
    source: "003 §3.2; BookSim2 dim_order_torus",
    build: |net, params, _| {
        let rule = match params.opt_text("vcs") {
            Some(v) => super::torus::Dateline::parse(&v)?,
            None => super::torus::Dateline::Dateline,
        };
        Ok(Arc::new(super::torus::TorusDor::new(net, rule)?))
    },
},
RuleEntry {
    name: "updown",
    params: &["root"],
    summary: "up*/down* shortest legal paths from a BFS root; one VC",
    source: "Autonet (Schroeder et al. 1991); topology-agnostic",
    build: |net, params, _| {
        let n = net.num_routers() as u32;
        let root = params.opt_u32("root", 0, n.saturating_sub(1))?.unwrap_or(0);
        Ok(Arc::new(UpDown::new(net, root as usize)?))
    },
},
];

/// A hop-by-hop routing and how the simulator selects among its candidates.
pub struct BuiltRule {
    pub rule: Arc<dyn HopRouting>,
    pub select: Select,
}

/// Builds the hop-by-hop routing named by `spec`, or None when the name is not one of
/// `RULE_ROUTINGS` (the caller then tries its own routings).
pub fn build_rule(net: &Network, spec: &str, monitor: &dyn Monitor) -> Result<Option<BuiltRule>> {
    let sp = TopologySpec::parse(spec)?;
    let Some(entry) = RULE_ROUTINGS.iter().find(|r| r.name == sp.family) else {
        return Ok(None);
    };
    let mut keys: Vec<&str> = entry.params.to_vec();
    keys.push("select");
    check_keys(&sp, &keys)?;
    let mut rest = sp.params.clone();
    let select = match rest.remove("select") {
        Some(v) => Some(Select::parse(&v.to_string())?),
        None => None,
    };
    let params = Params::new(&sp.family, &rest);
    let rule = (entry.build)(net, &params, monitor)?;
    let select = select.unwrap_or_else(|| rule.default_select());
    Ok(Some(BuiltRule { rule, select }))
}
