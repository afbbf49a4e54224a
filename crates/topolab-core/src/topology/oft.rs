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
    samples: &[
        "oft:k=3",
        "oft:k=4,p=2",
        "oft:k=5,p=9",
    ],
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

#[cfg(test)]
mod construction {
    //! Two-level Orthogonal Fat-Tree against Kathareios et al., SC15, §2.2.4 (Table 2, closed forms),
    //! the single-path property of Kathareios et al., SC15, §2.2.2/§2.3.3 and the sizes quoted in its
    //! §2.3.1 and §4.1.

    use crate::field::Field;
    use crate::metrics::distance::{diameter_among, endpoint_routers};
    use crate::topology::oft::ml3b_table;
    use crate::{build_str, Network, TopolabError};

    /// k with k - 1 prime, and k with k - 1 a proper prime power (5, 9, 10).
    const KS: [u64; 9] = [3, 4, 5, 6, 8, 9, 10, 12, 14];

    /// Largest number of ports any router uses. `Network::radix()` adds the largest concentration
    /// to the largest network degree, which overcounts when the two sit on different routers.
    fn router_radix(net: &Network) -> u32 {
        (0..net.num_routers())
            .map(|r| net.degree(r) + net.endpoints()[r])
            .max()
            .unwrap_or(0)
    }

    fn common_neighbours(net: &Network, a: usize, b: usize) -> usize {
        net.neighbors(a)
            .iter()
            .filter(|x| net.neighbors(b).binary_search(x).is_ok())
            .count()
    }

    #[test]
    fn the_4_ml3b_is_table_2() {
        // Kathareios et al., SC15, Table 2: row i lists the j such that (0, i) and (1, j) are
        // connected.
        let table2: [[u32; 4]; 13] = [
            [9, 10, 11, 12],
            [9, 0, 1, 2],
            [9, 3, 4, 5],
            [9, 6, 7, 8],
            [10, 0, 3, 6],
            [10, 1, 4, 7],
            [10, 2, 5, 8],
            [11, 0, 4, 8],
            [11, 1, 5, 6],
            [11, 2, 3, 7],
            [12, 0, 5, 7],
            [12, 1, 3, 8],
            [12, 2, 4, 6],
        ];
        let table = ml3b_table(&Field::new(3, "test", "q").unwrap());
        assert_eq!(table, table2.map(|r| r.to_vec()).to_vec());

        let net = build_str("oft:k=4").unwrap();
        for (i, row) in table2.iter().enumerate() {
            let mut want: Vec<u32> = row.iter().map(|&j| 13 + j).collect();
            want.sort();
            assert_eq!(net.neighbors(i), want.as_slice(), "(0,{i})");
            assert_eq!(net.neighbors(26 + i), want.as_slice(), "(2,{i})");
        }
    }

    #[test]
    fn counts_match_the_closed_forms() {
        // Kathareios et al., SC15, §2.2.4: R_L = 1 + k(k-1), R = 3k^2 - 3k + 3, N = 2k^3 - 2k^2 + 2k
        // with p = k, routers of radix 2k; Fig. 3: 2 links and 3 ports per end-node.
        for k in KS {
            let net = build_str(&format!("oft:k={k}")).unwrap();
            let n = 2 * k * k * k - 2 * k * k + 2 * k;
            assert_eq!(net.num_routers() as u64, 3 * k * k - 3 * k + 3, "R k={k}");
            assert_eq!(net.num_endpoints(), n, "N k={k}");
            assert_eq!(net.num_links() + n, 2 * n, "links per end-node k={k}");
            for r in 0..net.num_routers() {
                let ports = (net.degree(r) + net.endpoints()[r]) as u64;
                assert_eq!(ports, 2 * k, "router {r} radix k={k}");
                let level = net.label(r)[0];
                assert_eq!(
                    net.endpoints()[r] > 0,
                    level != 1,
                    "endpoints only on L0/L2"
                );
            }
        }
    }

    #[test]
    fn smaller_p_leaves_ports_free() {
        // p is the end-nodes per L0/L2 router (Kathareios et al., SC15, Table 1); p <= k stays within
        // radix 2k.
        for (k, p) in [(4u64, 1u64), (6, 3), (8, 0)] {
            let net = build_str(&format!("oft:k={k},p={p}")).unwrap();
            let rl = 1 + k * (k - 1);
            assert_eq!(net.num_endpoints(), 2 * rl * p);
            for r in 0..net.num_routers() {
                let ports = (net.degree(r) + net.endpoints()[r]) as u64;
                assert!(ports <= 2 * k, "router {r} k={k} p={p}");
            }
        }
    }

    #[test]
    fn endpoint_routers_are_two_hops_apart() {
        for k in KS {
            let net = build_str(&format!("oft:k={k}")).unwrap();
            let ends = endpoint_routers(&net);
            assert_eq!(ends.len() as u64, 2 * (1 + k * (k - 1)));
            assert_eq!(diameter_among(&net, &ends), Some(2), "k={k}");
        }
    }

    #[test]
    fn single_minimal_path_except_counterparts() {
        // Kathareios et al., SC15, §2.2.2 (SPT: exactly one minimal path between level-one routers) and
        // §2.3.3: only the counterparts (0, i), (2, i) share more, namely all k L1 routers.
        for k in KS {
            let net = build_str(&format!("oft:k={k}")).unwrap();
            let rl = (1 + k * (k - 1)) as usize;
            let ends = endpoint_routers(&net);
            for (x, &a) in ends.iter().enumerate() {
                for &b in &ends[x + 1..] {
                    let counterparts = b == a + 2 * rl;
                    let expected = if counterparts { k as usize } else { 1 };
                    assert_eq!(common_neighbours(&net, a, b), expected, "k={k} {a},{b}");
                }
            }
        }
    }

    #[test]
    fn labels_and_link_classes() {
        let net = build_str("oft:k=5").unwrap();
        let rl = 21;
        assert_eq!(net.label_fields(), ["level", "index"]);
        assert_eq!(net.link_classes(), ["l0-l1", "l1-l2"]);
        for r in 0..net.num_routers() {
            assert_eq!(net.label(r), [(r / rl) as i64, (r % rl) as i64]);
        }
        for link in net.links() {
            let (a, b) = (
                net.label(link.src as usize)[0],
                net.label(link.dst as usize)[0],
            );
            let class = &net.link_classes()[link.class as usize];
            match class.as_str() {
                "l0-l1" => assert_eq!((a, b), (0, 1)),
                _ => assert_eq!((a, b), (1, 2)),
            }
        }
    }

    #[test]
    fn sizes_quoted_in_the_paper() {
        // Kathareios et al., SC15, §4.1: OFT with k = 12, N = 3192, R = 399, r = 24.
        let net = build_str("oft:k=12").unwrap();
        assert_eq!(
            (net.num_endpoints(), net.num_routers(), router_radix(&net)),
            (3192, 399, 24)
        );
        // Kathareios et al., SC15, §2.3.1: with radix-64 routers the OFT supports approximately 63.5K
        // nodes.
        let net = build_str("oft:k=32").unwrap();
        assert_eq!(router_radix(&net), 64);
        assert_eq!(net.num_endpoints(), 63_552);
    }

    #[test]
    fn bad_parameters_are_errors_naming_the_parameter() {
        for (spec, needle) in [
            ("oft", "missing parameter 'k'"),
            (
                "oft:k=2",
                "'k' = 2 is not allowed: an integer k with k - 1 a prime power",
            ),
            ("oft:k=0", "'k' = 0"),
            ("oft:k=-1", "'k' = -1"),
            ("oft:k=5000", "'k' = 5000"),
            (
                "oft:k=7",
                "'k' = 7 is not allowed: an integer k with k - 1 a prime power",
            ),
            ("oft:k=11", "'k' = 11"),
            ("oft:k=16", "'k' = 16"),
            ("oft:k=abc", "'k'"),
            ("oft:k=4,p=-1", "'p' = -1"),
            ("oft:k=1025", "'k' = 1025"),
        ] {
            let msg = build_str(spec).unwrap_err().to_string();
            assert!(msg.contains(needle), "{spec}: {msg}");
        }
        let e = build_str("oft:k=4,q=3").unwrap_err();
        assert!(matches!(e, TopolabError::UnknownParameter { .. }), "{e}");
    }
}
