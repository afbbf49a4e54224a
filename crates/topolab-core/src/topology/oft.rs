//! Two-level Orthogonal Fat-Tree: the k-OFT of Kathareios et al., SC15, §2.2.4, two Single-Path
//! Trees with r1 = r2 = k stacked on a shared upper level (Kathareios et al., SC15, §2.2.2).
//!
//! Levels L0, L1 and L2 have R_L = 1 + k(k-1) routers each. Router (0, i) and its counterpart
//! (2, i) both connect to the k routers (1, j) listed in row i of the k-ML3B table, which is
//! built by the numbered steps of Kathareios et al., SC15, §2.2.4 from k - 2 mutually orthogonal
//! Latin squares of order k - 1. Only L0 and L2 routers carry endpoints.
//!
//! Router index: level·R_L + index.

use super::design::{candidate, sizes_of, smaller_by_one, Candidate, DesignSpace, Member, Window};
use super::{
    ensure_size, p_param, read_p, Family, FamilyRouting, ParamDef, ParamKind, SimulationChoice,
    Sizes, ARBITRARY_PLACEMENT,
};
use crate::error::Result;
use crate::field::{check_order, Field, MAX_FIELD_ORDER};
use crate::network::Capability;
use crate::network::{Network, NetworkBuilder};
use crate::spec::Params;
use crate::traffic::worst::offset;
use crate::traffic::worst::{field, read_offset, require, ring_shift, router_map};
use crate::traffic::PatternDef;
use crate::traffic::{Spec as TrafficSpec, Traffic};

/// Two-level OFT levels (level, index) (Kathareios et al., SC15, §2.2.3).
pub const OFT_LEVELS: Capability = Capability {
    what: "OFT levels",
    fields: &["level", "index"],
};

pub const FAMILY: Family = Family {
    name: "oft",
    aliases: &["orthogonal_fat_tree", "ml3b"],
    summary: "two-level Orthogonal Fat-Tree: 3 levels of 1+k(k-1) routers joined by the k-ML3B",
    source: "Kathareios et al., SC15, §2.2.4",
    directed: false,
    params: &[
        ParamDef {
            name: "k",
            kind: ParamKind::Int,
            default: None,
            help: "network radix of the endpoint routers; k - 1 must be a prime power (k = 3, 4, 5, 6, 8, 9, 10, 12, ...)",
        },
        p_param("k (endpoints per L0 and L2 router; L1 routers have none)"),
    ],
    build,
    example: "oft:k=4",
    display_name: "OFT",
    sizes,
    routing: FamilyRouting {
        specific: &[],
        simulation: Some(SimulationChoice::new("min", "oft_worst", "min")),
    },
    placement: ARBITRARY_PLACEMENT,
    design: Some(DESIGN),
};

const K_ALLOWED: &str =
    "an integer k with k - 1 a prime power (k = 3, 4, 5, 6, 8, 9, 10, 12, 14, 17, ...): \
     the k-ML3B is built from k - 2 mutually orthogonal Latin squares of order k - 1";

/// Routers per level, R_L = 1 + k(k-1) (Kathareios et al., SC15, §2.2.4).
pub fn routers_per_level(k: u32) -> u32 {
    1 + k * (k - 1)
}

/// The tabular representation of the k-ML3B, k = q + 1 for the field GF(q): row i lists the
/// L1 routers j that (0, i) connects to (Kathareios et al., SC15, §2.2.4, steps 1-3; Table 2 for k
/// = 4).
pub fn ml3b_table(field: &Field) -> Vec<Vec<u32>> {
    let q = field.order();
    let k = q + 1;
    let rl = routers_per_level(k);
    let mut table = vec![vec![0u32; k as usize]; rl as usize];
    // Step 1: the first row is [R_L - k, R_L - 1].
    for (c, cell) in table[0].iter_mut().enumerate() {
        *cell = rl - k + c as u32;
    }
    // Step 2: the rest of the first column is k - 1 copies of each of R_L - k, ..., R_L - 1, so
    // row 1 + s·(k-1) + r belongs to square s.
    for s in 0..k {
        for r in 0..q {
            table[(1 + s * q + r) as usize][0] = rl - k + s;
        }
    }
    // Step 3: square 0 holds 0..(k-1)^2 - 1 row-major, square 1 its transpose, square 1 + m
    // (m = 1..k-2) the Latin square L_m(r, c) = r + m·c over GF(k-1) with column c shifted by
    // c·(k-1). The paper does not say which MOLS; this family is the one that reproduces its
    // Table 2, and any complete set gives the same single-path property (it is the projective
    // plane of order k - 1), which is why prime powers work as well as primes.
    for s in 0..k {
        for r in 0..q {
            let row = &mut table[(1 + s * q + r) as usize];
            for c in 0..q {
                row[1 + c as usize] = match s {
                    0 => r * q + c,
                    1 => c * q + r,
                    _ => field.add(r, field.mul(s - 1, c)) + c * q,
                };
            }
        }
    }
    table
}

/// (k, p) after checking them.
fn read_shape(p: &Params) -> Result<(u32, u32)> {
    let k = p.u32("k", 0, MAX_FIELD_ORDER + 1, K_ALLOWED)?;
    if k < 3 || check_order(k - 1, "oft", "k").is_err() {
        return Err(p.invalid("k", k, K_ALLOWED));
    }
    let rl = routers_per_level(k) as u128;
    // Each L0 and L2 router has k links to L1: 2k·R_L links.
    ensure_size(p, "k", k, 3 * rl, 2 * k as u128 * rl)?;
    Ok((k, read_p(p, k)?))
}

/// L0 and L2 routers carry p endpoints over k up-links (radix k + p), L1 routers have 2k
/// links; balanced for p <= k (Kathareios et al., SC15, §2.2.4).
fn sizes(p: &Params) -> Result<Sizes> {
    let (k, conc) = read_shape(p)?;
    let rl = routers_per_level(k) as u64;
    Ok(Sizes {
        routers: 3 * rl,
        endpoints: 2 * rl * conc as u64,
        radix: (k + conc).max(2 * k),
        network_radix: 2 * k,
        concentration: conc,
        balanced_concentration: k as f64,
        load: conc as f64 / k as f64,
        radix_is_bound: false,
    })
}

fn build(p: &Params) -> Result<Network> {
    let (k, conc) = read_shape(p)?;
    let rl = routers_per_level(k) as u128;
    let field = Field::new(k - 1, "oft", "k")?;
    let table = ml3b_table(&field);

    let rl = rl as usize;
    let mut b = NetworkBuilder::new("oft", 3 * rl, false);
    b.label_fields(OFT_LEVELS.fields);
    let lower = b.link_class("l0-l1");
    let upper = b.link_class("l1-l2");
    for level in 0..3 {
        for i in 0..rl {
            b.set_label(level * rl + i, &[level as i64, i as i64]);
        }
    }
    for (i, row) in table.iter().enumerate() {
        b.set_endpoints(i, conc);
        b.set_endpoints(2 * rl + i, conc);
        for &j in row {
            let l1 = rl + j as usize;
            b.add_link(i, l1, 1, lower);
            b.add_link(l1, 2 * rl + i, 1, upper);
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

/// k - 1 a prime power, 2k <= K (L1 routers), L0/L2 radix k + p, N = 2 p (1 + k(k-1)).
/// Balanced for p <= k.
fn design_space(w: &Window) -> Vec<Candidate> {
    let mut out = Vec::new();
    for k in 3..=w.radix / 2 {
        let Some(base) = sizes_of("oft", &[("k", k.into()), ("p", 1u32.into())]) else {
            continue;
        };
        for p in w.concentrations(base.endpoints, (w.radix - k) as i64) {
            let tags = if p == k {
                vec!["p=k (Kathareios et al., SC15, §2.2.4)".to_string()]
            } else {
                Vec::new()
            };
            out.extend(candidate(
                "oft",
                vec![("k", k.into()), ("p", p.into())],
                "Kathareios et al., SC15, §2.2.4",
                tags,
                false,
            ));
        }
    }
    out
}

/// Every smaller k, p for the same load.
fn smaller_members(m: &Member) -> Result<Vec<String>> {
    smaller_by_one(m, "oft", "k", 3, 1)
}

/// OFT (Kathareios et al., SC15, §4.2): "the shift traffic pattern with an offset of k": endpoint
/// routers (L0 then L2, in index order) send to the next one; no router pairs with its counterpart,
/// so each pair has one minimal path and each of its links carries p = k flows.
pub(crate) fn worst_traffic(
    s: &TrafficSpec,
    net: &Network,
    offset: Option<i64>,
) -> Result<Traffic> {
    require(s, net, OFT_LEVELS)?;
    let (lf, xf) = (field(net, "level"), field(net, "index"));
    let ends: Vec<usize> = (0..net.num_routers())
        .filter(|&r| net.label(r)[lf] != 1 && net.endpoints()[r] > 0)
        .collect();
    let offset = read_offset(s, offset, ends.len(), "endpoint routers")?;
    let partner = ring_shift(net, &ends, offset);
    if let Some(&r) = ends
        .iter()
        .find(|&&r| net.label(r)[xf] == net.label(partner[r] as usize)[xf])
    {
        return Err(s.invalid(
            "offset",
            offset,
            &format!(
                "an offset that never pairs a router with its counterpart (routers {r} and {} \
                 are (0, i) and (2, i), which share all k L1 routers)",
                partner[r]
            ),
        ));
    }
    Ok(Traffic::Table {
        name: "oft_worst",
        dest: router_map(net, &partner),
    })
}

/// `oft_worst`: shift by endpoint routers.
pub const WORST_TRAFFIC: PatternDef = PatternDef {
    name: "oft_worst",
    aliases: &[],
    params: crate::traffic::worst::OFFSET_PARAMS,
    build: |s, net, _| worst_traffic(s, net, offset(s)?),
};
