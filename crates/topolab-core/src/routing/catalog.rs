//! The one routing catalog: every routing by name (`name[:key=value,...]`, the same spec syntax
//! as topologies), what defines it and which readers accept it (static analysis: `topolab
//! routing check|load|tables`; the simulator: `topolab sim --routing`), and the old names
//! kept as aliases of one definition. Unknown names and keys are rejected with the valid ones
//! listed.
//!
//! Adding a routing: its file with a `HopRouting`, its type on one line of `rules!` (the
//! enum the simulator's cycle loop dispatches on) unless an existing type takes the new
//! name, and one `RoutingEntry` in `ROUTINGS`.

use super::dfsssp::Dfsssp;
use super::generic::{Ugal, UgalCandidates, UpDown, Valiant, VcRule};
use super::minimal::{Minimal, MinimalTable};
use super::path::RouteDef;
use super::rule::{Hop, HopRouting, Ports, Reading, RouteState, RuleRoute, Select, VcSplit};
use super::shortest::HopMatrix;
use crate::error::{Result, TopolabError};
use crate::network::Network;
use crate::progress::Monitor;
use crate::spec::{Params, TopologySpec};
use rand_chacha::ChaCha8Rng;
use std::sync::Arc;

/// The enum over every hop-by-hop rule type (`Rule`), dispatched by `match` (no trait
/// object on the simulator's hot path), with `From` for each type.
macro_rules! rules {
    ($($variant:ident($ty:ty),)*) => {
        /// Every hop-by-hop routing rule, one variant per type.
        pub enum Rule {
            $($variant($ty),)*
        }
        $(impl From<$ty> for Rule {
            fn from(r: $ty) -> Rule {
                Rule::$variant(r)
            }
        })*
        // The trait's methods also as inherent ones, so that a `Rule` reads like the trait
        // object it replaces (callers need not import `HopRouting`).
        impl Rule {
            pub fn name(&self) -> String {
                HopRouting::name(self)
            }
            pub fn vc_classes(&self) -> u32 {
                HopRouting::vc_classes(self)
            }
            pub fn max_hops(&self) -> u32 {
                HopRouting::max_hops(self)
            }
            pub fn oblivious(&self) -> bool {
                HopRouting::oblivious(self)
            }
            pub fn default_select(&self) -> Select {
                HopRouting::default_select(self)
            }
            pub fn start(&self, s: u32, t: u32, out: &mut Vec<(RouteState, f64)>) {
                HopRouting::start(self, s, t, out)
            }
            pub fn host_start(&self, s: u32, t: u32, d: u32) -> Option<RouteState> {
                HopRouting::host_start(self, s, t, d)
            }
            #[inline]
            pub fn sample_start(&self, s: u32, t: u32, rng: &mut ChaCha8Rng) -> RouteState {
                HopRouting::sample_start(self, s, t, rng)
            }
            #[inline]
            pub fn next(&self, r: u32, t: u32, hop: u32, st: RouteState, out: &mut dyn FnMut(Hop)) {
                HopRouting::next(self, r, t, hop, st, out)
            }
        }
        impl HopRouting for Rule {
            fn name(&self) -> String {
                match self { $(Rule::$variant(r) => r.name(),)* }
            }
            fn vc_classes(&self) -> u32 {
                match self { $(Rule::$variant(r) => r.vc_classes(),)* }
            }
            fn max_hops(&self) -> u32 {
                match self { $(Rule::$variant(r) => r.max_hops(),)* }
            }
            fn default_select(&self) -> Select {
                match self { $(Rule::$variant(r) => r.default_select(),)* }
            }
            fn oblivious(&self) -> bool {
                match self { $(Rule::$variant(r) => r.oblivious(),)* }
            }
            fn start(&self, s: u32, t: u32, out: &mut Vec<(RouteState, f64)>) {
                match self { $(Rule::$variant(r) => r.start(s, t, out),)* }
            }
            fn host_start(&self, s: u32, t: u32, d: u32) -> Option<RouteState> {
                match self { $(Rule::$variant(r) => r.host_start(s, t, d),)* }
            }
            #[inline]
            fn sample_start(&self, s: u32, t: u32, rng: &mut ChaCha8Rng) -> RouteState {
                match self { $(Rule::$variant(r) => r.sample_start(s, t, rng),)* }
            }
            #[inline]
            fn state_vc(&self, st: RouteState) -> u8 {
                match self { $(Rule::$variant(r) => r.state_vc(st),)* }
            }
            #[inline]
            fn next(&self, r: u32, t: u32, hop: u32, st: RouteState, out: &mut dyn FnMut(Hop)) {
                match self { $(Rule::$variant(x) => x.next(r, t, hop, st, out),)* }
            }
            #[inline]
            fn next_each<F: FnMut(Hop)>(&self, r: u32, t: u32, hop: u32, st: RouteState, out: F) {
                match self { $(Rule::$variant(x) => x.next_each(r, t, hop, st, out),)* }
            }
            #[inline]
            fn table_entry(&self, r: u32, t: u32, st: RouteState) -> Option<&u8> {
                match self { $(Rule::$variant(x) => x.table_entry(r, t, st),)* }
            }
            #[inline]
            fn draw_next(
                &self,
                r: u32,
                t: u32,
                hop: u32,
                st: RouteState,
                rng: &mut ChaCha8Rng,
            ) -> Option<Hop> {
                match self { $(Rule::$variant(x) => x.draw_next(r, t, hop, st, rng),)* }
            }
        }
    };
}

rules! {
    DistanceBased(super::distance_based::DistanceBased),
    Dragonfly(super::dragonfly::DragonflyGsid),
    DragonflyPlus(super::dragonflyplus::DragonflyPlus),
    Fastest(super::fastest::Fastest),
    FatTree(super::fattree::FatTreeNca),
    HammingMesh(super::hammingmesh::HammingMeshMin),
    Hypercube(super::hypercube::HypercubeTurn),
    HyperX(super::hyperx::FlatFlyDor),
    Imase(super::imase::ImaseRouting),
    InfinibandTables(super::infiniband::table::TableRouting),
    Minimal(Minimal),
    SlimFlyMms(super::slimfly_algebraic::SlimFlyAlgebraic),
    Torus(super::torus::TorusDor),
    Ugal(UgalCandidates),
    UpDown(UpDown),
    Valiant(Valiant),
}

/// Parameters of the UGAL variants: the Valiant part's, then the source decision's (read by
/// the simulator: n random Valiant candidates, cost factor c, hop weighting, threshold in % of
/// the buffer).
pub const UGAL_PARAMS: &[&str] = &[
    "paths",
    "vcs",
    "endpoints_only",
    "max_hops",
    "near_source",
    "n",
    "c",
    "hops",
    "threshold",
    "bias",
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
    /// Credits added to a Valiant candidate's cost (BookSim2 dragonflynew's 30).
    pub bias: f64,
}

impl UgalChoice {
    pub fn from_params(params: &Params) -> Result<UgalChoice> {
        Ok(UgalChoice {
            n: params.opt_u32("n", 1, 64)?.unwrap_or(4),
            c: params.opt_float("c", 0.0, 1e6)?.unwrap_or(1.0),
            hops: params.opt_bool("hops")?,
            threshold: params.opt_float("threshold", 0.0, 100.0)?,
            bias: params.opt_float("bias", 0.0, 1e9)?.unwrap_or(0.0),
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
    pub params: &'static [&'static str],
    pub readers: Readers,
    pub summary: &'static str,
    /// Paper section (or reference implementation) the algorithm comes from.
    pub source: &'static str,
    pub definition: Definition,
}

impl RoutingEntry {
    /// Every key the routing's spec accepts.
    pub fn keys(&self) -> Vec<&'static str> {
        let mut keys = self.params.to_vec();
        match self.definition {
            Definition::Rule(_) => keys.extend_from_slice(READER_KEYS),
            Definition::Ugal { .. } => keys.extend_from_slice(&READER_KEYS[1..]),
            Definition::Paths(_) | Definition::Simulator => {}
        }
        keys
    }
}

/// How the simulator reads a rule: `select=random|queue` (among candidate hops),
/// `ports=random|destination|first` (among a link's parallel ports),
/// `vc_split=even|fill|overlap|one` (VCs per class); static analysis reads the same paths.
/// UGAL decides by queue itself and takes only the last two.
pub const READER_KEYS: &[&str] = &["select", "ports", "vc_split"];

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
    let sp = TopologySpec::parse(spec)?;
    let Some(alias) = ALIASES.iter().find(|a| a.name == sp.family) else {
        return Ok(spec.to_string());
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
/// (the CDG sweep of every catalog routing, tests/routing_cdg_catalog.rs, lists them); None for
/// every other spec, including ones that do not parse (their error comes from building them).
pub fn deadlock_caution(spec: &str) -> Option<&'static str> {
    let spec = resolve_alias(spec, false).ok()?;
    let sp = TopologySpec::parse(&spec).ok()?;
    let text = |k: &str| sp.params.get(k).map(|v| v.to_string().to_ascii_lowercase());
    let dragonfly_paths = text("paths").is_some_and(|p| p.trim() == "dragonfly");
    let booksim_vcs = text("vcs").map_or(true, |v| v.trim() == "booksim");
    (matches!(sp.family.as_str(), "ugal" | "ugal_l" | "ugal_g") && dragonfly_paths && booksim_vcs).then_some(
        "BookSim2 dragonflynew's UGAL VC scheme (VC = phase) is not deadlock-free: its VC 0 carries \
         local, global and local hops towards the intermediate, and the channel dependency graph \
         has a cycle; it is kept to agree with BookSim2. For a deadlock-free Dragonfly UGAL use \
         dragonfly_ugal_safe (the same paths with 4 ordered VCs) or ugal_l",
    )
}

/// The catalog entry of a routing name (aliases are resolved first by `resolve_alias`).
pub fn find(name: &str) -> Result<&'static RoutingEntry> {
    ROUTINGS
        .iter()
        .find(|r| r.name == name)
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

/// Builds the static routing named by `spec` for `net`.
pub fn build_static<'a>(
    net: &'a Network,
    spec: &str,
    monitor: &dyn Monitor,
) -> Result<Box<dyn RouteDef + 'a>> {
    let spec = resolve_alias(spec, false)?;
    let sp = TopologySpec::parse(&spec)?;
    let entry = find(&sp.family)?;
    super::degraded::check(net, &sp)?;
    if !entry.readers.static_analysis {
        return Err(TopolabError::invalid(
            "routing",
            "routing",
            &sp.family,
            format!(
                "a routing static analysis reads ('{}' is simulated only: {})",
                entry.name, entry.summary
            ),
        ));
    }
    match entry.definition {
        Definition::Paths(build) => {
            check_keys(&sp, entry.params)?;
            build(net, &Params::new(&sp.family, &sp.params), monitor)
        }
        _ => {
            let built = build_rule(net, &spec, monitor)?.expect("a rule definition");
            Ok(Box::new(RuleRoute {
                net,
                oblivious: built.reading.select == Select::Random && built.rule.oblivious(),
                ports: built.reading.ports,
                rule: built.rule,
            }))
        }
    }
}

fn vc_rule(params: &Params, allowed: &[VcRule]) -> Result<VcRule> {
    match params.opt_text("vcs")? {
        Some(v) => VcRule::parse(&v.to_ascii_lowercase(), allowed, params.family()),
        None => Ok(VcRule::Hop),
    }
}

/// `valiant` from its parameters (vcs, endpoints_only, max_hops, near_source).
pub fn valiant_from_params(
    net: &Network,
    table: Arc<MinimalTable>,
    params: &Params,
) -> Result<Valiant> {
    let endpoints_only = params.opt_bool("endpoints_only")?.unwrap_or(false);
    let max_hops = params.opt_u32("max_hops", 1, 1000)?;
    let near_source = params.opt_bool("near_source")?.unwrap_or(false);
    let vcs = vc_rule(params, &[VcRule::Hop, VcRule::Phase, VcRule::Single])?;
    let valiant = Valiant::new(net, table, vcs, endpoints_only, max_hops)?;
    Ok(if near_source {
        valiant.near_source(net)
    } else {
        valiant
    })
}

/// UGAL's candidates from `paths` (shortest: min ∪ valiant from the Valiant parameters;
/// dragonfly: BookSim2 dragonflynew's); the decision keys are the simulator's.
pub fn ugal_from_params(
    net: &Network,
    params: &Params,
    monitor: &dyn Monitor,
) -> Result<UgalCandidates> {
    let paths = params
        .opt_text("paths")?
        .unwrap_or_else(|| "shortest".into());
    match paths.trim().to_ascii_lowercase().as_str() {
        "shortest" => {
            let table = Arc::new(MinimalTable::build(net, monitor)?);
            let val = valiant_from_params(net, table.clone(), params)?;
            Ok(UgalCandidates::Shortest(Ugal::new(table, val)?))
        }
        "dragonfly" => {
            for key in ["endpoints_only", "max_hops", "near_source"] {
                if params.opt_text(key)?.is_some() {
                    return Err(TopolabError::invalid(
                        params.family(),
                        key,
                        params.opt_text(key)?.unwrap_or_default(),
                        "not given with paths=dragonfly (its paths are BookSim2 dragonflynew's)",
                    ));
                }
            }
            use super::dragonfly_ugal::{DragonflyUgal, DragonflyUgalVcs};
            let vcs = match params.opt_text("vcs")?.map(|v| v.to_ascii_lowercase()) {
                None => DragonflyUgalVcs::Booksim,
                Some(v) if v == "booksim" => DragonflyUgalVcs::Booksim,
                Some(v) if v == "group" => DragonflyUgalVcs::Group,
                Some(v) => {
                    return Err(TopolabError::invalid(
                        params.family(),
                        "vcs",
                        v,
                        "with paths=dragonfly: booksim (BookSim2 dragonflynew's VC = phase, 3 VCs, not deadlock-free) or group (VCs ordered along the path, 4 VCs, deadlock-free)",
                    ))
                }
            };
            Ok(UgalCandidates::Dragonfly(DragonflyUgal::new(net, vcs)?))
        }
        other => Err(TopolabError::invalid(
            params.family(),
            "paths",
            other,
            "shortest (minimal and Valiant over shortest paths) or dragonfly (BookSim2 dragonflynew's local-global-local paths)",
        )),
    }
}

fn ugal_rule(net: &Network, params: &Params, monitor: &dyn Monitor) -> Result<Rule> {
    Ok(ugal_from_params(net, params, monitor)?.into())
}

/// Every routing, by name (alphabetical).
pub const ROUTINGS: &[RoutingEntry] = &[
    RoutingEntry {
        name: "deflection",
        params: &["e", "vls"],
        readers: BOTH,
        summary: "Deflection + E: Distance Based + E that may also step away from the destination; e >= 2 (default 2), VL hopping mod vls (default 8)",
        source: "Daryin & Korzh, JSFI 2014, §3.7",
        definition: Definition::Rule(|net, p, m| Ok(super::distance_based::deflection_from_params(net, p, m)?.into())),
    },
    RoutingEntry {
        name: "dfsssp",
        params: &["max_vls"],
        readers: STATIC,
        summary: "shortest paths with DFSSSP virtual layers",
        source: "Besta & Hoefler, SC14, §IV-D",
        definition: Definition::Paths(|net, params, monitor| {
                let max = params.opt_u32("max_vls", 1, 255)?.unwrap_or(16);
                let hops = HopMatrix::build(net, monitor)?;
                Ok(Box::new(Dfsssp::new(net, &hops, max, monitor)?))
        }),
    },
    RoutingEntry {
        name: "distance_based",
        params: &["e", "vls"],
        readers: BOTH,
        summary: "Distance Based + E: adaptive, minimal or sideways hops within a budget of D + E hops (e default 0), VL hopping mod vls (default 8)",
        source: "Daryin & Korzh, JSFI 2014, §3.7",
        definition: Definition::Rule(|net, p, m| Ok(super::distance_based::from_params(net, p, m)?.into())),
    },
    RoutingEntry {
        name: "dragonfly_adaptive",
        params: &["extra"],
        readers: BOTH,
        summary: "Dragonfly adaptive family: extra=letters among G (extra global hop), S, I, D (extra local hop in source, intermediate, destination group); VLs 0-1 / 2-3 / 4-5 by group; select=queue",
        source: "Daryin & Korzh, JSFI 2014, §3.5",
        definition: Definition::Rule(|net, params, _| {
                let extra = super::dragonfly::Extra::parse(&params.opt_text("extra")?.unwrap_or_default())?;
                Ok(Rule::from(super::dragonfly::DragonflyGsid::new(net, Some(extra))?))
        }),
    },
    RoutingEntry {
        name: "dragonfly_static",
        params: &["vcs"],
        readers: BOTH,
        summary: "Dragonfly Static: local hop to the router linked to the destination group, global hop, local hop; vcs=paper (VLs 0 and 4, default) or booksim (BookSim2 dragonflynew: first gateway in link order, VC 1 from the global hop on)",
        source: "Daryin & Korzh, JSFI 2014, §3.5",
        definition: Definition::Rule(|net, params, _| {
                let text = params.opt_text("vcs")?.unwrap_or_else(|| "paper".into());
                match text.trim().to_ascii_lowercase().as_str() {
                    "paper" => Ok(super::dragonfly::DragonflyGsid::new(net, None)?.into()),
                    "booksim" => Ok(super::dragonfly::DragonflyGsid::booksim(net)?.into()),
                    other => Err(TopolabError::invalid("dragonfly_static", "vcs", other, "paper (Daryin & Korzh's VLs 0 and 4) or booksim (BookSim2 dragonflynew: VC 0 before the global hop, 1 from it on)")),
                }
        }),
    },
    RoutingEntry {
        name: "dragonflyplus_adaptive",
        params: &[],
        readers: BOTH,
        summary: "Dragonfly+ progressive adaptive: at the source leaf any spine, at a source spine the global link to the destination group or to an intermediate group, the less occupied of a random minimal and a random other candidate (select=two_choices); up*/down* in groups; 2 VLs",
        source: "Shpiner et al., HiPINEB 2017 (FPAR, deadlock avoidance); Flajslik, Borch & Parker, ISC 2018",
        definition: Definition::Rule(|net, _, _| {
            use super::dragonflyplus::{DragonflyPlus, Mode};
            Ok(DragonflyPlus::new(net, Mode::Adaptive)?.into())
        }),
    },
    RoutingEntry {
        name: "dragonflyplus_min",
        params: &[],
        readers: BOTH,
        summary: "Dragonfly+ minimal: leaf, spine with a link to the destination group, global, spine, leaf; up*/down* in groups; 1 VL",
        source: "Shpiner et al., HiPINEB 2017 (routing, deadlock avoidance)",
        definition: Definition::Rule(|net, _, _| {
            use super::dragonflyplus::{DragonflyPlus, Mode};
            Ok(DragonflyPlus::new(net, Mode::Minimal)?.into())
        }),
    },
    RoutingEntry {
        name: "dragonflyplus_valiant",
        params: &[],
        readers: BOTH,
        summary: "Dragonfly+ non-minimal: minimal to a random intermediate group, then to the destination (intermediate spine or leaf route); VL 1 from the intermediate router on; 2 VLs",
        source: "Shpiner et al., HiPINEB 2017 (routing, deadlock avoidance); Flajslik, Borch & Parker, ISC 2018",
        definition: Definition::Rule(|net, _, _| {
            use super::dragonflyplus::{DragonflyPlus, Mode};
            Ok(DragonflyPlus::new(net, Mode::Valiant)?.into())
        }),
    },
    RoutingEntry {
        name: "fastest",
        params: &["floor", "placement", "per_cabinet", "switch_delay_ns", "cable_ns_per_m"],
        readers: BOTH,
        summary: "Fastest Routing: lowest-latency paths (switch + cable delay on the placed floor, default skywalk), all equal next hops; hop VCs",
        source: "Fujiwara et al., IPDPS 2014, §II-E",
        definition: Definition::Rule(|net, p, m| Ok(super::fastest::from_params(net, p, m)?.into())),
    },
    RoutingEntry {
        name: "fattree_anca",
        params: &[],
        readers: BOTH,
        summary: "fat tree adaptive nearest common ancestor: the less occupied of two random up ports (select=two_choices, BookSim2 anca_fattree), then the unique way down; one VL",
        source: "Besta & Hoefler, SC14, §V (ANCA, Gómez et al. [33]); Kathareios et al., SC15, §2.2.1",
        definition: Definition::Rule(|net, _, _| Ok(Rule::from(super::fattree::FatTreeNca::new(net, true)?))),
    },
    RoutingEntry {
        name: "fattree_nca",
        params: &[],
        readers: BOTH,
        summary: "fat tree nearest common ancestor, up port by destination (d-mod-k), then the unique way down; one VL",
        source: "Besta & Hoefler, SC14, §V (ANCA, Gómez et al. [33]); Kathareios et al., SC15, §2.2.1",
        definition: Definition::Rule(|net, _, _| Ok(Rule::from(super::fattree::FatTreeNca::new(net, false)?))),
    },
    RoutingEntry {
        name: "hammingmesh_min",
        params: &[],
        readers: BOTH,
        summary: "HammingMesh minimal: the source row (board mesh and row fat tree, up then down), then the destination column; every shortest next hop; VC 1 after leaving a tree in each dimension; 2 VCs",
        source: "Hoefler et al., SC 2022 (HammingMesh routing)",
        definition: Definition::Rule(|net, _, _| Ok(super::hammingmesh::HammingMeshMin::new(net)?.into())),
    },
    RoutingEntry {
        name: "hypercube_abo_nf",
        params: &[],
        readers: BOTH,
        summary: "hypercube All-But-One Negative First: negative dimensions except dimension 1 first, then the rest, adaptively; one VL",
        source: "Daryin & Korzh, JSFI 2014, §3.4 (Glass & Ni turn model)",
        definition: Definition::Rule(|net, _, _| {
                Ok(Rule::from(super::hypercube::HypercubeTurn::new(net, super::hypercube::TurnModel::AboNegativeFirst)?))
        }),
    },
    RoutingEntry {
        name: "hypercube_abo_pl",
        params: &[],
        readers: BOTH,
        summary: "hypercube All-But-One Positive Last: negative dimensions and dimension 1 first, then the positive ones, adaptively; one VL",
        source: "Daryin & Korzh, JSFI 2014, §3.4 (Glass & Ni turn model)",
        definition: Definition::Rule(|net, _, _| {
                Ok(Rule::from(super::hypercube::HypercubeTurn::new(net, super::hypercube::TurnModel::AboPositiveLast)?))
        }),
    },
    RoutingEntry {
        name: "hypercube_nf",
        params: &[],
        readers: BOTH,
        summary: "hypercube Negative First: negative (1 -> 0) dimensions first, then positive ones, adaptively; one VL",
        source: "Daryin & Korzh, JSFI 2014, §3.4 (Glass & Ni turn model)",
        definition: Definition::Rule(|net, _, _| {
                Ok(Rule::from(super::hypercube::HypercubeTurn::new(net, super::hypercube::TurnModel::NegativeFirst)?))
        }),
    },
    RoutingEntry {
        name: "hyperx_ador",
        params: &["mixed", "twisted"],
        readers: BOTH,
        summary: "HyperX/FlatFly adaptive DOR: any switch of the current dimension, then the direct hop; VLs 0/1 (x4 SLs when mixed); select=queue",
        source: "Daryin & Korzh, JSFI 2014, §3.3",
        definition: Definition::Rule(|net, params, _| {
                let mixed = params.opt_bool("mixed")?.unwrap_or(false);
                let twisted = params.opt_bool("twisted")?.unwrap_or(false);
                Ok(Rule::from(super::hyperx::FlatFlyDor::new(net, true, mixed, twisted)?))
        }),
    },
    RoutingEntry {
        name: "hyperx_dor",
        params: &["mixed", "twisted"],
        readers: BOTH,
        summary: "HyperX/FlatFly (and hypercube) dimension-order routing; mixed=true: 4 orders by SL = d mod 4; twisted=true: first hop to d mod K_last",
        source: "Daryin & Korzh, JSFI 2014, §3.3, §3.4",
        definition: Definition::Rule(|net, params, _| {
                let mixed = params.opt_bool("mixed")?.unwrap_or(false);
                let twisted = params.opt_bool("twisted")?.unwrap_or(false);
                Ok(Rule::from(super::hyperx::FlatFlyDor::new(net, false, mixed, twisted)?))
        }),
    },
    RoutingEntry {
        name: "imase",
        params: &["a", "b", "d", "vcs"],
        readers: BOTH,
        summary: "Imase-Itoh shift-register routing for imase, kautz and debruijn digraphs (a, b, d from the network's spec); vcs=hop (default, ceil(log_d n) VCs) or single",
        source: "Koibuchi et al., 2018, §III-B1",
        definition: Definition::Rule(|net, p, m| Ok(super::imase::from_params(net, p, m)?.into())),
    },
    RoutingEntry {
        name: "infiniband",
        params: &["dir"],
        readers: BOTH,
        summary: "the tables a fabric runs: dir=DIRECTORY with opensm-lfts.dump (LFTs), opensm-sl2vl.dump (SL2VL) and path-sl.txt (path SLs), from `topolab routing export` or `topolab routing opensm`",
        source: "Daryin & Korzh, JSFI 2014, §3; OpenSM's dump formats",
        definition: Definition::Rule(|net, p, _| Ok(super::infiniband::table::from_params(net, p)?.into())),
    },
    RoutingEntry {
        name: "min",
        params: &["vcs"],
        readers: BOTH,
        summary: "minimal: a random (select=queue: least occupied) neighbour one hop closer; vcs=hop (default, VC class = hop), single or any (one class)",
        source: "Besta & Hoefler, SC14, §IV-A, §IV-D",
        definition: Definition::Rule(|net, params, monitor| {
                let table = Arc::new(MinimalTable::build(net, monitor)?);
                let vcs = vc_rule(params, &[VcRule::Hop, VcRule::Single])?;
                Ok(Rule::from(Minimal::new(table, vcs)?))
        }),
    },
    RoutingEntry {
        name: "min_static",
        params: &["vcs"],
        readers: SIMULATOR,
        summary: "minimal, one fixed shortest path per router and destination (BookSim2 anynet: Dijkstra, lowest id first); vcs=any (default) or vcs=hop",
        source: "Besta & Hoefler, SC14, §IV-A; BookSim2 anynet",
        definition: Definition::Simulator,
    },
    RoutingEntry {
        name: "slimfly_mms",
        params: &["vcs"],
        readers: BOTH,
        summary: "Slim Fly minimal next hops solved in GF(q) from (t,x,y), no tables; vcs=hop (2 VCs, default) or single",
        source: "Daryin & Korzh, JSFI 2014, §3.6",
        definition: Definition::Rule(|net, p, m| Ok(super::slimfly_algebraic::from_params(net, p, m)?.into())),
    },
    RoutingEntry {
        name: "torus_dor",
        params: &["vcs"],
        readers: BOTH,
        summary: "torus/mesh dimension-order routing, shorter way round (ties: either); vcs=dateline (class 1 from the wrap link on, default) or booksim (class fixed at ring entry)",
        source: "Daryin & Korzh, JSFI 2014, §3.2; BookSim2 dim_order_torus",
        definition: Definition::Rule(|net, params, _| {
                let rule = match params.opt_text("vcs")? {
                    Some(v) => super::torus::Dateline::parse(&v)?,
                    None => super::torus::Dateline::Dateline,
                };
                Ok(Rule::from(super::torus::TorusDor::new(net, rule)?))
        }),
    },
    RoutingEntry {
        name: "ugal",
        params: &["paths", "vcs", "endpoints_only", "max_hops", "near_source"],
        readers: STATIC,
        summary: "UGAL candidates min ∪ valiant (static analysis of the adaptive choice; simulate ugal_l or ugal_g)",
        source: "Besta & Hoefler, SC14, §IV-C",
        definition: Definition::Rule(ugal_rule),
    },
    RoutingEntry {
        name: "ugal_g",
        params: UGAL_PARAMS,
        readers: BOTH,
        summary: "UGAL-G: minimal or one of n (default 4) Valiant paths, least sum of queues along the path (global view); c, hops, threshold, bias as ugal_l; statically the candidate union",
        source: "Besta & Hoefler, SC14, §IV-C1",
        definition: Definition::Ugal { global: true },
    },
    RoutingEntry {
        name: "ugal_l",
        params: UGAL_PARAMS,
        readers: BOTH,
        summary: "UGAL-L: minimal or one of n (default 4) Valiant paths by first-queue x hops (hops=false: queue only), Valiant cost x c + bias; threshold=T: minimal while its queue < T% of the buffer; paths=dragonfly: BookSim2 dragonflynew's paths, vcs=booksim (its VC = phase, not deadlock-free) or group (4 VCs ordered along the path, deadlock-free); statically the candidate union",
        source: "Besta & Hoefler, SC14, §IV-C2, Kathareios et al., SC15, §3.3",
        definition: Definition::Ugal { global: false },
    },
    RoutingEntry {
        name: "updown",
        params: &["root"],
        readers: BOTH,
        summary: "up*/down* shortest legal paths from a BFS root; one VC",
        source: "Autonet (Schroeder et al. 1991); topology-agnostic",
        definition: Definition::Rule(|net, params, _| {
                let n = net.num_routers() as u32;
                let root = params.opt_u32("root", 0, n.saturating_sub(1))?.unwrap_or(0);
                Ok(Rule::from(UpDown::new(net, root as usize)?))
        }),
    },
    RoutingEntry {
        name: "valiant",
        params: &["vcs", "endpoints_only", "max_hops", "near_source"],
        readers: BOTH,
        summary: "Valiant: minimal to a random intermediate router, then to the destination; endpoints_only (intermediates with endpoints), max_hops, near_source (the source's neighbours unless the destination is one); vcs=hop (default), phase or single",
        source: "Besta & Hoefler, SC14, §IV-B, Kathareios et al., SC15, §3.2, §3.4",
        definition: Definition::Rule(|net, params, monitor| {
                let table = Arc::new(MinimalTable::build(net, monitor)?);
                Ok(Rule::from(valiant_from_params(net, table, params)?))
        }),
    },
];

/// Which of a link's parallel ports the routing named by `spec` takes (its `ports` reader key;
/// `Ports::Random` for routings the catalog defines by static paths or simulator tables),
/// without building it.
pub fn reading_ports(spec: &str) -> Result<Ports> {
    let spec = resolve_alias(spec, false)?;
    let sp = TopologySpec::parse(&spec)?;
    match find(&sp.family)?.definition {
        Definition::Rule(_) | Definition::Ugal { .. } => sp
            .params
            .get("ports")
            .map_or(Ok(Ports::Random), |v| Ports::parse(&v.to_string())),
        Definition::Paths(_) | Definition::Simulator => Ok(Ports::Random),
    }
}

/// A hop-by-hop routing and how the simulator reads it.
pub struct BuiltRule {
    pub rule: Arc<Rule>,
    pub reading: Reading,
}

/// Builds the hop-by-hop routing named by `spec` (an alias resolves to its definition), or
/// None when the catalog defines that name otherwise (static paths, a simulator table).
pub fn build_rule(net: &Network, spec: &str, monitor: &dyn Monitor) -> Result<Option<BuiltRule>> {
    let spec = resolve_alias(spec, false)?;
    let sp = TopologySpec::parse(&spec)?;
    let entry = find(&sp.family)?;
    super::degraded::check(net, &sp)?;
    let build = match entry.definition {
        Definition::Rule(build) => build,
        Definition::Ugal { .. } => ugal_rule as BuildRule,
        Definition::Paths(_) | Definition::Simulator => return Ok(None),
    };
    check_keys(&sp, &entry.keys())?;
    let mut rest = sp.params.clone();
    let mut take = |key: &str| rest.remove(key).map(|v| v.to_string());
    let select = take("select").map(|v| Select::parse(&v)).transpose()?;
    let ports = take("ports").map(|v| Ports::parse(&v)).transpose()?;
    let vc_split = take("vc_split").map(|v| VcSplit::parse(&v)).transpose()?;
    let params = Params::new(&sp.family, &rest);
    if matches!(entry.definition, Definition::Ugal { .. }) {
        UgalChoice::from_params(&params)?;
    }
    let rule = build(net, &params, monitor)?;
    let reading = Reading {
        select: select.unwrap_or_else(|| rule.default_select()),
        ports: ports.unwrap_or(Ports::Random),
        vc_split: vc_split.unwrap_or(VcSplit::Even),
    };
    Ok(Some(BuiltRule {
        rule: Arc::new(rule),
        reading,
    }))
}
