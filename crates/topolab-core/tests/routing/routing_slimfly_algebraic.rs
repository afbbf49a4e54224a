//! Slim Fly minimal routing by the MMS algebra (Daryin & Korzh, JSFI 2014, §3.6) against the
//! hop-distance table: at every router and for every destination, the algebraic next hops are
//! exactly the neighbours one hop closer by BFS ("both must agree", issue 6), for q of every
//! residue class mod 4 and for prime and non-prime fields; 2 hop-indexed VCs are deadlock-free and
//! one VC is not.

use std::sync::Arc;
use topolab_core::progress::Silent;
use topolab_core::routing::catalog::build_static;
use topolab_core::routing::cdg::check;
use topolab_core::routing::rule::check_rule_paths;
use topolab_core::routing::slimfly_algebraic::SlimFlyAlgebraic;
use topolab_core::routing::vc_rule::VcRule;
use topolab_core::routing::{HopMatrix, HopRouting, RouteState};
use topolab_core::{build_str, NetworkBuilder};

#[test]
fn algebraic_next_hops_equal_minimal_next_hops_from_the_distance_table() {
    let mut multi = 0usize;
    for q in [3u32, 4, 5, 7, 8, 9, 11, 13, 16, 17, 19] {
        let net = build_str(&format!("slimfly:q={q}")).unwrap();
        let rule = SlimFlyAlgebraic::new(&net, VcRule::Hop).unwrap();
        let hops = HopMatrix::build(&net, &Silent).unwrap();
        let n = net.num_routers();
        for r in 0..n {
            for t in 0..n {
                let mut got: Vec<usize> = Vec::new();
                rule.next(r as u32, t as u32, 0, RouteState::default(), &mut |h| {
                    got.push(h.nb as usize)
                });
                got.sort_unstable();
                let want: Vec<usize> = hops.minimal_next_hops(&net, r, t).collect();
                assert_eq!(got, want, "q={q}: router {r} -> {t}");
                multi += (got.len() > 1) as usize;
            }
        }
    }
    // Pairs with several minimal paths exist (Daryin & Korzh, JSFI 2014, §3.6), so the comparison
    // covers sets.
    assert!(multi > 0);
}

#[test]
fn delivers_in_at_most_two_hops_and_two_hop_vcs_are_deadlock_free() {
    for q in [4u32, 5, 7] {
        let net = build_str(&format!("slimfly:q={q}")).unwrap();
        let rule = Arc::new(SlimFlyAlgebraic::new(&net, VcRule::Hop).unwrap());
        assert_eq!(check_rule_paths(&net, rule).unwrap(), 2, "q={q}");
        let def = build_static(&net, "slimfly_mms", &Silent).unwrap();
        let rep = check(&net, &*def, &Silent).unwrap();
        assert!(rep.acyclic, "q={q}: {:?}", rep.cycle);
        assert_eq!((rep.vcs_used, rep.max_hops), (2, 2));
        // The same paths on one VC close a cycle (the VC scheme is what breaks it).
        let one = build_static(&net, "slimfly_mms:vcs=single", &Silent).unwrap();
        assert!(!check(&net, &*one, &Silent).unwrap().acyclic, "q={q}");
    }
}

#[test]
fn refuses_networks_that_are_not_the_mms_graph() {
    let torus = build_str("torus:dims=4x4").unwrap();
    let e = SlimFlyAlgebraic::new(&torus, VcRule::Hop)
        .err()
        .unwrap()
        .to_string();
    assert!(e.contains("(t, x, y)"), "{e}");
    // A Slim Fly with one link missing: the algebra no longer describes it.
    let sf = build_str("slimfly:q=5").unwrap();
    let mut b = NetworkBuilder::new("slimfly", sf.num_routers(), false);
    b.label_fields(&["t", "x", "y"]);
    let class = b.link_class("any");
    for r in 0..sf.num_routers() {
        b.set_label(r, sf.label(r));
    }
    for l in &sf.links()[1..] {
        b.add_link(l.src as usize, l.dst as usize, 1, class);
    }
    let broken = b.build().unwrap();
    let e = SlimFlyAlgebraic::new(&broken, VcRule::Hop)
        .err()
        .unwrap()
        .to_string();
    assert!(e.contains("MMS graph of q = 5"), "{e}");
    let e = build_static(&sf, "slimfly_mms:vcs=phase", &Silent)
        .err()
        .unwrap()
        .to_string();
    assert!(e.contains("vcs") && e.contains("phase"), "{e}");
}
