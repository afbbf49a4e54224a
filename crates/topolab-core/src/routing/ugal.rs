//! UGAL in the catalog: `ugal` (static analysis of the candidate union), `ugal_l` and `ugal_g`
//! (the simulator's source decision over the candidates), their parameters and the candidates
//! built from them. The candidate types are in `ugal_candidates.rs` and `dragonfly_ugal.rs`; the
//! decision is topolab-sim's `routing/ugal.rs`.

use super::catalog::{Definition, RoutingEntry, Rule, BOTH, STATIC};
use super::minimal::MinimalTable;
use super::ugal_candidates::{Ugal, UgalCandidates};
use super::valiant::{valiant_from_params, ENDPOINTS_ONLY, MAX_HOPS, NEAR_SOURCE, VALIANT_VCS};
use crate::error::{Result, TopolabError};
use crate::network::Network;
use crate::progress::Monitor;
use crate::spec::Params;
use crate::topology::{ParamDef, ParamKind};
use std::sync::Arc;

const PATHS: ParamDef = ParamDef {
    name: "paths",
    kind: ParamKind::Text,
    default: Some("shortest"),
    help: "shortest (minimal and Valiant over shortest paths) or dragonfly (BookSim2 dragonflynew's local-global-local paths)",
};
/// Valiant's `vcs`, with the two schemes of the Dragonfly paths.
const UGAL_VCS: ParamDef = ParamDef {
    help: "hop (VC class = hop), phase (class = Valiant phase) or single; with paths=dragonfly booksim (default: BookSim2's VC = phase, not deadlock-free) or group (4 VCs ordered along the path)",
    ..VALIANT_VCS
};

/// Parameters of `ugal` (static analysis): the candidates' paths and the Valiant part's.
pub const UGAL_STATIC_PARAMS: &[ParamDef] =
    &[PATHS, UGAL_VCS, ENDPOINTS_ONLY, MAX_HOPS, NEAR_SOURCE];

/// Parameters of the UGAL variants: the Valiant part's, then the source decision's (read by
/// the simulator: n random Valiant candidates, cost factor c, hop weighting, threshold in % of
/// the buffer).
pub const UGAL_PARAMS: &[ParamDef] = &[
    PATHS,
    UGAL_VCS,
    ENDPOINTS_ONLY,
    MAX_HOPS,
    NEAR_SOURCE,
    ParamDef {
        name: "n",
        kind: ParamKind::Int,
        default: Some("4"),
        help: "random Valiant candidates per packet",
    },
    ParamDef {
        name: "c",
        kind: ParamKind::Float,
        default: Some("1"),
        help: "cost factor of Valiant candidates",
    },
    ParamDef {
        name: "hops",
        kind: ParamKind::Bool,
        default: Some("the variant's"),
        help: "multiply queue costs by path length",
    },
    ParamDef {
        name: "threshold",
        kind: ParamKind::Float,
        default: Some("none"),
        help: "minimal while its first queue is below this percentage of the buffer",
    },
    ParamDef {
        name: "bias",
        kind: ParamKind::Float,
        default: Some("0"),
        help: "credits added to a Valiant candidate's cost",
    },
];

/// UGAL's source-decision parameters (the simulator applies them; static analysis validates
/// them so that one spec string is accepted or refused alike by both).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct UgalChoice {
    /// Random Valiant candidates per packet (Besta & Hoefler, SC14, §IV-C: 4).
    pub n: u32,
    /// Cost factor of Valiant candidates (Kathareios et al., SC15, §3.3's c, or c_SF).
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

pub(crate) fn ugal_rule(net: &Network, params: &Params, monitor: &dyn Monitor) -> Result<Rule> {
    Ok(ugal_from_params(net, params, monitor)?.into())
}

/// The catalog entry of `ugal` (`catalog::ROUTINGS`).
pub const UGAL: RoutingEntry = RoutingEntry {
    name: "ugal",
    params: UGAL_STATIC_PARAMS,
    readers: STATIC,
    summary: "UGAL candidates min ∪ valiant (static analysis of the adaptive choice; simulate ugal_l or ugal_g)",
    source: "Besta & Hoefler, SC14, §IV-C",
    definition: Definition::Rule(ugal_rule),
};

/// The catalog entry of `ugal_g` (`catalog::ROUTINGS`).
pub const UGAL_G: RoutingEntry = RoutingEntry {
    name: "ugal_g",
    params: UGAL_PARAMS,
    readers: BOTH,
    summary: "UGAL-G: minimal or one of n (default 4) Valiant paths, least sum of queues along the path (global view); c, hops, threshold, bias as ugal_l; statically the candidate union",
    source: "Besta & Hoefler, SC14, §IV-C1",
    definition: Definition::Ugal { global: true },
};

/// The catalog entry of `ugal_l` (`catalog::ROUTINGS`).
pub const UGAL_L: RoutingEntry = RoutingEntry {
    name: "ugal_l",
    params: UGAL_PARAMS,
    readers: BOTH,
    summary: "UGAL-L: minimal or one of n (default 4) Valiant paths by first-queue x hops (hops=false: queue only), Valiant cost x c + bias; threshold=T: minimal while its queue < T% of the buffer; paths=dragonfly: BookSim2 dragonflynew's paths, vcs=booksim (its VC = phase, not deadlock-free) or group (4 VCs ordered along the path, deadlock-free); statically the candidate union",
    source: "Besta & Hoefler, SC14, §IV-C2, Kathareios et al., SC15, §3.3",
    definition: Definition::Ugal { global: false },
};
