//! HyperX / FlatFly / flattened butterfly: the Cartesian product of complete graphs
//! (001 §2.1.1, 003 §1.2). Dimension n has K_n routers joined all-to-all by links of width L_n,
//! so the network radix is sum L_n (K_n - 1) and the diameter is the number of dimensions with
//! K_n > 1 (003 §1.2). Coordinates and router numbering are the torus grid's (d0 fastest).

use super::torus::Grid;
use super::{p_param, read_p, Family, ParamDef, ParamKind};
use crate::error::Result;
use crate::network::Network;
use crate::spec::Params;

pub const FAMILY: Family = Family {
    name: "hyperx",
    aliases: &["flatfly", "flattened_butterfly"],
    summary: "HyperX (FlatFly): Cartesian product of complete graphs K_n with link widths L_n",
    source: "001 §2.1.1; 003 §1.2",
    directed: false,
    params: &[
        ParamDef {
            name: "dims",
            kind: ParamKind::Dims,
            default: None,
            help: "order K_n of the complete graph in each dimension, e.g. 4x8x8x8",
        },
        ParamDef {
            name: "widths",
            kind: ParamKind::Dims,
            default: Some("1 in every dimension"),
            help: "link width L_n (parallel cables) in each dimension, one entry per dimension",
        },
        p_param(
            "L_n(K_n - 1) when every dimension with K_n > 1 has that same port count \
             (001 §2.1.1 balance: as many endpoint ports as ports per dimension), else 1",
        ),
    ],
    build,
    example: "hyperx:dims=4x4",
};

fn clique_links(dims: &[u32], routers: u128) -> u128 {
    dims.iter().map(|&k| routers * (k as u128 - 1) / 2).sum()
}

/// 001 §2.1.1 balances a 2D HyperX of equal sizes by giving endpoints as many ports (r/3) as
/// each dimension. That rule carries over to any HyperX whose dimensions all use the same number
/// of ports; no paper gives one for unequal dimensions, so those default to 1.
fn default_p(grid: &Grid) -> u32 {
    let mut ports = grid
        .dims
        .iter()
        .zip(&grid.widths)
        .filter(|(&k, _)| k > 1)
        .map(|(&k, &w)| w as u64 * (k as u64 - 1));
    match ports.next() {
        Some(first) if ports.all(|x| x == first) && first <= u32::MAX as u64 => first as u32,
        _ => 1,
    }
}

fn build(p: &Params) -> Result<Network> {
    let grid = Grid::read(p, clique_links)?;
    let conc = read_p(p, default_p(&grid))?;
    let mut b = grid.builder("hyperx");
    for r in 0..grid.routers {
        for (n, (&k, &width)) in grid.dims.iter().zip(&grid.widths).enumerate() {
            let (stride, c) = (grid.strides[n], grid.coord(r, n));
            for c2 in c + 1..k as usize {
                b.add_link(r, r + (c2 - c) * stride, width, n as u16);
            }
        }
    }
    b.uniform_endpoints(conc);
    b.build()
}
