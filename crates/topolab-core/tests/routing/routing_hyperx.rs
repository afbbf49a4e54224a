//! HyperX / FlatFly dimension-order routings (Daryin & Korzh, JSFI 2014, §3.3): every pair
//! delivered, paths with the structure the paper states (checked on the routers' labels and against
//! a plain BFS), the VL counts of the paper, acyclic CDGs, and cycles when the VLs are taken away.

#![allow(clippy::needless_range_loop)] // router pairs index distance rows

use crate::routing_support;

use routing_support::{bfs, cdg, hosts, label, paths, OneVc};
use std::sync::Arc;
use topolab_core::progress::Silent;
use topolab_core::routing::catalog::build_rule;
use topolab_core::routing::hyperx::FlatFlyDor;
use topolab_core::routing::HopRouting;
use topolab_core::{build_str, Network};

fn rule(net: &Network, spec: &str) -> Arc<dyn HopRouting> {
    build_rule(net, spec, &Silent).unwrap().unwrap().rule
}

/// The dimension each hop of a path changes (exactly one per hop).
fn hop_dims(net: &Network, rs: &[u32]) -> Vec<usize> {
    rs.windows(2)
        .map(|w| {
            let (a, b) = (label(net, w[0]), label(net, w[1]));
            let diff: Vec<usize> = (0..a.len()).filter(|&k| a[k] != b[k]).collect();
            assert_eq!(diff.len(), 1, "hop {w:?} changes {diff:?}");
            diff[0]
        })
        .collect()
}

fn differing(net: &Network, s: usize, t: usize) -> Vec<usize> {
    let (a, b) = (label(net, s as u32), label(net, t as u32));
    (0..a.len()).filter(|&k| a[k] != b[k]).collect()
}

#[test]
fn dor_is_one_minimal_path_in_dimension_order() {
    for spec in ["hyperx:dims=3x4x2,widths=2x1x1", "hypercube:n=4"] {
        let net = build_str(spec).unwrap();
        let r = rule(&net, "hyperx_dor");
        for s in 0..net.num_routers() {
            let d = bfs(&net, s);
            for t in 0..net.num_routers() {
                let ps = paths(&net, r.clone(), s, t);
                assert_eq!(ps.len(), 1, "{spec} {s}->{t}");
                let (rs, vcs, w) = &ps[0];
                assert_eq!(*w, 1.0);
                assert_eq!(rs.len() - 1, d[t], "{spec} {s}->{t}: DOR is minimal");
                assert_eq!(hop_dims(&net, rs), differing(&net, s, t), "{spec} {s}->{t}");
                assert!(vcs.iter().all(|&v| v == 0));
            }
        }
    }
}

#[test]
fn ador_takes_at_most_one_extra_hop_per_dimension() {
    let net = build_str("hyperx:dims=4x3x3").unwrap();
    let dims = [4usize, 3, 3];
    let r = rule(&net, "hyperx_ador");
    for s in 0..net.num_routers() {
        for t in 0..net.num_routers() {
            let ps = paths(&net, r.clone(), s, t);
            let diff = differing(&net, s, t);
            // Direct hop or any of the K_n - 2 other switches first: K_n - 1 choices per dimension.
            let want: usize = diff.iter().map(|&k| dims[k] - 1).product();
            assert_eq!(ps.len(), want, "{s}->{t}");
            for (rs, vcs, _) in &ps {
                let hd = hop_dims(&net, rs);
                assert!(hd.windows(2).all(|w| w[0] <= w[1]), "{rs:?} out of order");
                for &k in &diff {
                    let hops: Vec<usize> = (0..hd.len()).filter(|&i| hd[i] == k).collect();
                    assert!(hops.len() == 1 || hops.len() == 2, "{rs:?}");
                    // First hop in a dimension on VL 0, the hop after an extra one on VL 1.
                    assert_eq!(vcs[hops[0]], 0);
                    if hops.len() == 2 {
                        assert_eq!(vcs[hops[1]], 1);
                    }
                }
                assert_eq!(hd.iter().filter(|&&k| !diff.contains(&k)).count(), 0);
            }
            assert!(ps.iter().any(|p| p.0.len() - 1 == diff.len()));
        }
    }
}

#[test]
fn mixed_dor_follows_the_papers_four_orders_one_per_sl() {
    // Daryin & Korzh, JSFI 2014, §3.3: SL = d mod 4 picks (1,2,3,4), (2,4,1,3), (3,1,4,2),
    // (4,3,2,1).
    let orders = [[0, 1, 2, 3], [1, 3, 0, 2], [2, 0, 3, 1], [3, 2, 1, 0]];
    let net = build_str("hyperx:dims=2x3x2x3,p=4").unwrap();
    let r = rule(&net, "hyperx_dor:mixed=true");
    let mut seen = [false; 4];
    for s in 0..net.num_routers() {
        for t in 0..net.num_routers() {
            let diff = differing(&net, s, t);
            let ps = paths(&net, r.clone(), s, t);
            if s != t {
                assert_eq!(ps.len(), 4, "one path per SL");
            }
            for (rs, vcs, w) in &ps {
                assert!((w - 0.25).abs() < 1e-12 || s == t);
                let sl = vcs.first().copied().unwrap_or(0) as usize;
                assert!(
                    vcs.iter().all(|&v| v as usize == sl),
                    "VL = SL on every hop"
                );
                let want: Vec<usize> = orders[sl]
                    .iter()
                    .copied()
                    .filter(|k| diff.contains(k))
                    .collect();
                assert_eq!(hop_dims(&net, rs), want, "{s}->{t} SL {sl}");
                if diff.len() == 4 {
                    seen[sl] = true;
                }
            }
        }
    }
    assert_eq!(seen, [true; 4]);
}

#[test]
fn twisted_dor_first_moves_the_last_dimension_to_d_mod_k() {
    let net = build_str("hyperx:dims=3x4,p=4").unwrap();
    let r = rule(&net, "hyperx_dor:twisted=true");
    for s in 0..net.num_routers() {
        for t in 0..net.num_routers() {
            if s == t {
                continue;
            }
            let ps = paths(&net, r.clone(), s, t);
            let total: f64 = ps.iter().map(|p| p.2).sum();
            assert!((total - 1.0).abs() < 1e-12);
            // d = 0..3 are the destination hosts; the twist goes to d mod 4 = d.
            for d in 0..4i64 {
                let twist = label(&net, s as u32)[1] != d;
                let want_len = if twist {
                    let mid = (0..net.num_routers())
                        .find(|&m| label(&net, m as u32) == vec![label(&net, s as u32)[0], d])
                        .unwrap();
                    1 + differing(&net, mid, t).len()
                } else {
                    differing(&net, s, t).len()
                };
                let found = ps.iter().any(|(rs, vcs, _)| {
                    let hd = hop_dims(&net, rs);
                    let first_ok =
                        !twist || (hd[0] == 1 && label(&net, rs[1])[1] == d && vcs[0] == 1);
                    let rest = if twist { &vcs[1..] } else { &vcs[..] };
                    first_ok && rs.len() - 1 == want_len && rest.iter().all(|&v| v == 0)
                });
                assert!(found, "{s}->{t} host {d}: {ps:?}");
            }
        }
    }
}

#[test]
fn every_variant_is_acyclic_with_the_papers_vls() {
    // (spec, VLs the paper's scheme needs): DOR 1, ADOR 2, Mixed x4 SLs, Twisted +1.
    let cases = [
        ("hyperx_dor", 1),
        ("hyperx_ador", 2),
        ("hyperx_dor:mixed=true", 4),
        ("hyperx_ador:mixed=true", 8),
        ("hyperx_dor:twisted=true", 2),
        ("hyperx_ador:twisted=true", 2),
        ("hyperx_dor:mixed=true,twisted=true", 8),
        ("hyperx_ador:mixed=true,twisted=true", 8),
    ];
    let net = build_str("hyperx:dims=3x3x3x3,p=4").unwrap();
    for (spec, vls) in cases {
        let r = rule(&net, spec);
        assert_eq!(r.vc_classes(), vls, "{spec}");
        let rep = cdg(&net, r);
        assert!(rep.acyclic, "{spec}: {:?}", rep.cycle);
        assert_eq!(rep.vcs_used, vls, "{spec}");
    }
}

#[test]
fn without_their_vls_ador_and_twisted_deadlock() {
    let net = build_str("hyperx:dims=3x3,p=3").unwrap();
    assert!(cdg(&net, rule(&net, "hyperx_dor")).acyclic);
    for spec in [
        "hyperx_ador",
        "hyperx_dor:twisted=true",
        "hyperx_ador:twisted=true",
    ] {
        let rep = cdg(&net, Arc::new(OneVc(rule(&net, spec))));
        assert!(!rep.acyclic, "{spec} on one VL");
        assert!(rep.cycle.unwrap().len() >= 3);
    }
    // The literal port rule (last-dimension hop after the twist on VL 1) is cyclic; the
    // input-VL choice (VL 0) is not.
    let literal = FlatFlyDor::new(&net, true, false, true)
        .unwrap()
        .with_port_rule_vl();
    assert!(!cdg(&net, Arc::new(literal)).acyclic);
    assert!(cdg(&net, rule(&net, "hyperx_ador:twisted=true")).acyclic);
}

#[test]
fn longest_paths_are_the_stated_bounds() {
    let net = build_str("hyperx:dims=3x3x3,p=3").unwrap();
    for (spec, longest) in [
        ("hyperx_dor", 3),
        ("hyperx_ador", 6),
        ("hyperx_dor:twisted=true", 4),
        ("hyperx_ador:twisted=true", 6),
    ] {
        let r = rule(&net, spec);
        let got = topolab_core::routing::rule::check_rule_paths(&net, r.clone()).unwrap();
        assert_eq!(got, longest, "{spec}");
        assert!(got <= r.max_hops());
    }
    assert_eq!(hosts(&net).len(), 27);
}

#[test]
fn other_families_are_refused_by_name() {
    for spec in ["torus:dims=4x4", "dragonfly:h=2"] {
        let net = build_str(spec).unwrap();
        let e = build_rule(&net, "hyperx_dor", &Silent)
            .err()
            .unwrap()
            .to_string();
        assert!(e.contains("hyperx") && e.contains(net.family()), "{e}");
    }
    let net = build_str("hyperx:dims=3x3").unwrap();
    let e = build_rule(&net, "hyperx_dor:mixed=maybe", &Silent)
        .err()
        .unwrap()
        .to_string();
    assert!(e.contains("mixed") && e.contains("maybe"), "{e}");
}
