//! Digit permutations (tornado, neighbor) act on every digit of a mixed-radix address, as
//! BookSim2's k-ary n-cube patterns do: tornado adds ceil(k/2) - 1 to a digit of radix k,
//! neighbor adds 1 (Dally & Towles, Table 9.1).

use super::PatternDef;
use super::{endpoint_offsets, DestTable, Spec, Traffic, IDLE};
use crate::topology::{ParamDef, ParamKind};
use crate::{Network, Result, TopolabError};

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

/// Tornado: ceil(k/2) - 1 along every digit of radix k.
pub const TORNADO: PatternDef = PatternDef {
    name: "tornado",
    aliases: &[],
    params: &[ParamDef {
        name: "dims",
        kind: ParamKind::Dims,
        default: Some("the network's grid, else one ring"),
        help: "read endpoint ids as mixed-radix digits AxBxC (A fastest)",
    }],
    build: digits,
};

/// Neighbor: +1 along every digit.
pub const NEIGHBOR: PatternDef = PatternDef {
    name: "neighbor",
    aliases: &["neighbour"],
    params: &[ParamDef {
        name: "dims",
        kind: ParamKind::Dims,
        default: Some("the network's grid, else one ring"),
        help: "read endpoint ids as mixed-radix digits AxBxC (A fastest)",
    }],
    build: digits,
};
