//! `hammingmesh_min` (Hoefler et al., SC 2022): its paths are shortest (independent BFS)
//! and run the source row before the destination column; the two VC classes make the CDG
//! acyclic, and one VC is not enough once boards are three wide (but is on 2 x 2 boards).

use crate::routing_support;

use routing_support::{bfs, cdg, hosts, label, paths, OneVc};
use std::sync::Arc;
use topolab_core::progress::Silent;
use topolab_core::routing::catalog::build_rule;
use topolab_core::routing::rule::check_rule_paths;
use topolab_core::routing::HopRouting;
use topolab_core::{build_str, Network};

fn rule(net: &Network) -> Arc<dyn HopRouting> {
    build_rule(net, "hammingmesh_min", &Silent)
        .unwrap()
        .unwrap()
        .rule
}

const SPECS: &[&str] = &[
    "hammingmesh:a=2,x=3",
    "hammingmesh:a=4,x=2",
    "hammingmesh:a=2,b=5,x=3,y=2",
    "hammingmesh:a=3,b=4,x=4,y=2,radix=4",
    "hammingmesh:a=2,b=1,x=3,y=2",
];

#[test]
fn paths_are_shortest_and_take_the_row_first() {
    for spec in SPECS {
        let net = build_str(spec).unwrap();
        let r = rule(&net);
        check_rule_paths(&net, r.clone()).unwrap();
        for &s in &hosts(&net) {
            let d = bfs(&net, s);
            for &t in &hosts(&net) {
                let ps = paths(&net, r.clone(), s, t);
                assert!(!ps.is_empty());
                for (rs, _, _) in &ps {
                    assert_eq!(rs.len() - 1, d[t], "{spec}: {rs:?} not shortest");
                    // once a router in the destination's column is reached, the column's
                    // line is never left again (row hops all precede column hops)
                    let (tc, tr) = (label(&net, t as u32)[1], label(&net, t as u32)[2]);
                    let first = rs
                        .iter()
                        .position(|&v| label(&net, v)[0] == 0 && label(&net, v)[1] == tc)
                        .unwrap();
                    for &v in &rs[first..] {
                        let l = label(&net, v);
                        assert!(l[0] != 1 && l[1] == tc, "{spec}: {rs:?} leaves column {tc}");
                    }
                    // and before it, the path stays in the source's row
                    let sr = label(&net, s as u32)[2];
                    for &v in &rs[..first] {
                        let l = label(&net, v);
                        assert!(l[0] != 2 && l[2] == sr, "{spec}: {rs:?} leaves row {sr}");
                    }
                    assert_eq!(label(&net, *rs.last().unwrap())[2], tr);
                }
            }
        }
    }
}

#[test]
fn two_vcs_are_deadlock_free_and_one_is_not_on_wide_boards() {
    // (spec, one VC acyclic): boards three or more accelerators wide (or tall) close the cycle
    // tree -> west edge -> ... -> east edge -> tree (on three, ties: entering from the tree
    // to the middle, and the tree as a shortcut between the two edges, are both minimal); on
    // boards of at most 2 no minimal path joins a mesh hop and a tree in one dimension
    for (spec, one_vc_acyclic) in [
        ("hammingmesh:a=2,x=3", true),
        ("hammingmesh:a=2,b=1,x=3,y=2", true),
        ("hammingmesh:a=3,x=3,y=2", false),
        ("hammingmesh:a=4,x=2", false),
        ("hammingmesh:a=2,b=5,x=3,y=2", false),
        ("hammingmesh:a=3,b=4,x=4,y=2,radix=4", false),
    ] {
        let net = build_str(spec).unwrap();
        let r = rule(&net);
        let two = cdg(&net, r.clone());
        assert!(two.acyclic, "{spec}: {:?}", two.cycle);
        let one = cdg(&net, Arc::new(OneVc(r)));
        assert_eq!(
            one.acyclic, one_vc_acyclic,
            "{spec}: one VC, cycle {:?}",
            one.cycle
        );
    }
}

#[test]
fn switch_sources_and_destinations_get_paths() {
    let net = build_str("hammingmesh:a=2,x=6,y=3,radix=8").unwrap();
    let r = rule(&net);
    let n = net.num_routers();
    for s in [0, 5, n - 1, n - 7, 50] {
        for t in [1, n - 1, n - 3, 47, 60] {
            let ps = paths(&net, r.clone(), s, t);
            assert!(!ps.is_empty(), "{s} -> {t}");
        }
    }
}
