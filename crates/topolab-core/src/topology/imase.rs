//! Imase–Itoh digraphs (Koibuchi et al., 2018, §III-A, after Imase and Itoh 1981/1983): vertex i
//! has arcs to
//!   j = ((a·i + b)·d + α) mod n,  α = 0, 1, …, d-1,
//! with a = b = 1 as in Koibuchi et al.'s (2018) evaluation. Self-loops are omitted (their Fig. 2),
//! so a vertex whose d targets include itself keeps d-1 arcs out and d-1 arcs in.
//!
//! Constraints on a and b, which Koibuchi et al. (2018) leave as "constrained by d and n", derived
//! here:
//! - The d targets of a vertex are d consecutive residues, distinct exactly when d < n, so
//!   parallel arcs never arise; d >= n (which would need them) is rejected.
//! - a·d ≡ ±d (mod n) is required. Then the vertices reachable by walks of length l from i
//!   form an interval of d^l residues, so the diameter is at most ceil(log_d n), one more than
//!   the directed Moore bound allows at best (Koibuchi et al., 2018, §III-A), and every vertex has
//!   in-degree d. This covers a = 1 (the generalized de Bruijn digraph of 1981) and a = n-1, which
//!   with b = n-1 is the 1983 digraph i -> -d·i - α', α' = 1..d. Other a that still give in-degree
//!   d (those with gcd(a·d, n) = gcd(d, n)) lose the bound: a brute force over n < 26, d < 6 finds
//!   diameters up to 19 above ceil(log_d n), against Koibuchi et al.'s (2018) "little impact on hop
//!   counts".
//! - b is any residue: it shifts every block of targets by b·d, which moves the self-loops
//!   (so the arc count depends on b) but keeps the diameter bound.

use super::design::{free_digraphs, Candidate, DesignSpace, Window};
use super::random_directed::{digraph_sizes, read_order_and_degree};
use super::{
    p_param, read_p, Family, ParamDef, ParamKind, Sizes, ARBITRARY_PLACEMENT, NOT_SIMULATED,
};
use crate::error::Result;
use crate::network::{Network, NetworkBuilder};
use crate::spec::Params;

/// Koibuchi et al., 2018, §III-B3 attaches four hosts to each switch.
const DEFAULT_P: u32 = 4;

pub const FAMILY: Family = Family {
    name: "imase",
    aliases: &["imase_itoh"],
    summary: "Imase-Itoh digraph: i -> ((a i + b) d + alpha) mod n, in/out-degree d, diameter <= ceil(log_d n)",
    source: "Koibuchi et al., 2018, §III-A, §III-B1",
    directed: true,
    params: &[
        ParamDef {
            name: "n",
            kind: ParamKind::Int,
            default: None,
            help: "number of routers, > d",
        },
        ParamDef {
            name: "d",
            kind: ParamKind::Int,
            default: None,
            help: "out-degree (= in-degree) of every router, >= 2 (d-1 on routers whose targets include themselves)",
        },
        ParamDef {
            name: "a",
            kind: ParamKind::Int,
            default: Some("1 (Koibuchi et al., 2018, §III-A)"),
            help: "multiplier, 1 <= a < n with a d = +d or -d (mod n), e.g. 1 or n-1",
        },
        ParamDef {
            name: "b",
            kind: ParamKind::Int,
            default: Some("1 (Koibuchi et al., 2018, §III-A)"),
            help: "offset, 0 <= b < n",
        },
        p_param("4 (Koibuchi et al., 2018, §III-B3)"),
    ],
    build,
    example: "imase:n=8,d=3",
    display_name: "Imase-Itoh",
    sizes,
    routing: NOT_SIMULATED,
    placement: ARBITRARY_PLACEMENT,
    design: Some(DESIGN),
};

/// Out-degree d (less where an arc would be a loop).
fn sizes(p: &Params) -> Result<Sizes> {
    let (n, d, _, _, conc) = read_shape(p)?;
    Ok(digraph_sizes(n, d, conc))
}

/// (n, d, a, b, p) after checking them.
fn read_shape(p: &Params) -> Result<(u32, u32, u32, u32, u32)> {
    let (n, d) = read_order_and_degree(p)?;
    let a = p.opt_u32("a", 1, n - 1)?.unwrap_or(1);
    let b_off = p.opt_u32("b", 0, n - 1)?.unwrap_or(1);
    let (n64, d64, a64) = (n as u64, d as u64, a as u64);
    let ad = a64 * d64 % n64;
    if ad != d64 && ad != n64 - d64 {
        return Err(p.invalid(
            "a",
            a,
            &format!(
                "a value with a*d = +d or -d (mod n), e.g. 1 or n-1 = {}; only those keep the diameter <= ceil(log_d n)",
                n - 1
            ),
        ));
    }
    Ok((n, d, a, b_off, read_p(p, DEFAULT_P)?))
}

fn build(p: &Params) -> Result<Network> {
    let (n, d, a, b_off, conc) = read_shape(p)?;
    let (n64, d64, a64) = (n as u64, d as u64, a as u64);

    let mut b = NetworkBuilder::new("imase", n as usize, true);
    b.label_fields(&["index"]);
    let arc = b.link_class("arc");
    for i in 0..n64 {
        b.set_label(i as usize, &[i as i64]);
        let start = (a64 * i + b_off as u64) % n64 * d64 % n64;
        for alpha in 0..d64 {
            let j = (start + alpha) % n64;
            if j != i {
                b.add_link(i as usize, j as usize, 1, arc);
            }
        }
    }
    b.uniform_endpoints(conc);
    b.build()
}

/// What `topolab compare` tries of this family (docs/compare.md §1).
const DESIGN: DesignSpace = DesignSpace {
    enumerate: design_space,
    smaller_members: None,
    twin: None,
    twin_origin: None,
};

/// Imase-Itoh digraphs (Koibuchi et al., 2018, §III-A, a = b = 1) at full radix: d = K - p, n ~
/// N/p.
fn design_space(w: &Window) -> Vec<Candidate> {
    free_digraphs(w, "imase", "Koibuchi et al., 2018, §III-A")
}
