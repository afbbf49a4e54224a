//! Bermond–Delorme–Farhi diameter-3 graphs P_u * G_{k'/3} (Bermond, Delorme & Farhi, "Large
//! graphs with given degree and diameter III", Annals of Discrete Mathematics 13, 1982; Besta &
//! Hoefler, SC14, §II-C1), for every odd prime power u.
//!
//! P_u is the polarity graph of PG(2, u) with a loop at each absolute point (`polarfly`'s ER_u,
//! degree u + 1 counting the loop). G_{k'/3} is a graph with property P* (SC14 §II-C1c): diameter
//! at most 2 and an involution f with V = {v} ∪ {f(v)} ∪ f(Γ(v)) ∪ Γ(f(v)) for every v. The star
//! product (`star`) uses f on every arc and loop. Then k' = 3(u + 1)/2 and
//! N_r = 8/27 k'^3 - 4/9 k'^2 + 2/3 k' = (u + 1)(u^2 + u + 1), so G has u + 1 = 2d vertices of
//! degree at most d = k'/3.
//!
//! SC14 refers to [6] for G's construction; topolab builds one of its own, checked in the tests
//! for property P*, diameter 2 and maximum degree d (u up to 49): vertices a_i = i and
//! b_i = d + i (i ∈ Z_d), f(a_i) = b_i.
//! - a_i ~ b_j for every arc i -> j of the rotational tournament (j - i ∈ {1, ..., m} mod d,
//!   m = floor((d - 1)/2)), and for even d also j - i = d/2 (both ways);
//! - the differences 1..m split into S_A = the first ceil(m/2) and S_B = the rest; a_i ~ a_(i±s)
//!   for s ∈ S_A and b_i ~ b_(i±s) for s ∈ S_B; for even d, b_i ~ b_(i+d/2), and also
//!   a_i ~ a_(i+d/2) when d ≡ 2 (mod 4); for d ≡ 3 (mod 4) also b_i ~ b_(i±1);
//! - for d ≡ 1 (mod 4), a_i ~ b_i.
//!
//! Why P* holds: for v = a_i, f(Γ(a_i)) ∪ Γ(b_i) contains b_j for every j ∈ S_A- or
//! S_B-neighbour, i.e. every j ≠ i (the two circulants cover all differences), and a_j for every
//! j joined to i by the tournament in either direction, i.e. every j ≠ i; v = b_i likewise.
//! The last three rules only spend the ports a vertex has left under degree d.
//!
//! The diameter-3 argument: for routers (x, s), (y, t) with x, y distinct and non-adjacent in
//! P_u, the common neighbour z gives (x, s) -> (z, f(s)) -> (y, s), with one supernode hop before,
//! between or after reaching Γ[s] ∪ f(Γ[f(s)]); a walk of length 3 from x to y (P_u with loops
//! has A^3 = (u+1)J + uA > 0) reaches (y, f(s)); P* says these cover V. Adjacent x, y: one arc
//! and G's diameter 2.

use super::design::{candidate, sizes_of, smaller_by_one, Candidate, DesignSpace, Member, Window};
use super::{
    ensure_size, p_param, polarfly, read_p,
    star::{add_star_product, star_balance, Structure, Supernode},
    Family, FamilyPlacement, FamilyRouting, ParamDef, ParamKind, SimulationChoice, Sizes,
};
use crate::error::Result;
use crate::field::{check_order, Field};
use crate::network::{Network, NetworkBuilder};
use crate::spec::Params;

pub const FAMILY: Family = Family {
    name: "bdf",
    aliases: &["bermond_delorme_farhi"],
    summary: "Bermond-Delorme-Farhi: P_u * G_{k'/3}, diameter 3, (u+1)(u^2+u+1) routers of network radix 3(u+1)/2",
    source: "Besta & Hoefler, SC14, §II-C; Bermond, Delorme & Farhi, Annals of Discrete Math. 13, 1982",
    directed: false,
    params: &[
        ParamDef {
            name: "u",
            kind: ParamKind::Int,
            default: None,
            help: "odd prime power >= 3 (the order of the projective plane of P_u)",
        },
        p_param("floor of the balanced p (Besta & Hoefler, SC14, §II-B2's channel load with the star product's distance bounds, star::star_balance)"),
    ],
    build,
    example: "bdf:u=3",
    display_name: "BDF",
    sizes,
    routing: FamilyRouting {
        specific: &[],
        simulation: Some(
            SimulationChoice::new("min", "randperm", "ugal_l")
                .noted("no published worst case: a random permutation"),
        ),
    },
    placement: FamilyPlacement::Grouped {
        field: "supernode",
        what: "bdf racks: one supernode (a copy of G_{k'/3}) per rack; no published layout",
        structure: "bdf (racks from the supernodes)",
    },
    design: Some(DESIGN),
};

/// k' = 3(u + 1)/2.
pub fn network_radix(u: u32) -> u32 {
    3 * (u + 1) / 2
}

/// N_r = (u + 1)(u^2 + u + 1).
pub fn routers(u: u32) -> u128 {
    (u as u128 + 1) * polarfly::num_points(u)
}

/// G_{k'/3} on 2d vertices with its involution (module comment).
pub fn supernode(d: u32) -> Supernode {
    let n = 2 * d as usize;
    let a = |i: u32| i % d;
    let b = |i: u32| d + i % d;
    let m = (d - 1) / 2;
    let split = m.div_ceil(2);
    let (s_a, mut s_b): (Vec<u32>, Vec<u32>) = ((1..=split).collect(), (split + 1..=m).collect());
    if d % 4 == 3 {
        s_b.push(1);
    }
    let mut edges = Vec::new();
    for i in 0..d {
        for s in 1..=m {
            edges.push((a(i), b(i + s)));
        }
        for &s in &s_a {
            edges.push((a(i), a(i + s)));
        }
        for &s in &s_b {
            edges.push((b(i), b(i + s)));
        }
        if d.is_multiple_of(2) {
            edges.push((a(i), b(i + d / 2)));
            if i < d / 2 {
                edges.push((b(i), b(i + d / 2)));
                if d % 4 == 2 {
                    edges.push((a(i), a(i + d / 2)));
                }
            }
        }
        if d % 4 == 1 {
            edges.push((a(i), b(i)));
        }
    }
    let map = (0..n as u32)
        .map(|x| if x < d { x + d } else { x - d })
        .collect();
    Supernode {
        vertices: n,
        edges,
        map,
    }
}

/// (u, p) after checking them.
fn read_shape(p: &Params) -> Result<(u32, u32)> {
    let u = p.u32("u", 3, 1024, "odd prime power >= 3")?;
    if u.is_multiple_of(2) {
        return Err(p.invalid(
            "u",
            u,
            "an odd prime power >= 3 (3, 5, 7, 9, 11, 13, ...): G_{k'/3} has (u+1)/2 ports",
        ));
    }
    check_order(u, "bdf", "u")?;
    let k_net = network_radix(u);
    ensure_size(p, "u", u, routers(u), routers(u) * k_net as u128 / 2)?;
    let conc = read_p(p, balanced_p(u).floor().max(1.0) as u32)?;
    Ok((u, conc))
}

fn balanced_p(u: u32) -> f64 {
    star_balance(u + 1, network_radix(u) - u - 1, u + 1, routers(u))
}

fn sizes(p: &Params) -> Result<Sizes> {
    let (u, conc) = read_shape(p)?;
    Ok(Sizes::direct(
        routers(u),
        network_radix(u),
        conc,
        balanced_p(u),
    ))
}

fn build(p: &Params) -> Result<Network> {
    let (u, conc) = read_shape(p)?;
    let field = Field::new(u, "bdf", "u")?;
    let polarity = polarfly::polarity_graph(&field);
    let structure = Structure {
        vertices: polarity.num_points(),
        arcs: &polarity.edges,
        loops: &polarity.quadrics,
    };
    let g = supernode(u.div_ceil(2));
    let mut b = NetworkBuilder::new("bdf", routers(u) as usize, false);
    add_star_product(&mut b, &structure, &g)?;
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

/// Every odd prime power u with network radix 3(u + 1)/2 leaving a port; every p putting N in
/// the window. Balanced p from SC14 §II-B2's channel load with the star product's distance
/// bounds (star::star_balance).
fn design_space(w: &Window) -> Vec<Candidate> {
    let mut out = Vec::new();
    for u in (3..w.radix).step_by(2) {
        if 3 * (u + 1) / 2 + 1 > w.radix {
            break;
        }
        let Some(base) = sizes_of("bdf", &[("u", u.into()), ("p", 1u32.into())]) else {
            continue;
        };
        for p in w.concentrations(base.routers, w.radix as i64 - base.network_radix as i64) {
            out.extend(candidate(
                "bdf",
                vec![("u", u.into()), ("p", p.into())],
                "Besta & Hoefler, SC14, §II-C",
                Vec::new(),
                false,
            ));
        }
    }
    out
}

/// Every smaller odd u, p for the same load.
fn smaller_members(m: &Member) -> Result<Vec<String>> {
    smaller_by_one(m, "bdf", "u", 3, 2)
}
