//! Slim Fly: McKay–Miller–Širáň (MMS) graphs of diameter 2 over GF(q) for every prime power q.
//!
//! Construction from Besta & Hoefler, SC14, §II-B1 with the generator sets of Kathareios et al.,
//! SC15, §2.1.2 for δ ∈ {-1, 0, 1} (Daryin & Korzh, JSFI 2014, §1.5 for q = 2^m): routers (t, x, y)
//! ∈ {0,1} × GF(q) × GF(q);
//!   (0, x, y) ~ (0, x, y')  iff  y - y' ∈ X
//!   (1, m, c) ~ (1, m, c')  iff  c - c' ∈ X'
//!   (0, x, y) ~ (1, m, c)   iff  y = m·x + c
//! Router index t·q² + x·q + y, which is also the numbering of the BookSim2 reference files.

use super::design::{
    candidate, is_balanced, sizes_of, smaller_by_one, Candidate, DesignSpace, Member, Window,
};
use super::{
    ensure_size, p_param, read_p, Family, FamilyPlacement, FamilyRouting, ParamDef, ParamKind,
    SimulationChoice, Sizes,
};
use crate::error::Result;
use crate::field::{check_order, Field};
use crate::network::Capability;
use crate::network::POLARFLY_CLUSTERS;
use crate::network::{Network, NetworkBuilder};
use crate::spec::Params;
use crate::traffic::worst::offset;
use crate::traffic::worst::router_map;
use crate::traffic::PatternDef;
use crate::traffic::{Spec as TrafficSpec, Traffic, IDLE};

/// Slim Fly's MMS coordinates (t, x, y) (Besta & Hoefler, SC14, §II-B).
pub const MMS_COORDINATES: Capability = Capability {
    what: "Slim Fly MMS coordinates",
    fields: &["t", "x", "y"],
};

pub const FAMILY: Family = Family {
    name: "slimfly",
    aliases: &["sf", "mms"],
    summary: "Slim Fly: MMS graph of diameter 2, 2q^2 routers of network radix (3q-delta)/2",
    source: "Besta & Hoefler, SC14, §II-B; Kathareios et al., SC15, §2.1.2; Daryin & Korzh, JSFI 2014, §1.5",
    directed: false,
    params: &[
        ParamDef {
            name: "q",
            kind: ParamKind::Int,
            default: None,
            help: "prime power >= 3, q = 4w + delta with delta in {-1, 0, 1}",
        },
        p_param("ceil(k'/2), k' = (3q - delta)/2 (Besta & Hoefler, SC14, §II-B2); Kathareios et al. (SC15) also use floor(k'/2)"),
    ],
    build,
    example: "slimfly:q=5",
    samples: &[
        "slimfly:q=3",
        "slimfly:q=4,p=1",
        "slimfly:q=5",
        "slimfly:q=7,p=6",
        "slimfly:q=8",
    ],
    display_name: "Slim Fly",
    sizes,
    routing: FamilyRouting {
        specific: &["slimfly_mms"],
        // Besta & Hoefler, SC14, §V: minimal routing for uniform traffic; UGAL-L for the
        // adversarial pattern (§V-C; `topolab reproduce slimfly-routing`: above Valiant under the
        // worst case at q = 7)
        simulation: Some(SimulationChoice::new("min", "slimfly_worst", "ugal_l")),
    },
    placement: FamilyPlacement::Grouped {
        field: "x",
        what: "slimfly racks: subgroups (0,x,*) and (1,x,*) form rack x (Besta & Hoefler, SC14, §VI-A)",
        structure: "slimfly (racks from the MMS structure)",
    },
    design: Some(DESIGN),
};

/// δ of q = 4w + δ, or None for q ≡ 2 (mod 4) (only q = 2 among prime powers).
pub fn delta(q: u32) -> Option<i32> {
    match q % 4 {
        0 => Some(0),
        1 => Some(1),
        3 => Some(-1),
        _ => None,
    }
}

/// Network radix k' = (3q - δ)/2 (Besta & Hoefler, SC14, §II-B1).
pub fn network_radix(q: u32) -> Option<u32> {
    delta(q).map(|d| ((3 * q as i64 - d as i64) / 2) as u32)
}

/// The generator sets (X, X') as field elements (Kathareios et al., SC15, §2.1.2).
pub fn generator_sets(field: &Field) -> (Vec<u32>, Vec<u32>) {
    let q = field.order();
    let xi = field.primitive_element();
    let pw = |e: u32| field.pow(xi, e);
    let (x, x_prime): (Vec<u32>, Vec<u32>) = match delta(q).expect("validated q") {
        1 => (
            (0..=q - 3).step_by(2).map(pw).collect(),
            (1..=q - 2).step_by(2).map(pw).collect(),
        ),
        0 => (
            (0..=q - 2).step_by(2).map(pw).collect(),
            (1..=q - 1).step_by(2).map(pw).collect(),
        ),
        _ => {
            let w = (q + 1) / 4;
            let x = (0..=2 * w - 2)
                .step_by(2)
                .chain((2 * w - 1..=4 * w - 3).step_by(2))
                .map(pw)
                .collect();
            let x_prime = (1..=2 * w - 1)
                .step_by(2)
                .chain((2 * w..=4 * w - 2).step_by(2))
                .map(pw)
                .collect();
            (x, x_prime)
        }
    };
    (x, x_prime)
}

/// (q, k', p) after checking them.
fn read_shape(p: &Params) -> Result<(u32, u32, u32)> {
    let (q, k_net) = read_q(p)?;
    let routers = 2 * (q as u128).pow(2);
    ensure_size(p, "q", q, routers, routers * k_net as u128 / 2)?;
    let conc = read_p(p, balanced_p(k_net))?;
    Ok((q, k_net, conc))
}

/// (q, k') of the MMS graph a spec's `q` asks for (also `bundlefly`'s structure graph).
pub fn read_q(p: &Params) -> Result<(u32, u32)> {
    let q = p.u32("q", 3, 1024, "prime power >= 3")?;
    if delta(q).is_none() {
        return Err(p.invalid("q", q, "a prime power >= 3 (q = 2 has no MMS graph)"));
    }
    check_order(q, p.family(), "q")?;
    Ok((q, network_radix(q).expect("delta checked")))
}

/// ceil(k'/2) (Besta & Hoefler, SC14, §II-B2); floor(k'/2) also gives full bandwidth (Kathareios et
/// al., SC15, §2.1.2).
fn balanced_p(k_net: u32) -> u32 {
    k_net.div_ceil(2)
}

fn sizes(p: &Params) -> Result<Sizes> {
    let (q, k_net, conc) = read_shape(p)?;
    let routers = 2 * (q as u128).pow(2);
    Ok(Sizes::direct(
        routers,
        k_net,
        conc,
        balanced_p(k_net) as f64,
    ))
}

fn build(p: &Params) -> Result<Network> {
    let (q, _, conc) = read_shape(p)?;
    let field = Field::new(q, "slimfly", "q")?;
    let qs = q as usize;
    let mut b = NetworkBuilder::new("slimfly", 2 * qs * qs, false);
    b.label_fields(MMS_COORDINATES.fields);
    let local = b.link_class("local");
    let global = b.link_class("global");
    for t in 0..2 {
        for a in 0..q {
            for c in 0..q {
                b.set_label(
                    t * qs * qs + (a * q + c) as usize,
                    &[t as i64, a as i64, c as i64],
                );
            }
        }
    }
    for (u, v, is_global) in mms_links(&field) {
        b.add_link(
            u as usize,
            v as usize,
            1,
            if is_global { global } else { local },
        );
    }
    b.uniform_endpoints(conc);
    b.build()
}

/// The MMS graph's links (u < v, and whether the link joins the two subgraphs) over the router
/// numbering of the module comment; also the structure graph of `bundlefly`.
pub fn mms_links(field: &Field) -> Vec<(u32, u32, bool)> {
    let q = field.order();
    let (x_set, x_prime_set) = generator_sets(field);
    let index = |t: u32, a: u32, b: u32| t * q * q + a * q + b;
    let mut links = Vec::new();
    // Same-column links: each unordered pair {y, y'} once, taking y < y'. The sets are closed
    // under negation, so y - y' ∈ X and y' - y ∈ X agree.
    for (t, set) in [(0u32, &x_set), (1, &x_prime_set)] {
        for a in 0..q {
            for y in 0..q {
                for &g in set.iter() {
                    let y2 = field.add(y, g);
                    if y < y2 {
                        links.push((index(t, a, y), index(t, a, y2), false));
                    }
                }
            }
        }
    }
    for x in 0..q {
        for m in 0..q {
            let mx = field.mul(m, x);
            for c in 0..q {
                let y = field.add(mx, c);
                links.push((index(0, x, y), index(1, m, c), true));
            }
        }
    }
    links
}

/// What `topolab compare` tries of this family (docs/compare.md §1).
const DESIGN: DesignSpace = DesignSpace {
    enumerate: design_space,
    smaller_members: Some(smaller_members),
    twin: None,
    twin_origin: Some(balanced),
};

/// The balanced Slim Flies lend their equipment to the random families' twins (Besta &
/// Hoefler, SC14, Table IV).
fn balanced(c: &Candidate) -> bool {
    is_balanced(c.sizes.load)
}

/// Every prime power q >= 3 (q = 4w + delta; Besta & Hoefler, SC14, §II-B1) whose network radix
/// k' = (3q - delta)/2 leaves a port for endpoints; every p putting N in the window. Balanced
/// p = ceil(k'/2) (Besta & Hoefler, SC14, §II-B2), floor(k'/2) also full bandwidth (Kathareios et
/// al., SC15, §2.1.2); larger p is oversubscribed (Besta & Hoefler, SC14, §V-E: p = 16..21 on q =
/// 19).
fn design_space(w: &Window) -> Vec<Candidate> {
    let mut out = Vec::new();
    // k' >= q, so no larger q leaves a port.
    for q in 3..w.radix {
        let Some(base) = sizes_of("slimfly", &[("q", q.into()), ("p", 1u32.into())]) else {
            continue;
        };
        let k_net = base.network_radix;
        if k_net + 1 > w.radix {
            break;
        }
        for p in w.concentrations(base.routers, (w.radix - k_net) as i64) {
            let mut tags = Vec::new();
            if p as f64 == base.balanced_concentration {
                tags.push("ceil p (Besta & Hoefler, SC14, §II-B2)".to_string());
            }
            if p == k_net / 2 {
                tags.push("floor p (Kathareios et al., SC15, §2.1.2)".to_string());
            }
            out.extend(candidate(
                "slimfly",
                vec![("q", q.into()), ("p", p.into())],
                "Besta & Hoefler, SC14, §II-B, §V-E; Kathareios et al., SC15, §2.1.2",
                tags,
                false,
            ));
        }
    }
    out
}

/// Every smaller q, p for the same load.
fn smaller_members(m: &Member) -> Result<Vec<String>> {
    smaller_by_one(m, "slimfly", "q", 3, 1)
}

/// Slim Fly (Besta & Hoefler, SC14, §V-C, Kathareios et al., SC15, §4.2, Fig. 5): routers
/// communicate in pairs at distance 2 whose routes overlap on one link. A "pair of overlapping
/// routes" is four routers A - Y - X - B on a path: all endpoints of A exchange with those of X
/// (route A-Y-X) and all endpoints of B with those of Y (route B-X-Y), so link X-Y carries 2p flows
/// in each direction (Kathareios et al., SC15, §4.2: "2p flows passing per direction, resulting to
/// 1/(2p) of the maximum throughput"). Besta & Hoefler, SC14, §V-C describes the same construction
/// (R_1..R_a with R_x via R_y, R_1..R_b with R_y via R_x, "send and receive") but states MIN is
/// limited to 1/(p+1); its own construction gives 2p flows per direction, so topolab follows
/// Kathareios et al. (SC15) and the tests pin 2p. topolab chooses A only where Y is the ONLY common
/// neighbour of A and X (likewise X for B and Y), so every minimal path, not just the one a
/// deterministic router picks, crosses X-Y. The greedy assignment (Kathareios et al., SC15: "easily
/// achieved with a greedy assignment"; Besta & Hoefler (SC14): "until all possibilities are
/// exhausted") walks the links in ascending (src, dst) order and takes the lowest-numbered free A
/// and B; routers left without a structure stay idle. The construction needs only that two routers
/// at distance 2 have one common neighbour, which holds for every non-adjacent pair of PolarFly's
/// ER_q (Lakhotia et al., SC22, §III), so `slimfly_worst` also takes PolarFly networks, with the
/// same 2p flows per direction.
pub(crate) fn worst_traffic(
    s: &TrafficSpec,
    net: &Network,
    offset: Option<i64>,
) -> Result<Traffic> {
    if offset.is_some() {
        return Err(s.invalid(
            "offset",
            s.text("offset").unwrap_or_default(),
            "no offset for the Slim Fly worst case (its pairs come from the greedy \
                 assignment)",
        ));
    }
    // The construction reads only the graph: a network labelled with MMS coordinates, or
    // one whose labels carry no structure (an imported BookSim2 anynet Slim Fly: `index`).
    let unstructured = net.label_fields().iter().all(|f| f == "index");
    if !unstructured && !net.has(MMS_COORDINATES) && !net.has(POLARFLY_CLUSTERS) {
        return Err(s.invalid(
            "network",
            format!(
                "family '{}' with router labels ({})",
                net.family(),
                net.label_fields().join(", ")
            ),
            &format!(
                "a network with {} (router labels {}), a PolarFly or a graph without \
                 structural labels (an imported one, e.g. a BookSim2 anynet Slim Fly: the \
                 construction reads only the graph)",
                MMS_COORDINATES.what,
                MMS_COORDINATES.fields.join(", ")
            ),
        ));
    }
    if net.directed() {
        return Err(s.invalid("network", "a directed network", "an undirected network"));
    }
    let partner = slimfly_partners(net);
    if partner.iter().all(|&p| p == IDLE) {
        return Err(s.invalid(
            "network",
            net.spec(),
            "a network with two routers at distance 2 whose only common neighbour is \
             adjacent to a router at distance 2 from it (any Slim Fly)",
        ));
    }
    Ok(Traffic::Table {
        name: "slimfly_worst",
        dest: router_map(net, &partner),
    })
}

/// The greedy pairing of Besta & Hoefler, SC14, §V-C / Kathareios et al., SC15, §4.2 (see
/// `worst_traffic`): partner[r] is the router r exchanges with, IDLE when r found no structure.
fn slimfly_partners(net: &Network) -> Vec<u32> {
    let n = net.num_routers();
    let adjacent = |u: usize, v: u32| net.neighbors(u).binary_search(&v).is_ok();
    // The common neighbour of u and v when they are at distance 2 and it is the only one.
    let only_middle = |u: usize, v: usize| -> Option<u32> {
        if u == v || adjacent(u, v as u32) {
            return None;
        }
        let (a, b) = (net.neighbors(u), net.neighbors(v));
        let (mut i, mut j, mut found) = (0, 0, None);
        while i < a.len() && j < b.len() {
            match a[i].cmp(&b[j]) {
                std::cmp::Ordering::Less => i += 1,
                std::cmp::Ordering::Greater => j += 1,
                std::cmp::Ordering::Equal => {
                    if found.is_some() {
                        return None;
                    }
                    found = Some(a[i]);
                    i += 1;
                    j += 1;
                }
            }
        }
        found
    };
    let mut partner = vec![IDLE; n];
    let has_endpoints = |r: usize| net.endpoints()[r] > 0;
    let free = |partner: &[u32], r: usize| partner[r] == IDLE && has_endpoints(r);
    for link in net.links() {
        let (x, y) = (link.src as usize, link.dst as usize);
        if !free(&partner, x) || !free(&partner, y) {
            continue;
        }
        // A next to Y, routed to X only through Y; B next to X, routed to Y only through X.
        let a = net
            .neighbors(y)
            .iter()
            .map(|&a| a as usize)
            .find(|&a| a != x && free(&partner, a) && only_middle(a, x) == Some(y as u32));
        let Some(a) = a else { continue };
        let b = net.neighbors(x).iter().map(|&b| b as usize).find(|&b| {
            b != y && b != a && free(&partner, b) && only_middle(b, y) == Some(x as u32)
        });
        let Some(b) = b else { continue };
        for (u, v) in [(a, x), (b, y)] {
            partner[u] = v as u32;
            partner[v] = u as u32;
        }
    }
    partner
}

/// `slimfly_worst`: the Slim Fly worst case for minimal routing.
pub const WORST_TRAFFIC: PatternDef = PatternDef {
    name: "slimfly_worst",
    aliases: &["sf_worst"],
    params: &[],
    build: |s, net, _| worst_traffic(s, net, offset(s)?),
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generator_sets_are_symmetric_and_sized() {
        for q in [3u32, 4, 5, 7, 8, 9, 11, 13, 16, 19, 23, 25, 27, 32] {
            let f = Field::new(q, "t", "q").unwrap();
            let (x, xp) = generator_sets(&f);
            let d = delta(q).unwrap();
            let expected = ((q as i32 - d) / 2) as usize;
            let mut xs = x.clone();
            xs.sort();
            xs.dedup();
            assert_eq!(xs.len(), expected, "|X| for q={q}");
            for set in [&x, &xp] {
                for &g in set.iter() {
                    assert!(
                        set.contains(&f.neg(g)),
                        "q={q}: set not closed under negation"
                    );
                }
            }
        }
    }
}

#[cfg(test)]
mod construction {
    //! Slim Fly against the closed forms of Besta & Hoefler, SC14, §II-B and the sizes quoted in the
    //! papers.

    use crate::metrics::distance::diameter;
    use crate::{build_str, TopolabError};

    #[test]
    fn every_prime_power_from_3_to_32_gives_diameter_two_and_the_closed_forms() {
        for q in [
            3u32, 4, 5, 7, 8, 9, 11, 13, 16, 17, 19, 23, 25, 27, 29, 31, 32,
        ] {
            let delta: i64 = match q % 4 {
                0 => 0,
                1 => 1,
                _ => -1,
            };
            let k = ((3 * q as i64 - delta) / 2) as u32;
            let net = build_str(&format!("slimfly:q={q}")).unwrap();
            assert_eq!(net.num_routers(), 2 * (q * q) as usize, "routers q={q}");
            for r in 0..net.num_routers() {
                assert_eq!(net.degree(r), k, "regular of degree k' for q={q}");
            }
            assert_eq!(
                net.num_links(),
                (q * q * k) as u64,
                "links = N_r k'/2 for q={q}"
            );
            assert_eq!(
                net.num_endpoints(),
                2 * (q * q) as u64 * k.div_ceil(2) as u64
            );
            assert_eq!(diameter(&net), Some(2), "diameter of MMS graph q={q}");
        }
    }

    #[test]
    fn q5_is_the_hoffman_singleton_graph() {
        // 50 vertices, 7-regular, 175 edges, girth 5: no triangles and no 4-cycles, i.e. any two
        // distinct vertices share at most one neighbour and adjacent ones share none.
        let net = build_str("slimfly:q=5,p=4").unwrap();
        assert_eq!(net.num_links(), 175);
        let n = net.num_routers();
        for a in 0..n {
            for b in a + 1..n {
                let common = net
                    .neighbors(a)
                    .iter()
                    .filter(|x| net.neighbors(b).contains(x))
                    .count();
                let adjacent = net.neighbors(a).contains(&(b as u32));
                assert_eq!(common, if adjacent { 0 } else { 1 }, "pair {a},{b}");
            }
        }
    }

    #[test]
    fn sizes_quoted_in_the_papers() {
        // Besta & Hoefler, SC14, Table IV: SF with N = 10,830, N_r = 722, k = 44 (q = 19, p = 15).
        let net = build_str("slimfly:q=19").unwrap();
        assert_eq!(
            (net.num_routers(), net.num_endpoints(), net.radix()),
            (722, 10830, 44)
        );
        // Kathareios et al., SC15, §2.1.2: q = 13 with p = 10 and p = 9 (2.9/3.11 ports and 1.95/2.05
        // links per endpoint).
        for (p, ports, links) in [(10u64, 2.9, 1.95), (9, 3.11, 2.05)] {
            let net = build_str(&format!("slimfly:q=13,p={p}")).unwrap();
            let n = net.num_endpoints() as f64;
            let total_ports = (net.num_routers() as u64 * (19 + p)) as f64;
            let total_links = net.num_links() as f64 + n;
            assert!(
                (total_ports / n - ports).abs() < 0.01,
                "ports per endpoint p={p}"
            );
            assert!(
                (total_links / n - links).abs() < 0.01,
                "links per endpoint p={p}"
            );
        }
    }

    #[test]
    fn impossible_q_is_an_error_naming_q() {
        for (spec, needle) in [
            ("slimfly:q=6", "prime power"),
            ("slimfly:q=2", "from 3"),
            ("slimfly:q=1", "from 3"),
            ("slimfly:q=12", "prime power"),
            ("slimfly:q=abc", "integer"),
            ("slimfly", "missing parameter 'q'"),
        ] {
            let e = build_str(spec).unwrap_err();
            let msg = e.to_string();
            assert!(msg.contains(needle), "{spec}: {msg}");
        }
        let e = build_str("slimfly:q=5,x=1").unwrap_err();
        assert!(matches!(e, TopolabError::UnknownParameter { .. }));
        assert!(e.to_string().contains("q, p"), "{e}");
    }
}
