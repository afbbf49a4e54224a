//! Tori and meshes: Cartesian products of cycles (torus) or paths (mesh), Daryin & Korzh, JSFI
//! 2014, §1.1, Fujiwara et al., IPDPS 2014, §III-A.
//!
//! Dimension n has K_n routers and links of width L_n (Daryin & Korzh, JSFI 2014, §1.1 notation). A
//! router's coordinates (d0, d1, ...) give its index d0 + K_0·(d1 + K_1·(d2 + ...)): d0 varies
//! fastest, so that consecutive routers share a first-dimension ring. This is the "canonical
//! numbering" Fujiwara et al., IPDPS 2014, §III-A fills cabinets with (an 8x16x16 torus puts one
//! 8-ring in each cabinet).
//!
//! Degenerate dimensions: a ring of 2 routers would join the same pair twice (once each way
//! around), which is ONE link of width L_n here, so that a torus of 2s is the hypercube with the
//! same widths; a dimension of size 1 has no links. The module also holds the coordinate grid
//! shared with HyperX.

use super::design::{
    balanced_of, candidate, join_i, load_at, max_min_widths, nearest_p, shapes, Candidate,
    DesignSpace, Member, Value, Window, P1_TAG,
};
use super::{
    ensure_size, p_param, read_p, Family, FamilyPlacement, FamilyRouting, ParamDef, ParamKind,
    SimulationChoice, Sizes,
};
use crate::error::Result;
use crate::network::{Network, NetworkBuilder};
use crate::spec::Params;
use std::collections::BTreeMap;

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
    samples: &[
        "torus:dims=4x4x4",
        "torus:dims=2x5,widths=3x2,p=2",
        "torus:dims=1x3",
        "torus:dims=3x4x5,widths=1x2x1,p=3",
    ],
    display_name: "Torus",
    sizes: torus_sizes,
    routing: GRID_ROUTING,
    placement: GRID_PLACEMENT,
    design: Some(TORUS_DESIGN),
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
    samples: &[
        "mesh:dims=4x4",
        "mesh:dims=2x3x5,widths=2x1x3,p=2",
        "mesh:dims=3",
    ],
    display_name: "Mesh",
    sizes: mesh_sizes,
    routing: GRID_ROUTING,
    placement: GRID_PLACEMENT,
    design: Some(MESH_DESIGN),
};

const GRID_ROUTING: FamilyRouting = FamilyRouting {
    specific: &["torus_dor"],
    // Dally & Towles: tornado is the adversarial pattern of dimension-order routing on rings
    simulation: Some(SimulationChoice::new("dor", "tornado", "dor")),
};

const GRID_PLACEMENT: FamilyPlacement = FamilyPlacement::FirstDimension {
    what: "sequential in canonical order, one d0 ring per cabinet unless per_cabinet (Fujiwara et al., IPDPS 2014, §III-A)",
};

/// Balanced for p <= 8 min L_n / K_n on a torus (Daryin & Korzh, JSFI 2014, §1.1: beta = min 4 L_n
/// / (C K_n) >= 1/2) and 4 min L_n / K_n on a mesh, whose bisection cuts half as many links.
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

/// More dimensions than this is certainly a typo (InfiniBand tori stop at 4D, Daryin & Korzh, JSFI
/// 2014, §1.1).
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

/// What `topolab compare` tries of this family (docs/compare.md §1).
const TORUS_DESIGN: DesignSpace = DesignSpace {
    enumerate: torus_design_space,
    smaller_members: Some(smaller_members),
    twin: None,
    twin_origin: None,
};

/// What `topolab compare` tries of this family (docs/compare.md §1).
const MESH_DESIGN: DesignSpace = DesignSpace {
    enumerate: mesh_design_space,
    smaller_members: Some(smaller_members),
    twin: None,
    twin_origin: None,
};

/// Dimensions tried: Besta & Hoefler, SC14, Table IV: T3D, T5D; Daryin & Korzh, JSFI 2014, §1.1:
/// 3D, 4D.
const DESIGN_DIMS: [usize; 4] = [2, 3, 4, 5];
/// Near-cubic shapes: largest size - smallest size <= 2 (Besta & Hoefler, SC14: T3D 22^3, T5D
/// 6^4x8).
const MAX_SPREAD: u32 = 2;

fn torus_design_space(w: &Window) -> Vec<Candidate> {
    grid_design_space(w, "torus")
}

fn mesh_design_space(w: &Window) -> Vec<Candidate> {
    grid_design_space(w, "mesh")
}

/// Tori (Daryin & Korzh, JSFI 2014, §1.1; Besta & Hoefler, SC14, Table IV T3D, T5D) and meshes: 2
/// to 5 dimensions, near-cubic shapes (sizes >= 3 within 2 of each other); per dimension count, p
/// and width rule the shape with N nearest the target and the most cubic shape nearest it. p = 1 as
/// Besta & Hoefler, SC14, §III does for low-radix networks (unit widths, and widths that use the
/// rest of the radix), and concentrated variants p >= 2 as in Daryin & Korzh, JSFI 2014, §1.1 with
/// the bisection-maximizing widths. Balanced when p <= 8 min L_n / K_n for a torus (Daryin & Korzh,
/// JSFI 2014, §1.1: beta = min 4 L_n / (C K_n) >= 1/2), 4 min L_n / K_n for a mesh (half the cut).
fn grid_design_space(w: &Window, family: &'static str) -> Vec<Candidate> {
    let mut out = Vec::new();
    for n in DESIGN_DIMS {
        let fits = |shape: &[u32]| {
            2 * (shape.len() as u32) < w.radix && shape[shape.len() - 1] - shape[0] <= MAX_SPREAD
        };
        let mut groups: BTreeMap<(u32, &'static str), Vec<Candidate>> = BTreeMap::new();
        for shape in shapes(n, 3, w.hi, &fits) {
            let routers: u64 = shape.iter().map(|&s| s as u64).product();
            for p in w.concentrations(routers, w.radix as i64 - 2 * n as i64) {
                let unit_widths = vec![1; n];
                let best =
                    max_min_widths(&shape, &|_| 2, (w.radix - p) as i64, &|s| 1.0 / s as f64);
                let mut options: Vec<(Vec<u32>, [&'static str; 2])> = Vec::new();
                if p == 1 {
                    options.push((unit_widths.clone(), [P1_TAG, "unit widths"]));
                }
                if let Some(best) = best.filter(|b| p > 1 || *b != unit_widths) {
                    let tag = if p == 1 {
                        P1_TAG
                    } else {
                        "concentrated (Daryin & Korzh, JSFI 2014, §1.1)"
                    };
                    options.push((
                        best,
                        [tag, "bisection widths (Daryin & Korzh, JSFI 2014, §1.1)"],
                    ));
                }
                for (widths, rule_tags) in options {
                    let mut params = vec![("dims", Value::Dims(shape.clone()))];
                    if widths.iter().any(|&x| x != 1) {
                        params.push(("widths", Value::Dims(widths)));
                    }
                    params.push(("p", p.into()));
                    let mut all_tags = vec![format!("{n}D")];
                    all_tags.extend(rule_tags.iter().map(|t| t.to_string()));
                    let Some(c) = candidate(
                        family,
                        params,
                        "Daryin & Korzh, JSFI 2014, §1.1; Besta & Hoefler, SC14, §III, Table IV",
                        all_tags,
                        p == 1,
                    ) else {
                        continue;
                    };
                    if p > 1 && !w.admits(c.sizes.load) {
                        continue;
                    }
                    groups.entry((p, rule_tags[1])).or_default().push(c);
                }
            }
        }
        for (_, group) in groups {
            out.extend(nearest_and_cubic(group, w.target));
        }
    }
    out
}

/// Of candidates differing only in shape: the one with N nearest the target, and the one
/// nearest the target among the most cubic shapes (smallest spread of sizes); ties: fewer
/// endpoints. The others only shift N by a slice (docs/compare.md).
fn nearest_and_cubic(mut group: Vec<Candidate>, target: u64) -> Vec<Candidate> {
    let distance = |c: &Candidate| (c.sizes.endpoints.abs_diff(target), c.sizes.endpoints);
    let spread = |c: &Candidate| match &c.params[0].1 {
        Value::Dims(d) => d.iter().max().unwrap_or(&0) - d.iter().min().unwrap_or(&0),
        _ => 0,
    };
    // min_by_key keeps the first of equal keys, as the enumeration order wants.
    let first_min = |indices: &mut dyn Iterator<Item = usize>, group: &[Candidate]| {
        indices.min_by_key(|&i| distance(&group[i]))
    };
    let Some(nearest) = first_min(&mut (0..group.len()), &group) else {
        return Vec::new();
    };
    let least = group.iter().map(spread).min().unwrap_or(0);
    let cubic = first_min(
        &mut (0..group.len()).filter(|&i| spread(&group[i]) == least),
        &group,
    )
    .unwrap_or(nearest);
    if cubic == nearest {
        return vec![group.swap_remove(nearest)];
    }
    group[cubic].tags.push("most cubic".to_string());
    let (first, second) = (nearest.min(cubic), nearest.max(cubic));
    let later = group.swap_remove(second);
    vec![group.swap_remove(first), later]
}

/// Same dimensions, sizes scaled to a smaller largest side, widths in proportion; p = 1 stays
/// 1 (Besta & Hoefler, SC14, §III's low-radix networks), other p for the same load p / (c min
/// L_n/K_n), c = 8 for a torus and 4 for a mesh (Daryin & Korzh, JSFI 2014, §1.1).
fn smaller_members(m: &Member) -> Result<Vec<String>> {
    let family = m.params.family().to_string();
    let dims = m.dims_or("dims", Vec::new());
    let widths = m.dims_or("widths", vec![1; dims.len()]);
    let p = m.p();
    let largest = dims.iter().copied().max().unwrap_or(0);
    let half_up = |x: f64| (x + 0.5).floor() as i64;
    Ok((3..largest)
        .filter_map(|side| {
            let dims2: Vec<i64> = dims
                .iter()
                .map(|&x| half_up((x * side) as f64 / largest as f64).max(3))
                .collect();
            let widths2: Vec<i64> = widths
                .iter()
                .zip(&dims)
                .zip(&dims2)
                .map(|((&wd, &x), &x2)| half_up((wd * x2) as f64 / x as f64).max(1))
                .collect();
            let shown = if widths2.iter().all(|&x| x == 1) {
                String::new()
            } else {
                format!(",widths={}", join_i(&widths2))
            };
            let shape = format!("{family}:dims={}{shown}", join_i(&dims2));
            let balanced = balanced_of(&shape)?;
            let p2 = if p == 1 {
                1
            } else {
                nearest_p(m.load(), &|c| load_at(balanced, c), 4 * p)
            };
            Some(format!("{shape},p={p2}"))
        })
        .collect())
}

#[cfg(test)]
mod construction {
    //! Tori and meshes against Daryin & Korzh, JSFI 2014, §1.1 (degree C + 2 sum L_n, diameter sum
    //! floor(K_n/2)) and the configurations quoted in Besta & Hoefler, SC14, Table IV, Daryin & Korzh,
    //! JSFI 2014, §1.1 and Fujiwara et al., IPDPS 2014, §III-A.

    use crate::metrics::distance::diameter;
    use crate::{build_str, Network};

    fn dims_text(dims: &[u32]) -> String {
        dims.iter()
            .map(|d| d.to_string())
            .collect::<Vec<_>>()
            .join("x")
    }

    fn cables_of_class(net: &Network, class: &str) -> u64 {
        let c = net.link_classes().iter().position(|x| x == class).unwrap() as u16;
        net.links()
            .iter()
            .filter(|l| l.class == c)
            .map(|l| l.width as u64)
            .sum()
    }

    const SHAPES: &[&[u32]] = &[
        &[1],
        &[2],
        &[3],
        &[7],
        &[2, 3],
        &[3, 4, 5],
        &[2, 2, 2],
        &[1, 4],
        &[6, 3],
        &[4, 1, 5],
        &[8, 16, 16],
    ];

    #[test]
    fn torus_diameter_degree_and_link_counts() {
        for &dims in SHAPES {
            let widths: Vec<u32> = (0..dims.len() as u32).map(|i| i % 3 + 1).collect();
            let spec = format!(
                "torus:dims={},widths={}",
                dims_text(dims),
                dims_text(&widths)
            );
            let net = build_str(&spec).unwrap();
            let routers: u64 = dims.iter().map(|&k| k as u64).product();
            assert_eq!(net.num_routers() as u64, routers, "{spec}");
            let expected_diameter: u32 = dims.iter().map(|k| k / 2).sum();
            assert_eq!(diameter(&net), Some(expected_diameter), "{spec}");
            // A ring of K >= 3 gives each router two links of width L, a dimension of size 2 one
            // link (Daryin & Korzh's (JSFI 2014) rings degenerate to a single pair), size 1 none.
            let degree: u32 = dims
                .iter()
                .zip(&widths)
                .map(|(&k, &l)| match k {
                    1 => 0,
                    2 => l,
                    _ => 2 * l,
                })
                .sum();
            for r in 0..net.num_routers() {
                assert_eq!(net.degree(r), degree, "{spec} router {r}");
            }
            for (n, (&k, &l)) in dims.iter().zip(&widths).enumerate() {
                let per_ring = match k {
                    1 => 0,
                    2 => 1,
                    _ => k as u64,
                };
                assert_eq!(
                    cables_of_class(&net, &format!("dim{n}")),
                    routers / k as u64 * per_ring * l as u64,
                    "{spec} dim{n}"
                );
            }
            assert_eq!(net.num_endpoints(), routers, "p defaults to 1");
        }
    }

    #[test]
    fn mesh_diameter_degree_and_link_counts() {
        for &dims in SHAPES {
            let spec = format!("mesh:dims={}", dims_text(dims));
            let net = build_str(&spec).unwrap();
            let routers: u64 = dims.iter().map(|&k| k as u64).product();
            let expected_diameter: u32 = dims.iter().map(|k| k - 1).sum();
            assert_eq!(diameter(&net), Some(expected_diameter), "{spec}");
            let links: u64 = dims
                .iter()
                .map(|&k| routers / k as u64 * (k as u64 - 1))
                .sum();
            assert_eq!(net.num_links(), links, "{spec}");
            // Corner router 0 has one neighbour per dimension of size > 1.
            let corner = dims.iter().filter(|&&k| k > 1).count() as u32;
            assert_eq!(net.degree(0), corner, "{spec}");
            let max_degree: u32 = dims.iter().map(|&k| (k - 1).min(2)).sum();
            assert_eq!(net.network_radix(), max_degree, "{spec}");
        }
    }

    #[test]
    fn neighbours_differ_by_one_step_in_one_coordinate() {
        for family in ["torus", "mesh"] {
            let net = build_str(&format!("{family}:dims=3x4x5")).unwrap();
            assert_eq!(net.label_fields(), ["d0", "d1", "d2"]);
            assert_eq!(net.link_classes(), ["dim0", "dim1", "dim2"]);
            let dims = [3i64, 4, 5];
            for l in net.links() {
                let (a, b) = (net.label(l.src as usize), net.label(l.dst as usize));
                let differing: Vec<usize> = (0..3).filter(|&n| a[n] != b[n]).collect();
                assert_eq!(differing.len(), 1, "{family}: {a:?}-{b:?}");
                let n = differing[0];
                assert_eq!(l.class as usize, n);
                let step = (a[n] - b[n]).rem_euclid(dims[n]);
                assert!(step == 1 || step == dims[n] - 1, "{family}: {a:?}-{b:?}");
                if family == "mesh" {
                    assert_eq!((a[n] - b[n]).abs(), 1, "mesh has no wraparound");
                }
            }
            // Distinct routers have distinct labels.
            let mut labels: Vec<Vec<i64>> = (0..net.num_routers())
                .map(|r| net.label(r).to_vec())
                .collect();
            labels.sort();
            labels.dedup();
            assert_eq!(labels.len(), 60);
        }
    }

    #[test]
    fn configurations_of_003() {
        // Daryin & Korzh, JSFI 2014, §1.1 table, C = 8: 8x16x16 widths 3,5,5 (degree 34, diameter 20)
        // and 4x8x8x8 widths 2,4,4,4 (degree 36, diameter 14); 2,048 switches, 16,384 nodes each.
        for (spec, radix, diam) in [
            ("torus:dims=8x16x16,widths=3x5x5,p=8", 34, 20),
            ("torus:dims=4x8x8x8,widths=2x4x4x4,p=8", 36, 14),
        ] {
            let net = build_str(spec).unwrap();
            assert_eq!(net.num_routers(), 2048, "{spec}");
            assert_eq!(net.num_endpoints(), 16384, "{spec}");
            assert_eq!(net.radix(), radix, "{spec}");
            assert_eq!(diameter(&net), Some(diam), "{spec}");
        }
    }

    #[test]
    fn configurations_of_000_and_004() {
        // Besta & Hoefler, SC14, Table IV, p = 1: T3D with N = 10,648, k = 7; T5D with N = 10,368, k =
        // 11 (the paper gives no factorisation; 6x6x6x6x8 is one).
        let t3d = build_str("torus:dims=22x22x22").unwrap();
        assert_eq!((t3d.num_endpoints(), t3d.radix()), (10648, 7));
        let t5d = build_str("torus:dims=6x6x6x6x8").unwrap();
        assert_eq!((t5d.num_endpoints(), t5d.radix()), (10368, 11));
        // Fujiwara et al., IPDPS 2014, §III-A: Torus(8, 256, 6) is an 8x16x16 torus of degree 6 whose
        // canonical numbering puts one first-dimension ring in each cabinet of 8 consecutive switches.
        let net = build_str("torus:dims=8x16x16").unwrap();
        assert_eq!((net.num_routers(), net.network_radix()), (2048, 6));
        for r in 0..net.num_routers() {
            assert_eq!(net.label(r)[0], (r % 8) as i64);
        }
        assert_eq!(net.neighbors(0)[..2], [1, 7]);
    }

    #[test]
    fn torus_of_twos_is_the_hypercube() {
        let torus = build_str("torus:dims=2x2x2x2,widths=2x2x2x2").unwrap();
        let cube = build_str("hypercube:n=4,width=2").unwrap();
        let ends = |n: &Network| {
            n.links()
                .iter()
                .map(|l| (l.src, l.dst, l.width, l.class))
                .collect::<Vec<_>>()
        };
        assert_eq!(ends(&torus), ends(&cube));
    }

    #[test]
    fn bad_parameters_are_errors_naming_the_parameter() {
        for (spec, needle) in [
            ("torus", "missing parameter 'dims'"),
            ("torus:dims=0x4", "'dims'"),
            ("torus:dims=4xa", "'dims'"),
            ("torus:dims=4x4,widths=1", "'widths'"),
            ("torus:dims=4x4,widths=1x1x1", "'widths'"),
            ("torus:dims=4x4,widths=1x0", "'widths'"),
            ("torus:dims=4x4,p=-1", "'p'"),
            ("mesh:dims=1000x1000x1000", "'dims'"),
            ("mesh:dims=4x4,q=3", "unknown parameter 'q'"),
        ] {
            let msg = build_str(spec).unwrap_err().to_string();
            assert!(msg.contains(needle), "{spec}: {msg}");
        }
        let huge = vec!["16777216"; 32].join("x");
        let msg = build_str(&format!("torus:dims={huge}"))
            .unwrap_err()
            .to_string();
        assert!(msg.contains("'dims'"), "{msg}");
        let many = vec!["1"; 33].join("x");
        let msg = build_str(&format!("torus:dims={many}"))
            .unwrap_err()
            .to_string();
        assert!(msg.contains("'dims'") && msg.contains("32"), "{msg}");
    }
}
