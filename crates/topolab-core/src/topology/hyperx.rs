//! HyperX / FlatFly / flattened butterfly: the Cartesian product of complete graphs
//! (Kathareios et al., SC15, §2.1.1, Daryin & Korzh, JSFI 2014, §1.2). Dimension n has K_n routers
//! joined all-to-all by links of width L_n, so the network radix is sum L_n (K_n - 1) and the
//! diameter is the number of dimensions with K_n > 1 (Daryin & Korzh, JSFI 2014, §1.2). Coordinates
//! and router numbering are the torus grid's (d0 fastest).
//!
//! Cabinet parameters (Fujiwara et al., IPDPS 2014, §III-A): `z` and `c` build HyperX(z, c, d) on
//! the floor grid of c cabinets (x = ceil(sqrt(c)) rows, y = ceil(c/x) columns): d0 = slot in the
//! cabinet (z), d1 = cabinet column (y), d2 = cabinet row (x), degree x + y + z - 3. Router
//! cabinet·z + slot, which for c = x·y is the canonical numbering of dims z × y × x. When the last
//! row is only partly filled (c < x·y) the cabinets that do not exist are left out and the routers
//! of the missing cells lose those neighbours (a partial HyperX; Fujiwara et al. (IPDPS 2014) do
//! not say what they did there, e.g. for c = 128 in Fig. 7). `d`, when given, must equal x + y + z
//! - 3. Endpoints default to 8 per switch there (Fujiwara et al., IPDPS 2014, §IV-A).

use super::design::{
    balanced_of, candidate, join_i, max_min_widths, round_even, scaled_p, shapes, Candidate,
    DesignSpace, Member, Value, Window,
};
use super::torus::Grid;
use super::{
    ensure_size, p_param, read_p, Family, FamilyPlacement, FamilyRouting, ParamDef, ParamKind,
    SimulationChoice, Sizes,
};
use crate::error::Result;
use crate::floor_grid::CabinetGrid;
use crate::network::{Network, NetworkBuilder};
use crate::spec::Params;

pub const FAMILY: Family = Family {
    name: "hyperx",
    aliases: &["flatfly", "flattened_butterfly"],
    summary: "HyperX (FlatFly): Cartesian product of complete graphs K_n with link widths L_n",
    source: "Kathareios et al., SC15, §2.1.1; Daryin & Korzh, JSFI 2014, §1.2",
    directed: false,
    params: &[
        ParamDef {
            name: "dims",
            kind: ParamKind::Dims,
            default: Some("required unless z and c are given"),
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
             (Kathareios et al., SC15, §2.1.1 balance: as many endpoint ports as ports per dimension), else 1; \
             8 with z and c (Fujiwara et al., IPDPS 2014, §IV-A)",
        ),
        ParamDef {
            name: "z",
            kind: ParamKind::Int,
            default: Some("none (with c: HyperX(z, c, d) of Fujiwara et al. (IPDPS 2014) instead of dims)"),
            help: "switches per cabinet, the first dimension",
        },
        ParamDef {
            name: "c",
            kind: ParamKind::Int,
            default: Some("none (with z)"),
            help:
                "cabinets on the x-by-y floor grid; rows and columns are the other two dimensions",
        },
        ParamDef {
            name: "d",
            kind: ParamKind::Int,
            default: Some("x + y + z - 3"),
            help: "degree of HyperX(z, c, d), checked against z and c",
        },
    ],
    build,
    example: "hyperx:dims=4x4",
    samples: &[
        "hyperx:dims=4x4",
        "hyperx:dims=3x5,widths=2x1",
        "hyperx:dims=2x3x4,p=2",
        "hyperx:dims=6",
        "hyperx:z=4,c=6",
        "hyperx:z=2,c=7,widths=1x2x3",
    ],
    display_name: "HyperX",
    sizes,
    routing: FamilyRouting {
        specific: &["hyperx_dor", "hyperx_ador"],
        simulation: Some(
            SimulationChoice::new("min", "tornado", "min")
                .noted("tornado: every coordinate shifted"),
        ),
    },
    placement: FamilyPlacement::FirstDimension {
        what: "sequential, one d0 clique per cabinet unless per_cabinet (Besta & Hoefler, SC14, §VI-B3d, Fujiwara et al., IPDPS 2014, §III-A)",
    },
    design: Some(DESIGN),
};

fn clique_links(dims: &[u32], routers: u128) -> u128 {
    dims.iter().map(|&k| routers * (k as u128 - 1) / 2).sum()
}

/// Kathareios et al., SC15, §2.1.1 balances a 2D HyperX of equal sizes by giving endpoints as many
/// ports (r/3) as each dimension. That rule carries over to any HyperX whose dimensions all use the
/// same number of ports; no paper gives one for unequal dimensions, so those default to 1.
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

/// Network radix sum L_n (K_n - 1) (Daryin & Korzh, JSFI 2014, §1.2); balanced for p <= min K_n L_n
/// (§1.2: beta = min K_n L_n / 2C >= 1/2; Kathareios et al.'s (SC15) balanced 2D HyperX has p = K -
/// 1).
fn sizes(p: &Params) -> Result<Sizes> {
    let (routers, dims, widths, conc) = if p.has("z") || p.has("c") || p.has("d") {
        let s = read_cabinets(p)?;
        let dims = vec![s.z, s.floor.cols() as u32, s.floor.rows() as u32];
        (s.z as u128 * s.c as u128, dims, s.widths, s.conc)
    } else {
        let grid = Grid::read(p, clique_links)?;
        let conc = read_p(p, default_p(&grid))?;
        (grid.routers as u128, grid.dims, grid.widths, conc)
    };
    let pairs = || {
        dims.iter()
            .zip(&widths)
            .map(|(&k, &w)| (k as u64, w as u64))
    };
    let degree: u64 = pairs().map(|(k, w)| w * (k - 1)).sum();
    let balanced = pairs().map(|(k, w)| k * w).min().unwrap_or(0);
    Ok(Sizes::direct(routers, degree as u32, conc, balanced as f64))
}

fn build(p: &Params) -> Result<Network> {
    if p.has("z") || p.has("c") || p.has("d") {
        return build_cabinets(p);
    }
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

/// Endpoints per switch of HyperX(z, c, d) unless p is given (Fujiwara et al., IPDPS 2014, §IV-A: 8
/// hosts per switch).
const CABINET_P: u32 = 8;

/// HyperX(z, c, d) after checking its parameters.
struct CabinetShape {
    z: u32,
    c: u32,
    floor: CabinetGrid,
    widths: Vec<u32>,
    conc: u32,
}

fn read_cabinets(p: &Params) -> Result<CabinetShape> {
    if p.has("dims") {
        return Err(p.invalid(
            "dims",
            p.opt_list("dims", i64::MIN, i64::MAX)?
                .map(|d| d.iter().map(|k| k.to_string()).collect::<Vec<_>>().join("x"))
                .unwrap_or_default(),
            "not given with z and c: HyperX(z, c, d) takes its dimensions from the cabinet grid (Fujiwara et al., IPDPS 2014, §III-A)",
        ));
    }
    let z = p.u32("z", 1, 1 << 16, "switches per cabinet")?;
    let c = p.u32("c", 1, 1 << 24, "cabinets")?;
    let floor = CabinetGrid::new(c as usize)?;
    let (x, y) = (floor.rows(), floor.cols());
    let degree = x + y + z as usize - 3;
    if let Some(d) = p.opt_int("d", 0, i64::MAX)? {
        if d != degree as i64 {
            return Err(p.invalid(
                "d",
                d,
                &format!(
                    "the degree x + y + z - 3 = {degree} for z = {z} on the {x}x{y} grid of c = {c} cabinets (Fujiwara et al., IPDPS 2014, §III-A)"
                ),
            ));
        }
    }
    let widths: Vec<u32> = match p.opt_list("widths", 1, 1 << 16)? {
        None => vec![1; 3],
        Some(w) if w.len() == 3 => w.iter().map(|&v| v as u32).collect(),
        Some(w) => {
            return Err(p.invalid(
                "widths",
                w.iter()
                    .map(|v| v.to_string())
                    .collect::<Vec<_>>()
                    .join("x"),
                "three widths with z and c: slot, column and row dimensions",
            ))
        }
    };
    let routers = z as u128 * c as u128;
    ensure_size(p, "c", c, routers, routers * degree as u128 / 2)?;
    let conc = read_p(p, CABINET_P)?;
    Ok(CabinetShape {
        z,
        c,
        floor,
        widths,
        conc,
    })
}

/// HyperX(z, c, d) of Fujiwara et al., IPDPS 2014, §III-A: dimensions slot (z), cabinet column (y),
/// cabinet row (x).
fn build_cabinets(p: &Params) -> Result<Network> {
    let CabinetShape {
        z,
        c,
        floor,
        widths,
        conc,
    } = read_cabinets(p)?;
    let (x, y) = (floor.rows(), floor.cols());
    let z = z as usize;
    let mut b = NetworkBuilder::new("hyperx", z * c as usize, false);
    b.label_fields(&["d0", "d1", "d2"]);
    let classes = [
        b.link_class("dim0"),
        b.link_class("dim1"),
        b.link_class("dim2"),
    ];
    for cab in 0..c as usize {
        let (row, col) = floor.position(cab);
        for slot in 0..z {
            let r = cab * z + slot;
            b.set_label(r, &[slot as i64, col as i64, row as i64]);
            for s2 in slot + 1..z {
                b.add_link(r, cab * z + s2, widths[0], classes[0]);
            }
            for c2 in col + 1..y {
                if let Some(other) = floor.cabinet_at(row, c2) {
                    b.add_link(r, other * z + slot, widths[1], classes[1]);
                }
            }
            for r2 in row + 1..x {
                if let Some(other) = floor.cabinet_at(r2, col) {
                    b.add_link(r, other * z + slot, widths[2], classes[2]);
                }
            }
        }
    }
    b.uniform_endpoints(conc);
    b.build()
}

/// What `topolab compare` tries of this family (docs/compare.md §1).
const DESIGN: DesignSpace = DesignSpace {
    enumerate: design_space,
    smaller_members: Some(smaller_members),
    twin: None,
    twin_origin: None,
};

/// Most dimensions tried: Daryin & Korzh, JSFI 2014, §1.2's optimum at 2,048 switches is 4D; more
/// cost radix.
const MAX_DIMS: usize = 4;
/// Equal-ish shapes: largest size <= 2 x smallest (Daryin & Korzh, JSFI 2014, §1.2: 4x8x8x8).
const MAX_ASPECT: u32 = 2;

/// 1 to 4 dimensions, nondecreasing sizes >= 2 with largest <= 2 x smallest and at most two
/// distinct sizes (like every shape in the papers: Daryin & Korzh's (JSFI 2014) 4x8x8x8, Fujiwara
/// et al.'s (IPDPS 2014) 8x16x16, Kathareios et al.'s (SC15) square 2D); for each p, unit widths
/// and the widths that maximize the bisection min K_n L_n within the K - p ports left (Daryin &
/// Korzh, JSFI 2014, §1.2's combinatorial search). Radix p + sum L_n (K_n - 1); balanced when p <=
/// min K_n L_n (Daryin & Korzh, JSFI 2014: beta = min K_n L_n / 2C >= 1/2; Kathareios et al.'s
/// (SC15) balanced 2D HyperX has p = K - 1).
fn design_space(w: &Window) -> Vec<Candidate> {
    let mut out = Vec::new();
    for n in 1..=MAX_DIMS {
        let fits = |shape: &[u32]| {
            let mut distinct = shape.to_vec();
            distinct.dedup();
            shape.iter().map(|s| s - 1).sum::<u32>() < w.radix
                && shape[shape.len() - 1] <= MAX_ASPECT * shape[0]
                && distinct.len() <= 2
        };
        for shape in shapes(n, 2, w.hi, &fits) {
            let routers: u64 = shape.iter().map(|&s| s as u64).product();
            let unit: u32 = shape.iter().map(|s| s - 1).sum();
            for p in w.concentrations(routers, w.radix as i64 - unit as i64) {
                let unit_widths = vec![1; n];
                let mut options = vec![(unit_widths.clone(), "unit widths")];
                let best = max_min_widths(&shape, &|s| s as i64 - 1, (w.radix - p) as i64, &|s| {
                    s as f64
                });
                if let Some(best) = best.filter(|b| *b != unit_widths) {
                    options.push((best, "bisection widths (Daryin & Korzh, JSFI 2014, §1.2)"));
                }
                for (widths, tag) in options {
                    let mut params = vec![("dims", Value::Dims(shape.clone()))];
                    if widths.iter().any(|&x| x != 1) {
                        params.push(("widths", Value::Dims(widths)));
                    }
                    params.push(("p", p.into()));
                    out.extend(candidate(
                        "hyperx",
                        params,
                        "Kathareios et al., SC15, §2.1.1; Daryin & Korzh, JSFI 2014, §1.2",
                        vec![format!("{n}D"), tag.to_string()],
                        false,
                    ));
                }
            }
        }
    }
    out
}

/// The same dimensions and widths with sizes scaled to a smaller largest side, p for the same
/// load.
fn smaller_members(m: &Member) -> Result<Vec<String>> {
    let dims = m.dims_or("dims", Vec::new());
    let widths = m.dims_or("widths", vec![1; dims.len()]);
    let largest = dims.iter().copied().max().unwrap_or(0);
    let shown = if widths.iter().all(|&x| x == 1) {
        String::new()
    } else {
        format!(",widths={}", join_i(&widths))
    };
    Ok((2..largest)
        .filter_map(|side| {
            let dims2: Vec<i64> = dims
                .iter()
                .map(|&x| round_even((x * side) as f64 / largest as f64).max(2))
                .collect();
            let shape = format!("hyperx:dims={}{shown}", join_i(&dims2));
            let pb = balanced_of(&shape)?;
            Some(format!("{shape},p={}", scaled_p(m.p(), m.balanced(), pb)))
        })
        .collect())
}

#[cfg(test)]
mod construction {
    //! HyperX / FlatFly against Daryin & Korzh, JSFI 2014, §1.2 (degree C + sum L_n (K_n - 1), diameter
    //! N), Kathareios et al., SC15, §2.1.1 and Fig. 3 (balanced 2D HyperX) and the configurations of
    //! Daryin & Korzh, JSFI 2014, §1.2, Fujiwara et al., IPDPS 2014, §III-A and Besta & Hoefler, SC14,
    //! Table IV.

    use crate::metrics::distance::diameter;
    use crate::{build_str, Network};

    fn dims_text(dims: &[u32]) -> String {
        dims.iter()
            .map(|d| d.to_string())
            .collect::<Vec<_>>()
            .join("x")
    }

    #[test]
    fn degree_diameter_and_links_follow_003() {
        for (dims, widths) in [
            (&[5u32][..], &[1u32][..]),
            (&[3, 4], &[1, 2]),
            (&[2, 3, 4], &[3, 1, 1]),
            (&[4, 1, 3], &[1, 5, 2]),
            (&[2, 2, 2, 2, 2], &[1, 1, 1, 1, 1]),
            (&[6, 6], &[1, 1]),
            (&[1], &[1]),
        ] {
            let spec = format!(
                "hyperx:dims={},widths={},p=2",
                dims_text(dims),
                dims_text(widths)
            );
            let net = build_str(&spec).unwrap();
            let routers: u64 = dims.iter().map(|&k| k as u64).product();
            assert_eq!(net.num_routers() as u64, routers, "{spec}");
            let degree: u32 = dims.iter().zip(widths).map(|(&k, &l)| l * (k - 1)).sum();
            for r in 0..net.num_routers() {
                assert_eq!(net.degree(r), degree, "{spec}");
            }
            assert_eq!(net.num_links(), routers * degree as u64 / 2, "{spec}");
            assert_eq!(net.radix(), degree + 2, "{spec}");
            let nontrivial = dims.iter().filter(|&&k| k > 1).count() as u32;
            assert_eq!(diameter(&net), Some(nontrivial), "{spec}");
        }
    }

    #[test]
    fn every_dimension_is_a_complete_graph() {
        // Brute force: two routers are adjacent iff their coordinates differ in exactly one
        // dimension n, and then the link has class dim<n> and width L_n.
        let widths = [2u32, 1, 3];
        let net = build_str("hyperx:dims=3x4x2,widths=2x1x3").unwrap();
        assert_eq!(net.label_fields(), ["d0", "d1", "d2"]);
        assert_eq!(net.link_classes(), ["dim0", "dim1", "dim2"]);
        let n = net.num_routers();
        for u in 0..n {
            for v in u + 1..n {
                let (a, b) = (net.label(u), net.label(v));
                let differing: Vec<usize> = (0..3).filter(|&i| a[i] != b[i]).collect();
                let link = net
                    .neighbors(u)
                    .iter()
                    .position(|&w| w as usize == v)
                    .map(|i| net.links()[net.neighbor_links(u)[i] as usize]);
                match (differing.len(), link) {
                    (1, Some(l)) => {
                        assert_eq!(l.class as usize, differing[0]);
                        assert_eq!(l.width, widths[differing[0]]);
                    }
                    (1, None) => panic!("{a:?} and {b:?} should be adjacent"),
                    (_, Some(_)) => panic!("{a:?} and {b:?} should not be adjacent"),
                    (_, None) => {}
                }
            }
        }
    }

    #[test]
    fn flatfly_of_003() {
        // Daryin & Korzh, JSFI 2014, §1.2: 4x8x8x8 with widths 2,1,1,1 and C = 8: diameter 4, radix 35,
        // 2,048 switches.
        let net = build_str("flatfly:dims=4x8x8x8,widths=2x1x1x1,p=8").unwrap();
        assert_eq!(net.num_routers(), 2048);
        assert_eq!(net.num_endpoints(), 16384);
        assert_eq!(net.radix(), 35);
        assert_eq!(diameter(&net), Some(4));
    }

    #[test]
    fn balanced_2d_hyperx_of_001() {
        // Kathareios et al., SC15, §2.1.1: radix r splits into r/3 ports per dimension and r/3
        // endpoints, so the complete graphs have r/3 + 1 routers, R = (r/3 + 1)^2, N = r/3 (r/3 + 1)^2;
        // Fig. 3: diameter 2, 2 links and 3 router ports per endpoint. p defaults to that balance.
        for r in [6u32, 12, 30, 48] {
            let k = r / 3 + 1;
            let net = build_str(&format!("hyperx:dims={k}x{k}")).unwrap();
            let routers = (k * k) as u64;
            assert_eq!(net.num_routers() as u64, routers, "r={r}");
            assert_eq!(net.num_endpoints(), routers * (r / 3) as u64, "r={r}");
            assert_eq!(net.radix(), r, "r={r}");
            let n = net.num_endpoints();
            assert_eq!(net.num_links() + n, 2 * n, "links per endpoint, r={r}");
            assert_eq!(routers * r as u64, 3 * n, "ports per endpoint, r={r}");
            assert_eq!(diameter(&net), Some(2), "r={r}");
        }
    }

    #[test]
    fn default_p() {
        // Equal port counts per dimension follow Kathareios et al.'s (SC15) balance; otherwise no paper
        // gives a rule.
        let p_of = |spec: &str| build_str(spec).unwrap().endpoints()[0];
        assert_eq!(p_of("hyperx:dims=8x8"), 7);
        assert_eq!(p_of("hyperx:dims=5x5x5"), 4);
        assert_eq!(p_of("hyperx:dims=5x3,widths=1x2"), 4);
        assert_eq!(p_of("hyperx:dims=8x8x1"), 7);
        assert_eq!(p_of("hyperx:dims=4x8"), 1);
        assert_eq!(p_of("hyperx:dims=4x8x8x8,widths=2x1x1x1"), 1);
        assert_eq!(p_of("hyperx:dims=1"), 1);
    }

    #[test]
    fn configurations_of_004_and_000() {
        // Fujiwara et al., IPDPS 2014, §III-A: HyperX(8, 256, 37) on a 16x16 cabinet grid with 8
        // switches per cabinet has degree x + y + z - 3 = 37: dims 8x16x16.
        let net = build_str("hyperx:dims=8x16x16").unwrap();
        assert_eq!((net.num_routers(), net.network_radix()), (2048, 37));
        // Besta & Hoefler, SC14, §VI-B3d / Table IV FBF-3: p routers per group, p^2 groups (p x p x p):
        // N_r = 1,000, N = 10,000 and N_r = 1,728, N = 20,736. (Table IV's radix 33 and 43 do not match
        // p + 3(p - 1) = 37 and 45 and are not checked.)
        for (p, nr, n) in [(10u32, 1000usize, 10000u64), (12, 1728, 20736)] {
            let net = build_str(&format!("flattened_butterfly:dims={p}x{p}x{p},p={p}")).unwrap();
            assert_eq!((net.num_routers(), net.num_endpoints()), (nr, n));
            assert_eq!(net.network_radix(), 3 * (p - 1));
        }
    }

    #[test]
    fn aliases_build_the_same_network() {
        let a = build_str("hyperx:dims=3x4,widths=1x2").unwrap();
        for alias in ["flatfly", "flattened_butterfly"] {
            let b: Network = build_str(&format!("{alias}:dims=3x4,widths=1x2")).unwrap();
            assert_eq!(a.links(), b.links());
            assert_eq!(b.family(), "hyperx");
        }
    }

    #[test]
    fn bad_parameters_are_errors_naming_the_parameter() {
        for (spec, needle) in [
            ("hyperx", "missing parameter 'dims'"),
            ("hyperx:dims=0x4", "'dims'"),
            ("hyperx:dims=4x4,widths=2", "'widths'"),
            ("hyperx:dims=4x4,widths=0x1", "'widths'"),
            ("hyperx:dims=4x4,p=x", "'p'"),
            ("hyperx:dims=1000x1000x100", "'dims'"),
            ("hyperx:dims=100000x1000", "'dims'"),
            (
                "hyperx:dims=16777216x16777216x16777216x16777216x16777216x16777216",
                "'dims'",
            ),
        ] {
            let msg = build_str(spec).unwrap_err().to_string();
            assert!(msg.contains(needle), "{spec}: {msg}");
        }
    }
}
