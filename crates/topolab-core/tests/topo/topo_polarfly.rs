//! PolarFly (Lakhotia et al., SC22) against the closed forms of ER_q and the properties of the
//! polarity graph the paper builds on.

use std::collections::BTreeMap;
use topolab_core::metrics::distance::{diameter, distances_from};
use topolab_core::{build_str, sizes_str, Network};

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
