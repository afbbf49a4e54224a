//! Topology families: one file per family, each exporting a `Family` table that declares what
//! the family is: its parameters (with defaults and meaning), its builder, its sizes in closed
//! form, its balance rule, the routings and worst-case traffic it is simulated with, how it is
//! placed on a floor and its design space (which parameters `topolab compare` tries and the
//! smaller members that stand in for a design in simulation; `design/`). The registry below
//! is the one place that lists them; parsing, validation, `topolab list`, the design
//! enumeration (through `_core`) and the docs all read these tables, so a new family is its
//! own file and one line in `families()`.

use crate::error::{Result, TopolabError};
use crate::network::Network;
use crate::spec::{Params, TopologySpec};

pub mod bdf;
pub mod bundlefly;
pub mod delorme;
pub mod design;
pub mod dln;
pub mod dragonfly;
pub mod dragonflyplus;
pub mod fattree;
pub mod hammingmesh;
pub mod hypercube;
pub mod hyperx;
pub mod imase;
pub mod jellyfish;
pub mod kautz;
pub mod longhop;
pub mod mapping;
pub mod mddp;
pub mod mlfm;
pub mod oft;
pub mod polarfly;
pub mod polarstar;
pub mod product;
pub mod random_directed;
pub mod skywalk;
pub mod slimfly;
pub mod spectralfly;
pub mod sspt;
pub mod star;
pub mod torus;
pub mod xpander;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ParamKind {
    Int,
    Float,
    Bool,
    /// Integers written `4x8x8`.
    Dims,
    /// A nested topology spec.
    Spec,
    /// A word from a set the parameter's help lists (`vcs=hop`), or a path.
    Text,
}

impl ParamKind {
    pub fn name(self) -> &'static str {
        match self {
            ParamKind::Int => "int",
            ParamKind::Float => "float",
            ParamKind::Bool => "bool",
            ParamKind::Dims => "dims",
            ParamKind::Spec => "spec",
            ParamKind::Text => "text",
        }
    }
}

#[derive(Debug, Clone, Copy)]
pub struct ParamDef {
    pub name: &'static str,
    pub kind: ParamKind,
    /// The default as a user would read it ("ceil(k'/2)"); None when the parameter is required.
    pub default: Option<&'static str>,
    pub help: &'static str,
}

#[derive(Debug, Clone, Copy)]
pub struct Family {
    pub name: &'static str,
    pub aliases: &'static [&'static str],
    pub summary: &'static str,
    /// Paper and section the construction follows.
    pub source: &'static str,
    pub directed: bool,
    pub params: &'static [ParamDef],
    pub build: fn(&Params) -> Result<Network>,
    /// A small spec that builds quickly, for examples and smoke tests.
    pub example: &'static str,
    /// Specs the sizes test builds against `sizes` (tests/topo/topo_sizes.rs), besides
    /// `example`: uneven shapes, non-default widths and concentrations, the family's variants
    /// (cabinet parameters, fewer groups or pods, oversubscribed leaves). At least one.
    pub samples: &'static [&'static str],
    /// The name a report shows ("Slim Fly").
    pub display_name: &'static str,
    /// Sizes and balance from the parameters alone, without building; fails exactly where
    /// `build` rejects a parameter.
    pub sizes: fn(&Params) -> Result<Sizes>,
    pub routing: FamilyRouting,
    pub placement: FamilyPlacement,
    /// What the design comparison tries of this family and which smaller members stand in
    /// for a design in simulation (`design::DesignSpace`); None: not enumerated.
    pub design: Option<design::DesignSpace>,
}

crate::result_type! {
/// What a family's parameters give, in closed form: the network a spec describes, sized
/// without building it.
#[python = "FamilySizes"]
pub struct Sizes {
    pub routers: u64,
    pub endpoints: u64,
    /// Ports of the busiest router: links (counting width) plus endpoints.
    pub radix: u32,
    /// Router-to-router ports of the busiest router (out-ports when directed).
    pub network_radix: u32,
    /// p: endpoints per endpoint-carrying router.
    pub concentration: u32,
    /// The p at which the family's balance rule is met exactly: injection equals what the
    /// network carries under uniform traffic (docs/compare.md §1).
    /// Infinite for a network that carries no router-to-router traffic (one router), NaN in
    /// Python (JSON has no infinity).
    pub balanced_concentration: f64,
    /// Injection over what the network carries under uniform traffic (1 = balanced, above 1
    /// oversubscribed); p / balanced_concentration except where the family says otherwise.
    pub load: f64,
    /// The construction may leave ports free, so `radix` and `network_radix` are upper bounds.
    pub radix_is_bound: bool,
}
}

// Sizes are a handful of numbers, passed by value.
impl Copy for Sizes {}

impl Sizes {
    /// A direct network: every router carries p endpoints, load p / balanced.
    pub fn direct(routers: u128, network_radix: u32, p: u32, balanced: f64) -> Sizes {
        Sizes {
            routers: routers as u64,
            endpoints: (routers * p as u128) as u64,
            radix: network_radix + p,
            network_radix,
            concentration: p,
            balanced_concentration: balanced,
            load: p as f64 / balanced,
            radix_is_bound: false,
        }
    }
}

/// The routings a family has of its own (beside those every network takes: min, valiant,
/// ugal_l, ...) and what `compare --simulate` runs on it.
#[derive(Debug, Clone, Copy)]
pub struct FamilyRouting {
    /// Routings that need this family's structure (labels), e.g. `torus_dor`.
    pub specific: &'static [&'static str],
    /// None: the family is not simulated by the design comparison.
    pub simulation: Option<SimulationChoice>,
}

/// The routing for uniform traffic, the family's worst-case pattern (docs/traffic.md) and the
/// routing for it: the best the simulator offers for the family today.
#[derive(Debug, Clone, Copy)]
pub struct SimulationChoice {
    pub uniform_routing: &'static str,
    pub worst_traffic: &'static str,
    pub worst_routing: &'static str,
    /// Why this worst case, when it is not the family's own adversarial pattern.
    pub note: &'static str,
}

impl SimulationChoice {
    pub const fn new(
        uniform: &'static str,
        worst_traffic: &'static str,
        worst: &'static str,
    ) -> Self {
        SimulationChoice {
            uniform_routing: uniform,
            worst_traffic,
            worst_routing: worst,
            note: "",
        }
    }

    pub const fn noted(self, note: &'static str) -> Self {
        SimulationChoice { note, ..self }
    }
}

/// Families `compare --simulate` does not run and with no routing of their own.
pub const NOT_SIMULATED: FamilyRouting = FamilyRouting {
    specific: &[],
    simulation: None,
};

/// Random graphs: no routing of their own, and no structural worst case, so a random
/// permutation stands in for one.
pub const RANDOM_GRAPH_ROUTING: FamilyRouting = FamilyRouting {
    specific: &[],
    simulation: Some(
        SimulationChoice::new("min", "randperm", "min")
            .noted("no structural worst case: a random permutation"),
    ),
};

/// How the `family` placement rule puts a family's routers into cabinets
/// (`physical::placement`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FamilyPlacement {
    /// Routers sharing the value of label `field` share a cabinet; `what` says why (the
    /// placement's description) and `structure` names it when `per_cabinet` is refused.
    Grouped {
        field: &'static str,
        what: &'static str,
        structure: &'static str,
    },
    /// Pods, then spines (`physical::placement::fat_tree`).
    FatTree,
    /// Index order with one `d0` line (its size) per cabinet unless `per_cabinet` is given.
    FirstDimension { what: &'static str },
    /// Index order, `per_cabinet` or the floor's routers per cabinet.
    Sequential { what: &'static str },
}

/// The placement of families with no structure to follow (and of imported networks).
pub const ARBITRARY_PLACEMENT: FamilyPlacement = FamilyPlacement::Sequential {
    what: "arbitrary: index order (Fujiwara et al., IPDPS 2014, §III-A, Random)",
};

/// Every registered family, in the order `topolab list` and the design comparison show them:
/// structured direct, indirect, random, products, directed.
pub fn families() -> &'static [Family] {
    // A slice, so that registering a family is one added line (no array length to bump).
    static FAMILIES: &[Family] = &[
        slimfly::FAMILY,
        polarfly::FAMILY,
        bdf::FAMILY,
        bundlefly::FAMILY,
        polarstar::FAMILY,
        dragonfly::FAMILY,
        dragonflyplus::FAMILY,
        fattree::FAMILY,
        hammingmesh::FAMILY,
        hyperx::FAMILY,
        torus::TORUS,
        torus::MESH,
        hypercube::FAMILY,
        longhop::FAMILY,
        delorme::FAMILY,
        mlfm::FAMILY,
        oft::FAMILY,
        sspt::FAMILY,
        jellyfish::FAMILY,
        dln::FAMILY,
        spectralfly::FAMILY,
        xpander::FAMILY,
        skywalk::FAMILY,
        product::FAMILY,
        kautz::KAUTZ,
        kautz::DEBRUIJN,
        imase::FAMILY,
        mddp::FAMILY,
        random_directed::FAMILY,
    ];
    FAMILIES
}

/// The family called `name` (or one of its aliases), spelled as `canonical_name` reads it.
pub fn find_family(name: &str) -> Result<&'static Family> {
    let key = crate::spec::canonical_name(name);
    families()
        .iter()
        .find(|f| f.name == key || f.aliases.contains(&key.as_str()))
        .ok_or_else(|| TopolabError::UnknownFamily {
            name: name.to_string(),
            valid: families()
                .iter()
                .map(|f| f.name)
                .collect::<Vec<_>>()
                .join(", "),
        })
}

/// Builds the network a spec describes, after rejecting parameters the family does not have.
pub fn build(spec: &TopologySpec) -> Result<Network> {
    let family = checked_family(spec)?;
    let params = Params::new(family.name, &spec.params);
    let net = (family.build)(&params)?;
    let canonical = TopologySpec {
        family: family.name.to_string(),
        params: spec.params.clone(),
    };
    Ok(net.with_spec(family.name, &canonical.to_string()))
}

/// The family of `spec`, after rejecting parameters it does not have.
fn checked_family(spec: &TopologySpec) -> Result<&'static Family> {
    let family = find_family(&spec.family)?;
    for key in spec.params.keys() {
        if !family.params.iter().any(|p| p.name == key) {
            return Err(TopolabError::UnknownParameter {
                context: family.name.to_string(),
                param: key.clone(),
                valid: family
                    .params
                    .iter()
                    .map(|p| p.name)
                    .collect::<Vec<_>>()
                    .join(", "),
            });
        }
    }
    Ok(family)
}

/// Ok when `net`'s family declares `routing` among its own (`FamilyRouting::specific`): for a
/// routing whose structure the labels alone do not tell apart (a 3 x 3 HyperX is a 3 x 3
/// torus graph, but `torus_dor` is defined on rings). The error names the families that do.
pub fn require_declared(net: &Network, routing: &str) -> Result<()> {
    let declares = |f: &Family| f.routing.specific.contains(&routing);
    if find_family(net.family()).is_ok_and(declares) {
        return Ok(());
    }
    let with: Vec<&str> = families()
        .iter()
        .filter(|f| declares(f))
        .map(|f| f.name)
        .collect();
    Err(TopolabError::InvalidNetwork(format!(
        "routing {routing} is defined on {} networks (the families that declare it); this network is '{}'",
        with.join(" or "),
        net.family()
    )))
}

/// The closed-form sizes of the network a spec describes, without building it.
pub fn sizes(spec: &TopologySpec) -> Result<Sizes> {
    let family = checked_family(spec)?;
    (family.sizes)(&Params::new(family.name, &spec.params))
}

/// `sizes` from a spec string such as `slimfly:q=19,p=15`.
pub fn sizes_str(spec: &str) -> Result<Sizes> {
    sizes(&TopologySpec::parse(spec)?)
}

/// Balanced concentration of Besta & Hoefler, SC14, §II-B2, p = k' N_r / (sum of distances from a
/// router to all N_r routers): p endpoints' uniform traffic exactly fills a router's k' channels.
/// The distances are those of full BFS layers (the Moore bound: d, d(d-1), ... undirected; d, d^2,
/// ... directed), exact for diameter-2 graphs such as Slim Fly and an optimistic estimate for
/// random graphs, whose balance rule this is.
pub fn moore_balance(degree: u32, routers: u64, directed: bool) -> f64 {
    let (mut remaining, mut total, mut layer, mut dist) =
        (routers as u128 - 1, 0u128, degree as u128, 1u128);
    while remaining > 0 {
        if layer == 0 {
            return 0.0;
        }
        let n = layer.min(remaining);
        total += dist * n;
        remaining -= n;
        dist += 1;
        layer = layer.saturating_mul(if directed {
            degree as u128
        } else {
            degree as u128 - 1
        });
    }
    if total == 0 {
        return f64::INFINITY;
    }
    (degree as u128 * routers as u128) as f64 / total as f64
}

/// `build` from a spec string such as `slimfly:q=19,p=15`.
pub fn build_str(spec: &str) -> Result<Network> {
    build(&TopologySpec::parse(spec)?)
}

/// The `p` (endpoints per router) parameter shared by most families.
pub const P_PARAM_MAX: u32 = 1 << 16;

/// The usual seed parameter of random families.
pub const SEED_PARAM: ParamDef = ParamDef {
    name: "seed",
    kind: ParamKind::Int,
    default: Some("0"),
    help: "construction seed; the same seed gives the same network",
};

/// Largest network any generator builds: beyond this the memory of the link arrays alone would
/// exceed what a workstation has, so a bigger request is almost certainly a typo.
pub const MAX_ROUTERS: u128 = 1 << 24;
pub const MAX_LINKS: u128 = 1 << 26;

/// Rejects parameters that would build an unreasonably large network, naming `param`.
pub fn ensure_size(
    p: &Params,
    param: &str,
    value: impl ToString,
    routers: u128,
    links: u128,
) -> Result<()> {
    let value = value.to_string();
    if routers > MAX_ROUTERS || links > MAX_LINKS {
        // A family checks the router count alone before computing the link count from it
        // (links = 0 here): then there is no link count to report.
        let gives = if links == 0 {
            format!("{routers} routers")
        } else {
            format!("{routers} routers, {links} links")
        };
        return Err(p.invalid(
            param,
            &value,
            &format!(
                "a value giving at most {MAX_ROUTERS} routers and {MAX_LINKS} links (this one gives {gives})"
            ),
        ));
    }
    crate::resources::ensure_memory(
        p.family(),
        param,
        value,
        "network",
        crate::resources::network_bytes(routers, links),
    )
}

/// The `p` parameter definition with a family-specific default text.
pub const fn p_param(default: &'static str) -> ParamDef {
    ParamDef {
        name: "p",
        kind: ParamKind::Int,
        default: Some(default),
        help: "endpoints attached to each (endpoint-carrying) router",
    }
}

/// Reads `p`, falling back to `default`.
pub fn read_p(p: &Params, default: u32) -> Result<u32> {
    Ok(p.opt_u32("p", 0, P_PARAM_MAX)?.unwrap_or(default))
}
