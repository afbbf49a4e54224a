//! Imase–Itoh shift-register routing (Koibuchi et al., 2018, §III-B1) on Imase–Itoh, Kautz and de
//! Bruijn digraphs: at every router the next hops computed from the addresses are exactly the
//! minimal next hops of the BFS distance table (so routes are shortest: difference 0), routes
//! stay within ceil(log_d n) (k for Kautz / de Bruijn), every packet arrives, hop VCs are
//! deadlock-free and a single VC is not.

use std::sync::Arc;
use topolab_core::progress::Silent;
use topolab_core::routing::catalog::{build_rule, build_static};
use topolab_core::routing::cdg::check;
use topolab_core::routing::rule::check_rule_paths;
use topolab_core::routing::{HopMatrix, HopRouting, RouteState};
use topolab_core::{build_str, Network};

/// ceil(log_d n) by integer powers (Koibuchi et al., 2018, §III-A's diameter bound for Imase–Itoh
/// digraphs).
fn ceil_log(d: u64, n: u64) -> u32 {
    let (mut l, mut p) = (0, 1u64);
    while p < n {
        p *= d;
        l += 1;
    }
    l
}

/// Asserts next hops == minimal next hops at every (router, destination); returns (largest,
/// mean) route length in hops over ordered pairs of distinct routers, walking the rule.
fn agrees_with_table(net: &Network, rule: &dyn HopRouting) -> (u32, f64) {
    let hops = HopMatrix::build(net, &Silent).unwrap();
    let n = net.num_routers();
    let (mut longest, mut sum) = (0u32, 0u64);
    for r in 0..n {
        for t in 0..n {
            let mut got = Vec::new();
            rule.next(r as u32, t as u32, 0, RouteState::default(), &mut |h| {
                got.push(h.nb as usize)
            });
            got.sort_unstable();
            let want: Vec<usize> = hops.minimal_next_hops(net, r, t).collect();
            assert_eq!(got, want, "{}: {r} -> {t}", net.spec());
            if r != t {
                longest = longest.max(hops.get(r, t) as u32);
                sum += hops.get(r, t) as u64;
            }
        }
    }
    (longest, sum as f64 / (n * (n - 1)) as f64)
}

#[test]
fn imase_itoh_routes_are_the_shortest_and_within_ceil_log_d_n() {
    let mut several = 0;
    for spec in [
        "imase:n=8,d=3",
        "imase:n=10,d=3",
        "imase:n=16,d=2",
        "imase:n=20,d=3",
        "imase:n=27,d=3",
        "imase:n=50,d=4",
        "imase:n=64,d=4",
        "imase:n=100,d=5",
        "imase:n=37,d=3,b=0",
        "imase:n=30,d=4,a=29,b=29",
        "imase:n=26,d=3,a=25,b=7",
    ] {
        let net = build_str(spec).unwrap();
        let built = build_rule(&net, "imase", &Silent).unwrap().unwrap();
        let (longest, mean) = agrees_with_table(&net, &*built.rule);
        let n = net.num_routers() as u64;
        let d = net.degree(0).max(net.degree(1)) as u64;
        let bound = ceil_log(d, n);
        assert!(longest <= bound, "{spec}: diameter {longest} > {bound}");
        assert_eq!(
            check_rule_paths(&net, Arc::clone(&built.rule)).unwrap(),
            longest,
            "{spec}"
        );
        println!(
            "{spec}: ceil(log_d n) = {bound}, longest route {longest}, mean {mean:.3} (= minimal)"
        );
        // Several shortest routes exist somewhere when d does not divide n (Koibuchi et al., 2018,
        // §III-B1).
        let def = build_static(&net, "imase", &Silent).unwrap();
        let mut ps = topolab_core::routing::path::PathSet::default();
        for s in 0..net.num_routers() {
            for t in 0..net.num_routers() {
                def.paths(s, t, &mut ps).unwrap();
                several += (ps.len() > 1) as usize;
            }
        }
    }
    assert!(several > 0);
}

#[test]
fn kautz_and_de_bruijn_shift_routes_are_the_unique_shortest() {
    for (spec, k) in [
        ("kautz:d=2,k=3", 3),
        ("kautz:d=3,k=2", 2),
        ("kautz:d=3,k=3", 3),
        ("kautz:d=2,k=1", 1),
        ("debruijn:d=2,k=4", 4),
        ("debruijn:d=3,k=3", 3),
    ] {
        let net = build_str(spec).unwrap();
        let built = build_rule(&net, "imase", &Silent).unwrap().unwrap();
        let (longest, mean) = agrees_with_table(&net, &*built.rule);
        assert_eq!(longest, k, "{spec}: diameter");
        assert_eq!(check_rule_paths(&net, built.rule).unwrap(), k);
        println!("{spec}: k = {k}, mean route {mean:.3}");
    }
}

#[test]
fn hop_vcs_are_deadlock_free_and_one_vc_is_not() {
    for spec in ["imase:n=20,d=3", "kautz:d=2,k=3", "debruijn:d=2,k=3"] {
        let net = build_str(spec).unwrap();
        let hop = build_static(&net, "imase", &Silent).unwrap();
        let rep = check(&net, &*hop, &Silent).unwrap();
        assert!(rep.acyclic, "{spec}: {:?}", rep.cycle);
        assert!(rep.vcs_used <= hop.num_vcs());
        let one = build_static(&net, "imase:vcs=single", &Silent).unwrap();
        assert!(!check(&net, &*one, &Silent).unwrap().acyclic, "{spec}");
    }
}

#[test]
fn wrong_networks_and_parameters_are_refused() {
    let torus = build_str("torus:dims=4x4").unwrap();
    let e = build_rule(&torus, "imase", &Silent)
        .err()
        .unwrap()
        .to_string();
    assert!(e.contains("undirected"), "{e}");
    let net = build_str("imase:n=20,d=3,b=0").unwrap();
    let e = build_rule(&net, "imase:b=1", &Silent)
        .err()
        .unwrap()
        .to_string();
    assert!(e.contains("b = 1") && e.contains("pass a="), "{e}");
    let e = build_rule(&net, "imase:a=2", &Silent)
        .err()
        .unwrap()
        .to_string();
    assert!(e.contains("'a'") || e.contains("a"), "{e}");
    let random = build_str("random_directed:n=20,d=3").unwrap();
    assert!(build_rule(&random, "imase", &Silent).is_err());
}
