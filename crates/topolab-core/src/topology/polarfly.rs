//! PolarFly (Lakhotia, Besta, Monroe, Isham, Iff, Hoefler, Petrini, SC22): the Erdős–Rényi
//! polarity graph ER_q of the projective plane PG(2, q), for every prime power q.
//!
//! Routers are the points of PG(2, q), written as left-normalised non-zero vectors of GF(q)^3
//! (first non-zero coordinate 1); u ~ v iff u·v = 0 and u ≠ v. There are q^2 + q + 1 points;
//! each point's polar line u^⊥ holds q + 1 points, so routers have q + 1 links except the q + 1
//! absolute points ("quadrics", u·u = 0), which lie on their own polar line and have q.
//! Router index: (1, y, z) -> y·q + z, (0, 1, z) -> q^2 + z, (0, 0, 1) -> q^2 + q.
//!
//! Any two distinct points u, v have exactly one point w orthogonal to both (the pole of the
//! line through them), so distinct routers share exactly one neighbour, w, unless w is one of
//! them, which happens exactly when they are adjacent and one is a quadric: then they share
//! none. Hence diameter 2.
//!
//! Rack layout (SC22's modular layout): the quadrics form one cluster; around a starter quadric
//! w (the lowest-numbered one), each neighbour v of w and v's non-quadric neighbours form a
//! cluster. Two neighbours of w have w as their only common orthogonal point, so the clusters
//! are disjoint and cover every router: for odd q, q clusters of q routers, each a fan of
//! (q - 1)/2 triangles on v; for even q the nucleus (the point orthogonal to every quadric) is
//! a neighbour of w with no non-quadric neighbour, giving one cluster of 1 and q - 1 of q + 1.
//!
//! The same graph with a loop at each quadric is Bermond–Delorme–Farhi's P_u, the structure
//! graph of `bdf` and `polarstar` (`polarity_graph`).

use super::design::{candidate, sizes_of, smaller_by_one, Candidate, DesignSpace, Member, Window};
use super::{
    ensure_size, p_param, read_p, Family, FamilyPlacement, FamilyRouting, ParamDef, ParamKind,
    SimulationChoice, Sizes,
};
use crate::error::Result;
use crate::field::{check_order, Field};
use crate::network::Capability;
use crate::network::{Network, NetworkBuilder};
use crate::spec::Params;
use crate::traffic::worst::offset;
use crate::traffic::worst::{field, require, router_destinations};
use crate::traffic::PatternDef;
use crate::traffic::{endpoint_offsets, DestTable, Spec as TrafficSpec, Traffic, IDLE};

/// PolarFly's rack clusters and projective points (cluster, x0, x1, x2): cluster 0 holds the
/// quadrics, cluster c >= 1 the c-th neighbour of the starter (lowest-numbered) quadric and its
/// non-quadric neighbours (Lakhotia et al., SC22, modular layout; `topology::polarfly`).
pub const POLARFLY_CLUSTERS: Capability = Capability {
    what: "PolarFly rack clusters",
    fields: &["cluster", "x0", "x1", "x2"],
};

pub const FAMILY: Family = Family {
    name: "polarfly",
    aliases: &["pf", "er"],
    summary: "PolarFly: Erdos-Renyi polarity graph ER_q of diameter 2, q^2+q+1 routers of network radix q+1",
    source: "Lakhotia et al., SC22 (PolarFly), §III-§IV; Erdos & Renyi 1962, Brown 1966",
    directed: false,
    params: &[
        ParamDef {
            name: "q",
            kind: ParamKind::Int,
            default: None,
            help: "prime power >= 2 (the order of the projective plane PG(2, q))",
        },
        p_param("floor of the balanced (q+1)(q^2+q+1)/(2q^2+q+1), i.e. floor((q+1)/2) (Besta & Hoefler, SC14, §II-B2's channel load with ER_q's exact distances)"),
    ],
    build,
    example: "polarfly:q=5",
    samples: &[
        "polarfly:q=2",
        "polarfly:q=4,p=1",
        "polarfly:q=7",
        "polarfly:q=9,p=6",
    ],
    display_name: "PolarFly",
    sizes,
    routing: FamilyRouting {
        specific: &[],
        // SC22 evaluates minimal routing under uniform traffic and its UGAL variant, UGAL_PF
        // (the `ugal_pf` alias), under its Perm1Hop pattern (`polarfly_worst`), which exists
        // for odd q only. The worst case is Slim Fly's instead: it exists for every q and loads
        // minimal routing twice as hard (docs/families/polarfly.md).
        simulation: Some(
            SimulationChoice::new("min", "slimfly_worst", "ugal_pf").noted(
                "worst case: Slim Fly's (Besta & Hoefler, SC14, §V-C), defined for every q; \
                 SC22's Perm1Hop (polarfly_worst) exists for odd q only",
            ),
        ),
    },
    placement: FamilyPlacement::Grouped {
        field: "cluster",
        what: "polarfly racks: the quadric cluster and the q triangle-fan clusters around a starter quadric (Lakhotia et al., SC22, modular layout)",
        structure: "polarfly (racks from the quadric and fan clusters)",
    },
    design: Some(DESIGN),
};

/// ER_q as a structure graph: its points (left-normalised vectors), its edges (u < v) and its
/// absolute points, the quadrics, where Bermond–Delorme–Farhi's P_u has a loop.
pub struct PolarityGraph {
    pub q: u32,
    pub points: Vec<[u32; 3]>,
    pub edges: Vec<(u32, u32)>,
    pub quadrics: Vec<u32>,
}

impl PolarityGraph {
    pub fn num_points(&self) -> usize {
        self.points.len()
    }
}

/// Number of points of PG(2, q).
pub fn num_points(q: u32) -> u128 {
    let q = q as u128;
    q * q + q + 1
}

/// ER_q over `field` (q = field order).
pub fn polarity_graph(field: &Field) -> PolarityGraph {
    let q = field.order();
    let points = projective_points(q);
    let inverse: Vec<u32> = (0..q)
        .map(|a| (0..q).find(|&b| field.mul(a, b) == 1).unwrap_or(0))
        .collect();
    let dot =
        |u: &[u32; 3], v: &[u32; 3]| (0..3).fold(0, |acc, i| field.add(acc, field.mul(u[i], v[i])));
    let mut edges = Vec::new();
    let mut quadrics = Vec::new();
    for (i, u) in points.iter().enumerate() {
        if dot(u, u) == 0 {
            quadrics.push(i as u32);
        }
        for j in polar_line(field, &inverse, u) {
            if (i as u32) < j {
                edges.push((i as u32, j));
            }
        }
    }
    PolarityGraph {
        q,
        points,
        edges,
        quadrics,
    }
}

/// The points in index order: (1, y, z), then (0, 1, z), then (0, 0, 1).
fn projective_points(q: u32) -> Vec<[u32; 3]> {
    let mut points = Vec::with_capacity(num_points(q) as usize);
    for y in 0..q {
        for z in 0..q {
            points.push([1, y, z]);
        }
    }
    for z in 0..q {
        points.push([0, 1, z]);
    }
    points.push([0, 0, 1]);
    points
}

fn point_index(q: u32, v: [u32; 3]) -> u32 {
    match v {
        [1, y, z] => y * q + z,
        [0, 1, z] => q * q + z,
        _ => q * q + q,
    }
}

/// The q + 1 points v with u·v = 0 (u's polar line, u itself included when u is absolute),
/// solved for directly instead of testing all points.
fn polar_line(field: &Field, inverse: &[u32], u: &[u32; 3]) -> Vec<u32> {
    let q = field.order();
    let [u0, u1, u2] = *u;
    // -(a)/b
    let solve = |a: u32, b: u32| field.neg(field.mul(a, inverse[b as usize]));
    let mut line = Vec::with_capacity(q as usize + 1);
    if u2 != 0 {
        for y in 0..q {
            let z = solve(field.add(u0, field.mul(u1, y)), u2);
            line.push(point_index(q, [1, y, z]));
        }
        line.push(point_index(q, [0, 1, solve(u1, u2)]));
    } else if u1 != 0 {
        let y = solve(u0, u1);
        for z in 0..q {
            line.push(point_index(q, [1, y, z]));
        }
        line.push(point_index(q, [0, 0, 1]));
    } else {
        for z in 0..q {
            line.push(point_index(q, [0, 1, z]));
        }
        line.push(point_index(q, [0, 0, 1]));
    }
    line
}

/// The rack cluster of every point (module comment): 0 for the quadrics, 1.. for the clusters
/// around the neighbours of the lowest-numbered quadric, in their index order.
pub fn clusters(graph: &PolarityGraph) -> Vec<u32> {
    let n = graph.num_points();
    let mut neighbours = vec![Vec::new(); n];
    for &(a, b) in &graph.edges {
        neighbours[a as usize].push(b);
        neighbours[b as usize].push(a);
    }
    let mut is_quadric = vec![false; n];
    for &w in &graph.quadrics {
        is_quadric[w as usize] = true;
    }
    let mut cluster = vec![0u32; n];
    let starter = graph.quadrics[0] as usize;
    let mut centres = neighbours[starter].clone();
    centres.sort_unstable();
    for (i, &v) in centres.iter().enumerate() {
        let id = i as u32 + 1;
        cluster[v as usize] = id;
        for &x in &neighbours[v as usize] {
            if !is_quadric[x as usize] {
                cluster[x as usize] = id;
            }
        }
    }
    cluster
}

/// Balanced concentration by the channel-load argument of Besta & Hoefler, SC14, §II-B2 with
/// ER_q's exact distances: p (sum of distances from a router to all N_r routers, averaged)
/// equals the links per router. Adjacent routers are at distance 1, all others at 2, so
/// p = 2E N_r / (2 N_r (N_r - 1) - 2E) with 2E = q (q + 1)^2, which is
/// (q + 1)(q^2 + q + 1) / (2q^2 + q + 1), a little above (q + 1)/2.
pub fn balanced_p(q: u32) -> f64 {
    let q = q as f64;
    (q + 1.0) * (q * q + q + 1.0) / (2.0 * q * q + q + 1.0)
}

/// (q, p) after checking them.
fn read_shape(p: &Params) -> Result<(u32, u32)> {
    let q = p.u32("q", 2, 1024, "prime power >= 2")?;
    check_order(q, "polarfly", "q")?;
    let routers = num_points(q);
    ensure_size(p, "q", q, routers, routers * (q as u128 + 1) / 2)?;
    let conc = read_p(p, balanced_p(q).floor() as u32)?;
    Ok((q, conc))
}

fn sizes(p: &Params) -> Result<Sizes> {
    let (q, conc) = read_shape(p)?;
    Ok(Sizes::direct(num_points(q), q + 1, conc, balanced_p(q)))
}

fn build(p: &Params) -> Result<Network> {
    let (q, conc) = read_shape(p)?;
    let field = Field::new(q, "polarfly", "q")?;
    let graph = polarity_graph(&field);
    let cluster = clusters(&graph);
    let mut b = NetworkBuilder::new("polarfly", graph.num_points(), false);
    b.label_fields(POLARFLY_CLUSTERS.fields);
    for (i, v) in graph.points.iter().enumerate() {
        b.set_label(
            i,
            &[cluster[i] as i64, v[0] as i64, v[1] as i64, v[2] as i64],
        );
    }
    let local = b.link_class("intra-cluster");
    let global = b.link_class("inter-cluster");
    for &(u, v) in &graph.edges {
        let class = if cluster[u as usize] == cluster[v as usize] {
            local
        } else {
            global
        };
        b.add_link(u as usize, v as usize, 1, class);
    }
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

/// Every prime power q >= 2 whose network radix q + 1 leaves a port for endpoints; every p
/// putting N in the window. Balanced p from SC14 §II-B2's channel load with ER_q's exact
/// distances, a little above (q + 1)/2 (SC22's radix-48 design: q = 31, 32 network ports,
/// 16 endpoints).
fn design_space(w: &Window) -> Vec<Candidate> {
    let mut out = Vec::new();
    for q in 2..w.radix.saturating_sub(1) {
        let Some(base) = sizes_of("polarfly", &[("q", q.into()), ("p", 1u32.into())]) else {
            continue;
        };
        for p in w.concentrations(base.routers, w.radix as i64 - base.network_radix as i64) {
            let tags = if p == q.div_ceil(2) {
                vec!["p=floor((q+1)/2) (Lakhotia et al., SC22)".to_string()]
            } else {
                Vec::new()
            };
            out.extend(candidate(
                "polarfly",
                vec![("q", q.into()), ("p", p.into())],
                "Lakhotia et al., SC22",
                tags,
                false,
            ));
        }
    }
    out
}

/// Every smaller q, p for the same load.
fn smaller_members(m: &Member) -> Result<Vec<String>> {
    smaller_by_one(m, "polarfly", "q", 2, 1)
}

/// PolarFly (Lakhotia et al., SC22; the authors' BookSim2 fork `badpf`, "perm1hop"): every
/// router exchanges with a neighbour, endpoint j with endpoint j, so under minimal routing
/// all p flows of a router share its one direct link (1/p of the injection bandwidth) while
/// every other link of the router idles. The pairing follows the rack clusters: with
/// starter quadric w (cluster labels, `topology::polarfly`), each neighbour v of w pairs with
/// the other quadric on v's polar line, and each remaining router with its triangle partner,
/// the one non-centre neighbour in its cluster. w alone has no partner; its endpoints send
/// to each other (j to j + 1 mod p), as in the fork. Odd q only: for even q a neighbour of w
/// sees no second quadric (every line but one meets the quadrics once).
pub(crate) fn worst_traffic(
    s: &TrafficSpec,
    net: &Network,
    offset: Option<i64>,
) -> Result<Traffic> {
    if offset.is_some() {
        return Err(s.invalid(
            "offset",
            s.text("offset").unwrap_or_default(),
            "no offset for the PolarFly worst case (its pairs come from the rack clusters)",
        ));
    }
    require(s, net, POLARFLY_CLUSTERS)?;
    let cf = field(net, "cluster");
    let n = net.num_routers();
    let cluster = |r: usize| net.label(r)[cf];
    let quadrics: Vec<usize> = (0..n).filter(|&r| cluster(r) == 0).collect();
    let q = quadrics.len().saturating_sub(1);
    if q.is_multiple_of(2) {
        return Err(s.invalid(
            "network",
            format!("{} (q = {q})", net.spec()),
            "a PolarFly of odd q (for even q a neighbour of the starter quadric is adjacent to \
             no other quadric, so the SC22 pairing does not exist)",
        ));
    }
    let starter = quadrics[0];
    let broken = |router: usize, found: usize, what: &str| {
        s.invalid(
            "network",
            format!("router {router} with {found} {what}"),
            "ER_q's rack clusters (each neighbour of the starter quadric next to one more \
             quadric, each other router next to one more non-centre router of its cluster)",
        )
    };
    let mut is_centre = vec![false; n];
    for &v in net.neighbors(starter) {
        is_centre[v as usize] = true;
    }
    let mut partner = vec![IDLE; n];
    for &v in net.neighbors(starter) {
        let others: Vec<u32> = net
            .neighbors(v as usize)
            .iter()
            .copied()
            .filter(|&w| w as usize != starter && cluster(w as usize) == 0)
            .collect();
        let [w] = others[..] else {
            return Err(broken(
                v as usize,
                others.len(),
                "quadric neighbours besides the starter",
            ));
        };
        partner[v as usize] = w;
        partner[w as usize] = v;
    }
    for x in (0..n).filter(|&x| cluster(x) != 0 && !is_centre[x]) {
        let mates: Vec<u32> = net
            .neighbors(x)
            .iter()
            .copied()
            .filter(|&y| cluster(y as usize) == cluster(x) && !is_centre[y as usize])
            .collect();
        let [y] = mates[..] else {
            return Err(broken(
                x,
                mates.len(),
                "non-centre neighbours in its cluster",
            ));
        };
        partner[x] = y;
    }
    let mut dest = router_destinations(net, &partner);
    let offsets = endpoint_offsets(net);
    let (lo, hi) = (offsets[starter], offsets[starter + 1]);
    if hi - lo >= 2 {
        for e in lo..hi {
            dest[e as usize] = lo + (e - lo + 1) % (hi - lo);
        }
    }
    Ok(Traffic::Table {
        name: "polarfly_worst",
        dest: DestTable::new(dest),
    })
}

/// `polarfly_worst`: the PolarFly worst case for minimal routing.
pub const WORST_TRAFFIC: PatternDef = PatternDef {
    name: "polarfly_worst",
    aliases: &["pf_worst", "badpf", "perm1hop"],
    params: &[],
    build: |s, net, _| worst_traffic(s, net, offset(s)?),
};

#[cfg(test)]
mod construction {
    //! PolarFly (Lakhotia et al., SC22) against the closed forms of ER_q and the properties of the
    //! polarity graph the paper builds on.

    use crate::metrics::distance::{diameter, distances_from};
    use crate::{build_str, sizes_str, Network};
    use std::collections::BTreeMap;

    const PRIME_POWERS: [u32; 12] = [2, 3, 4, 5, 7, 8, 9, 11, 13, 16, 17, 19];

    fn common_neighbours(net: &Network, a: usize, b: usize) -> usize {
        net.neighbors(a)
            .iter()
            .filter(|x| net.neighbors(b).contains(x))
            .count()
    }

    #[test]
    fn every_prime_power_gives_the_closed_forms_and_diameter_two() {
        for q in PRIME_POWERS {
            let net = build_str(&format!("polarfly:q={q}")).unwrap();
            let n = (q * q + q + 1) as usize;
            assert_eq!(net.num_routers(), n, "routers q={q}");
            let degrees: Vec<u32> = (0..n).map(|r| net.degree(r)).collect();
            // q + 1 routers (the absolute points) of degree q, the others q + 1
            assert_eq!(degrees.iter().filter(|&&d| d == q).count(), q as usize + 1);
            assert_eq!(
                degrees.iter().filter(|&&d| d == q + 1).count(),
                n - q as usize - 1
            );
            assert_eq!(net.network_radix(), q + 1);
            // links: ((q+1) N_r - (q+1)) / 2 = q (q+1)^2 / 2
            assert_eq!(net.num_links(), (q * (q + 1) * (q + 1) / 2) as u64);
            assert_eq!(diameter(&net), Some(2), "q={q}");
        }
    }

    /// Any two distinct points of PG(2, q) have exactly one point orthogonal to both; it is a
    /// common neighbour unless it is one of the two, i.e. unless they are adjacent and one of them
    /// is absolute. So: two non-adjacent routers share exactly one neighbour, two adjacent routers
    /// share exactly one (a triangle) unless one is a quadric, then none.
    #[test]
    fn distinct_routers_share_exactly_the_neighbour_the_polarity_gives() {
        for q in [2u32, 3, 4, 5, 7, 8, 9] {
            let net = build_str(&format!("polarfly:q={q}")).unwrap();
            let n = net.num_routers();
            let quadric = |r: usize| net.degree(r) == q;
            for a in 0..n {
                for b in a + 1..n {
                    let adjacent = net.neighbors(a).contains(&(b as u32));
                    let expected = if adjacent && (quadric(a) || quadric(b)) {
                        0
                    } else {
                        1
                    };
                    assert_eq!(common_neighbours(&net, a, b), expected, "q={q} {a},{b}");
                }
            }
            // for odd q no two quadrics are adjacent (a tangent line holds one absolute point)
            if q % 2 == 1 {
                for a in (0..n).filter(|&r| quadric(r)) {
                    assert!(net.neighbors(a).iter().all(|&x| !quadric(x as usize)));
                }
            }
        }
    }

    /// The rack clusters: the q + 1 quadrics, then for odd q, q clusters of q routers, each a fan
    /// of (q - 1)/2 triangles on its centre (a neighbour of the starter quadric).
    #[test]
    fn clusters_are_the_quadrics_and_triangle_fans() {
        for q in [3u32, 5, 7, 9, 11, 13] {
            let net = build_str(&format!("polarfly:q={q}")).unwrap();
            let mut members: BTreeMap<i64, Vec<usize>> = BTreeMap::new();
            for r in 0..net.num_routers() {
                members.entry(net.label(r)[0]).or_default().push(r);
            }
            assert_eq!(members.len(), q as usize + 1, "q={q}: cluster count");
            assert!(members[&0].iter().all(|&r| net.degree(r) == q));
            assert_eq!(members[&0].len(), q as usize + 1);
            for (id, routers) in members.iter().filter(|(id, _)| **id > 0) {
                assert_eq!(routers.len(), q as usize, "q={q} cluster {id}");
                let inside = |r: usize| {
                    net.neighbors(r)
                        .iter()
                        .filter(|&&x| routers.contains(&(x as usize)))
                        .count()
                };
                // a fan: a centre joined to the q - 1 others, which pair up into (q - 1)/2
                // triangles with it (q - 1 spokes and (q - 1)/2 rim links)
                let degrees: Vec<usize> = routers.iter().map(|&r| inside(r)).collect();
                assert!(
                    degrees.contains(&(q as usize - 1)),
                    "q={q} cluster {id}: no centre"
                );
                let rest = degrees.iter().filter(|&&d| d == 2).count();
                assert!(rest >= q as usize - 1, "q={q} cluster {id}: {degrees:?}");
                assert_eq!(degrees.iter().sum::<usize>(), 3 * (q as usize - 1));
            }
        }
    }

    /// The balanced p is Besta & Hoefler's channel-load balance with the real distances: p times
    /// the average distance to all routers equals the average links per router.
    #[test]
    fn balanced_concentration_balances_the_measured_channel_load() {
        for q in [3u32, 4, 5, 7, 8] {
            let net = build_str(&format!("polarfly:q={q}")).unwrap();
            let n = net.num_routers();
            let total: u64 = (0..n)
                .map(|r| {
                    distances_from(&net, r)
                        .iter()
                        .map(|&d| d as u64)
                        .sum::<u64>()
                })
                .sum();
            let measured = 2.0 * net.num_links() as f64 * n as f64 / total as f64;
            let s = sizes_str(&format!("polarfly:q={q}")).unwrap();
            assert!((s.balanced_concentration - measured).abs() < 1e-9, "q={q}");
            assert_eq!(
                s.concentration,
                q.div_ceil(2),
                "default p = floor((q+1)/2) = ceil(q/2)"
            );
        }
        // SC22's radix-48 configuration: q = 31, 32 network ports and 16 endpoints per router
        let s = sizes_str("polarfly:q=31").unwrap();
        assert_eq!((s.routers, s.network_radix, s.concentration), (993, 32, 16));
        assert_eq!(s.radix, 48);
    }

    #[test]
    fn impossible_q_is_an_error_naming_q() {
        for (spec, needle) in [
            ("polarfly:q=6", "prime power"),
            ("polarfly:q=12", "prime power"),
            ("polarfly:q=1", "from 2"),
            ("polarfly", "missing parameter 'q'"),
        ] {
            let msg = build_str(spec).unwrap_err().to_string();
            assert!(msg.contains(needle) && msg.contains('q'), "{spec}: {msg}");
            assert_eq!(sizes_str(spec).unwrap_err().to_string(), msg);
        }
    }
}
