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
    samples: &[
        "sspt:r1=3,r2=2",
        "sspt:r1=4,r2=4,p=2",
        "sspt:r1=4,r2=3,s=2",
        "sspt:r1=1,r2=5,s=3,p=2",
        "sspt:r1=6,r2=5,s=1,p=7",
    ],
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

#[cfg(test)]
mod construction {
    //! Stacked Single-Path Trees (Kathareios et al., SC15, §2.2.2): the paper's counts
    //! R1 = 1 + r1(r2 - 1), R2 = R1 r1 / r2, N = (r1²(r2 - 1) + r1)·2r1/r2 at p = r1 and s = 2r1/r2;
    //! the single-path property (one common upper router for two lower routers of one SPT, r1 for
    //! a router and its counterpart in another SPT); and the two special cases the paper names,
    //! which must be today's MLFM (§2.2.3) and OFT (§2.2.4) link for link.

    use crate::{build_str, sizes_str, Network};
    use std::collections::BTreeSet;

    fn edges(net: &Network, relabel: impl Fn(u32) -> u32) -> BTreeSet<(u32, u32)> {
        net.links()
            .iter()
            .map(|l| {
                let (a, b) = (relabel(l.src), relabel(l.dst));
                (a.min(b), a.max(b))
            })
            .collect()
    }

    /// (lower routers per SPT, upper routers, stacks) read from the labels.
    fn counts(net: &Network) -> (usize, usize, usize) {
        let lower = (0..net.num_routers()).filter(|&r| net.label(r)[0] == 0);
        let stacks = lower.clone().map(|r| net.label(r)[1]).max().unwrap() as usize + 1;
        let per = lower.count() / stacks;
        (per, net.num_routers() - per * stacks, stacks)
    }

    #[test]
    fn default_stacks_follow_the_papers_counts() {
        for (r1, r2) in [(3u64, 2u64), (6, 2), (3, 3), (4, 4), (6, 6), (2, 2), (1, 2)] {
            let spec = format!("sspt:r1={r1},r2={r2}");
            let Ok(net) = build_str(&spec) else {
                panic!("{spec} refused")
            };
            let r_one = 1 + r1 * (r2 - 1);
            let (per, upper, stacks) = counts(&net);
            assert_eq!(per as u64, r_one, "{spec}");
            assert_eq!(upper as u64, r_one * r1 / r2, "{spec}");
            assert_eq!(stacks as u64, 2 * r1 / r2, "{spec}");
            let n = (r1 * r1 * (r2 - 1) + r1) * 2 * r1 / r2;
            assert_eq!(net.num_endpoints(), n, "{spec}");
            // identical routers of radix 2 r1; 2 links per endpoint counting its own link (§2.2.2)
            for r in 0..net.num_routers() {
                assert_eq!(
                    net.degree(r) as u64 + net.endpoints()[r] as u64,
                    2 * r1,
                    "{spec}"
                );
            }
            assert_eq!(net.num_links() + n, 2 * n, "{spec}");
        }
    }

    #[test]
    fn one_upper_router_joins_two_lower_routers_of_an_spt() {
        for spec in [
            "sspt:r1=3,r2=2,s=2",
            "sspt:r1=4,r2=4",
            "sspt:r1=5,r2=5,s=3",
            "sspt:r1=4,r2=3,s=2",
            "sspt:r1=5,r2=4,s=2",
            "sspt:r1=6,r2=5,s=2",
            "sspt:r1=1,r2=4,s=2",
        ] {
            let net = build_str(spec).unwrap();
            let (per, _, stacks) = counts(&net);
            let r1 = net.neighbors(0).len();
            let up = |r: usize| -> BTreeSet<u32> { net.neighbors(r).iter().copied().collect() };
            for a in 0..per * stacks {
                for b in a + 1..per * stacks {
                    let common = up(a).intersection(&up(b)).count();
                    let expected = if a % per == b % per { r1 } else { 1 };
                    assert_eq!(common, expected, "{spec}: routers {a}, {b}");
                }
            }
        }
    }

    #[test]
    fn r2_two_is_the_mlfm_link_for_link() {
        for (h, l, p) in [(1u32, 1u32, 1u32), (3, 3, 3), (4, 2, 5), (5, 7, 1)] {
            let mlfm = build_str(&format!("mlfm:h={h},l={l},p={p}")).unwrap();
            let spec = format!("sspt:r1={h},r2=2,s={l},p={p}");
            let sspt = build_str(&spec).unwrap();
            assert_eq!(sspt.num_routers(), mlfm.num_routers(), "{spec}");
            assert_eq!(sspt.endpoints(), mlfm.endpoints(), "{spec}");
            assert_eq!(edges(&sspt, |r| r), edges(&mlfm, |r| r), "{spec}");
            let (a, b) = (
                sizes_str(&spec).unwrap(),
                sizes_str(&format!("mlfm:h={h},l={l},p={p}")).unwrap(),
            );
            assert_eq!(a, b, "{spec}");
        }
    }

    #[test]
    fn r2_equal_r1_with_two_stacks_is_the_oft_link_for_link() {
        for (k, p) in [(3u32, 3u32), (4, 4), (5, 2), (6, 6), (8, 1)] {
            let oft = build_str(&format!("oft:k={k},p={p}")).unwrap();
            let spec = format!("sspt:r1={k},r2={k},p={p}");
            let sspt = build_str(&spec).unwrap();
            let rl = 1 + k * (k - 1);
            // SSPT: stack 0, stack 1, upper; OFT: L0, L1 (upper), L2
            let to_oft = |r: u32| match r / rl {
                0 => r,
                1 => 2 * rl + r % rl,
                _ => rl + r % rl,
            };
            assert_eq!(sspt.num_routers(), oft.num_routers(), "{spec}");
            assert_eq!(edges(&sspt, to_oft), edges(&oft, |r| r), "{spec}");
            for r in 0..sspt.num_routers() as u32 {
                assert_eq!(
                    sspt.endpoints()[r as usize],
                    oft.endpoints()[to_oft(r) as usize]
                );
            }
            let (a, b) = (
                sizes_str(&spec).unwrap(),
                sizes_str(&format!("oft:k={k},p={p}")).unwrap(),
            );
            assert_eq!(a, b, "{spec}");
        }
    }

    #[test]
    fn designs_without_a_construction_are_refused_by_name() {
        for (spec, needle) in [
            ("sspt:r1=5,r2=3", "'r2'"), // no 2-(11, 3, 1) design built here
            ("sspt:r1=7,r2=7", "'r2'"), // 6 is not a prime power
            ("sspt:r1=7,r2=6", "'r2'"), // nor is 6
            ("sspt:r1=4,r2=3", "'s'"),  // 3 does not divide 8: s must be given
            ("sspt:r1=3,r2=1", "'r2'"),
            ("sspt:r1=0,r2=2", "'r1'"),
            ("sspt:r1=3,r2=2,s=0", "'s'"),
            ("sspt:r2=2", "r1"),
        ] {
            let e = build_str(spec)
                .err()
                .unwrap_or_else(|| panic!("{spec} accepted"));
            assert!(e.to_string().contains(needle), "{spec}: {e}");
            assert_eq!(
                sizes_str(spec).err().map(|e| e.to_string()),
                Some(e.to_string())
            );
        }
    }
}
