//! Static routings by name: `name[:key=value,...]`, the same spec syntax as topologies.
//! Unknown names and keys are rejected with the valid ones listed.

use super::dfsssp::Dfsssp;
use super::generic::{Ugal, UpDown, Valiant, VcRule};
use super::minimal::{Minimal, MinimalTable};
use super::path::RouteDef;
use super::rule::{HopRouting, RuleRoute, Select};
use super::shortest::HopMatrix;
use crate::error::{Result, TopolabError};
use crate::network::Network;
use crate::progress::Monitor;
use crate::spec::{Params, TopologySpec};
use std::sync::Arc;

/// (name, parameters, summary, paper section) of every routing for static analysis only
/// (the `RULE_ROUTINGS` serve both readers). `ugal_l`/`ugal_g` are simulated by topolab-sim;
/// statically they are UGAL's candidate union, as `ugal`.
pub const STATIC_ROUTINGS: &[(&str, &[&str], &str, &str)] = &[
    (
        "dfsssp",
        &["max_vls"],
        "shortest paths with DFSSSP virtual layers",
        "Besta & Hoefler, SC14, §IV-D",
    ),
    (
        "ugal_g",
        UGAL_PARAMS,
        "UGAL-G: statically its candidate union min ∪ valiant (adaptive)",
        "Besta & Hoefler, SC14, §IV-C",
    ),
    (
        "ugal_l",
        UGAL_PARAMS,
        "UGAL-L: statically its candidate union min ∪ valiant (adaptive)",
        "Besta & Hoefler, SC14, §IV-C, Kathareios et al., SC15, §3.3",
    ),
];

/// Parameters of the UGAL variants: the Valiant part's, then the source decision's (read by
/// the simulator: n random Valiant candidates, cost factor c, hop weighting, threshold in % of
/// the buffer).
pub const UGAL_PARAMS: &[&str] = &[
    "vcs",
    "endpoints_only",
    "max_hops",
    "n",
    "c",
    "hops",
    "threshold",
];

/// UGAL's source-decision parameters (the simulator applies them; static analysis validates
/// them so that one spec string is accepted or refused alike by both).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct UgalChoice {
    /// Random Valiant candidates per packet (000 §IV-C: 4).
    pub n: u32,
    /// Cost factor of Valiant candidates (001 §3.3's c, or c_SF).
    pub c: f64,
    /// Multiply costs by path length (None: the variant's default).
    pub hops: Option<bool>,
    /// Minimal while the minimal first queue is below this percentage of the buffer.
    pub threshold: Option<f64>,
}

impl UgalChoice {
    pub fn from_params(params: &Params) -> Result<UgalChoice> {
        Ok(UgalChoice {
            n: params.opt_u32("n", 1, 64)?.unwrap_or(4),
            c: params.opt_float("c", 0.0, 1e6)?.unwrap_or(1.0),
            hops: params.opt_bool("hops")?,
            threshold: params.opt_float("threshold", 0.0, 100.0)?,
        })
    }
}

/// Rejects a routing spec's parameters that are not in `allowed`, listing the valid ones.
pub fn check_keys(spec: &TopologySpec, allowed: &[&str]) -> Result<()> {
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
    let Some(&(_, keys, _, _)) = STATIC_ROUTINGS.iter().find(|r| r.0 == sp.family) else {
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
    Ok(match sp.family.as_str() {
        "ugal_l" | "ugal_g" => {
            UgalChoice::from_params(&params)?;
            Box::new(RuleRoute {
                net,
                rule: Arc::new(ugal_from_params(net, &params, monitor)?),
                oblivious: false,
            })
        }
        "dfsssp" => {
            let max = params.opt_u32("max_vls", 1, 255)?.unwrap_or(16);
            let hops = HopMatrix::build(net, monitor)?;
            Box::new(Dfsssp::new(net, &hops, max, monitor)?)
        }
        _ => unreachable!("name checked against STATIC_ROUTINGS"),
    })
}

fn vc_rule(params: &Params, allowed: &[VcRule]) -> Result<VcRule> {
    match params.opt_text("vcs")? {
        Some(v) => VcRule::parse(&v.to_ascii_lowercase(), allowed, params.family()),
        None => Ok(VcRule::Hop),
    }
}

/// `valiant` from its parameters (vcs, endpoints_only, max_hops).
pub fn valiant_from_params(
    net: &Network,
    table: Arc<MinimalTable>,
    params: &Params,
) -> Result<Valiant> {
    let endpoints_only = params.opt_bool("endpoints_only")?.unwrap_or(false);
    let max_hops = params.opt_u32("max_hops", 1, 1000)?;
    let vcs = vc_rule(params, &[VcRule::Hop, VcRule::Phase, VcRule::Single])?;
    Valiant::new(net, table, vcs, endpoints_only, max_hops)
}

/// UGAL's candidates (min ∪ valiant) from the Valiant parameters; other keys are the
/// simulator's.
pub fn ugal_from_params(net: &Network, params: &Params, monitor: &dyn Monitor) -> Result<Ugal> {
    let table = Arc::new(MinimalTable::build(net, monitor)?);
    let val = valiant_from_params(net, table.clone(), params)?;
    Ugal::new(table, val)
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

/// Every hop-by-hop routing, by name (alphabetical).
pub const RULE_ROUTINGS: &[RuleEntry] = &[
    RuleEntry {
        name: "deflection",
        params: &["e", "vls"],
        summary: "Deflection + E: Distance Based + E that may also step away from the destination; e >= 2 (default 2), VL hopping mod vls (default 8)",
        source: "Daryin & Korzh, JSFI 2014, §3.7",
        build: super::distance_based::deflection_from_params,
    },
    RuleEntry {
        name: "distance_based",
        params: &["e", "vls"],
        summary: "Distance Based + E: adaptive, minimal or sideways hops within a budget of D + E hops (e default 0), VL hopping mod vls (default 8)",
        source: "Daryin & Korzh, JSFI 2014, §3.7",
        build: super::distance_based::from_params,
    },
RuleEntry {
    name: "dragonfly_adaptive",
    params: &["extra"],
    summary: "Dragonfly adaptive family: extra=letters among G (extra global hop), S, I, D (extra local hop in source, intermediate, destination group); VLs 0-1 / 2-3 / 4-5 by group; select=queue",
    source: "Daryin & Korzh, JSFI 2014, §3.5",
    build: |net, params, _| {
        let extra = super::dragonfly::Extra::parse(&params.opt_text("extra")?.unwrap_or_default())?;
        Ok(Arc::new(super::dragonfly::DragonflyGsid::new(net, Some(extra))?))
    },
},
RuleEntry {
    name: "dragonfly_static",
    params: &[],
    summary: "Dragonfly Static: local hop to the router linked to the destination group, global hop, local hop; VLs 0 and 4 (2 VCs)",
    source: "Daryin & Korzh, JSFI 2014, §3.5",
    build: |net, _, _| Ok(Arc::new(super::dragonfly::DragonflyGsid::new(net, None)?)),
},
RuleEntry {
    name: "dragonflyplus_adaptive",
    params: &[],
    summary: "Dragonfly+ progressive adaptive: at the source leaf any spine, at a source spine the global link to the destination group or to an intermediate group; up*/down* in groups; 2 VLs; select=queue",
    source: "Shpiner et al., HiPINEB 2017 (FPAR, deadlock avoidance); Flajslik, Borch & Parker, ISC 2018",
    build: |net, _, _| Ok(Arc::new(super::dragonflyplus::DragonflyPlus::new(net, super::dragonflyplus::Mode::Adaptive)?)),
},
RuleEntry {
    name: "dragonflyplus_min",
    params: &[],
    summary: "Dragonfly+ minimal: leaf, spine with a link to the destination group, global, spine, leaf; up*/down* in groups; 1 VL",
    source: "Shpiner et al., HiPINEB 2017 (routing, deadlock avoidance)",
    build: |net, _, _| Ok(Arc::new(super::dragonflyplus::DragonflyPlus::new(net, super::dragonflyplus::Mode::Minimal)?)),
},
RuleEntry {
    name: "dragonflyplus_valiant",
    params: &[],
    summary: "Dragonfly+ non-minimal: minimal to a random intermediate group, then to the destination (intermediate spine or leaf route); VL 1 from the intermediate router on; 2 VLs",
    source: "Shpiner et al., HiPINEB 2017 (routing, deadlock avoidance); Flajslik, Borch & Parker, ISC 2018",
    build: |net, _, _| Ok(Arc::new(super::dragonflyplus::DragonflyPlus::new(net, super::dragonflyplus::Mode::Valiant)?)),
},
    RuleEntry {
        name: "fastest",
        params: &["floor", "placement", "per_cabinet", "switch_delay_ns", "cable_ns_per_m"],
        summary: "Fastest Routing: lowest-latency paths (switch + cable delay on the placed floor, default skywalk), all equal next hops; hop VCs",
        source: "Fujiwara et al., IPDPS 2014, §II-E",
        build: super::fastest::from_params,
    },
RuleEntry {
    name: "fattree_anca",
    params: &[],
    summary: "fat tree adaptive nearest common ancestor: any up port (select=queue), then the unique way down; one VL",
    source: "Besta & Hoefler, SC14, §V (ANCA, Gómez et al. [33]); Kathareios et al., SC15, §2.2.1",
    build: |net, _, _| Ok(Arc::new(super::fattree::FatTreeNca::new(net, true)?)),
},
RuleEntry {
    name: "fattree_nca",
    params: &[],
    summary: "fat tree nearest common ancestor, up port by destination (d-mod-k), then the unique way down; one VL",
    source: "Besta & Hoefler, SC14, §V (ANCA, Gómez et al. [33]); Kathareios et al., SC15, §2.2.1",
    build: |net, _, _| Ok(Arc::new(super::fattree::FatTreeNca::new(net, false)?)),
},
RuleEntry {
    name: "hypercube_abo_nf",
    params: &[],
    summary: "hypercube All-But-One Negative First: negative dimensions except dimension 1 first, then the rest, adaptively; one VL",
    source: "Daryin & Korzh, JSFI 2014, §3.4 (Glass & Ni turn model)",
    build: |net, _, _| {
        Ok(Arc::new(super::hypercube::HypercubeTurn::new(net, super::hypercube::TurnModel::AboNegativeFirst)?))
    },
},
RuleEntry {
    name: "hypercube_abo_pl",
    params: &[],
    summary: "hypercube All-But-One Positive Last: negative dimensions and dimension 1 first, then the positive ones, adaptively; one VL",
    source: "Daryin & Korzh, JSFI 2014, §3.4 (Glass & Ni turn model)",
    build: |net, _, _| {
        Ok(Arc::new(super::hypercube::HypercubeTurn::new(net, super::hypercube::TurnModel::AboPositiveLast)?))
    },
},
RuleEntry {
    name: "hypercube_nf",
    params: &[],
    summary: "hypercube Negative First: negative (1 -> 0) dimensions first, then positive ones, adaptively; one VL",
    source: "Daryin & Korzh, JSFI 2014, §3.4 (Glass & Ni turn model)",
    build: |net, _, _| {
        Ok(Arc::new(super::hypercube::HypercubeTurn::new(net, super::hypercube::TurnModel::NegativeFirst)?))
    },
},
RuleEntry {
    name: "hyperx_ador",
    params: &["mixed", "twisted"],
    summary: "HyperX/FlatFly adaptive DOR: any switch of the current dimension, then the direct hop; VLs 0/1 (x4 SLs when mixed); select=queue",
    source: "Daryin & Korzh, JSFI 2014, §3.3",
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
    source: "Daryin & Korzh, JSFI 2014, §3.3, §3.4",
    build: |net, params, _| {
        let mixed = params.opt_bool("mixed")?.unwrap_or(false);
        let twisted = params.opt_bool("twisted")?.unwrap_or(false);
        Ok(Arc::new(super::hyperx::FlatFlyDor::new(net, false, mixed, twisted)?))
    },
},
    RuleEntry {
        name: "imase",
        params: &["a", "b", "d", "vcs"],
        summary: "Imase-Itoh shift-register routing for imase, kautz and debruijn digraphs (a, b, d from the network's spec); vcs=hop (default, ceil(log_d n) VCs) or single",
        source: "Koibuchi et al., 2018, §III-B1",
        build: super::imase::from_params,
    },
    RuleEntry {
        name: "min",
        params: &["vcs"],
        summary: "minimal: a random (select=queue: least occupied) neighbour one hop closer; vcs=hop (default, VC class = hop), single or any (one class)",
        source: "Besta & Hoefler, SC14, §IV-A, §IV-D",
        build: |net, params, monitor| {
            let table = Arc::new(MinimalTable::build(net, monitor)?);
            let vcs = vc_rule(params, &[VcRule::Hop, VcRule::Single])?;
            Ok(Arc::new(Minimal::new(table, vcs)?))
        },
    },
    RuleEntry {
        name: "slimfly_mms",
        params: &["vcs"],
        summary: "Slim Fly minimal next hops solved in GF(q) from (t,x,y), no tables; vcs=hop (2 VCs, default) or single",
        source: "Daryin & Korzh, JSFI 2014, §3.6",
        build: super::slimfly_algebraic::from_params,
    },
RuleEntry {
    name: "torus_dor",
    params: &["vcs"],
    summary: "torus/mesh dimension-order routing, shorter way round (ties: either); vcs=dateline (class 1 from the wrap link on, default) or booksim (class fixed at ring entry)",
    source: "Daryin & Korzh, JSFI 2014, §3.2; BookSim2 dim_order_torus",
    build: |net, params, _| {
        let rule = match params.opt_text("vcs")? {
            Some(v) => super::torus::Dateline::parse(&v)?,
            None => super::torus::Dateline::Dateline,
        };
        Ok(Arc::new(super::torus::TorusDor::new(net, rule)?))
    },
},
    RuleEntry {
        name: "ugal",
        params: &["vcs", "endpoints_only", "max_hops"],
        summary: "UGAL candidates min ∪ valiant (static analysis of the adaptive choice; simulate ugal_l or ugal_g)",
        source: "Besta & Hoefler, SC14, §IV-C",
        build: |net, params, monitor| Ok(Arc::new(ugal_from_params(net, params, monitor)?)),
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
    RuleEntry {
        name: "valiant",
        params: &["vcs", "endpoints_only", "max_hops"],
        summary: "Valiant: minimal to a random intermediate router, then to the destination; endpoints_only (intermediates with endpoints), max_hops; vcs=hop (default), phase or single",
        source: "Besta & Hoefler, SC14, §IV-B, Kathareios et al., SC15, §3.2, §3.4",
        build: |net, params, monitor| {
            let table = Arc::new(MinimalTable::build(net, monitor)?);
            Ok(Arc::new(valiant_from_params(net, table, params)?))
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
