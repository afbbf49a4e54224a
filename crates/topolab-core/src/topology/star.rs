//! The star product of Bermond, Delorme & Farhi ("Large graphs with given degree and diameter
//! III", Annals of Discrete Mathematics 13, 1982; as quoted by Besta & Hoefler, SC14, §II-C1a),
//! shared by `bdf`, `polarstar` and `bundlefly`, and the Paley supernode graph two of them use.
//!
//! G1 * G2 has vertex set V1 x V2. Take an orientation U of G1's edges and a bijection
//! f_(x,y) of V2 for every arc (x, y) of U; (a1, a2) ~ (b1, b2) iff a1 = b1 and a2 ~ b2 in G2,
//! or (a1, b1) ∈ U and b2 = f_(a1,b1)(a2). Every construction here uses one bijection f for all
//! arcs. A loop of G1 at x (Bermond–Delorme–Farhi's polarity graph P_u has one at each absolute
//! point) is the arc (x, x): (x, a2) ~ (x, f(a2)), which for an involution f is a matching of
//! the supernode's vertices (no link where f(a2) = a2 or a2 ~ f(a2) already).
//!
//! Router (a1, a2) has index a1·|V2| + a2; labels `supernode` (a1) and `vertex` (a2).

use crate::error::{Result, TopolabError};
use crate::field::Field;
use crate::network::NetworkBuilder;

/// The structure graph G1: arcs (x, y) as oriented, and the vertices with a loop.
pub struct Structure<'a> {
    pub vertices: usize,
    pub arcs: &'a [(u32, u32)],
    pub loops: &'a [u32],
}

/// The supernode graph G2 and the bijection f applied along every arc.
pub struct Supernode {
    pub vertices: usize,
    pub edges: Vec<(u32, u32)>,
    pub map: Vec<u32>,
}

impl Supernode {
    fn is_involution(&self) -> bool {
        self.map
            .iter()
            .enumerate()
            .all(|(x, &y)| self.map[y as usize] as usize == x)
    }
}

/// Adds the star product's routers' labels and links to `b` (which has |V1|·|V2| routers).
/// Loops need an involution (so that a loop adds a matching, as in Bermond–Delorme–Farhi).
pub fn add_star_product(
    b: &mut NetworkBuilder,
    structure: &Structure,
    supernode: &Supernode,
) -> Result<()> {
    let n2 = supernode.vertices;
    if !structure.loops.is_empty() && !supernode.is_involution() {
        return Err(TopolabError::InvalidNetwork(
            "a star product with loops needs an involution as its supernode bijection".into(),
        ));
    }
    b.label_fields(&["supernode", "vertex"]);
    for a in 0..structure.vertices {
        for x in 0..n2 {
            b.set_label(a * n2 + x, &[a as i64, x as i64]);
        }
    }
    let intra = b.link_class("intra-supernode");
    let inter = b.link_class("inter-supernode");
    let mut supernode_adjacent = vec![false; n2 * n2];
    for &(x, y) in &supernode.edges {
        supernode_adjacent[x as usize * n2 + y as usize] = true;
        supernode_adjacent[y as usize * n2 + x as usize] = true;
    }
    for a in 0..structure.vertices {
        for &(x, y) in &supernode.edges {
            b.add_link(a * n2 + x as usize, a * n2 + y as usize, 1, intra);
        }
    }
    for &(s, t) in structure.arcs {
        for x in 0..n2 {
            let fx = supernode.map[x] as usize;
            b.add_link(s as usize * n2 + x, t as usize * n2 + fx, 1, inter);
        }
    }
    for &a in structure.loops {
        for x in 0..n2 {
            let fx = supernode.map[x] as usize;
            if x < fx && !supernode_adjacent[x * n2 + fx] {
                b.add_link(a as usize * n2 + x, a as usize * n2 + fx, 1, intra);
            }
        }
    }
    Ok(())
}

/// The Paley graph of order a ≡ 1 (mod 4) over GF(a): x ~ y iff y - x is a non-zero square,
/// (a - 1)/2-regular of diameter 2. Its bijection is multiplication by the primitive element ξ,
/// a non-square, which maps the graph onto its complement (x - y square iff ξx - ξy is not):
/// the property the diameter-3 argument of `bundlefly` and `polarstar` uses.
pub fn paley(field: &Field) -> Supernode {
    let a = field.order();
    let xi = field.primitive_element();
    let mut is_square = vec![false; a as usize];
    for x in 1..a {
        is_square[field.mul(x, x) as usize] = true;
    }
    let mut edges = Vec::new();
    for x in 0..a {
        for y in x + 1..a {
            if is_square[field.sub(y, x) as usize] {
                edges.push((x, y));
            }
        }
    }
    Supernode {
        vertices: a as usize,
        edges,
        map: (0..a).map(|x| field.mul(xi, x)).collect(),
    }
}

/// Balanced concentration of a diameter-3 star product by Besta & Hoefler, SC14, §II-B2's
/// channel load (p = k' N_r / sum of distances from a router), with the distances bounded by
/// the product's structure instead of the Moore bound: k' routers at distance 1; at distance 2
/// at most the supernode's own second layer (min(n2 - 1 - d2, d2 (d2 - 1))), 2 d1 d2 routers
/// one supernode hop and one arc away, and d1 (d1 - 1) two arcs away; everyone else at 3.
/// Still optimistic (an upper bound on the routers within 2), but a lopsided product (few
/// large supernodes) has far fewer routers at distance 2 than the Moore bound's k'(k' - 1):
/// e.g. ER_3 star Paley(53), k' = 30, N_r = 689, measures p = 11.5; the Moore estimate gives
/// 15.3 and this one 11.8.
pub fn star_balance(
    structure_degree: u32,
    supernode_degree: u32,
    supernode_vertices: u32,
    routers: u128,
) -> f64 {
    let (d1, d2, n2) = (
        structure_degree as u128,
        supernode_degree as u128,
        supernode_vertices as u128,
    );
    let k = d1 + d2;
    let others = routers - 1;
    let first = k.min(others);
    let inside = (n2 - 1 - d2).min(d2 * d2.saturating_sub(1));
    let second = (inside + 2 * d1 * d2 + d1 * d1.saturating_sub(1)).min(others - first);
    let third = others - first - second;
    let total = first + 2 * second + 3 * third;
    (k * routers) as f64 / total as f64
}

/// Paley order check shared by the families that take one: a prime power ≡ 1 (mod 4).
pub fn paley_order_ok(a: u32) -> bool {
    a % 4 == 1 && crate::field::prime_power(a).is_some()
}
