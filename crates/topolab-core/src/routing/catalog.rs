//! The one routing catalog: every routing by name (`name[:key=value,...]`, the same spec syntax
//! as topologies), what defines it and which readers accept it (static analysis: `topolab
//! routing check|load|tables`; the simulator: `topolab sim --routing`), and the old names
//! kept as aliases of one definition. Unknown names and keys are rejected with the valid ones
//! listed.
//!
//! Adding a routing (docs/routing.md, "Adding a routing"): its file with a `HopRouting` and its
//! `RoutingEntry`, whose definition wraps the rule in `Rule::boxed`; its `pub mod` line in
//! `routing/mod.rs`; its entry on one line of `ROUTINGS` below.

use super::path::RouteDef;
use super::rule::{Ports, Reading, RuleRoute, Select, VcSplit};
use super::ugal::ugal_rule;
use crate::error::{Result, TopolabError};
use crate::network::Network;
use crate::progress::Monitor;
use crate::spec::{canonical_name, ParamValue, Params, TopologySpec};
use crate::topology::{ParamDef, ParamKind};
use std::collections::BTreeMap;
use std::sync::Arc;

pub use super::dispatch::Rule;
pub use super::ugal::{ugal_from_params, UgalChoice, UGAL_PARAMS};
pub use super::valiant::valiant_from_params;

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

/// Which readers accept a routing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct Readers {
    /// `topolab routing check|load|tables` (`build_static`).
    pub static_analysis: bool,
    /// `topolab sim --routing` (topolab-sim `Routing::parse`).
    pub simulator: bool,
}

/// Read by static analysis and the simulator.
pub const BOTH: Readers = Readers {
    static_analysis: true,
    simulator: true,
};
/// Read by static analysis only.
pub const STATIC: Readers = Readers {
    static_analysis: true,
    simulator: false,
};
/// Read by the simulator only.
pub const SIMULATOR: Readers = Readers {
    static_analysis: false,
    simulator: true,
};

/// Builds a hop-by-hop routing for a network from its parameters.
pub type BuildRule = fn(&Network, &Params, &dyn Monitor) -> Result<Rule>;
/// Builds a static-only routing (path sets) for a network from its parameters.
pub type BuildPaths =
    for<'a> fn(&'a Network, &Params, &dyn Monitor) -> Result<Box<dyn RouteDef + 'a>>;

/// What defines a routing.
#[derive(Clone, Copy)]
pub enum Definition {
    /// A hop-by-hop rule (`HopRouting`): static analysis enumerates its paths, the simulator
    /// takes its hops; the reader keys `select`, `ports`, `vc_split` say how (`Reading`).
    Rule(BuildRule),
    /// UGAL: its candidates (`ugal_from_params`) for static analysis, the simulator's source
    /// decision over them (topolab-sim `routing/ugal.rs`), local or global queue view.
    Ugal { global: bool },
    /// Path sets for static analysis only (`RouteDef`).
    Paths(BuildPaths),
    /// A table routing defined in topolab-sim (`min_static`: BookSim2 anynet's port table).
    Simulator,
}

/// One routing of the catalog.
pub struct RoutingEntry {
    pub name: &'static str,
    /// Accepted parameters (rules also take the reader keys `READER_KEYS`).
    pub params: &'static [ParamDef],
    pub readers: Readers,
    pub summary: &'static str,
    /// Paper section (or reference implementation) the algorithm comes from.
    pub source: &'static str,
    pub definition: Definition,
}

impl RoutingEntry {
    /// Every key the routing's spec accepts.
    pub fn keys(&self) -> Vec<&'static str> {
        self.param_defs().iter().map(|p| p.name).collect()
    }

    /// Every parameter the routing's spec accepts, its own then the reader keys it takes.
    pub fn param_defs(&self) -> Vec<ParamDef> {
        let mut defs = self.params.to_vec();
        match self.definition {
            Definition::Rule(_) => defs.extend_from_slice(READER_KEYS),
            Definition::Ugal { .. } => defs.extend_from_slice(&READER_KEYS[1..]),
            Definition::Paths(_) | Definition::Simulator => {}
        }
        defs
    }
}

/// How the simulator reads a rule: `select=random|queue` (among candidate hops),
/// `ports=random|destination|first` (among a link's parallel ports),
/// `vc_split=even|fill|overlap|one` (VCs per class); static analysis reads the same paths.
/// UGAL decides by queue itself and takes only the last two.
pub const READER_KEYS: &[ParamDef] = &[
    ParamDef {
        name: "select",
        kind: ParamKind::Text,
        default: Some("the routing's"),
        help: "random (uniform among candidate hops), queue (least occupied output) or two_choices",
    },
    ParamDef {
        name: "ports",
        kind: ParamKind::Text,
        default: Some("random"),
        help: "random, destination (destination endpoint mod width, BookSim2) or first: which of a link's parallel ports",
    },
    ParamDef {
        name: "vc_split",
        kind: ParamKind::Text,
        default: Some("even"),
        help: "even, fill, overlap or one: how the VCs are split among classes",
    },
];

/// An old name kept working: it resolves to a spec of one catalog routing, never to a
/// second implementation. `booksim` is the spec under `booksim_compat = true`.
pub struct Alias {
    pub name: &'static str,
    pub spec: &'static str,
    pub booksim: &'static str,
    pub summary: &'static str,
}

/// The simulator's former BookSim2-compatible routings, as options of the core rules.
pub const ALIASES: &[Alias] = &[
    Alias {
        name: "dim_order",
        spec: "torus_dor:vcs=dateline,ports=destination,vc_split=fill",
        booksim: "torus_dor:vcs=booksim,ports=destination,vc_split=overlap",
        summary: "BookSim2's name of dor",
    },
    Alias {
        name: "dor",
        spec: "torus_dor:vcs=dateline,ports=destination,vc_split=fill",
        booksim: "torus_dor:vcs=booksim,ports=destination,vc_split=overlap",
        summary: "torus/mesh DOR with BookSim2's port choice; under booksim_compat BookSim2's dateline classes and VC ranges",
    },
    Alias {
        name: "dragonfly_min",
        spec: "dragonfly_static:vcs=booksim,ports=first,vc_split=one",
        booksim: "dragonfly_static:vcs=booksim,ports=first,vc_split=one",
        summary: "BookSim2 dragonflynew min: VC 0 before the global hop, VC 1 from it on",
    },
    Alias {
        name: "dragonfly_ugal",
        spec: "ugal_l:paths=dragonfly,n=1,c=2,hops=false,bias=30,ports=first,vc_split=one",
        booksim: "ugal_l:paths=dragonfly,n=1,c=2,hops=false,bias=30,ports=first,vc_split=one",
        summary: "BookSim2 dragonflynew ugal, kept to agree with BookSim2: minimal unless q_min > 2 q_nonmin + 30 at the source; VC = phase 0/1/2, NOT deadlock-free (a cycle on VC 0); the same with 4 ordered VCs: dragonfly_ugal_safe",
    },
    Alias {
        name: "dragonfly_ugal_safe",
        spec: "ugal_l:paths=dragonfly,n=1,c=2,hops=false,bias=30,vcs=group,ports=first,vc_split=one",
        booksim: "ugal_l:paths=dragonfly,n=1,c=2,hops=false,bias=30,vcs=group,ports=first,vc_split=one",
        summary: "BookSim2 dragonflynew's UGAL paths and decision with 4 VCs ordered along every path (VC 0 to the first global hop, 1 to the intermediate, 2 from it, 3 after the last global hop): deadlock-free",
    },
    Alias {
        name: "ugal_pf",
        spec: "ugal_l:near_source=true,n=4,c=1.5,hops=false",
        booksim: "ugal_l:near_source=true,n=4,c=1.5,hops=false",
        summary: "PolarFly's UGAL_PF (Lakhotia et al., SC22; the authors' SST Merlin topo_polarfly): 4 Valiant candidates among the source's neighbours unless the destination is one (non-minimal paths <= 3 hops then, else <= 4), minimal unless q_min > 1.5 q_val; hop VCs (4 on a diameter-2 graph)",
    },
];

/// The spec an alias stands for (`booksim`: under `booksim_compat`), or `spec` itself.
/// Aliases take no parameters: the error names the definition to parameterise instead.
pub fn resolve_alias(spec: &str, booksim: bool) -> Result<String> {
    let mut sp = TopologySpec::parse(spec)?;
    let written = std::mem::take(&mut sp.family);
    sp.family = canonical_name(&written);
    let Some(alias) = ALIASES.iter().find(|a| a.name == sp.family) else {
        return Ok(if sp.family == written {
            spec.to_string()
        } else {
            sp.to_string()
        });
    };
    if let Some(k) = sp.params.keys().next() {
        return Err(TopolabError::UnknownParameter {
            context: format!(
                "routing '{}' (an alias of '{}'; give parameters to that)",
                alias.name, alias.spec
            ),
            param: k.clone(),
            valid: "(none)".into(),
        });
    }
    Ok(if booksim { alias.booksim } else { alias.spec }.to_string())
}

/// Why a routing spec that the catalog accepts is not deadlock-free, for the few kept on purpose
/// (the CDG sweep of every catalog routing, tests/routing/routing_cdg_catalog.rs, lists them); None for
/// every other spec, including ones that do not parse (their error comes from building them).
pub fn deadlock_caution(spec: &str) -> Option<&'static str> {
    let spec = resolve_alias(spec, false).ok()?;
    let sp = TopologySpec::parse(&spec).ok()?;
    let text = |k: &str| sp.params.get(k).map(|v| v.to_string().to_ascii_lowercase());
    let dragonfly_paths = text("paths").is_some_and(|p| p.trim() == "dragonfly");
    let booksim_vcs = text("vcs").is_none_or(|v| v.trim() == "booksim");
    (matches!(sp.family.as_str(), "ugal" | "ugal_l" | "ugal_g") && dragonfly_paths && booksim_vcs).then_some(
        "BookSim2 dragonflynew's UGAL VC scheme (VC = phase) is not deadlock-free: its VC 0 carries \
         local, global and local hops towards the intermediate, and the channel dependency graph \
         has a cycle; it is kept to agree with BookSim2. For a deadlock-free Dragonfly UGAL use \
         dragonfly_ugal_safe (the same paths with 4 ordered VCs) or ugal_l",
    )
}

/// The catalog entry of a routing name (aliases are resolved first by `resolve_alias`).
pub fn find(name: &str) -> Result<&'static RoutingEntry> {
    let key = canonical_name(name);
    ROUTINGS
        .iter()
        .find(|r| r.name == key)
        .ok_or_else(|| TopolabError::InvalidParameter {
            context: "routing".into(),
            param: "routing".into(),
            value: name.to_string(),
            allowed: ROUTINGS
                .iter()
                .map(|r| r.name)
                .chain(ALIASES.iter().map(|a| a.name))
                .collect::<Vec<_>>()
                .join(", "),
        })
}

/// A routing spec parsed once: the alias resolved, the catalog entry found, every key checked
/// against the parameters the entry declares, the reader keys read and UGAL's decision
/// parameters validated. The builders, static analysis and the simulator all read this.
pub struct RoutingSpec {
    /// The name as written (an alias keeps its own name here, for errors).
    pub asked: String,
    pub entry: &'static RoutingEntry,
    /// The routing's own parameters (the reader keys taken out).
    pub params: BTreeMap<String, ParamValue>,
    pub select: Option<Select>,
    pub ports: Option<Ports>,
    pub vc_split: Option<VcSplit>,
    /// UGAL's source decision (UGAL entries only).
    pub ugal: Option<UgalChoice>,
}

impl RoutingSpec {
    /// Parses `text` (`name[:key=value,...]` or an alias; `booksim`: the alias's spec under
    /// `booksim_compat`).
    pub fn parse(text: &str, booksim: bool) -> Result<RoutingSpec> {
        let asked = TopologySpec::parse(text)?.family;
        let resolved = resolve_alias(text, booksim)?;
        let sp = TopologySpec::parse(&resolved)?;
        let entry = find(&sp.family)?;
        check_keys(&sp, &entry.keys())?;
        let mut params = sp.params;
        let mut take = |key: &str| params.remove(key).map(|v| v.to_string());
        let select = take("select").map(|v| Select::parse(&v)).transpose()?;
        let ports = take("ports").map(|v| Ports::parse(&v)).transpose()?;
        let vc_split = take("vc_split").map(|v| VcSplit::parse(&v)).transpose()?;
        let ugal = match entry.definition {
            Definition::Ugal { .. } => {
                Some(UgalChoice::from_params(&Params::new(entry.name, &params))?)
            }
            _ => None,
        };
        Ok(RoutingSpec {
            asked,
            entry,
            params,
            select,
            ports,
            vc_split,
            ugal,
        })
    }

    /// The routing's name and own parameters as a spec (the reader keys left out).
    pub fn as_topology_spec(&self) -> TopologySpec {
        TopologySpec {
            family: self.entry.name.to_string(),
            params: self.params.clone(),
        }
    }

    /// Typed access to the routing's own parameters (errors name the routing).
    pub fn params(&self) -> Params<'_> {
        Params::new(self.entry.name, &self.params)
    }
}

/// Builds the static routing named by `spec` for `net`.
pub fn build_static<'a>(
    net: &'a Network,
    spec: &str,
    monitor: &dyn Monitor,
) -> Result<Box<dyn RouteDef + 'a>> {
    build_static_spec(net, &RoutingSpec::parse(spec, false)?, monitor)
}

/// Builds the static routing of a parsed spec for `net`.
pub fn build_static_spec<'a>(
    net: &'a Network,
    spec: &RoutingSpec,
    monitor: &dyn Monitor,
) -> Result<Box<dyn RouteDef + 'a>> {
    let entry = spec.entry;
    super::degraded::check(net, &spec.as_topology_spec())?;
    if !entry.readers.static_analysis {
        return Err(TopolabError::invalid(
            "routing",
            "routing",
            entry.name,
            format!(
                "a routing static analysis reads ('{}' is simulated only: {})",
                entry.name, entry.summary
            ),
        ));
    }
    match entry.definition {
        Definition::Paths(build) => build(net, &spec.params(), monitor),
        _ => {
            let built = build_rule_spec(net, spec, monitor)?.expect("a rule definition");
            Ok(Box::new(RuleRoute {
                net,
                oblivious: built.reading.select == Select::Random && built.rule.oblivious(),
                ports: built.reading.ports,
                rule: built.rule,
            }))
        }
    }
}

/// Every routing, by name (alphabetical); each routing's file declares its entry.
pub const ROUTINGS: &[RoutingEntry] = &[
    super::distance_based::DEFLECTION,
    super::dfsssp::DFSSSP,
    super::distance_based::DISTANCE_BASED,
    super::dragonfly::DRAGONFLY_ADAPTIVE,
    super::dragonfly::DRAGONFLY_STATIC,
    super::dragonflyplus::DRAGONFLYPLUS_ADAPTIVE,
    super::dragonflyplus::DRAGONFLYPLUS_MIN,
    super::dragonflyplus::DRAGONFLYPLUS_VALIANT,
    super::fastest::FASTEST,
    super::fattree::FATTREE_ANCA,
    super::fattree::FATTREE_NCA,
    super::hammingmesh::HAMMINGMESH_MIN,
    super::hypercube::HYPERCUBE_ABO_NF,
    super::hypercube::HYPERCUBE_ABO_PL,
    super::hypercube::HYPERCUBE_NF,
    super::hyperx::HYPERX_ADOR,
    super::hyperx::HYPERX_DOR,
    super::imase::IMASE,
    super::infiniband::table::INFINIBAND,
    super::minimal::MIN,
    super::minimal::MIN_STATIC,
    super::slimfly_algebraic::SLIMFLY_MMS,
    super::torus::TORUS_DOR,
    super::ugal::UGAL,
    super::ugal::UGAL_G,
    super::ugal::UGAL_L,
    super::updown::UPDOWN,
    super::valiant::VALIANT,
];

/// Which of a link's parallel ports the routing named by `spec` takes (its `ports` reader key;
/// `Ports::Random` for routings the catalog defines by static paths or simulator tables),
/// without building it.
pub fn reading_ports(spec: &str) -> Result<Ports> {
    let spec = RoutingSpec::parse(spec, false)?;
    Ok(match spec.entry.definition {
        Definition::Rule(_) | Definition::Ugal { .. } => spec.ports.unwrap_or(Ports::Random),
        Definition::Paths(_) | Definition::Simulator => Ports::Random,
    })
}

/// A hop-by-hop routing and how the simulator reads it.
pub struct BuiltRule {
    pub rule: Arc<Rule>,
    pub reading: Reading,
}

/// Builds the hop-by-hop routing named by `spec` (an alias resolves to its definition), or
/// None when the catalog defines that name otherwise (static paths, a simulator table).
pub fn build_rule(net: &Network, spec: &str, monitor: &dyn Monitor) -> Result<Option<BuiltRule>> {
    build_rule_spec(net, &RoutingSpec::parse(spec, false)?, monitor)
}

/// `build_rule` of a parsed spec.
pub fn build_rule_spec(
    net: &Network,
    spec: &RoutingSpec,
    monitor: &dyn Monitor,
) -> Result<Option<BuiltRule>> {
    super::degraded::check(net, &spec.as_topology_spec())?;
    let build = match spec.entry.definition {
        Definition::Rule(build) => build,
        Definition::Ugal { .. } => ugal_rule as BuildRule,
        Definition::Paths(_) | Definition::Simulator => return Ok(None),
    };
    let rule = build(net, &spec.params(), monitor)?;
    let reading = Reading {
        select: spec.select.unwrap_or_else(|| rule.default_select()),
        ports: spec.ports.unwrap_or(Ports::Random),
        vc_split: spec.vc_split.unwrap_or(VcSplit::Even),
    };
    Ok(Some(BuiltRule {
        rule: Arc::new(rule),
        reading,
    }))
}
