//! Bit permutations (Besta & Hoefler, SC14, §V-B; definitions as in Dally & Towles, Table 9.1): bit
//! complement, bit reverse, perfect shuffle, rotation and transpose. They need a power-of-two
//! number of addresses. Besta & Hoefler, SC14, §V-B "artificially prevent[s] some endpoints from
//! sending and receiving": 8,192 of its ~10K endpoints are active, the power of two closest to (and
//! below) N. The paper does not say which endpoints stay active; topolab takes the lowest ids
//! 0 .. 2^b - 1 with 2^b the largest power of two <= N, so the active endpoints fill whole
//! routers from router 0 upwards. Transpose swaps the two halves of the address and needs an
//! even b: it uses the largest power of four <= N.

use super::PatternDef;
use super::{BitPattern, Spec, Traffic};
use crate::topology::{ParamDef, ParamKind};
use crate::Result;
/// log2 of the largest power of two <= n (n >= 1).
pub(crate) fn floor_log2(n: u32) -> u32 {
    31 - n.leading_zeros()
}

/// A bit permutation on the largest power-of-two subset (largest power of four for transpose).
pub(super) fn bits(pattern: BitPattern, endpoints: u32) -> Traffic {
    let mut bits = floor_log2(endpoints);
    if pattern == BitPattern::Transpose {
        bits &= !1;
    }
    Traffic::Bits { pattern, bits }
}

/// `rotation:k=K`: rotate the address right by K bits (default 1).
pub(super) fn rotation(s: &Spec, endpoints: u32) -> Result<Traffic> {
    let bits = floor_log2(endpoints);
    let max = bits.saturating_sub(1).max(1) as i64;
    let k = match s.params().opt_int("k", i64::MIN, i64::MAX)? {
        None => 1,
        Some(k) if (1..=max).contains(&k) => k as u32,
        Some(k) => {
            return Err(s.invalid(
                "k",
                k,
                &format!(
                    "an integer from 1 to b - 1 = {max} (b = {bits} address bits of the {} active endpoints)",
                    1u64 << bits
                ),
            ))
        }
    };
    Ok(Traffic::Bits {
        pattern: BitPattern::Rotation(k),
        bits,
    })
}

/// Destination of `src` under a bit permutation on `bits`-bit addresses.
#[inline]
pub(super) fn bit_destination(pattern: BitPattern, bits: u32, src: u32) -> Option<u32> {
    let size = 1u64 << bits;
    let s = src as u64;
    if s >= size {
        return None;
    }
    let mask = size - 1;
    let b = bits as u64;
    let d = match pattern {
        BitPattern::Complement => !s & mask,
        BitPattern::Reverse => {
            if bits == 0 {
                0
            } else {
                (src.reverse_bits() >> (32 - bits)) as u64
            }
        }
        BitPattern::Shuffle => {
            if bits == 0 {
                0
            } else {
                ((s << 1) | (s >> (b - 1))) & mask
            }
        }
        BitPattern::Rotation(k) => {
            if bits == 0 {
                0
            } else {
                let k = k as u64 % b;
                ((s >> k) | (s << (b - k))) & mask
            }
        }
        BitPattern::Transpose => {
            let half = b / 2;
            let lo = (1u64 << half) - 1;
            ((s >> half) & lo) | ((s & lo) << half)
        }
    };
    Some(d as u32)
}

/// Bit complement.
pub const BITCOMP: PatternDef = PatternDef {
    name: "bitcomp",
    aliases: &["bit_complement", "bitcomplement", "complement"],
    params: &[],
    build: |_, _, endpoints| Ok(bits(BitPattern::Complement, endpoints)),
};

/// Bit reverse.
pub const BITREV: PatternDef = PatternDef {
    name: "bitrev",
    aliases: &["bit_reverse", "bitreverse", "bit_reversal", "reverse"],
    params: &[],
    build: |_, _, endpoints| Ok(bits(BitPattern::Reverse, endpoints)),
};

/// Perfect shuffle.
pub const SHUFFLE: PatternDef = PatternDef {
    name: "shuffle",
    aliases: &["perfect_shuffle"],
    params: &[],
    build: |_, _, endpoints| Ok(bits(BitPattern::Shuffle, endpoints)),
};

/// Bit rotation.
pub const ROTATION: PatternDef = PatternDef {
    name: "rotation",
    aliases: &["bit_rotation", "bitrotation", "bitrot", "rotate"],
    params: &[ParamDef {
        name: "k",
        kind: ParamKind::Int,
        default: Some("1"),
        help: "bits to rotate the address right by, 1 to b - 1",
    }],
    build: |s, _, endpoints| rotation(s, endpoints),
};

/// Transpose (swap the address halves).
pub const TRANSPOSE: PatternDef = PatternDef {
    name: "transpose",
    aliases: &[],
    params: &[],
    build: |_, _, endpoints| Ok(bits(BitPattern::Transpose, endpoints)),
};
