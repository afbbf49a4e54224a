//! Permutation patterns and the shift patterns.
//!
//! Bit permutations (000 §V-B; definitions as in Dally & Towles, Table 9.1) need a power-of-two
//! number of addresses. 000 §V-B "artificially prevent[s] some endpoints from sending and
//! receiving": 8,192 of its ~10K endpoints are active, the power of two closest to (and below)
//! N. The paper does not say which endpoints stay active; topolab takes the lowest ids
//! 0 .. 2^b - 1 with 2^b the largest power of two <= N, so the active endpoints fill whole
//! routers from router 0 upwards. Transpose swaps the two halves of the address and needs an
//! even b: it uses the largest power of four <= N.
//!
//! Digit permutations (tornado, neighbor) act on every digit of a mixed-radix address, as
//! BookSim2's k-ary n-cube patterns do: tornado adds ceil(k/2) - 1 to a digit of radix k,
//! neighbor adds 1 (Dally & Towles, Table 9.1).

use super::{endpoint_offsets, pattern_rng, BitPattern, DestTable, Spec, Traffic, IDLE};
use rand::seq::SliceRandom;
use topolab_core::{Network, Result, TopolabError};

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

/// `tornado` / `neighbor`: digit permutations. Without `dims`, tori, meshes, HyperX and
/// hypercubes use their router coordinates (labels d0.. or b0..) and keep the endpoint's index
/// on its router; every other network is one ring of all endpoints. `dims=AxBxC` reads the
/// endpoint id as mixed-radix digits (A fastest) and moves every digit; endpoints past
/// A·B·C are idle.
pub(super) fn digits(s: &Spec, net: &Network, endpoints: u32) -> Result<Traffic> {
    let name = s.name;
    let step = |k: u64| -> u64 {
        if name == "tornado" {
            k.div_ceil(2).saturating_sub(1)
        } else {
            1
        }
    };
    let dest = if let Some(dims) = s.params().opt_list("dims", 1, u32::MAX as i64)? {
        let product = dims.iter().try_fold(1u64, |acc, &k| {
            acc.checked_mul(k as u64).filter(|&x| x <= endpoints as u64)
        });
        let Some(active) = product else {
            return Err(s.invalid(
                "dims",
                s.text("dims").unwrap_or_default(),
                &format!("sizes whose product is at most the {endpoints} endpoints"),
            ));
        };
        let mut dest = vec![IDLE; endpoints as usize];
        for (src, d) in dest.iter_mut().enumerate().take(active as usize) {
            *d = shift_digits(src as u64, &dims, step) as u32;
        }
        dest
    } else if let Some(grid) = RouterGrid::of(net)? {
        grid.endpoint_map(net, step)?
    } else {
        let n = endpoints as u64;
        (0..n).map(|src| ((src + step(n)) % n) as u32).collect()
    };
    Ok(Traffic::Table {
        name,
        dest: DestTable::new(dest),
    })
}

/// Adds `step(k)` to every digit of `x` written in the mixed radix `dims` (first fastest).
fn shift_digits(x: u64, dims: &[i64], step: impl Fn(u64) -> u64) -> u64 {
    let (mut rest, mut offset, mut out) = (x, 1u64, 0u64);
    for &k in dims {
        let k = k as u64;
        let digit = rest % k;
        rest /= k;
        out += offset * ((digit + step(k)) % k);
        offset *= k;
    }
    out
}

/// Router coordinates of a grid family (torus, mesh, hyperx: labels d0..; hypercube: b0..).
struct RouterGrid {
    dims: Vec<i64>,
    /// Router at each mixed-radix coordinate index (d0 fastest).
    router_at: Vec<u32>,
    /// Mixed-radix coordinate index of each router.
    index_of: Vec<u64>,
}

impl RouterGrid {
    fn of(net: &Network) -> Result<Option<RouterGrid>> {
        let fields = net.label_fields();
        // Grid coordinates, whatever the family: d0.. (tori, meshes, HyperX) or b0.. (hypercubes).
        let prefix = match fields.first().map(String::as_str) {
            Some("d0") => "d",
            Some("b0") => "b",
            _ => return Ok(None),
        };
        let grid_field = |(i, f): (usize, &String)| f == &format!("{prefix}{i}");
        if fields.is_empty() || !fields.iter().enumerate().all(grid_field) {
            return Ok(None);
        }
        let n = fields.len();
        let mut dims = vec![1i64; n];
        for r in 0..net.num_routers() {
            for (d, &c) in dims.iter_mut().zip(net.label(r)) {
                *d = (*d).max(c + 1);
            }
        }
        let cells: u64 = dims.iter().map(|&k| k as u64).product();
        let bad = || {
            TopolabError::InvalidNetwork(format!(
                "the {} labels do not form a complete coordinate grid",
                net.family()
            ))
        };
        if cells != net.num_routers() as u64 {
            return Err(bad());
        }
        let mut router_at = vec![IDLE; cells as usize];
        let mut index_of = Vec::with_capacity(net.num_routers());
        for r in 0..net.num_routers() {
            let (mut idx, mut stride) = (0u64, 1u64);
            for (&c, &k) in net.label(r).iter().zip(&dims) {
                if c < 0 {
                    return Err(bad());
                }
                idx += c as u64 * stride;
                stride *= k as u64;
            }
            if router_at[idx as usize] != IDLE {
                return Err(bad());
            }
            router_at[idx as usize] = r as u32;
            index_of.push(idx);
        }
        Ok(Some(RouterGrid {
            dims,
            router_at,
            index_of,
        }))
    }

    /// Endpoint j of router r goes to endpoint j of the router at r's shifted coordinates.
    fn endpoint_map(&self, net: &Network, step: impl Fn(u64) -> u64 + Copy) -> Result<Vec<u32>> {
        let offsets = endpoint_offsets(net);
        let mut dest = vec![IDLE; *offsets.last().unwrap_or(&0) as usize];
        for r in 0..net.num_routers() {
            let target = self.router_at[shift_digits(self.index_of[r], &self.dims, step) as usize];
            let (src_lo, src_hi) = (offsets[r], offsets[r + 1]);
            let tgt_lo = offsets[target as usize];
            let tgt_n = offsets[target as usize + 1] - tgt_lo;
            for (j, e) in (src_lo..src_hi).enumerate() {
                if (j as u32) < tgt_n {
                    dest[e as usize] = tgt_lo + j as u32;
                }
            }
        }
        Ok(dest)
    }
}

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

/// `shift`: without k, 000 §V-B's pattern: s sends to `s mod n/2` or `s mod n/2 + n/2`, each
/// with probability 1/2. With `k=K`, 001 §4.2's shift: s sends to `(s + K) mod n`. `active`
/// chooses the n endpoints taking part: `all` (default; the largest even count for the
/// random pattern) or `pow2` (the power-of-two subset of the bit patterns, as 000 §V-B's
/// paragraph on bit permutations describes).
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
