//! The shift patterns: Besta & Hoefler, SC14, §V-B's random choice between the two halves, and
//! Kathareios et al., SC15, §4.2's shift by k.

use super::bits::floor_log2;
use super::PatternDef;
use super::{DestTable, Spec, Traffic, IDLE};
use crate::topology::{ParamDef, ParamKind};
use crate::Result;

/// `shift`: without k, Besta & Hoefler, SC14, §V-B's pattern: s sends to `s mod n/2` or
/// `s mod n/2 + n/2`, each with probability 1/2. With `k=K`, Kathareios et al., SC15, §4.2's
/// shift: s sends to `(s + K) mod n`. `active` chooses the n endpoints taking part: `all`
/// (default; the largest even count for the random pattern) or `pow2` (the power-of-two subset of
/// the bit patterns, as Besta & Hoefler, SC14, §V-B's paragraph on bit permutations describes).
pub(super) fn shift(s: &Spec, endpoints: u32) -> Result<Traffic> {
    let active = match s.text("active").as_deref() {
        None | Some("all") => endpoints,
        Some("pow2") => 1 << floor_log2(endpoints),
        Some(other) => return Err(s.invalid("active", format!("'{other}'"), "all or pow2")),
    };
    match s.params().opt_int("k", i64::MIN, i64::MAX)? {
        None => {
            let half = active / 2;
            if half == 0 {
                return Err(s.invalid(
                    "active",
                    active,
                    "at least 2 active endpoints (the shift pattern sends between two halves)",
                ));
            }
            Ok(Traffic::HalfShift { half })
        }
        Some(k) if k >= 1 && k < active as i64 => {
            let mut dest = vec![IDLE; endpoints as usize];
            for (src, d) in dest.iter_mut().enumerate().take(active as usize) {
                *d = ((src as u64 + k as u64) % active as u64) as u32;
            }
            Ok(Traffic::Table {
                name: "shift",
                dest: DestTable::new(dest),
            })
        }
        Some(k) => Err(s.invalid(
            "k",
            k,
            &format!(
                "an integer from 1 to {} (the {active} active endpoints minus one)",
                active as i64 - 1
            ),
        )),
    }
}

/// The shift patterns.
pub const SHIFT: PatternDef = PatternDef {
    name: "shift",
    aliases: &[],
    params: &[
        ParamDef {
            name: "k",
            kind: ParamKind::Int,
            default: Some("none (the random half shift)"),
            help: "send to (s + k) mod n",
        },
        ParamDef {
            name: "active",
            kind: ParamKind::Text,
            default: Some("all"),
            help: "all or pow2: the endpoints taking part",
        },
    ],
    build: |s, _, endpoints| shift(s, endpoints),
};
