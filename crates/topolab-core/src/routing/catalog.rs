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
        name: "deflection",
        params: &["e", "vls"],
        summary: "Deflection + E: Distance Based + E that may also step away from the destination; e >= 2 (default 2), VL hopping mod vls (default 8)",
        source: "003 §3.7",
        build: super::distance_based::deflection_from_params,
    },
    RuleEntry {
        name: "distance_based",
        params: &["e", "vls"],
        summary: "Distance Based + E: adaptive, minimal or sideways hops within a budget of D + E hops (e default 0), VL hopping mod vls (default 8)",
        source: "003 §3.7",
        build: super::distance_based::from_params,
    },
    RuleEntry {
        name: "fastest",
        params: &["floor", "placement", "per_cabinet", "switch_delay_ns", "cable_ns_per_m"],
        summary: "Fastest Routing: lowest-latency paths (switch + cable delay on the placed floor, default skywalk), all equal next hops; hop VCs",
        source: "004 §II-E",
        build: super::fastest::from_params,
    },
    RuleEntry {
        name: "imase",
        params: &["a", "b", "d", "vcs"],
        summary: "Imase-Itoh shift-register routing for imase, kautz and debruijn digraphs (a, b, d from the network's spec); vcs=hop (default, ceil(log_d n) VCs) or single",
        source: "002 §III-B1",
        build: super::imase::from_params,
    },
    RuleEntry {
        name: "slimfly_mms",
        params: &["vcs"],
        summary: "Slim Fly minimal next hops solved in GF(q) from (t,x,y), no tables; vcs=hop (2 VCs, default) or single",
        source: "003 §3.6",
        build: super::slimfly_algebraic::from_params,
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
}];

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
