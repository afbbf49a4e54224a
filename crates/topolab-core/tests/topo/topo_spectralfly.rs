//! SpectralFly (LPS Ramanujan graphs X^{p,q}): group orders, degree, connectivity, the
//! bipartite/non-bipartite split by the Legendre symbol, the Ramanujan bound with the spectrum
//! analysis, and LPS's girth bounds (Lubotzky, Phillips & Sarnak, Combinatorica 1988, girth theorem).

use topolab_core::metrics::distance::{distances_from, UNREACHABLE};
use topolab_core::metrics::spectral::spectrum;
use topolab_core::progress::Silent;
use topolab_core::{build_str, Network, TopolabError};

/// (p/q) by brute force over the squares of F_q, independent of the crate's Euler criterion.
fn is_square_mod(p: u64, q: u64) -> bool {
    (1..q).any(|x| x * x % q == p % q)
}

fn expected_routers(p: u64, q: u64) -> u64 {
    let pgl = q * (q * q - 1);
    if is_square_mod(p, q) {
        pgl / 2
    } else {
        pgl
    }
}

/// The sides of a bipartite connected network (the parity of the distance from router 0), or
/// None when a link joins two routers of equal parity.
fn bipartition(net: &Network) -> Option<Vec<u8>> {
    let side: Vec<u8> = distances_from(net, 0)
        .iter()
        .map(|&d| (d % 2) as u8)
        .collect();
    let odd_cycle = net
        .links()
        .iter()
        .any(|l| side[l.src as usize] == side[l.dst as usize]);
    (!odd_cycle).then_some(side)
}

/// The shortest cycle through router 0: the smallest d(u) + d(w) + 1 over links u-w whose ends
/// hang off different neighbours of 0 in a BFS tree. A Cayley graph is vertex-transitive, so
/// this is the girth.
fn girth_through_zero(net: &Network) -> u32 {
    let n = net.num_routers();
    let (mut dist, mut branch) = (vec![u32::MAX; n], vec![usize::MAX; n]);
    dist[0] = 0;
    let mut queue = vec![0usize];
    let mut head = 0;
    while head < queue.len() {
        let u = queue[head];
        head += 1;
        for &v in net.neighbors(u) {
            let v = v as usize;
            if dist[v] == u32::MAX {
                dist[v] = dist[u] + 1;
                branch[v] = if u == 0 { v } else { branch[u] };
                queue.push(v);
            }
        }
    }
    let mut best = u32::MAX;
    for l in net.links() {
        let (u, w) = (l.src as usize, l.dst as usize);
        if u != 0 && w != 0 && branch[u] != branch[w] {
            best = best.min(dist[u] + dist[w] + 1);
        }
    }
    best
}

const CASES: &[(u64, u64)] = &[
    (3, 5),
    (3, 7),
    (3, 11),
    (5, 11),
    (5, 13),
    (7, 11),
    (13, 11),
    (13, 5),
    (17, 13),
    (29, 13),
    (23, 7),
];

#[test]
fn routers_degree_connectivity_and_bipartiteness_follow_the_legendre_symbol() {
    for &(p, q) in CASES {
        let spec = format!("spectralfly:lps_p={p},lps_q={q}");
        let net = build_str(&spec).unwrap();
        let n = expected_routers(p, q);
        assert_eq!(net.num_routers() as u64, n, "{spec}: routers");
        assert_eq!(net.num_links(), n * (p + 1) / 2, "{spec}: links");
        for r in 0..net.num_routers() {
            assert_eq!(net.neighbors(r).len() as u64, p + 1, "{spec}: router {r}");
        }
        assert!(
            distances_from(&net, 0).iter().all(|&d| d != UNREACHABLE),
            "{spec}: disconnected"
        );
        let sides = bipartition(&net);
        assert_eq!(
            sides.is_some(),
            !is_square_mod(p, q),
            "{spec}: bipartite exactly when (p/q) = -1"
        );
        // The coset label is the PSL / non-PSL split, i.e. the bipartition when there is one.
        let coset = net
            .label_fields()
            .iter()
            .position(|f| f == "coset")
            .unwrap();
        if let Some(sides) = sides {
            let flips = (0..net.num_routers())
                .filter(|&r| net.label(r)[coset] as u8 != sides[r] ^ sides[0])
                .count();
            assert_eq!(flips, 0, "{spec}: coset label is not the bipartition");
        } else {
            assert!((0..net.num_routers()).all(|r| net.label(r)[coset] == 0));
        }
    }
}

#[test]
fn every_non_trivial_eigenvalue_is_within_the_ramanujan_bound() {
    for &(p, q) in CASES {
        let spec = format!("spectralfly:lps_p={p},lps_q={q}");
        let net = build_str(&spec).unwrap();
        let s = spectrum(&net, &Silent).unwrap();
        let d = (p + 1) as f64;
        let bound = 2.0 * (p as f64).sqrt();
        assert_eq!(s.ramanujan_bound, Some(bound), "{spec}: 2 sqrt(d - 1)");
        let slack = s.error_bound + 1e-9;
        assert!(
            (s.lambda1 - d).abs() <= slack,
            "{spec}: lambda1 {}",
            s.lambda1
        );
        assert!(
            s.lambda2 <= bound + slack,
            "{spec}: lambda2 {} > {bound}",
            s.lambda2
        );
        if is_square_mod(p, q) {
            assert!(
                -s.lambda_min <= bound + slack,
                "{spec}: lambda_min {}",
                s.lambda_min
            );
        } else {
            // Bipartite: the spectrum is symmetric, -d is the trivial eigenvalue and the others
            // mirror lambda2.
            assert!(
                (s.lambda_min + d).abs() <= slack,
                "{spec}: lambda_min {}",
                s.lambda_min
            );
        }
    }
}

#[test]
fn girth_meets_the_lps_lower_bounds() {
    // LPS 1988 (girth): g >= 2 log_p q when (p/q) = 1, g >= 4 log_p q - log_p 4 otherwise.
    for &(p, q) in CASES {
        let net = build_str(&format!("spectralfly:lps_p={p},lps_q={q}")).unwrap();
        let g = girth_through_zero(&net) as f64;
        let log = |x: f64| x.ln() / (p as f64).ln();
        let bound = if is_square_mod(p, q) {
            2.0 * log(q as f64)
        } else {
            4.0 * log(q as f64) - log(4.0)
        };
        assert!(g >= bound, "X^({p},{q}): girth {g} < {bound:.2}");
        if !is_square_mod(p, q) {
            assert_eq!(g as u32 % 2, 0, "X^({p},{q}) is bipartite: even girth");
        }
    }
}

#[test]
fn concentration_defaults_to_the_random_topology_rule() {
    // p + 1 = 4 network ports: floor(sqrt(4 + 2)) = 2 endpoints (Besta & Hoefler, SC14, §III).
    let net = build_str("spectralfly:lps_p=3,lps_q=5").unwrap();
    assert!(net.endpoints().iter().all(|&e| e == 2));
    let net = build_str("spectralfly:lps_p=3,lps_q=5,p=7").unwrap();
    assert_eq!(net.num_endpoints(), 120 * 7);
}

fn rejected(spec: &str) -> String {
    match build_str(spec) {
        Err(e @ TopolabError::InvalidParameter { .. }) => e.to_string(),
        other => panic!("{spec}: expected a parameter error, got {other:?}"),
    }
}

#[test]
fn impossible_parameters_name_the_parameter_and_what_is_allowed() {
    let e = rejected("spectralfly:lps_p=9,lps_q=5");
    assert!(
        e.contains("lps_p") && e.contains('9') && e.contains("odd prime"),
        "{e}"
    );
    let e = rejected("spectralfly:lps_p=2,lps_q=5");
    assert!(e.contains("lps_p") && e.contains("from 3"), "{e}");
    let e = rejected("spectralfly:lps_p=5,lps_q=5");
    assert!(
        e.contains("lps_q") && e.contains("other than lps_p = 5"),
        "{e}"
    );
    let e = rejected("spectralfly:lps_p=3,lps_q=15");
    assert!(e.contains("lps_q") && e.contains("15"), "{e}");
    let e = rejected("spectralfly:lps_p=4099,lps_q=5");
    assert!(e.contains("lps_p") && e.contains("4093"), "{e}");
    // q = 3 < 2 sqrt(11): two of the 12 generators coincide mod 3 (a multigraph, not X^{11,3}).
    let e = rejected("spectralfly:lps_p=11,lps_q=3");
    assert!(e.contains("lps_q") && e.contains("2 sqrt(p)"), "{e}");
    // Bounded before anything is allocated: q = 65521 would give 1.4e14 routers.
    let e = rejected("spectralfly:lps_p=3,lps_q=65521");
    assert!(e.contains("lps_q") && e.contains("routers"), "{e}");
}

#[test]
fn small_q_below_two_sqrt_p_builds_when_the_generators_stay_distinct() {
    // 2 sqrt(23) = 9.6 > 7, yet the 24 generators are distinct in PSL(2, 7): X^{23,7} is a
    // simple 24-regular graph on 168 routers (the LPS(23, q) family of the SpectralFly code).
    let net = build_str("spectralfly:lps_p=23,lps_q=7").unwrap();
    assert_eq!(net.num_routers(), 168);
    assert_eq!(net.network_radix(), 24);
}
