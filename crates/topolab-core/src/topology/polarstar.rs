//! PolarStar (Lakhotia, Monroe, Isham, Besta, Blach, Hoefler, Petrini, "PolarStar: Expanding the
//! Scalability Horizon of Diameter-3 Networks", SPAA 2024 / arXiv:2302.07217): the star product
//! (`star`) of ER_q (`polarfly`) with a supernode graph, diameter 3.
//!
//! Supernode, chosen by which parameter is given:
//! - `d`: the Inductive-Quad graph IQ_d (d ≡ 0 or 3 mod 4): 2d + 2 vertices of degree d with an
//!   involution φ. IQ_3 is the 8-vertex graph on A = {0,1,2,3}, φ(i) = i + 4, with links
//!   0-7, 4-7, 0-1, 4-1, 0-2, 4-2, 1-6, 5-6, 5-3, 5-7, 2-3, 6-3; IQ_4 adds the pair 8 = φ(9),
//!   8 joined to 0, 4, 1, 5 and 9 to 2, 6, 3, 7. IQ_(d+4) adds a copy of IQ_3 (its A-side
//!   vertices a0..a3, φ-partners b0..b3): a0, a1, b0, b1 are joined to every A-side vertex so
//!   far, a2, a3, b2, b3 to every φ-image side vertex, and the new A-side is a0..a3. These are
//!   the facts of the authors' public generator (IntelLabs/PolarFly, topogen/iq.py). φ is
//!   applied on every arc; ER_q keeps its loops at the quadrics (P_q of Bermond–Delorme–
//!   Farhi), each adding the matching x - φ(x), so the network is (q + 1 + d)-regular.
//! - `a`: the Paley graph of order a (a prime power ≡ 1 mod 4), bijection multiplication by the
//!   primitive element (as in `bundlefly`). That map is not an involution, so ER_q's loops are
//!   left out: quadric supernodes have one port fewer (diameter 3 does not need them:
//!   docs/families/polarstar.md).
//!
//! ER_q's links u - v (u < v) are the arcs u -> v.

use super::design::{
    balanced_of, candidate, scaled_p, sizes_of, Candidate, DesignSpace, Member, Window,
};
use super::{
    ensure_size, p_param, polarfly, read_p,
    star::{add_star_product, paley, paley_order_ok, star_balance, Structure, Supernode},
    Family, FamilyPlacement, FamilyRouting, ParamDef, ParamKind, SimulationChoice, Sizes,
};
use crate::error::Result;
use crate::field::{check_order, Field};
use crate::network::{Network, NetworkBuilder};
use crate::spec::Params;

pub const FAMILY: Family = Family {
    name: "polarstar",
    aliases: &["ps"],
    summary: "PolarStar: ER_q star an Inductive-Quad or Paley supernode, diameter 3",
    source: "Lakhotia et al., SPAA 2024 / arXiv:2302.07217 (PolarStar); star product of Bermond, Delorme & Farhi 1982",
    directed: false,
    params: &[
        ParamDef {
            name: "q",
            kind: ParamKind::Int,
            default: None,
            help: "prime power >= 2 of the ER_q structure graph",
        },
        ParamDef {
            name: "d",
            kind: ParamKind::Int,
            default: Some("none (give d or a)"),
            help: "Inductive-Quad supernode of degree d = 0 or 3 (mod 4), >= 3: 2d+2 vertices",
        },
        ParamDef {
            name: "a",
            kind: ParamKind::Int,
            default: Some("none (give d or a)"),
            help: "Paley supernode of order a, a prime power = 1 (mod 4), >= 5: degree (a-1)/2",
        },
        p_param("floor of the balanced p (Besta & Hoefler, SC14, §II-B2's channel load with the star product's distance bounds, star::star_balance)"),
    ],
    build,
    example: "polarstar:q=3,d=3",
    samples: &[
        "polarstar:q=2,d=3",
        "polarstar:q=3,d=4,p=2",
        "polarstar:q=3,a=9",
        "polarstar:q=4,a=5,p=3",
    ],
    display_name: "PolarStar",
    sizes,
    routing: FamilyRouting {
        specific: &[],
        simulation: Some(
            SimulationChoice::new("min", "randperm", "ugal_l")
                .noted("no structural worst case built: a random permutation"),
        ),
    },
    placement: FamilyPlacement::Grouped {
        field: "supernode",
        what: "polarstar racks: one supernode per rack (Lakhotia et al., PolarStar, modular layout)",
        structure: "polarstar (racks from the supernodes)",
    },
    design: Some(DESIGN),
};

enum Kind {
    InductiveQuad(u32),
    Paley(u32),
}

impl Kind {
    fn vertices(&self) -> u32 {
        match *self {
            Kind::InductiveQuad(d) => 2 * d + 2,
            Kind::Paley(a) => a,
        }
    }

    fn degree(&self) -> u32 {
        match *self {
            Kind::InductiveQuad(d) => d,
            Kind::Paley(a) => (a - 1) / 2,
        }
    }
}

/// IQ_d with its involution (module comment).
pub fn inductive_quad(d: u32) -> Supernode {
    const BASE: [(u32, u32); 12] = [
        (0, 7),
        (4, 7),
        (0, 1),
        (4, 1),
        (0, 2),
        (4, 2),
        (1, 6),
        (5, 6),
        (5, 3),
        (5, 7),
        (2, 3),
        (6, 3),
    ];
    let mut edges: Vec<(u32, u32)> = BASE.to_vec();
    let mut map: Vec<u32> = (0..8).map(|x| (x + 4) % 8).collect();
    let mut side_a: Vec<u32> = (0..4).collect();
    let mut side_b: Vec<u32> = (4..8).collect();
    let mut degree = 3;
    if d.is_multiple_of(4) {
        edges.extend([
            (8, 0),
            (8, 4),
            (8, 1),
            (8, 5),
            (9, 2),
            (9, 6),
            (9, 3),
            (9, 7),
        ]);
        map.extend([9, 8]);
        side_a.push(8);
        side_b.push(9);
        degree = 4;
    }
    while degree < d {
        let n = map.len() as u32;
        edges.extend(BASE.iter().map(|&(x, y)| (x + n, y + n)));
        map.extend((0..8).map(|x| n + (x + 4) % 8));
        for (i, side) in [(0u32, &side_a), (1, &side_a), (2, &side_b), (3, &side_b)] {
            for &v in side.iter() {
                edges.push((n + i, v));
                edges.push((n + i + 4, v));
            }
        }
        side_a.extend(n..n + 4);
        side_b.extend(n + 4..n + 8);
        degree += 4;
    }
    Supernode {
        vertices: map.len(),
        edges,
        map,
    }
}

/// (q, supernode, p) after checking them.
fn read_shape(p: &Params) -> Result<(u32, Kind, u32)> {
    let q = p.u32("q", 2, 1024, "prime power >= 2")?;
    check_order(q, "polarstar", "q")?;
    let kind = match (p.opt_u32("d", 3, 1024)?, p.opt_u32("a", 5, 1024)?) {
        (Some(d), None) => {
            if d % 4 != 0 && d % 4 != 3 {
                return Err(p.invalid(
                    "d",
                    d,
                    "an Inductive-Quad degree = 0 or 3 (mod 4): 3, 4, 7, 8, 11, 12, ...",
                ));
            }
            Kind::InductiveQuad(d)
        }
        (None, Some(a)) => {
            if !paley_order_ok(a) {
                return Err(p.invalid(
                    "a",
                    a,
                    "a Paley order: a prime power = 1 (mod 4) (5, 9, 13, 17, 25, 29, ...)",
                ));
            }
            Kind::Paley(a)
        }
        (Some(_), Some(a)) => {
            return Err(p.invalid("a", a, "no a when d is given (one supernode: d or a)"))
        }
        (None, None) => {
            return Err(p.invalid(
                "d",
                "missing",
                "a supernode: d (Inductive-Quad degree) or a (Paley order)",
            ))
        }
    };
    let k_net = q + 1 + kind.degree();
    let routers = polarfly::num_points(q) * kind.vertices() as u128;
    ensure_size(p, "q", q, routers, routers * k_net as u128 / 2)?;
    let conc = read_p(p, balanced_p(q, &kind, routers).floor().max(1.0) as u32)?;
    Ok((q, kind, conc))
}

fn balanced_p(q: u32, kind: &Kind, routers: u128) -> f64 {
    star_balance(q + 1, kind.degree(), kind.vertices(), routers)
}

fn sizes(p: &Params) -> Result<Sizes> {
    let (q, kind, conc) = read_shape(p)?;
    let k_net = q + 1 + kind.degree();
    let routers = polarfly::num_points(q) * kind.vertices() as u128;
    Ok(Sizes::direct(
        routers,
        k_net,
        conc,
        balanced_p(q, &kind, routers),
    ))
}

fn build(p: &Params) -> Result<Network> {
    let (q, kind, conc) = read_shape(p)?;
    let polarity = polarfly::polarity_graph(&Field::new(q, "polarstar", "q")?);
    let (supernode, loops): (Supernode, &[u32]) = match kind {
        Kind::InductiveQuad(d) => (inductive_quad(d), &polarity.quadrics),
        Kind::Paley(a) => (paley(&Field::new(a, "polarstar", "a")?), &[]),
    };
    let structure = Structure {
        vertices: polarity.num_points(),
        arcs: &polarity.edges,
        loops,
    };
    let routers = polarity.num_points() * supernode.vertices;
    let mut b = NetworkBuilder::new("polarstar", routers, false);
    add_star_product(&mut b, &structure, &supernode)?;
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

/// ER_q for every prime power q >= 2 star every Inductive-Quad supernode (degree d = 0 or 3
/// mod 4) and every Paley supernode (order a, a prime power = 1 mod 4) with q + 1 + degree
/// leaving a port; every p putting N in the window. Balanced p as for BDF
/// (star::star_balance).
fn design_space(w: &Window) -> Vec<Candidate> {
    let mut out = Vec::new();
    for q in 2..w.radix.saturating_sub(3) {
        if sizes_of("polarfly", &[("q", q.into()), ("p", 1u32.into())]).is_none() {
            continue;
        }
        let room = w.radix - 1 - (q + 1); // supernode ports left with one endpoint port
        let quads = (3..=room)
            .filter(|d| d % 4 == 0 || d % 4 == 3)
            .map(|d| ("d", d));
        let paleys = (5..2 * room + 2).step_by(4).map(|a| ("a", a));
        for (kind, size) in quads.chain(paleys) {
            let params = |p: u32| vec![("q", q.into()), (kind, size.into()), ("p", p.into())];
            let Some(base) = sizes_of("polarstar", &params(1)) else {
                continue;
            };
            if base.routers > w.hi {
                continue;
            }
            let tag = if kind == "d" {
                "Inductive-Quad supernode"
            } else {
                "Paley supernode"
            };
            for p in w.concentrations(base.routers, w.radix as i64 - base.network_radix as i64) {
                out.extend(candidate(
                    "polarstar",
                    params(p),
                    "Lakhotia et al., SPAA 2024 (PolarStar)",
                    vec![tag.to_string()],
                    false,
                ));
            }
        }
    }
    out
}

/// Smaller ER_q with the same supernode, then smaller supernodes of the same kind too.
fn smaller_members(m: &Member) -> Result<Vec<String>> {
    let q = m.int("q")?;
    let kind = if m.has("d") { "d" } else { "a" };
    let size = m.int(kind)?;
    let smaller: Vec<i64> = if kind == "d" {
        (3..=size).collect()
    } else {
        (5..=size).step_by(4).collect()
    };
    let mut out = Vec::new();
    for q2 in 2..=q {
        for &s2 in &smaller {
            if (q2, s2) == (q, size) {
                continue;
            }
            if let Some(pb) = balanced_of(&format!("polarstar:q={q2},{kind}={s2}")) {
                let p2 = scaled_p(m.p(), m.balanced(), pb);
                out.push(format!("polarstar:q={q2},{kind}={s2},p={p2}"));
            }
        }
    }
    Ok(out)
}

#[cfg(test)]
mod construction {
    //! PolarStar (Lakhotia et al., SPAA 2024): ER_q star an Inductive-Quad or Paley supernode.

    use crate::metrics::distance::diameter;
    use crate::{build_str, sizes_str};

    #[test]
    fn sizes_radix_and_diameter_three() {
        // (spec, supernode vertices, supernode degree)
        for (q, supernode, vertices, degree) in [
            (2u32, "d=3", 8u32, 3u32),
            (3, "d=3", 8, 3),
            (3, "d=4", 10, 4),
            (4, "d=7", 16, 7),
            (5, "d=8", 18, 8),
            (2, "a=5", 5, 2),
            (3, "a=9", 9, 4),
            (5, "a=13", 13, 6),
        ] {
            let spec = format!("polarstar:q={q},{supernode}");
            let net = build_str(&spec).unwrap();
            assert_eq!(
                net.num_routers() as u32,
                (q * q + q + 1) * vertices,
                "{spec}"
            );
            assert_eq!(net.network_radix(), q + 1 + degree, "{spec}");
            if supernode.starts_with('d') {
                // the loops at the quadrics make the IQ product regular
                assert!(
                    (0..net.num_routers()).all(|r| net.degree(r) == q + 1 + degree),
                    "{spec}: regular"
                );
            }
            assert_eq!(diameter(&net), Some(3), "{spec}");
            assert_eq!(
                sizes_str(&spec).unwrap().routers as usize,
                net.num_routers()
            );
        }
    }

    // IQ_d itself (regular, involution, property P*) is checked beside BDF's supernode, in
    // bdf.rs's `mod construction`.

    #[test]
    fn impossible_parameters_are_errors_naming_them() {
        for (spec, needle) in [
            ("polarstar:q=3,d=5", "'d'"),
            ("polarstar:q=3,d=6", "'d'"),
            ("polarstar:q=3,a=7", "'a'"),
            ("polarstar:q=6,d=3", "'q'"),
            ("polarstar:q=3,d=3,a=5", "'a'"),
            ("polarstar:q=3", "'d'"),
        ] {
            let msg = build_str(spec).unwrap_err().to_string();
            assert!(msg.contains(needle), "{spec}: {msg}");
            assert_eq!(sizes_str(spec).unwrap_err().to_string(), msg);
        }
    }
}
