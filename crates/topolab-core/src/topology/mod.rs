//! Topology families: one file per family, each exporting a `Family` table that declares its
//! parameters (with defaults and meaning) and its builder. The registry below is the one place
//! that lists them; parsing, validation, `topolab list` and the docs all read these tables.

use crate::error::{Result, TopolabError};
use crate::network::Network;
use crate::spec::{Params, TopologySpec};

pub mod dln;
pub mod dragonfly;
pub mod fattree;
pub mod hypercube;
pub mod hyperx;
pub mod imase;
pub mod jellyfish;
pub mod kautz;
pub mod mddp;
pub mod mlfm;
pub mod oft;
pub mod product;
pub mod random_directed;
pub mod skywalk;
pub mod slimfly;
pub mod torus;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ParamKind {
    Int,
    Float,
    Bool,
    /// Integers written `4x8x8`.
    Dims,
    /// A nested topology spec.
    Spec,
}

impl ParamKind {
    pub fn name(self) -> &'static str {
        match self {
            ParamKind::Int => "int",
            ParamKind::Float => "float",
            ParamKind::Bool => "bool",
            ParamKind::Dims => "dims",
            ParamKind::Spec => "spec",
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
}

/// Every registered family, in the order `topolab list` shows them.
pub fn families() -> &'static [Family] {
    static FAMILIES: [Family; 18] = [
        slimfly::FAMILY,
        dragonfly::FAMILY,
        fattree::FAMILY,
        hyperx::FAMILY,
        torus::TORUS,
        torus::MESH,
        hypercube::FAMILY,
        jellyfish::FAMILY,
        dln::FAMILY,
        mlfm::FAMILY,
        oft::FAMILY,
        kautz::KAUTZ,
        kautz::DEBRUIJN,
        imase::FAMILY,
        random_directed::FAMILY,
        mddp::FAMILY,
        skywalk::FAMILY,
        product::FAMILY,
    ];
    &FAMILIES
}

/// The family called `name` (or one of its aliases), case-insensitively.
pub fn find_family(name: &str) -> Result<&'static Family> {
    let lower = name.to_ascii_lowercase();
    families()
        .iter()
        .find(|f| f.name == lower || f.aliases.contains(&lower.as_str()))
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
    let params = Params::new(family.name, &spec.params);
    let net = (family.build)(&params)?;
    let canonical = TopologySpec {
        family: family.name.to_string(),
        params: spec.params.clone(),
    };
    Ok(net.with_spec(family.name, &canonical.to_string()))
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
