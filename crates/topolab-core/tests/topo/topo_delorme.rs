//! Delorme graphs against Besta & Hoefler, SC14, §II-C: (v+1)^2 (v^2+1)^2 routers of network
//! radix (v+1)^2 and diameter 3; the generalized quadrangle W(v) they come from against its
//! axioms; the balanced p against the distances of the built network.

use std::collections::BTreeSet;
use topolab_core::field::Field;
use topolab_core::metrics::distance::{diameter, distances};
use topolab_core::progress::Silent;
use topolab_core::topology::delorme::Quadrangle;
use topolab_core::{build_str, sizes_str};

#[test]
fn routers_degrees_and_diameter_follow_sc14() {
    for v in [2u64, 3] {
        let net = build_str(&format!("delorme:v={v}")).unwrap();
        let gq = (v + 1) * (v * v + 1);
        assert_eq!(net.num_routers() as u64, gq * gq);
        assert_eq!(net.network_radix() as u64, (v + 1) * (v + 1));
        // Routers (P, l) with P on l lose their loop: (v + 1) gq of them have one link fewer.
        let short = (0..net.num_routers())
            .filter(|&r| net.degree(r) as u64 == (v + 1) * (v + 1) - 1)
            .count() as u64;
        let full = (0..net.num_routers())
            .filter(|&r| net.degree(r) as u64 == (v + 1) * (v + 1))
            .count() as u64;
        assert_eq!(
            (short, full),
            ((v + 1) * gq, gq * gq - (v + 1) * gq),
            "v={v}"
        );
        assert_eq!(diameter(&net), Some(3), "v={v}");
    }
}

#[test]
fn w_q_is_a_generalized_quadrangle() {
    for v in [2u32, 3, 4, 5] {
        let gq = Quadrangle::symplectic(&Field::new(v, "t", "v").unwrap());
        let size = ((v + 1) * (v * v + 1)) as usize;
        assert_eq!(gq.point_lines.len(), size);
        assert_eq!(gq.line_points.len(), size);
        assert!(gq.point_lines.iter().all(|ls| ls.len() == v as usize + 1));
        assert!(gq.line_points.iter().all(|ps| ps.len() == v as usize + 1));
        let lines_of: Vec<BTreeSet<usize>> = gq
            .point_lines
            .iter()
            .map(|ls| ls.iter().copied().collect())
            .collect();
        // Two points share at most one line; a point off a line is collinear with exactly one
        // of its points (the GQ axiom).
        for (p, lines) in lines_of.iter().enumerate() {
            for other in &lines_of[p + 1..] {
                assert!(lines.intersection(other).count() <= 1);
            }
            for (l, points) in gq.line_points.iter().enumerate() {
                if lines.contains(&l) {
                    continue;
                }
                let collinear = points
                    .iter()
                    .filter(|&&x| !lines.is_disjoint(&lines_of[x]))
                    .count();
                assert_eq!(collinear, 1, "v={v} point {p} line {l}");
            }
        }
    }
}

#[test]
fn balanced_concentration_is_sc14_rule_on_the_exact_distances() {
    for spec in ["delorme:v=2", "delorme:v=3"] {
        let net = build_str(spec).unwrap();
        let all = distances(&net, &Silent).unwrap();
        let link_ends = 2.0 * net.num_links() as f64;
        let expected = link_ends * net.num_routers() as f64 / all.distance_sum() as f64;
        let s = sizes_str(spec).unwrap();
        assert!(
            (s.balanced_concentration - expected).abs() < 1e-9,
            "{spec}: {} vs {expected}",
            s.balanced_concentration
        );
        assert_eq!(s.concentration, expected.ceil() as u32, "{spec}: default p");
    }
}

#[test]
fn sc14_sizes_without_building() {
    // SC14 §II-C: v = 9 gives k' = 100 and N_r = 100 * 82^2, 68% of the Moore bound.
    let s = sizes_str("delorme:v=9,p=1").unwrap();
    assert_eq!((s.routers, s.network_radix), (672_400, 100));
    let moore = 1 + 100 + 100 * 99 + 100 * 99 * 99;
    assert_eq!((100.0 * s.routers as f64 / moore as f64).round(), 68.0);
}

#[test]
fn bad_parameters_are_errors_naming_the_parameter() {
    for (spec, needle) in [
        ("delorme", "missing parameter 'v'"),
        ("delorme:v=6", "prime power"),
        ("delorme:v=1", "'v'"),
        ("delorme:v=11", "'v'"),
        ("delorme:v=2,p=-1", "'p'"),
        ("delorme:v=2,q=3", "unknown parameter 'q'"),
    ] {
        let msg = build_str(spec).unwrap_err().to_string();
        assert!(msg.contains(needle), "{spec}: {msg}");
        assert_eq!(sizes_str(spec).unwrap_err().to_string(), msg, "{spec}");
    }
}
