//! Slim Fly against the closed forms of Besta & Hoefler, SC14, §II-B and the sizes quoted in the
//! papers.

use topolab_core::metrics::distance::diameter;
use topolab_core::{build_str, TopolabError};

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
