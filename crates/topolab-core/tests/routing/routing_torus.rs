//! Torus dimension-order routing with datelines (Daryin & Korzh, JSFI 2014, §3.2): minimal paths
//! (ring distances, checked against a BFS), one direction per ring, both directions at distance
//! K/2, acyclic CDGs with the two dateline classes (both the textbook and the BookSim2 rule), and a
//! cycle on one VL.

#![allow(clippy::needless_range_loop)] // router pairs index distance rows

use crate::routing_support;

use routing_support::{bfs, cdg, label, paths, OneVc};
use std::sync::Arc;
use topolab_core::progress::Silent;
use topolab_core::routing::catalog::build_rule;
use topolab_core::routing::HopRouting;
use topolab_core::{build_str, Network};

fn rule(net: &Network, spec: &str) -> Arc<dyn HopRouting> {
    build_rule(net, spec, &Silent).unwrap().unwrap().rule
}

fn ring(a: i64, b: i64, k: i64) -> i64 {
    let d = (a - b).rem_euclid(k);
    d.min(k - d)
}

#[test]
fn dor_paths_are_minimal_dimension_ordered_and_split_ties() {
    let dims = [4i64, 5, 3];
    let net = build_str("torus:dims=4x5x3").unwrap();
    for spec in ["torus_dor", "torus_dor:vcs=booksim"] {
        let r = rule(&net, spec);
        for s in 0..net.num_routers() {
            let d = bfs(&net, s);
            for t in 0..net.num_routers() {
                let (ls, lt) = (label(&net, s as u32), label(&net, t as u32));
                let manhattan: i64 = (0..3).map(|n| ring(ls[n], lt[n], dims[n])).sum();
                assert_eq!(manhattan as usize, d[t]);
                let ps = paths(&net, r.clone(), s, t);
                // Each dimension at distance K/2 (only the 4-ring here) doubles the paths.
                let ties = (ls[0] - lt[0]).rem_euclid(4) == 2;
                assert_eq!(ps.len(), if ties { 2 } else { 1 }, "{s}->{t}");
                for (rs, vcs, w) in &ps {
                    assert_eq!(*w, 1.0 / ps.len() as f64);
                    assert_eq!(rs.len() - 1, d[t], "{spec} {s}->{t}");
                    let mut last_dim = 0;
                    let mut dir = [0i64; 3];
                    for (i, w2) in rs.windows(2).enumerate() {
                        let (a, b) = (label(&net, w2[0]), label(&net, w2[1]));
                        let n = (0..3).find(|&n| a[n] != b[n]).unwrap();
                        assert!(n >= last_dim, "dimension order");
                        last_dim = n;
                        let step = (b[n] - a[n]).rem_euclid(dims[n]);
                        let sgn = if step == 1 { 1 } else { -1 };
                        assert!(dir[n] == 0 || dir[n] == sgn, "one direction per ring");
                        dir[n] = sgn;
                        // Textbook dateline: class 1 exactly from the wrap link on.
                        if spec == "torus_dor" {
                            let wrapped = rs[..=i + 1].windows(2).any(|w3| {
                                let (x, y) = (label(&net, w3[0]), label(&net, w3[1]));
                                (x[n] - y[n]).abs() == dims[n] - 1 && x[n] != y[n]
                            });
                            assert_eq!(vcs[i], wrapped as u8, "{rs:?} hop {i}");
                        }
                    }
                    if spec == "torus_dor:vcs=booksim" {
                        for (i, w2) in rs.windows(2).enumerate() {
                            let (a, _) = (label(&net, w2[0]), label(&net, w2[1]));
                            let n = (0..3).find(|&n| a[n] != label(&net, w2[1])[n]).unwrap();
                            assert_eq!(
                                vcs[i],
                                (ls[n] > lt[n]) as u8,
                                "BookSim2 class: cur > dst at entry"
                            );
                        }
                    }
                }
            }
        }
    }
}

#[test]
fn datelines_make_the_torus_acyclic_and_one_vl_does_not() {
    for spec in ["torus:dims=5x4", "torus:dims=3x4x2", "torus:dims=6"] {
        let net = build_str(spec).unwrap();
        for routing in ["torus_dor", "torus_dor:vcs=booksim"] {
            let rep = cdg(&net, rule(&net, routing));
            assert!(rep.acyclic, "{spec} {routing}: {:?}", rep.cycle);
            assert_eq!(rep.vcs_used, 2, "{spec} {routing}");
        }
        let rep = cdg(&net, Arc::new(OneVc(rule(&net, "torus_dor"))));
        assert!(!rep.acyclic, "{spec}: one VL must have a ring cycle");
    }
    let mesh = build_str("mesh:dims=4x3").unwrap();
    let r = rule(&mesh, "torus_dor");
    assert_eq!(r.vc_classes(), 1);
    let rep = cdg(&mesh, r);
    assert!(rep.acyclic && rep.vcs_used == 1);
    assert_eq!(rep.max_hops, 5);
}

#[test]
fn wrong_family_and_bad_vcs_are_refused() {
    let net = build_str("hyperx:dims=3x3").unwrap();
    let e = build_rule(&net, "torus_dor", &Silent)
        .err()
        .unwrap()
        .to_string();
    assert!(e.contains("torus") && e.contains("hyperx"), "{e}");
    let net = build_str("torus:dims=4x4").unwrap();
    let e = build_rule(&net, "torus_dor:vcs=three", &Silent)
        .err()
        .unwrap()
        .to_string();
    assert!(
        e.contains("vcs") && e.contains("three") && e.contains("dateline"),
        "{e}"
    );
}
