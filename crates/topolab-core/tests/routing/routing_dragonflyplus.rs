//! Dragonfly+ routings (Shpiner et al., HiPINEB 2017; Flajslik, Borch & Parker, ISC 2018):
//! minimal paths are shortest (independent BFS) and up, global, down in that order; non-minimal
//! paths visit exactly one intermediate group; the VLs the papers state (1 minimal, 2
//! non-minimal) give acyclic CDGs and one VL does not suffice for the non-minimal routes.

use crate::routing_support;

use routing_support::{bfs, cdg, hosts, label, paths, OneVc};
use std::collections::BTreeSet;
use std::sync::Arc;
use topolab_core::progress::Silent;
use topolab_core::routing::catalog::build_rule;
use topolab_core::routing::HopRouting;
use topolab_core::{build_str, Network};

fn rule(net: &Network, spec: &str) -> Arc<dyn HopRouting> {
    build_rule(net, spec, &Silent).unwrap().unwrap().rule
}

/// Groups a path visits, in order (consecutive repeats merged).
fn groups_visited(net: &Network, rs: &[u32]) -> Vec<i64> {
    let mut out: Vec<i64> = Vec::new();
    for &r in rs {
        let g = label(net, r)[0];
        if out.last() != Some(&g) {
            out.push(g);
        }
    }
    out
}

#[test]
fn minimal_paths_are_shortest_and_use_one_vl() {
    for spec in [
        "dragonflyplus:h=2",
        "dragonflyplus:h=2,s=3,l=2,g=4",
        "dragonflyplus:h=3,g=5",
    ] {
        let net = build_str(spec).unwrap();
        let r = rule(&net, "dragonflyplus_min");
        assert_eq!(r.vc_classes(), 1);
        for &s in &hosts(&net) {
            let d = bfs(&net, s);
            for &t in &hosts(&net) {
                let ps = paths(&net, r.clone(), s, t);
                assert!(!ps.is_empty());
                let total: f64 = ps.iter().map(|p| p.2).sum();
                assert!((total - 1.0).abs() < 1e-9);
                for (rs, vcs, _) in &ps {
                    assert_eq!(rs.len() - 1, d[t], "{spec}: {rs:?} not shortest");
                    assert!(vcs.iter().all(|&v| v == 0));
                }
            }
        }
        let report = cdg(&net, r);
        assert!(report.acyclic, "{spec}: {:?}", report.cycle);
    }
}

#[test]
fn valiant_visits_one_intermediate_group_uniformly() {
    let net = build_str("dragonflyplus:h=2").unwrap(); // 5 groups
    let r = rule(&net, "dragonflyplus_valiant");
    assert_eq!(r.vc_classes(), 2);
    let leaves = hosts(&net);
    for &s in &leaves {
        for &t in &leaves {
            let (gs, gt) = (label(&net, s as u32)[0], label(&net, t as u32)[0]);
            let ps = paths(&net, r.clone(), s, t);
            if gs == gt {
                assert!(ps.iter().all(|p| p.0.len() <= 3));
                continue;
            }
            let mut via = std::collections::BTreeMap::new();
            for (rs, vcs, w) in &ps {
                let visited = groups_visited(&net, rs);
                assert_eq!(visited.len(), 3, "{rs:?}");
                assert_eq!((visited[0], visited[2]), (gs, gt));
                assert!(rs.len() - 1 <= 6, "{rs:?}");
                // VL 0 until the intermediate spine or leaf, VL 1 from there on
                let first = vcs.iter().position(|&v| v == 1).expect("changes VL");
                assert!(vcs[first..].iter().all(|&v| v == 1), "{vcs:?}");
                assert_eq!(label(&net, rs[first])[0], visited[1], "{rs:?} {vcs:?}");
                *via.entry(visited[1]).or_insert(0.0) += w;
            }
            let expect: BTreeSet<i64> = (0..5).filter(|&g| g != gs && g != gt).collect();
            assert_eq!(via.keys().copied().collect::<BTreeSet<_>>(), expect);
            assert!(
                via.values().all(|&w: &f64| (w - 1.0 / 3.0).abs() < 1e-9),
                "{via:?}"
            );
        }
    }
}

#[test]
fn the_papers_vls_are_deadlock_free_and_needed() {
    for spec in [
        "dragonflyplus:h=2",
        "dragonflyplus:h=2,s=3,g=4",
        "dragonflyplus:h=3,l=2,p=2",
    ] {
        let net = build_str(spec).unwrap();
        for name in ["dragonflyplus_valiant", "dragonflyplus_adaptive"] {
            let r = rule(&net, name);
            let two = cdg(&net, r.clone());
            assert!(two.acyclic, "{spec} {name}: {:?}", two.cycle);
            assert_eq!(two.vcs_used, 2, "{spec} {name}");
            let one = cdg(&net, Arc::new(OneVc(r)));
            assert!(!one.acyclic, "{spec} {name} on one VL has no cycle");
        }
    }
}

#[test]
fn adaptive_offers_the_minimal_and_the_intermediate_routes() {
    let net = build_str("dragonflyplus:h=2").unwrap();
    let built = build_rule(&net, "dragonflyplus_adaptive", &Silent)
        .unwrap()
        .unwrap();
    assert_eq!(
        built.reading.select,
        topolab_core::routing::Select::TwoChoices,
        "adaptive takes the less occupied of two random candidates"
    );
    let min = rule(&net, "dragonflyplus_min");
    let (s, t) = (0usize, 4 * 4 + 1); // leaf 0 of group 0, leaf 1 of group 4
    let union: BTreeSet<Vec<u32>> = paths(&net, built.rule, s, t)
        .into_iter()
        .map(|p| p.0)
        .collect();
    for (rs, _, _) in paths(&net, min, s, t) {
        assert!(union.contains(&rs), "minimal {rs:?} not offered");
    }
    let groups: BTreeSet<i64> = union
        .iter()
        .filter(|rs| rs.len() > 4)
        .map(|rs| groups_visited(&net, rs)[1])
        .collect();
    assert_eq!(groups, BTreeSet::from([1, 2, 3]));
}

#[test]
fn networks_without_leaf_spine_groups_are_refused() {
    let df = build_str("dragonfly:a=4,h=2").unwrap();
    let e = build_rule(&df, "dragonflyplus_min", &Silent).err().unwrap();
    assert!(e.to_string().contains("leaves then spines"), "{e}");
    let ft = build_str("fattree:k=4").unwrap();
    let e = build_rule(&ft, "dragonflyplus_valiant", &Silent)
        .err()
        .unwrap();
    assert!(e.to_string().contains("router groups"), "{e}");
}
