//! Long Hop hypercube (LH-HC): the Cayley graph of Z_2^n whose generators are the columns of a
//! binary linear code's systematic generator matrix [I_n | A] (Tomic, "Network Throughput
//! Optimization via Error Correcting Codes", arXiv 2013, section E-S-3; Besta & Hoefler, SC14,
//! §III). The n unit columns are the hypercube's links; the L columns of A are each router's L
//! long hops: router x is joined to x XOR a_j. Tomic's equivalence: the bisection of such a
//! Cayley graph is Δ · 2^n / 2 links, Δ the code's minimum distance, so the recipe takes the
//! [n + L, n] code of largest minimum distance.
//!
//! topolab builds the codes whose optimality it can prove without a code table:
//! - Δ = 4 when n <= 2^(L-1) - L: the rows of A are distinct vectors of odd weight >= 3 in
//!   Z_2^L (a shortened extended Hamming code);
//! - Δ = 3 when n <= 2^L - L - 1: distinct rows of weight >= 2 (a shortened Hamming code);
//! - Δ = 2 otherwise: rows of weight >= 1 (L = 1: the all-ones hop of the folded hypercube).
//!
//! Each is the largest Δ an [n + L, n] code can have where the sphere-packing bound rules out
//! Δ = 5 (a [m, n, 4] code exists iff a [m - 1, n, 3] one does, iff 2^(L-1) >= m), which is why
//! L is bounded: beyond it the optimum is a code from the tables Tomic draws on, which topolab
//! does not hold. Among the admissible rows, A takes those of largest weight (then value): with
//! L = 5 this gives SC14 Table II's diameters 4-6 for n = 8..13 and Table IV's radix 19 at
//! n = 13 (p = 1), with Δ = 3, the bisection 3N/2 of SC14 §III-C.

use super::design::{candidate, tags, Candidate, DesignSpace, Window, P1_TAG};
use super::{
    ensure_size, p_param, read_p, Family, FamilyPlacement, FamilyRouting, ParamDef, ParamKind,
    Sizes,
};
use crate::error::Result;
use crate::network::{Network, NetworkBuilder};
use crate::spec::Params;

/// L of Besta & Hoefler's LH-HC (SC14, Table IV: radix 19 = 13 cube links + 5 long hops + 1
/// endpoint at n = 13).
pub const SC14_LONG_HOPS: u32 = 5;

pub const FAMILY: Family = Family {
    name: "longhop",
    aliases: &["lh_hc", "lhhc"],
    summary: "Long Hop hypercube: 2^n routers, hypercube links plus L long hops from an error-correcting code",
    source: "Tomic, arXiv 2013, §E-S-3; Besta & Hoefler, SC14, §III",
    directed: false,
    params: &[
        ParamDef {
            name: "n",
            kind: ParamKind::Int,
            default: None,
            help: "hypercube dimension; 2^n routers",
        },
        ParamDef {
            name: "hops",
            kind: ParamKind::Int,
            default: Some("5 (Besta & Hoefler, SC14, Table IV: radix 19 at n = 13)"),
            help: "L, long hops per router: the parity columns of an [n + L, n] code of largest minimum distance",
        },
        p_param("1 (Besta & Hoefler, SC14, §III uses p = 1 for LH-HC)"),
    ],
    build,
    example: "longhop:n=8",
    samples: &[
        "longhop:n=4,hops=1",
        "longhop:n=8",
        "longhop:n=6,hops=3,p=2",
    ],
    display_name: "Long Hop hypercube",
    sizes,
    // Besta & Hoefler, SC14, §V: "there is no proposed routing scheme for LH-HC", so the
    // design comparison does not simulate it; the generic routings (min, valiant, ...) apply.
    routing: FamilyRouting {
        specific: &[],
        simulation: None,
    },
    placement: FamilyPlacement::Sequential {
        what: "sequential in canonical order, as the hypercube (Fujiwara et al., IPDPS 2014, §III-A)",
    },
    design: Some(DESIGN),
};

/// The code behind an LH-HC: the generators (n unit vectors, then the L long hops) and the
/// minimum distance Δ of the code [I_n | A] they are the columns of.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LongHopCode {
    pub n: u32,
    pub long_hops: u32,
    pub min_distance: u32,
    /// Rows of A: row i (an L-bit word) is what unit vector e_i adds to each long hop.
    pub rows: Vec<u32>,
}

impl LongHopCode {
    /// Generator j of the Cayley graph as an n-bit word: e_j for j < n, else column j - n of A.
    pub fn generators(&self) -> Vec<u64> {
        let mut gens: Vec<u64> = (0..self.n).map(|i| 1u64 << i).collect();
        for j in 0..self.long_hops {
            let column = self
                .rows
                .iter()
                .enumerate()
                .filter(|(_, &row)| row >> j & 1 == 1)
                .fold(0u64, |acc, (i, _)| acc | 1 << i);
            gens.push(column);
        }
        gens
    }

    /// Links crossing the bisection (Tomic's equivalence): Δ · 2^n / 2.
    pub fn bisection_links(&self) -> u64 {
        self.min_distance as u64 * (1u64 << self.n) / 2
    }
}

/// The rows of A for `min_distance` (module comment), or None when there are too few.
fn code_rows(n: u32, long_hops: u32, min_distance: u32) -> Option<Vec<u32>> {
    let admissible = |w: u32| match min_distance {
        4 => w >= 3 && w % 2 == 1,
        3 => w >= 2,
        _ => w >= 1,
    };
    let mut rows: Vec<u32> = (1u32..1 << long_hops)
        .filter(|v| admissible(v.count_ones()))
        .collect();
    rows.sort_by_key(|v| (std::cmp::Reverse(v.count_ones()), std::cmp::Reverse(*v)));
    if min_distance == 2 {
        // Rows may repeat at Δ = 2; cycling keeps the long hops as different as they can be.
        return Some((0..n as usize).map(|i| rows[i % rows.len()]).collect());
    }
    (rows.len() >= n as usize).then(|| rows[..n as usize].to_vec())
}

/// The largest minimum distance an [n + L, n] binary code can have, when it is at most 4
/// (None when the sphere-packing bound leaves room for 5, where topolab has no code).
fn best_distance(n: u32, long_hops: u32) -> Option<u32> {
    let m = (n + long_hops) as u128;
    let redundancy = 1u128 << long_hops;
    if redundancy >= 1 + m + m * (m - 1) / 2 {
        return None;
    }
    Some(if redundancy / 2 >= m {
        4
    } else if redundancy > m {
        3
    } else {
        2
    })
}

/// The code for dimension n and L long hops, when topolab builds one: a code of best minimum
/// distance whose n + L columns are distinct and nonzero (no loops, no parallel links).
pub fn long_hop_code(n: u32, long_hops: u32) -> Option<LongHopCode> {
    if long_hops == 0 || long_hops > 30 || n > 62 {
        return None;
    }
    let min_distance = best_distance(n, long_hops)?;
    let rows = code_rows(n, long_hops, min_distance)?;
    let code = LongHopCode {
        n,
        long_hops,
        min_distance,
        rows,
    };
    let mut gens = code.generators();
    gens.sort_unstable();
    gens.dedup();
    (gens.len() == (n + long_hops) as usize && gens[0] != 0).then_some(code)
}

/// The L that `long_hop_code` accepts for dimension n, as "a..=b" text for error messages.
fn allowed_long_hops(n: u32) -> String {
    let ok: Vec<u32> = (1..=30)
        .filter(|&l| long_hop_code(n, l).is_some())
        .collect();
    match (ok.first(), ok.last()) {
        (Some(a), Some(b)) if ok.len() as u32 == b - a + 1 => {
            format!("an integer in {a}..={b} for n = {n} (a larger L leaves room for a code of minimum distance >= 5, which topolab does not construct)")
        }
        (Some(_), Some(_)) => format!(
            "one of {} for n = {n}",
            ok.iter()
                .map(|l| l.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        ),
        _ => format!(
            "no number of hops works for n = {n}: the long hops would repeat a hypercube link"
        ),
    }
}

/// (code, p) after checking the parameters.
fn read_shape(p: &Params) -> Result<(LongHopCode, u32)> {
    let n = p.u32("n", 2, 62, "hypercube dimension >= 2; 2^n routers")?;
    let long_hops = p.opt_u32("hops", 1, 30)?.unwrap_or(SC14_LONG_HOPS);
    let routers = 1u128 << n;
    ensure_size(p, "n", n, routers, routers * (n + long_hops) as u128 / 2)?;
    let code = long_hop_code(n, long_hops)
        .ok_or_else(|| p.invalid("hops", long_hops, &allowed_long_hops(n)))?;
    Ok((code, read_p(p, 1)?))
}

/// Σ over all routers x of the distance from router 0 to x: the Cayley graph looks the same from
/// every router, so this is each router's sum. A breadth-first search over Z_2^n, no links.
pub fn distance_sum(code: &LongHopCode) -> u64 {
    let gens = code.generators();
    let size = 1usize << code.n;
    let mut dist = vec![u8::MAX; size];
    dist[0] = 0;
    let (mut frontier, mut total, mut level) = (vec![0u64], 0u64, 0u64);
    while !frontier.is_empty() {
        level += 1;
        let mut next = Vec::new();
        for &x in &frontier {
            for &g in &gens {
                let y = (x ^ g) as usize;
                if dist[y] == u8::MAX {
                    dist[y] = level as u8;
                    total += level;
                    next.push(y as u64);
                }
            }
        }
        frontier = next;
    }
    total
}

/// Balanced p of Besta & Hoefler, SC14, §II-B2: k' N_r / Σ distances, with the exact distances
/// of the Cayley graph (every router sees the same distribution).
fn balanced_p(code: &LongHopCode) -> f64 {
    let k_net = (code.n + code.long_hops) as f64;
    k_net * (1u64 << code.n) as f64 / distance_sum(code) as f64
}

fn sizes(p: &Params) -> Result<Sizes> {
    let (code, conc) = read_shape(p)?;
    Ok(Sizes::direct(
        1u128 << code.n,
        code.n + code.long_hops,
        conc,
        balanced_p(&code),
    ))
}

fn build(p: &Params) -> Result<Network> {
    let (code, conc) = read_shape(p)?;
    let n = code.n as usize;
    let routers = 1usize << n;
    let gens = code.generators();

    let mut b = NetworkBuilder::new("longhop", routers, false);
    // The hypercube's labels: the cube links are a hypercube subgraph.
    super::hypercube::label_bits(&mut b, n);
    for i in 0..n {
        b.link_class(&format!("dim{i}"));
    }
    for j in 0..code.long_hops {
        b.link_class(&format!("hop{j}"));
    }
    for r in 0..routers {
        for (class, &g) in gens.iter().enumerate() {
            let other = r ^ g as usize;
            if r < other {
                b.add_link(r, other, 1, class as u16);
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

/// 2^n routers, every number of long hops L the family builds with n + L + p <= K, every p;
/// p = 1 as in Besta & Hoefler, SC14, §III (exempt like the hypercube's), larger p subject to the
/// limits. Balanced p: Besta & Hoefler, SC14, §II-B2's k' N_r / sum of distances, exact for the
/// Cayley graph.
fn design_space(w: &Window) -> Vec<Candidate> {
    let mut out = Vec::new();
    let mut n = 2u32;
    while n < 63 && 1u64 << n <= w.hi && n + 2 <= w.radix {
        'hops: for hops in 1..w.radix - n {
            for p in w.concentrations(1 << n, w.radix as i64 - n as i64 - hops as i64) {
                let tags = if p == 1 { tags(&[P1_TAG]) } else { Vec::new() };
                let Some(c) = candidate(
                    "longhop",
                    vec![("n", n.into()), ("hops", hops.into()), ("p", p.into())],
                    "Tomic, arXiv 2013, §E-S-3; Besta & Hoefler, SC14, §III, Table IV",
                    tags,
                    p == 1,
                ) else {
                    continue 'hops; // this L is not built for n: no p makes it so
                };
                out.push(c);
            }
        }
        n += 1;
    }
    out
}

#[cfg(test)]
mod construction {
    //! Long Hop hypercube against what Tomic (arXiv 2013) and Besta & Hoefler (SC14, §III, Tables
    //! II and IV) state: 2^n routers of network radix n + L, the code's minimum distance found by
    //! brute force and no better code possible (sphere packing), the bisection Δ N / 2 of Tomic's
    //! equivalence (the code's cut is that size, METIS finds no smaller), and Table II's diameters.

    use crate::metrics::bisection::bisection;
    use crate::metrics::distance::{diameter, distances};
    use crate::progress::Silent;
    use crate::topology::longhop::{long_hop_code, LongHopCode};
    use crate::{build_str, sizes_str};

    /// Minimum weight of a nonzero codeword x [I | A], by trying every message x.
    fn brute_force_min_distance(code: &LongHopCode) -> u32 {
        (1u32..1 << code.n)
            .map(|x| {
                let parity = code
                    .rows
                    .iter()
                    .enumerate()
                    .filter(|(i, _)| x >> i & 1 == 1)
                    .fold(0u32, |acc, (_, &row)| acc ^ row);
                x.count_ones() + parity.count_ones()
            })
            .min()
            .unwrap()
    }

    /// Whether a binary [m, n, d] code may exist by the sphere-packing (Hamming) bound.
    fn sphere_packing_allows(m: u32, n: u32, d: u32) -> bool {
        let t = (d - 1) / 2;
        let mut binom = 1u128;
        let mut ball = 1u128;
        for i in 1..=t {
            binom = binom * (m - i + 1) as u128 / i as u128;
            ball += binom;
        }
        ball << n <= 1u128 << m
    }

    #[test]
    fn routers_degree_and_links_follow_the_closed_forms() {
        for (n, hops) in [(3u32, 1u32), (5, 2), (6, 3), (8, 5), (10, 5), (9, 6)] {
            let net = build_str(&format!("longhop:n={n},hops={hops}")).unwrap();
            let routers = 1usize << n;
            assert_eq!(net.num_routers(), routers);
            for r in 0..routers {
                assert_eq!(net.degree(r), n + hops, "n={n} L={hops} router {r}");
            }
            assert_eq!(net.num_links(), (n + hops) as u64 * routers as u64 / 2);
            assert_eq!(net.num_endpoints(), routers as u64, "p defaults to 1");
            // The hypercube is a subgraph: every cube link flips one bit.
            let cube = net
                .links()
                .iter()
                .filter(|l| (l.src ^ l.dst).is_power_of_two());
            assert_eq!(cube.count(), n as usize * routers / 2);
        }
    }

    #[test]
    fn the_code_has_the_best_minimum_distance_possible() {
        for n in 2u32..=13 {
            for hops in 1u32..=8 {
                let Some(code) = long_hop_code(n, hops) else {
                    continue;
                };
                let m = n + hops;
                assert_eq!(
                    brute_force_min_distance(&code),
                    code.min_distance,
                    "n={n} L={hops}"
                );
                // Even distances: an [m, n, 2t] code exists iff an [m - 1, n, 2t - 1] one does.
                let better = code.min_distance + 1;
                let possible = if better % 2 == 0 {
                    sphere_packing_allows(m - 1, n, better - 1)
                } else {
                    sphere_packing_allows(m, n, better)
                };
                assert!(
                    !possible,
                    "n={n} L={hops}: a code with Δ = {better} may exist"
                );
            }
        }
    }

    #[test]
    fn the_bisection_is_the_code_distance_times_half_the_routers() {
        for (n, hops) in [(6u32, 1u32), (7, 3), (8, 5), (9, 4)] {
            let code = long_hop_code(n, hops).unwrap();
            let net = build_str(&format!("longhop:n={n},hops={hops}")).unwrap();
            // The cut of a minimum-weight codeword's message c: side = parity of x & c.
            let lightest = (1u32..1 << n)
                .min_by_key(|&c| {
                    code.generators()
                        .iter()
                        .filter(|&&g| (g as u32 & c).count_ones() % 2 == 1)
                        .count()
                })
                .unwrap();
            let side = |r: u32| (r & lightest).count_ones() % 2;
            let cut = net
                .links()
                .iter()
                .filter(|l| side(l.src) != side(l.dst))
                .count() as u64;
            assert_eq!(cut, code.bisection_links(), "n={n} L={hops}");
            assert_eq!(
                (0..net.num_routers() as u32)
                    .filter(|&r| side(r) == 0)
                    .count(),
                net.num_routers() / 2
            );
            // METIS gives an upper bound on the bisection; Tomic's equivalence says none is smaller.
            let metis = bisection(&net, 4, 1, &Silent).unwrap();
            assert!(
                metis.links_cut >= code.bisection_links(),
                "n={n} L={hops}: METIS cut {} < Δ N/2 = {}",
                metis.links_cut,
                code.bisection_links()
            );
        }
    }

    #[test]
    fn sc14_table_ii_and_iv_configurations() {
        // Table II: LH-HC of 2^8 .. 2^13 endpoints (p = 1) have diameters 4 to 6, growing with N.
        let mut last = 0;
        for n in 8u32..=13 {
            let net = build_str(&format!("longhop:n={n}")).unwrap();
            let d = diameter(&net).unwrap();
            assert!((4..=6).contains(&d), "n={n}: diameter {d}");
            assert!(d >= last, "n={n}: diameter falls");
            last = d;
        }
        // Table IV: N = N_r = 8,192, radix k = 19; §III-C: bisection 3N/2.
        let net = build_str("longhop:n=13").unwrap();
        assert_eq!((net.num_endpoints(), net.radix()), (8192, 19));
        assert_eq!(
            long_hop_code(13, 5).unwrap().bisection_links(),
            3 * 8192 / 2
        );
    }

    #[test]
    fn balanced_concentration_is_sc14_rule_on_the_exact_distances() {
        for spec in ["longhop:n=7,hops=2", "longhop:n=9", "longhop:n=10,hops=6"] {
            let net = build_str(spec).unwrap();
            let all = distances(&net, &Silent).unwrap();
            let r = net.num_routers() as f64;
            // k' N_r / (Σ of one router's distances), averaged over the routers.
            let expected = net.network_radix() as f64 * r * r / all.distance_sum() as f64;
            let got = sizes_str(spec).unwrap().balanced_concentration;
            assert!((got - expected).abs() < 1e-9, "{spec}: {got} vs {expected}");
        }
    }

    #[test]
    fn bad_parameters_are_errors_naming_the_parameter() {
        for (spec, needle) in [
            ("longhop", "missing parameter 'n'"),
            ("longhop:n=1", "'n'"),
            ("longhop:n=30", "'n'"),
            ("longhop:n=8,hops=0", "'hops'"),
            ("longhop:n=8,hops=9", "1..=6 for n = 8"),
            ("longhop:n=13,hops=8", "1..=7 for n = 13"),
            ("longhop:n=3,hops=5", "'hops'"),
            ("longhop:n=8,p=-1", "'p'"),
            ("longhop:n=8,width=2", "unknown parameter 'width'"),
        ] {
            let msg = build_str(spec).unwrap_err().to_string();
            assert!(msg.contains(needle), "{spec}: {msg}");
            assert_eq!(sizes_str(spec).unwrap_err().to_string(), msg, "{spec}");
        }
    }
}
