//! Failure sets: which cables and routers of a network are dead, and the network that survives.
//!
//! A failure spec uses the spec syntax of topologies (`kind:key=value,...`); several sets are
//! joined with `+` and fail together (`links:fraction=0.05,seed=1+router:id=3`). The kinds:
//!
//! - `links` / `routers`: a random fraction of the cables or routers (`random.rs`), drawn from
//!   `rng::stream(seed, Stream::Failures, ...)`;
//! - `file`: an explicit list of links and routers, by router id or label (`explicit.rs`);
//! - `bundle`, `cabinet`, `tray`, `router`: correlated failures taken from the structure and the
//!   floor plan (`correlated.rs`): every cable between two router groups, every cable or router
//!   of one cabinet, every cable laid in one overhead tray, one router with its endpoints.
//!
//! `apply` parses the spec once, marks what fails and keeps the connected component (strongly
//! connected when directed) that holds the most endpoints (`survivors.rs`). The endpoints of
//! failed routers and of every other component are cut off: the result lists them, and the
//! surviving network carries only the endpoints that can still reach each other, so traffic to
//! or from a cut-off endpoint is excluded by construction and its share is reported
//! (`Degraded::excluded_pair_fraction`), never dropped during a run.

mod correlated;
mod explicit;
mod random;
mod survivors;

use crate::error::{quote, Result, TopolabError};
use crate::network::Network;
use crate::spec::{Params, TopologySpec};
use crate::topology::{ParamDef, ParamKind};
use serde::Serialize;

pub use survivors::Degraded;

/// One kind of failure set: its name, what it fails and its declared parameters.
#[derive(Debug, Clone, Copy)]
pub struct FailureKind {
    pub name: &'static str,
    pub summary: &'static str,
    pub params: &'static [ParamDef],
    parse: fn(&Params) -> Result<FailureSet>,
}

/// Every kind of failure set, by name.
pub const FAILURE_KINDS: &[FailureKind] = &[
    random::LINKS,
    random::ROUTERS,
    explicit::FILE,
    correlated::BUNDLE,
    correlated::CABINET,
    correlated::TRAY,
    correlated::ROUTER,
];

/// One failure set, its parameters read and checked.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub enum FailureSet {
    RandomLinks {
        fraction: f64,
        seed: u64,
    },
    RandomRouters {
        fraction: f64,
        seed: u64,
    },
    File {
        path: String,
    },
    Bundle {
        a: i64,
        b: i64,
        field: String,
        class: Option<String>,
    },
    Cabinet {
        id: u32,
        floor: String,
        what: CabinetPart,
    },
    Tray {
        floor: String,
        line: TrayLine,
    },
    Router {
        id: u32,
    },
}

/// One overhead cable tray of the floor plan: the one along a row of cabinets or the one
/// along a column (`correlated::tray` says which cables each carries).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum TrayLine {
    Row(u32),
    Column(u32),
}

/// What of a cabinet fails: the cables leaving it (a cut bundle) or its routers (power lost).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum CabinetPart {
    Cables,
    Routers,
}

/// A parsed failure spec: the union of its sets.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FailureSpec {
    pub text: String,
    pub sets: Vec<FailureSet>,
}

/// What fails, on the original network: cables lost per link (at most its width) and routers.
#[derive(Debug, Clone, PartialEq)]
pub struct Failed {
    pub cables: Vec<u32>,
    pub routers: Vec<bool>,
}

impl Failed {
    pub fn none(net: &Network) -> Failed {
        Failed {
            cables: vec![0; net.links().len()],
            routers: vec![false; net.num_routers()],
        }
    }

    /// The whole link `l` fails (every parallel cable).
    pub fn link(&mut self, net: &Network, l: usize) {
        self.cables[l] = net.links()[l].width;
    }
}

impl FailureSpec {
    /// Parses `kind:key=value,...[+kind:...]`, reading and checking every parameter.
    pub fn parse(text: &str) -> Result<FailureSpec> {
        let mut sets = Vec::new();
        for part in text.split('+') {
            let part = part.trim();
            if part.is_empty() {
                return Err(TopolabError::SpecSyntax {
                    spec: quote(text),
                    reason: "an empty failure set (sets are joined with '+')".into(),
                });
            }
            let sp = TopologySpec::parse(part)?;
            let kind = find_kind(&sp.family)?;
            let context = format!("failures '{}'", kind.name);
            for key in sp.params.keys() {
                if !kind.params.iter().any(|p| p.name == key) {
                    return Err(TopolabError::UnknownParameter {
                        context,
                        param: key.clone(),
                        valid: kind
                            .params
                            .iter()
                            .map(|p| p.name)
                            .collect::<Vec<_>>()
                            .join(", "),
                    });
                }
            }
            sets.push((kind.parse)(&Params::new(&context, &sp.params))?);
        }
        Ok(FailureSpec {
            text: text.trim().to_string(),
            sets,
        })
    }

    /// What the sets fail on `net`, together.
    pub fn select(&self, net: &Network) -> Result<Failed> {
        let mut failed = Failed::none(net);
        for set in &self.sets {
            match set {
                FailureSet::RandomLinks { fraction, seed } => {
                    random::links(net, *fraction, *seed, &mut failed)
                }
                FailureSet::RandomRouters { fraction, seed } => {
                    random::routers(net, *fraction, *seed, &mut failed)
                }
                FailureSet::File { path } => explicit::from_file(net, path, &mut failed)?,
                FailureSet::Bundle { a, b, field, class } => {
                    correlated::bundle(net, *a, *b, field, class.as_deref(), &mut failed)?
                }
                FailureSet::Cabinet { id, floor, what } => {
                    correlated::cabinet(net, *id, floor, *what, &mut failed)?
                }
                FailureSet::Tray { floor, line } => {
                    correlated::tray(net, floor, *line, &mut failed)?
                }
                FailureSet::Router { id } => correlated::router(net, *id, &mut failed)?,
            }
        }
        Ok(failed)
    }
}

/// The kind named `name`, or an error listing the kinds.
pub fn find_kind(name: &str) -> Result<&'static FailureKind> {
    FAILURE_KINDS
        .iter()
        .find(|k| k.name == name)
        .ok_or_else(|| {
            TopolabError::invalid(
                "failures",
                "kind",
                name,
                FAILURE_KINDS
                    .iter()
                    .map(|k| k.name)
                    .collect::<Vec<_>>()
                    .join(", "),
            )
        })
}

/// The network that survives the failure spec `text` on `net`, and what was lost.
pub fn apply(net: &Network, text: &str) -> Result<Degraded> {
    let spec = FailureSpec::parse(text)?;
    let failed = spec.select(net)?;
    survivors::survive(net, &failed, &spec.text)
}

/// A required fraction in [0, 1].
fn fraction(params: &Params) -> Result<f64> {
    match params.opt_float("fraction", 0.0, 1.0)? {
        Some(f) => Ok(f),
        None => Err(TopolabError::MissingParameter {
            context: params.family().to_string(),
            param: "fraction".into(),
            help: "the share of them that fails, from 0 to 1".into(),
        }),
    }
}

const FRACTION: ParamDef = ParamDef {
    name: "fraction",
    kind: ParamKind::Float,
    default: None,
    help: "share that fails, 0 to 1 (rounded to a whole number of them)",
};

const SEED: ParamDef = ParamDef {
    name: "seed",
    kind: ParamKind::Int,
    default: Some("0"),
    help: "random seed (rng stream 'failures')",
};
