//! Hypercube turn-model routings (Daryin & Korzh, JSFI 2014, §3.4): minimal paths whose hop order
//! obeys each model's phases (checked on the labels), the number of paths each model allows, and
//! acyclic CDGs on one VL, where fully adaptive minimal routing on one VL is cyclic.

#![allow(clippy::needless_range_loop)] // router pairs index distance rows

use crate::routing_support;

use routing_support::{bfs, cdg, label, paths};
use std::sync::Arc;
use topolab_core::progress::Silent;
use topolab_core::routing::catalog::{build_rule, build_static};
use topolab_core::routing::cdg::check;
use topolab_core::routing::HopRouting;
use topolab_core::{build_str, Network};

fn rule(net: &Network, spec: &str) -> Arc<dyn HopRouting> {
    build_rule(net, spec, &Silent).unwrap().unwrap().rule
}

fn fact(n: usize) -> usize {
    (1..=n).product()
}

/// (dimension, bit before the hop) of every hop.
fn hops(net: &Network, rs: &[u32]) -> Vec<(usize, i64)> {
    rs.windows(2)
        .map(|w| {
            let (a, b) = (label(net, w[0]), label(net, w[1]));
            let d: Vec<usize> = (0..a.len()).filter(|&i| a[i] != b[i]).collect();
            assert_eq!(d.len(), 1);
            (d[0], a[d[0]])
        })
        .collect()
}

#[test]
fn turn_models_are_minimal_and_keep_their_phases() {
    let net = build_str("hypercube:n=5").unwrap();
    for spec in ["hypercube_nf", "hypercube_abo_nf", "hypercube_abo_pl"] {
        let r = rule(&net, spec);
        for s in 0..net.num_routers() {
            let dist = bfs(&net, s);
            for t in 0..net.num_routers() {
                let (ls, lt) = (label(&net, s as u32), label(&net, t as u32));
                let neg: Vec<usize> = (0..5).filter(|&i| ls[i] == 1 && lt[i] == 0).collect();
                let diff = (0..5).filter(|&i| ls[i] != lt[i]).count();
                // Dimensions of the first phase, by the paper's definitions.
                let first: Vec<usize> = match spec {
                    "hypercube_nf" => neg.clone(),
                    "hypercube_abo_nf" => neg.iter().copied().filter(|&i| i != 0).collect(),
                    _ => (0..5)
                        .filter(|&i| neg.contains(&i) || (i == 0 && ls[0] != lt[0]))
                        .collect(),
                };
                let ps = paths(&net, r.clone(), s, t);
                // Any order within each phase: |first|! (diff - |first|)! paths.
                assert_eq!(
                    ps.len(),
                    fact(first.len()) * fact(diff - first.len()),
                    "{spec} {s}->{t}"
                );
                for (rs, vcs, _) in &ps {
                    assert_eq!(rs.len() - 1, dist[t], "minimal");
                    assert!(vcs.iter().all(|&v| v == 0));
                    let h = hops(&net, rs);
                    for (j, &(d, _)) in h.iter().enumerate() {
                        assert_eq!(first.contains(&d), j < first.len(), "{spec} {rs:?}");
                    }
                }
            }
        }
    }
}

#[test]
fn turn_models_are_deadlock_free_on_one_vl() {
    for spec in ["hypercube:n=3", "hypercube:n=5,width=2"] {
        let net = build_str(spec).unwrap();
        for routing in ["hypercube_nf", "hypercube_abo_nf", "hypercube_abo_pl"] {
            let r = rule(&net, routing);
            assert_eq!(r.vc_classes(), 1);
            let rep = cdg(&net, r);
            assert!(rep.acyclic, "{spec} {routing}: {:?}", rep.cycle);
        }
        // Fully adaptive minimal routing on one VC is not.
        let min = build_static(&net, "min:vcs=single", &Silent).unwrap();
        assert!(!check(&net, &*min, &Silent).unwrap().acyclic, "{spec}");
    }
}

#[test]
fn dor_and_mixed_dor_apply_to_hypercubes() {
    let net = build_str("hypercube:n=4,p=4").unwrap();
    for routing in ["hyperx_dor", "hyperx_dor:mixed=true"] {
        let rep = cdg(&net, rule(&net, routing));
        assert!(rep.acyclic && rep.max_hops == 4, "{routing}");
    }
    let torus = build_str("torus:dims=2x2x2").unwrap();
    let e = build_rule(&torus, "hypercube_nf", &Silent)
        .err()
        .unwrap()
        .to_string();
    assert!(e.contains("hypercube") && e.contains("torus"), "{e}");
}
