//! PolarStar (Lakhotia et al., SPAA 2024): ER_q star an Inductive-Quad or Paley supernode.

use topolab_core::metrics::distance::diameter;
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

// IQ_d itself (regular, involution, property P*) is checked beside BDF's supernode in topo_bdf.rs.

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
