//! Stacked Single-Path Trees (Kathareios et al., SC15, §2.2.2). A Single-Path Tree SPT(r1, r2)
//! has R1 = 1 + r1(r2 - 1) lower routers of network radix r1 and R2 = R1·r1/r2 upper routers
//! of radix r2, joined so that exactly one minimal path (one upper router) joins any two lower
//! routers: the lower routers are the points and the upper routers the blocks of a 2-(R1, r2, 1)
//! design (a Steiner system S(2, r2, R1)). Stacking s copies of an SPT and merging the s copies
//! of each upper router into one router of radix s·r2 gives the SSPT; the paper's identical
//! routers have s = 2 r1 / r2. Lower routers carry p endpoints (balanced at p = r1, §2.2.2).
//!
//! The designs built here (§2.2.2 names the first two as the known procedures):
//! - r2 = 2, any r1: the complete graph on r1 + 1 points, blocks its edges. Stacked l times this
//!   is the (h = r1, l, p)-MLFM of §2.2.3, router for router (`mlfm.rs` numbers the same way).
//! - r2 = r1 = k with k - 1 a prime power: the projective plane of order k - 1, taken from the
//!   k-ML3B table of §2.2.4 (`oft::ml3b_table`); stacked twice this is the k-OFT.
//! - r2 = r1 - 1 = q a prime power: the affine plane of order q (q² points, the q² + q lines
//!   y = m·x + c and x = c over GF(q)), a 2-(q², q, 1) design with r1 = q + 1 lines per point.
//! - r1 = 1, any r2 >= 2: one upper router joined to r2 lower ones (the one-block design).
//!
//! Router index: lower router (stack, point) is stack·R1 + point, then the R2 upper routers by
//! block number. Labels (level, stack, index): level 0 lower (stack, point), level 1 upper
//! (stack -1, block).

use super::design::{
    balanced_of, candidate, scaled_p, sizes_of, Candidate, DesignSpace, Member, Window,
};
use super::{
    ensure_size, oft, read_p, Family, FamilyRouting, ParamDef, ParamKind, SimulationChoice, Sizes,
    ARBITRARY_PLACEMENT,
};
use crate::error::Result;
use crate::field::{check_order, Field, MAX_FIELD_ORDER};
use crate::network::{Network, NetworkBuilder};
use crate::spec::Params;

pub const FAMILY: Family = Family {
    name: "sspt",
    aliases: &["stacked_single_path_tree"],
    summary: "Stacked Single-Path Trees: s copies of an SPT(r1, r2) sharing their upper routers (MLFM: r2 = 2; OFT: r2 = r1, s = 2)",
    source: "Kathareios et al., SC15, §2.2.2",
    directed: false,
    params: &[
        ParamDef {
            name: "r1",
            kind: ParamKind::Int,
            default: None,
            help: "network radix of a lower (endpoint) router: upper routers it links to",
        },
        ParamDef {
            name: "r2",
            kind: ParamKind::Int,
            default: None,
            help: "lower routers per upper router in one SPT: 2 (any r1), r1 (r1 - 1 a prime power), r1 - 1 (a prime power), or any r2 >= 2 with r1 = 1",
        },
        ParamDef {
            name: "s",
            kind: ParamKind::Int,
            default: Some("2 r1 / r2 (identical routers, Kathareios et al., SC15, §2.2.2)"),
            help: "number of stacked SPTs; upper routers have radix s*r2",
        },
        p_param(),
    ],
    build,
    example: "sspt:r1=4,r2=3,s=2",
    display_name: "SSPT",
    sizes,
    routing: FamilyRouting {
        specific: &[],
        simulation: Some(SimulationChoice::new("min", "randperm", "min").noted(
            "mlfm_worst and oft_worst are defined on those families only; a random permutation stands in",
        )),
    },
    placement: ARBITRARY_PLACEMENT,
    design: Some(DESIGN),
};

const fn p_param() -> ParamDef {
    super::p_param("r1 (endpoints per lower router; upper routers have none)")
}

const R2_ALLOWED: &str = "2 (any r1: the complete graph), r1 with r1 - 1 a prime power (the projective plane, OFT), \
     r1 - 1 a prime power (the affine plane), or any r2 >= 2 when r1 = 1 (Kathareios et al., SC15, §2.2.2)";

/// Which 2-(R1, r2, 1) design joins the lower and upper routers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Design {
    Complete,
    Projective,
    Affine,
    Star,
}

/// An SSPT after checking its parameters.
#[derive(Debug, Clone, Copy)]
struct Shape {
    r1: u32,
    r2: u32,
    stacks: u32,
    p: u32,
    design: Design,
}

impl Shape {
    /// Lower routers per SPT, R1 = 1 + r1(r2 - 1).
    fn lower(&self) -> u64 {
        1 + self.r1 as u64 * (self.r2 as u64 - 1)
    }
    /// Upper routers, R2 = R1·r1/r2.
    fn upper(&self) -> u64 {
        self.lower() * self.r1 as u64 / self.r2 as u64
    }
}

fn read_shape(p: &Params) -> Result<Shape> {
    let r1 = p.u32(
        "r1",
        1,
        MAX_FIELD_ORDER + 1,
        "network radix of a lower router, >= 1",
    )?;
    let r2 = p.u32("r2", 2, MAX_FIELD_ORDER + 1, R2_ALLOWED)?;
    let design = if r2 == 2 {
        Design::Complete
    } else if r1 == 1 {
        Design::Star
    } else if r2 == r1 && check_order(r1 - 1, "sspt", "r2").is_ok() {
        Design::Projective
    } else if r2 + 1 == r1 && check_order(r2, "sspt", "r2").is_ok() {
        Design::Affine
    } else {
        return Err(p.invalid("r2", r2, &format!("{R2_ALLOWED}; r1 = {r1}")));
    };
    let stacks = match p.opt_u32("s", 1, MAX_FIELD_ORDER)? {
        Some(s) => s,
        None if (2 * r1) % r2 == 0 => 2 * r1 / r2,
        None => {
            return Err(p.invalid(
                "s",
                "none",
                &format!(
                    "a value given explicitly: r2 = {r2} does not divide 2 r1 = {}, so no default stacking gives identical routers",
                    2 * r1
                ),
            ))
        }
    };
    let shape = Shape {
        r1,
        r2,
        stacks,
        p: read_p(p, r1)?,
        design,
    };
    let routers = stacks as u128 * shape.lower() as u128 + shape.upper() as u128;
    let links = stacks as u128 * shape.lower() as u128 * r1 as u128;
    ensure_size(p, "r1", r1, routers, links)?;
    Ok(shape)
}

/// Lower routers have radix r1 + p, upper ones s·r2; balanced for p <= r1 (§2.2.2: "the number
/// of nodes connected to each level-one router is limited to p = r1").
fn sizes(p: &Params) -> Result<Sizes> {
    let s = read_shape(p)?;
    let lower = s.stacks as u64 * s.lower();
    Ok(Sizes {
        routers: lower + s.upper(),
        endpoints: lower * s.p as u64,
        radix: (s.r1 + s.p).max(s.stacks * s.r2),
        network_radix: s.r1.max(s.stacks * s.r2),
        concentration: s.p,
        balanced_concentration: s.r1 as f64,
        load: s.p as f64 / s.r1 as f64,
        radix_is_bound: false,
    })
}

/// The blocks of the design: the points (lower routers of one SPT) each upper router joins.
fn blocks(s: &Shape) -> Result<Vec<Vec<u32>>> {
    let (r1, r2) = (s.r1, s.r2);
    Ok(match s.design {
        Design::Complete => {
            // pairs {a, c}, a < c, in lexicographic order (as mlfm.rs numbers its GRs)
            let mut out = Vec::new();
            for a in 0..=r1 {
                for c in a + 1..=r1 {
                    out.push(vec![a, c]);
                }
            }
            out
        }
        Design::Star => vec![(0..r2).collect()],
        Design::Projective => {
            let field = Field::new(r1 - 1, "sspt", "r2")?;
            let table = oft::ml3b_table(&field);
            let mut out = vec![Vec::new(); table.len()];
            for (point, row) in table.iter().enumerate() {
                for &block in row {
                    out[block as usize].push(point as u32);
                }
            }
            out
        }
        Design::Affine => {
            let field = Field::new(r2, "sspt", "r2")?;
            let q = r2;
            let point = |x: u32, y: u32| x * q + y;
            let mut out = Vec::new();
            for m in 0..q {
                for c in 0..q {
                    out.push(
                        (0..q)
                            .map(|x| point(x, field.add(field.mul(m, x), c)))
                            .collect(),
                    );
                }
            }
            for c in 0..q {
                out.push((0..q).map(|y| point(c, y)).collect());
            }
            out
        }
    })
}

fn build(p: &Params) -> Result<Network> {
    let s = read_shape(p)?;
    let design = blocks(&s)?;
    let lower = s.lower() as usize;
    let stacks = s.stacks as usize;
    let first_upper = stacks * lower;
    let mut b = NetworkBuilder::new("sspt", first_upper + design.len(), false);
    b.label_fields(&["level", "stack", "index"]);
    let class = b.link_class("lower-upper");
    for stack in 0..stacks {
        for pt in 0..lower {
            let r = stack * lower + pt;
            b.set_label(r, &[0, stack as i64, pt as i64]);
            b.set_endpoints(r, s.p);
        }
    }
    for (block, points) in design.iter().enumerate() {
        b.set_label(first_upper + block, &[1, -1, block as i64]);
        for stack in 0..stacks {
            for &pt in points {
                b.add_link(stack * lower + pt as usize, first_upper + block, 1, class);
            }
        }
    }
    b.build()
}

/// What `topolab compare` tries of this family (docs/compare.md §1).
const DESIGN: DesignSpace = DesignSpace {
    enumerate: design_space,
    smaller_members: Some(smaller_members),
    twin: None,
    twin_origin: None,
};

/// Stacked Single-Path Trees other than the MLFM (r2 = 2) and the two-stack OFT, which their
/// own rules list: the projective plane (r2 = r1, r1 - 1 a prime power) with s != 2 stacks and
/// the affine plane (r2 = r1 - 1 a prime power), s from 1 while the upper radix s*r2 fits.
/// Lower radix r1 + p; balanced for p <= r1.
fn design_space(w: &Window) -> Vec<Candidate> {
    let mut out = Vec::new();
    for r1 in 3..w.radix {
        for r2 in [r1, r1 - 1] {
            for stacks in 1..=w.radix / r2 {
                if r2 == 2 || (r2 == r1 && stacks == 2) {
                    continue;
                }
                let params = |p: u32| {
                    vec![
                        ("r1", r1.into()),
                        ("r2", r2.into()),
                        ("s", stacks.into()),
                        ("p", p.into()),
                    ]
                };
                let Some(base) = sizes_of("sspt", &params(1)) else {
                    break;
                };
                let plane = if r2 == r1 {
                    "projective plane"
                } else {
                    "affine plane"
                };
                for p in w.concentrations(base.endpoints, (w.radix - r1) as i64) {
                    let mut tags = vec![plane.to_string()];
                    if p == r1 {
                        tags.push("p=r1".to_string());
                    }
                    out.extend(candidate(
                        "sspt",
                        params(p),
                        "Kathareios et al., SC15, §2.2.2",
                        tags,
                        false,
                    ));
                }
            }
        }
    }
    out
}

/// Smaller r1 with the same design (r2 = r1 or r1 - 1) and stacks, when it is built.
fn smaller_members(m: &Member) -> Result<Vec<String>> {
    let (r1, r2, stacks) = (m.int("r1")?, m.int("r2")?, m.int("s")?);
    Ok((2..r1)
        .filter_map(|r1_2| {
            let shape = format!("sspt:r1={r1_2},r2={},s={stacks}", r1_2 - (r1 - r2));
            let pb = balanced_of(&shape)?;
            Some(format!("{shape},p={}", scaled_p(m.p(), m.balanced(), pb)))
        })
        .collect())
}
