//! Hot-spot traffic: with probability `fraction` a packet goes to one of a few hot endpoints
//! (uniformly among them), otherwise to an endpoint drawn uniformly from all of them. With
//! `fraction=1` this is BookSim2's `hotspot` with equal rates.

use super::PatternDef;
use super::{Spec, Traffic};
use crate::topology::{ParamDef, ParamKind};
use crate::Result;
use std::sync::Arc;

/// Fraction of packets sent to the hot spots when the spec does not say.
pub const DEFAULT_FRACTION: f64 = 0.1;

/// `hotspot:fraction=F,spots=S` or `hotspot:fraction=F,at=AxBxC`. Without `at` the S hot spots
/// (default 1) are spread evenly: spot i is endpoint floor((2i + 1)·N / (2S)), the middle of the
/// i-th of S equal blocks of endpoint ids.
pub(super) fn parse(s: &Spec, endpoints: u32) -> Result<Traffic> {
    let p = s.params();
    let fraction = p
        .opt_float("fraction", 0.0, 1.0)?
        .unwrap_or(DEFAULT_FRACTION);
    let spots: Vec<u32> = match p.opt_list("at", 0, endpoints as i64 - 1)? {
        Some(at) => {
            if p.has("spots") {
                return Err(s.invalid(
                    "spots",
                    s.text("spots").unwrap_or_default(),
                    "not together with 'at' (the hot spots are the endpoints listed in 'at')",
                ));
            }
            let mut at: Vec<u32> = at.into_iter().map(|e| e as u32).collect();
            at.sort_unstable();
            if at.windows(2).any(|w| w[0] == w[1]) {
                return Err(s.invalid(
                    "at",
                    s.text("at").unwrap_or_default(),
                    "distinct endpoint ids",
                ));
            }
            at
        }
        None => {
            let count = p.opt_u32("spots", 1, endpoints)?.unwrap_or(1) as u64;
            let n = endpoints as u64;
            (0..count)
                .map(|i| ((2 * i + 1) * n / (2 * count)) as u32)
                .collect()
        }
    };
    Ok(Traffic::Hotspot {
        endpoints,
        fraction,
        spots: Arc::from(spots),
    })
}

/// Hot-spot traffic.
pub const HOTSPOT: PatternDef = PatternDef {
    name: "hotspot",
    aliases: &["hot_spot"],
    params: &[
        ParamDef {
            name: "fraction",
            kind: ParamKind::Float,
            default: Some("0.1"),
            help: "fraction of packets sent to the hot spots",
        },
        ParamDef {
            name: "spots",
            kind: ParamKind::Int,
            default: Some("1"),
            help: "hot spots, spread evenly over the endpoint ids",
        },
        ParamDef {
            name: "at",
            kind: ParamKind::Dims,
            default: Some("none"),
            help: "the hot endpoints, ids written AxBxC (instead of spots)",
        },
    ],
    build: |s, _, endpoints| parse(s, endpoints),
};
