//! Tori and meshes: Cartesian products of cycles (torus) or paths (mesh), 003 §1.1, 004 §III-A.
//!
//! Dimension n has K_n routers and links of width L_n (003 §1.1 notation). A router's
//! coordinates (d0, d1, ...) give its index d0 + K_0·(d1 + K_1·(d2 + ...)): d0 varies fastest,
//! so that consecutive routers share a first-dimension ring. This is the "canonical numbering"
//! 004 §III-A fills cabinets with (an 8x16x16 torus puts one 8-ring in each cabinet).
//!
//! Degenerate dimensions: a ring of 2 routers would join the same pair twice (once each way
//! around), which is ONE link of width L_n here, so that a torus of 2s is the hypercube with the
//! same widths; a dimension of size 1 has no links. The module also holds the coordinate grid
//! shared with HyperX.

use super::{
    ensure_size, p_param, read_p, Family, FamilyPlacement, FamilyRouting, ParamDef, ParamKind,
    SimulationChoice, Sizes,
};
use crate::error::Result;
use crate::network::{Network, NetworkBuilder};
use crate::spec::Params;

const DIMS_PARAM: ParamDef = ParamDef {
    name: "dims",
    kind: ParamKind::Dims,
    default: None,
    help: "size K_n of each dimension, e.g. 8x16x16",
};

const WIDTHS_PARAM: ParamDef = ParamDef {
    name: "widths",
    kind: ParamKind::Dims,
    default: Some("1 in every dimension"),
    help: "link width L_n (parallel cables) in each dimension, one entry per dimension",
};

pub const TORUS: Family = Family {
    name: "torus",
    aliases: &["kncube"],
    summary: "torus: Cartesian product of rings, sizes K_n and link widths L_n per dimension",
    source: "Daryin & Korzh, JSFI 2014, §1.1; Fujiwara et al., IPDPS 2014, §III-A",
    directed: false,
    params: &[
        DIMS_PARAM,
        WIDTHS_PARAM,
        p_param("1 (Besta & Hoefler, SC14, §VI uses p = 1 for tori)"),
    ],
    build: build_torus,
    example: "torus:dims=4x4x4",
    display_name: "Torus",
    sizes: torus_sizes,
    routing: GRID_ROUTING,
    placement: GRID_PLACEMENT,
};

pub const MESH: Family = Family {
    name: "mesh",
    aliases: &[],
    summary: "mesh: torus without wraparound links (Cartesian product of paths)",
    source: "Daryin & Korzh, JSFI 2014, §1.1 (torus without wraparound)",
    directed: false,
    params: &[DIMS_PARAM, WIDTHS_PARAM, p_param("1")],
    build: build_mesh,
    example: "mesh:dims=4x4",
    display_name: "Mesh",
    sizes: mesh_sizes,
    routing: GRID_ROUTING,
    placement: GRID_PLACEMENT,
};

const GRID_ROUTING: FamilyRouting = FamilyRouting {
    specific: &["torus_dor"],
    // Dally & Towles: tornado is the adversarial pattern of dimension-order routing on rings
    simulation: Some(SimulationChoice::new("dor", "tornado", "dor")),
};

const GRID_PLACEMENT: FamilyPlacement = FamilyPlacement::FirstDimension {
    what: "sequential in canonical order, one d0 ring per cabinet unless per_cabinet (Fujiwara et al., IPDPS 2014, §III-A)",
};

/// Balanced for p <= 8 min L_n / K_n on a torus (003 §1.1: beta = min 4 L_n / (C K_n) >= 1/2)
/// and 4 min L_n / K_n on a mesh, whose bisection cuts half as many links.
fn torus_sizes(p: &Params) -> Result<Sizes> {
    grid_sizes(p, true)
}

fn mesh_sizes(p: &Params) -> Result<Sizes> {
    grid_sizes(p, false)
}

fn grid_sizes(p: &Params, wrap: bool) -> Result<Sizes> {
    let grid = Grid::read(p, if wrap { ring_links } else { path_links })?;
    let conc = read_p(p, 1)?;
    let pairs = || grid.dims.iter().zip(&grid.widths);
    // A ring or path of 3 or more gives an inner router 2 links; 2 routers share one link.
    let degree: u32 = pairs()
        .map(|(&k, &w)| match k {
            1 => 0,
            2 => w,
            _ => 2 * w,
        })
        .sum();
    let cut = if wrap { 8.0 } else { 4.0 };
    let thinnest = pairs()
        .map(|(&k, &w)| w as f64 / k as f64)
        .fold(f64::INFINITY, f64::min);
    Ok(Sizes::direct(
        grid.routers as u128,
        degree,
        conc,
        cut * thinnest,
    ))
}

/// More dimensions than this is certainly a typo (InfiniBand tori stop at 4D, 003 §1.1).
const MAX_DIMS: usize = 32;

/// Sizes, widths and index strides of a coordinate grid (tori, meshes, HyperX).
pub(super) struct Grid {
    pub dims: Vec<u32>,
    pub widths: Vec<u32>,
    pub strides: Vec<usize>,
    pub routers: usize,
}

impl Grid {
    /// Reads `dims` and `widths`, then checks the router count and the link count
    /// `links_of(dims, routers)` before anything is allocated.
    pub fn read(p: &Params, links_of: fn(&[u32], u128) -> u128) -> Result<Grid> {
        let dims_raw = p.list("dims", 1, 1 << 24, DIMS_PARAM.help)?;
        let dims_text = join(&dims_raw);
        if dims_raw.len() > MAX_DIMS {
            return Err(p.invalid(
                "dims",
                &dims_text,
                &format!("at most {MAX_DIMS} dimensions"),
            ));
        }
        let dims: Vec<u32> = dims_raw.iter().map(|&k| k as u32).collect();
        let widths: Vec<u32> = match p.opt_list("widths", 1, 1 << 16)? {
            None => vec![1; dims.len()],
            Some(w) if w.len() == dims.len() => w.iter().map(|&x| x as u32).collect(),
            Some(w) => {
                return Err(p.invalid(
                    "widths",
                    join(&w),
                    &format!(
                        "one width per dimension ({} entries for dims={dims_text})",
                        dims.len()
                    ),
                ))
            }
        };
        // 32 dimensions of up to 2^24 overflow even u128: saturate, and bound the router count
        // before the link count is computed from it.
        let routers = dims
            .iter()
            .fold(1u128, |acc, &k| acc.saturating_mul(k as u128));
        ensure_size(p, "dims", &dims_text, routers, 0)?;
        ensure_size(p, "dims", &dims_text, routers, links_of(&dims, routers))?;
        let mut strides = Vec::with_capacity(dims.len());
        let mut stride = 1usize;
        for &k in &dims {
            strides.push(stride);
            stride *= k as usize;
        }
        Ok(Grid {
            dims,
            widths,
            strides,
            routers: routers as usize,
        })
    }

    /// A builder with one label field d<n> per dimension, every router labelled with its
    /// coordinates, and link class index n registered as "dim<n>" (callers pass n as class).
    pub fn builder(&self, family: &str) -> NetworkBuilder {
        let mut b = NetworkBuilder::new(family, self.routers, false);
        let fields: Vec<String> = (0..self.dims.len()).map(|n| format!("d{n}")).collect();
        let field_refs: Vec<&str> = fields.iter().map(|s| s.as_str()).collect();
        b.label_fields(&field_refs);
        for n in 0..self.dims.len() {
            b.link_class(&format!("dim{n}"));
        }
        let mut label = vec![0i64; self.dims.len()];
        for r in 0..self.routers {
            for (n, l) in label.iter_mut().enumerate() {
                *l = self.coord(r, n) as i64;
            }
            b.set_label(r, &label);
        }
        b
    }

    pub fn coord(&self, r: usize, n: usize) -> usize {
        (r / self.strides[n]) % self.dims[n] as usize
    }
}

fn join(v: &[i64]) -> String {
    v.iter()
        .map(|x| x.to_string())
        .collect::<Vec<_>>()
        .join("x")
}

fn ring_links(dims: &[u32], routers: u128) -> u128 {
    dims.iter()
        .map(|&k| match k {
            1 => 0,
            2 => routers / 2,
            _ => routers,
        })
        .sum()
}

fn path_links(dims: &[u32], routers: u128) -> u128 {
    dims.iter()
        .map(|&k| routers / k as u128 * (k as u128 - 1))
        .sum()
}

fn build_torus(p: &Params) -> Result<Network> {
    build_grid(p, "torus", true)
}

fn build_mesh(p: &Params) -> Result<Network> {
    build_grid(p, "mesh", false)
}

fn build_grid(p: &Params, family: &str, wrap: bool) -> Result<Network> {
    let grid = Grid::read(p, if wrap { ring_links } else { path_links })?;
    let conc = read_p(p, 1)?;
    let mut b = grid.builder(family);
    for r in 0..grid.routers {
        for (n, (&k, &width)) in grid.dims.iter().zip(&grid.widths).enumerate() {
            let (k, stride, c) = (k as usize, grid.strides[n], grid.coord(r, n));
            if c + 1 < k {
                b.add_link(r, r + stride, width, n as u16);
            } else if wrap && k >= 3 {
                b.add_link(r, r - c * stride, width, n as u16);
            }
        }
    }
    b.uniform_endpoints(conc);
    b.build()
}
