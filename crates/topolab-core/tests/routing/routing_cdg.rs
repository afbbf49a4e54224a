//! Static routings and the CDG deadlock checker: delivery with the lengths the papers state
//! (checked against an independent BFS), acyclic CDGs for the deadlock-avoidance schemes and a
//! real cycle for minimal routing on a ring with one VC (verified by re-enumerating paths).

use std::collections::{HashSet, VecDeque};
use std::sync::Arc;
use topolab_core::progress::Silent;
use topolab_core::routing::cdg::{check, traffic_routers, Cdg, CdgReport, Channel};
use topolab_core::routing::minimal::{Minimal, MinimalTable};
use topolab_core::routing::path::{PathSet, RouteDef};
use topolab_core::routing::updown::UpDown;
use topolab_core::routing::valiant::Valiant;
use topolab_core::routing::vc_rule::VcRule;
use topolab_core::routing::HopMatrix;
use topolab_core::routing::RuleRoute;
use topolab_core::{build_str, Network};

fn bfs(net: &Network, s: usize) -> Vec<usize> {
    let mut d = vec![usize::MAX; net.num_routers()];
    d[s] = 0;
    let mut q = VecDeque::from([s]);
    while let Some(u) = q.pop_front() {
        for &v in net.neighbors(u) {
            if d[v as usize] == usize::MAX {
                d[v as usize] = d[u] + 1;
                q.push_back(v as usize);
            }
        }
    }
    d
}

fn hops(net: &Network) -> Arc<HopMatrix> {
    Arc::new(HopMatrix::build(net, &Silent).unwrap())
}

/// Every pair: paths start at s, end at t, follow links, weights sum to 1 (oblivious), lengths
/// checked by `len_ok(s, t, hops)`. Returns the largest hop count.
fn check_delivery(
    net: &Network,
    r: &dyn RouteDef,
    len_ok: &dyn Fn(usize, usize, usize) -> bool,
) -> usize {
    let n = net.num_routers();
    let mut ps = PathSet::default();
    let mut longest = 0;
    for s in 0..n {
        for t in 0..n {
            if s == t {
                continue;
            }
            r.paths(s, t, &mut ps).unwrap();
            assert!(!ps.is_empty());
            let mut total = 0.0;
            for i in 0..ps.len() {
                let (rs, vcs, w) = ps.path(i);
                assert_eq!(rs[0] as usize, s);
                assert_eq!(*rs.last().unwrap() as usize, t);
                assert_eq!(vcs.len() + 1, rs.len());
                for j in 0..vcs.len() {
                    assert!(net.neighbors(rs[j] as usize).contains(&rs[j + 1]));
                    assert!((vcs[j] as u32) < r.num_vcs());
                }
                assert!(len_ok(s, t, vcs.len()), "{} {s}->{t}: {:?}", r.name(), rs);
                longest = longest.max(vcs.len());
                total += w;
            }
            if r.oblivious() {
                assert!((total - 1.0).abs() < 1e-9, "weights sum {total}");
            }
        }
    }
    longest
}

/// The channels of a report's cycle.
fn cycle_channels(rep: &CdgReport) -> Vec<Channel> {
    let cycle = rep.cycle.as_ref().expect("a cycle");
    cycle
        .iter()
        .map(|&(from, to, vc)| Channel { from, to, vc })
        .collect()
}

/// The reported cycle is a cycle of the CDG and every dependency on it is caused by a path.
fn verify_cycle(net: &Network, r: &dyn RouteDef, cycle: &[Channel]) {
    assert!(cycle.len() >= 2);
    let terms = traffic_routers(net);
    let mut deps = HashSet::new();
    let mut ps = PathSet::default();
    for &s in &terms {
        for &t in &terms {
            if s != t {
                r.paths(s, t, &mut ps).unwrap();
                for i in 0..ps.len() {
                    let (rs, vcs, _) = ps.path(i);
                    for j in 1..vcs.len() {
                        deps.insert((
                            (rs[j - 1], rs[j], vcs[j - 1] as u32),
                            (rs[j], rs[j + 1], vcs[j] as u32),
                        ));
                    }
                }
            }
        }
    }
    for k in 0..cycle.len() {
        let a = cycle[k];
        let b = cycle[(k + 1) % cycle.len()];
        assert_eq!(a.to, b.from, "consecutive channels must share a router");
        assert!(
            deps.contains(&((a.from, a.to, a.vc), (b.from, b.to, b.vc))),
            "{a:?} -> {b:?} is not a dependency of any path"
        );
    }
}

#[test]
fn minimal_on_ring_with_one_vc_has_a_real_cycle() {
    let net = build_str("torus:dims=6").unwrap();
    let r = min_route(&net, hops(&net), VcRule::Single);
    let rep = check(&net, &r, &Silent).unwrap();
    assert!(!rep.acyclic);
    let cycle = cycle_channels(&rep);
    verify_cycle(&net, &r, &cycle);
    // Also against the CDG's own adjacency.
    let cdg = Cdg::build(&net, &r, &Silent).unwrap();
    for k in 0..cycle.len() {
        let a = cdg.channel_id(&net, cycle[k]).unwrap();
        let b = cdg.channel_id(&net, cycle[(k + 1) % cycle.len()]).unwrap();
        assert!(cdg.successors(a).contains(&b));
    }
}

#[test]
fn minimal_lengths_equal_bfs_distance() {
    for spec in [
        "slimfly:q=5",
        "torus:dims=4x3",
        "hyperx:dims=3x4",
        "jellyfish:routers=30,degree=4",
    ] {
        let net = build_str(spec).unwrap();
        let d: Vec<Vec<usize>> = (0..net.num_routers()).map(|s| bfs(&net, s)).collect();
        let r = min_route(&net, hops(&net), VcRule::Hop);
        check_delivery(&net, &r, &|s, t, h| h == d[s][t]);
    }
}

#[test]
fn slimfly_hop_indexed_vcs_are_deadlock_free() {
    // Besta & Hoefler, SC14, §IV-D: 2 VCs for minimal, 4 for Valiant (diameter 2).
    for q in [4, 5] {
        let net = build_str(&format!("slimfly:q={q}")).unwrap();
        let h = hops(&net);
        let min = min_route(&net, h.clone(), VcRule::Hop);
        let rep = check(&net, &min, &Silent).unwrap();
        assert!(rep.acyclic, "q={q}: {:?}", rep.cycle);
        assert_eq!((rep.vcs_used, rep.max_hops), (2, 2));
        let single = check(&net, &min_route(&net, h.clone(), VcRule::Single), &Silent).unwrap();
        assert!(!single.acyclic, "one VC must deadlock on Slim Fly q={q}");
        let val = val_route(&net, h.clone(), VcRule::Hop, false, None);
        let rep = check(&net, &val, &Silent).unwrap();
        assert!(rep.acyclic);
        assert_eq!(rep.max_hops, 4);
        assert_eq!(rep.vcs_used, 4);
        // Valiant <= 2 * diameter, 3-hop restriction honoured.
        check_delivery(&net, &val, &|_, _, l| (1..=4).contains(&l));
        let val3 = val_route(&net, h, VcRule::Hop, false, Some(3));
        assert_eq!(check_delivery(&net, &val3, &|_, _, l| l <= 3), 3);
        assert!(check(&net, &val3, &Silent).unwrap().acyclic);
    }
}

#[test]
fn mlfm_and_oft_two_vc_scheme() {
    // Kathareios et al., SC15, §3.4: minimal is deadlock-free with one VC; indirect random needs
    // one VC per phase.
    for spec in ["mlfm:h=3", "oft:k=3"] {
        let net = build_str(spec).unwrap();
        let h = hops(&net);
        let min = min_route(&net, h.clone(), VcRule::Single);
        assert!(check(&net, &min, &Silent).unwrap().acyclic, "{spec} min");
        let val = val_route(&net, h.clone(), VcRule::Phase, true, None);
        let rep = check(&net, &val, &Silent).unwrap();
        assert!(rep.acyclic, "{spec}: {:?}", rep.cycle);
        assert_eq!(rep.vcs_used, 2);
        let one = val_route(&net, h, VcRule::Single, true, None);
        let rep = check(&net, &one, &Silent).unwrap();
        assert!(
            !rep.acyclic,
            "{spec}: indirect with one VC must have a cycle"
        );
        verify_cycle(&net, &one, &cycle_channels(&rep));
    }
}

#[test]
fn updown_is_deadlock_free_and_delivers() {
    for spec in [
        "jellyfish:routers=30,degree=4",
        "torus:dims=4x4",
        "slimfly:q=5",
    ] {
        let net = build_str(spec).unwrap();
        let r = RuleRoute {
            net: &net,
            rule: std::sync::Arc::new(UpDown::new(&net, 0).unwrap()),
            oblivious: true,
            ports: topolab_core::routing::Ports::Random,
        };
        let n = net.num_routers();
        check_delivery(&net, &r, &|_, _, l| l < 2 * n);
        assert!(check(&net, &r, &Silent).unwrap().acyclic, "{spec}");
    }
    let net = build_str("torus:dims=4").unwrap();
    assert!(UpDown::new(&net, 9).is_err());
}

#[test]
fn dfsssp_layers_are_acyclic_and_counted() {
    use topolab_core::routing::dfsssp::Dfsssp;
    for spec in [
        "slimfly:q=5",
        "slimfly:q=7",
        "torus:dims=5x5",
        "jellyfish:routers=40,degree=5",
    ] {
        let net = build_str(spec).unwrap();
        let h = hops(&net);
        let r = Dfsssp::new(&net, &h, 16, &Silent).unwrap();
        let d: Vec<Vec<usize>> = (0..net.num_routers()).map(|s| bfs(&net, s)).collect();
        check_delivery(&net, &r, &|s, t, l| l == d[s][t]);
        let rep = check(&net, &r, &Silent).unwrap();
        assert!(rep.acyclic, "{spec}: {:?}", rep.cycle);
        eprintln!("{spec}: dfsssp VLs {}", r.vls_needed());
        // Minimal routing on one VC (a superset of the table paths) is cyclic on these networks,
        // so the layering had work to do.
        let plain = check(&net, &min_route(&net, h, VcRule::Single), &Silent).unwrap();
        assert!(!plain.acyclic);
        assert!(r.vls_needed() >= 2 && rep.vcs_used == r.vls_needed());
    }
}

fn table(net: &Network, hops: Arc<HopMatrix>) -> Arc<MinimalTable> {
    Arc::new(MinimalTable::from_hops(net, hops).unwrap())
}

fn min_route(net: &Network, hops: Arc<HopMatrix>, vcs: VcRule) -> RuleRoute<'_> {
    RuleRoute {
        net,
        rule: Arc::new(Minimal::new(table(net, hops), vcs).unwrap()),
        oblivious: true,
        ports: topolab_core::routing::Ports::Random,
    }
}

fn val_route(
    net: &Network,
    hops: Arc<HopMatrix>,
    vcs: VcRule,
    endpoints_only: bool,
    max_hops: Option<u32>,
) -> RuleRoute<'_> {
    let v = Valiant::new(net, table(net, hops), vcs, endpoints_only, max_hops).unwrap();
    RuleRoute {
        net,
        rule: Arc::new(v),
        oblivious: true,
        ports: topolab_core::routing::Ports::Random,
    }
}
