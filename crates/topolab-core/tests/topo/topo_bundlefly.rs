//! Bundlefly (Lei et al., ICS 2020): MMS graph star Paley graph.

use topolab_core::field::Field;
use topolab_core::metrics::distance::diameter;
use topolab_core::topology::star::paley;
use topolab_core::{build_str, sizes_str};

#[test]
fn sizes_radix_and_diameter_three() {
    // (q, a): routers 2 q^2 a, network radix (3q - delta)/2 + (a - 1)/2
    for (q, a, k_mms) in [
        (3u32, 5u32, 5u32),
        (3, 9, 5),
        (4, 5, 6),
        (5, 5, 7),
        (3, 13, 5),
    ] {
        let spec = format!("bundlefly:q={q},a={a}");
        let net = build_str(&spec).unwrap();
        assert_eq!(net.num_routers() as u32, 2 * q * q * a, "{spec}");
        let k = k_mms + (a - 1) / 2;
        assert!(
            (0..net.num_routers()).all(|r| net.degree(r) == k),
            "{spec}: regular"
        );
        assert_eq!(diameter(&net), Some(3), "{spec}");
    }
    // Lei et al.'s radix-25 configurations: q = 7 (k' = 11) with a = 13 and p = 8, a = 17 and p = 6
    for (a, p) in [(13u32, 8u32), (17, 6)] {
        let s = sizes_str(&format!("bundlefly:q=7,a={a},p={p}")).unwrap();
        assert_eq!(s.radix, 25);
        assert_eq!(s.routers, 98 * a as u64);
    }
}

/// The Paley graph: (a-1)/2-regular, and the bijection maps it onto its complement.
#[test]
fn paley_supernode_and_its_bijection() {
    for a in [5u32, 9, 13, 17, 25] {
        let f = Field::new(a, "t", "a").unwrap();
        let g = paley(&f);
        let n = a as usize;
        let mut adj = vec![vec![false; n]; n];
        for &(x, y) in &g.edges {
            adj[x as usize][y as usize] = true;
            adj[y as usize][x as usize] = true;
        }
        for x in 0..n {
            assert_eq!(adj[x].iter().filter(|&&e| e).count(), n.div_ceil(2) - 1);
            for y in 0..n {
                if x != y {
                    let (fx, fy) = (g.map[x] as usize, g.map[y] as usize);
                    assert_ne!(adj[x][y], adj[fx][fy], "a={a}: {x},{y}");
                }
            }
        }
    }
}

#[test]
fn impossible_parameters_are_errors_naming_them() {
    for (spec, needle) in [
        ("bundlefly:q=3,a=7", "'a'"),
        ("bundlefly:q=3,a=21", "'a'"),
        ("bundlefly:q=6,a=5", "'q'"),
        ("bundlefly:q=3", "missing parameter 'a'"),
    ] {
        let msg = build_str(spec).unwrap_err().to_string();
        assert!(msg.contains(needle), "{spec}: {msg}");
        assert_eq!(sizes_str(spec).unwrap_err().to_string(), msg);
    }
}
