//! The random permutation: every endpoint sends to one other, drawn once from the pattern's
//! own seed.

use super::PatternDef;
use super::{pattern_rng, DestTable, Spec, Traffic};
use crate::topology::{ParamDef, ParamKind};
use crate::Result;
use rand::seq::SliceRandom;

/// `randperm:seed=S`: a uniformly random permutation of all endpoints (fixed points allowed),
/// drawn by Fisher-Yates from the pattern's own seed (default 0).
pub(super) fn randperm(s: &Spec, endpoints: u32) -> Result<Traffic> {
    let seed = s.params().seed()?;
    let mut dest: Vec<u32> = (0..endpoints).collect();
    dest.shuffle(&mut pattern_rng(seed, 0));
    Ok(Traffic::Table {
        name: "randperm",
        dest: DestTable::new(dest),
    })
}

/// A random permutation of the endpoints.
pub const RANDPERM: PatternDef = PatternDef {
    name: "randperm",
    aliases: &["random_permutation", "perm"],
    params: &[ParamDef {
        name: "seed",
        kind: ParamKind::Int,
        default: Some("0"),
        help: "the permutation's own seed",
    }],
    build: |s, _, endpoints| randperm(s, endpoints),
};
