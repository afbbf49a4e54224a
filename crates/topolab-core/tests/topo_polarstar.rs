//! PolarStar (Lakhotia et al., SPAA 2024): ER_q star an Inductive-Quad or Paley supernode.

use topolab_core::metrics::distance::diameter;
use topolab_core::topology::polarstar::inductive_quad;
use topolab_core::{build_str, sizes_str};

#[test]
fn sizes_radix_and_diameter_three() {
    // (spec, supernode vertices, supernode degree)
    for (q, supernode, vertices, degree) in [
        (2u32, "d=3", 8u32, 3u32),
        (3, "d=3", 8, 3),
        (3, "d=4", 10, 4),
        (4, "d=7", 16, 7),
        (5, "d=8", 18, 8),
        (2, "a=5", 5, 2),
        (3, "a=9", 9, 4),
        (5, "a=13", 13, 6),
    ] {
        let spec = format!("polarstar:q={q},{supernode}");
        let net = build_str(&spec).unwrap();
        assert_eq!(
            net.num_routers() as u32,
            (q * q + q + 1) * vertices,
            "{spec}"
        );
        assert_eq!(net.network_radix(), q + 1 + degree, "{spec}");
        if supernode.starts_with('d') {
            // the loops at the quadrics make the IQ product regular
            assert!(
                (0..net.num_routers()).all(|r| net.degree(r) == q + 1 + degree),
                "{spec}: regular"
            );
        }
        assert_eq!(diameter(&net), Some(3), "{spec}");
        assert_eq!(
            sizes_str(&spec).unwrap().routers as usize,
            net.num_routers()
        );
    }
}

/// IQ_d: 2d + 2 vertices, d-regular, diameter 2 and an involution φ with
/// V = {v} ∪ {φ(v)} ∪ φ(Γ(v)) ∪ Γ(φ(v)) (the property P* of Bermond–Delorme–Farhi that the
/// diameter-3 argument of docs/families/bdf.md needs), by brute force.
#[test]
fn inductive_quad_is_regular_with_the_star_property() {
    for d in [3u32, 4, 7, 8, 11, 12, 15, 16] {
        let g = inductive_quad(d);
        let n = g.vertices;
        assert_eq!(n, 2 * d as usize + 2);
        let mut adj = vec![vec![false; n]; n];
        for &(x, y) in &g.edges {
            assert!(x != y && !adj[x as usize][y as usize], "d={d}: {x}-{y}");
            adj[x as usize][y as usize] = true;
            adj[y as usize][x as usize] = true;
        }
        for v in 0..n {
            assert_eq!(adj[v].iter().filter(|&&e| e).count(), d as usize, "d={d}");
            let f = |x: usize| g.map[x] as usize;
            assert_eq!(f(f(v)), v);
            assert_ne!(f(v), v);
            let mut covered = vec![false; n];
            covered[v] = true;
            covered[f(v)] = true;
            for w in 0..n {
                if adj[v][w] {
                    covered[f(w)] = true;
                }
                if adj[f(v)][w] {
                    covered[w] = true;
                }
            }
            assert!(covered.iter().all(|&c| c), "d={d}: P* fails at {v}");
        }
    }
}

#[test]
fn impossible_parameters_are_errors_naming_them() {
    for (spec, needle) in [
        ("polarstar:q=3,d=5", "'d'"),
        ("polarstar:q=3,d=6", "'d'"),
        ("polarstar:q=3,a=7", "'a'"),
        ("polarstar:q=6,d=3", "'q'"),
        ("polarstar:q=3,d=3,a=5", "'a'"),
        ("polarstar:q=3", "'d'"),
    ] {
        let msg = build_str(spec).unwrap_err().to_string();
        assert!(msg.contains(needle), "{spec}: {msg}");
        assert_eq!(sizes_str(spec).unwrap_err().to_string(), msg);
    }
}
