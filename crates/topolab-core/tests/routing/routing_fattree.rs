//! Fat-tree nearest-common-ancestor routing (Besta & Hoefler, SC14, §V, Kathareios et al., SC15,
//! §2.2.1): one minimal up-then-down path of 2·(NCA level) hops (NCA), every up choice (ANCA),
//! d-mod-k spreading destinations evenly over the core, and an acyclic CDG on one VL.

use crate::routing_support;

use routing_support::{bfs, cdg, hosts, label, paths};
use std::sync::Arc;
use topolab_core::progress::Silent;
use topolab_core::routing::catalog::build_rule;
use topolab_core::routing::fattree::FatTreeNca;
use topolab_core::routing::load::{channel_load, Demands};
use topolab_core::routing::HopRouting;
use topolab_core::routing::RuleRoute;
use topolab_core::{build_str, Network};

fn rule(net: &Network, spec: &str) -> Arc<dyn HopRouting> {
    build_rule(net, spec, &Silent).unwrap().unwrap().rule
}

/// Level of the nearest common ancestor of two leaves, from their labels.
fn nca_level(net: &Network, s: usize, t: usize) -> usize {
    let (a, b) = (label(net, s as u32), label(net, t as u32));
    let three = (0..net.num_routers()).any(|r| net.label(r)[0] == 2);
    if s == t {
        0
    } else if !three || a[1] == b[1] {
        1
    } else {
        2
    }
}

const TREES: [&str; 5] = [
    "fattree:k=4",
    "fattree:k=6",
    "fattree:k=6,levels=2",
    "fattree:k=4,p=3",
    "fattree:k=6,pods=3",
];

#[test]
fn nca_is_minimal_up_down_one_path_per_destination_host() {
    for spec in TREES {
        let net = build_str(spec).unwrap();
        let r = rule(&net, "fattree_nca");
        for &s in &hosts(&net) {
            let d = bfs(&net, s);
            for &t in &hosts(&net) {
                let ps = paths(&net, r.clone(), s, t);
                let p = net.endpoints()[t] as usize;
                // One path per destination host, each host equally likely.
                assert_eq!(ps.len(), p, "{spec} {s}->{t}");
                for (rs, _, w) in &ps {
                    assert!((w - 1.0 / p as f64).abs() < 1e-12);
                    assert_eq!(rs.len() - 1, 2 * nca_level(&net, s, t), "{spec} {s}->{t}");
                    assert_eq!(rs.len() - 1, d[t]);
                    let lv: Vec<i64> = rs.iter().map(|&x| label(&net, x)[0]).collect();
                    let top = lv
                        .iter()
                        .position(|&l| l == *lv.iter().max().unwrap())
                        .unwrap();
                    assert!(
                        lv[..=top].windows(2).all(|w| w[1] == w[0] + 1),
                        "{spec} up {lv:?}"
                    );
                    assert!(
                        lv[top..].windows(2).all(|w| w[1] == w[0] - 1),
                        "{spec} down {lv:?}"
                    );
                }
            }
        }
    }
}

/// Uniform-traffic throughput bound (1 / max channel load) of an oblivious rule.
fn uniform_bound(net: &Network, r: Arc<dyn HopRouting>) -> f64 {
    let def = RuleRoute {
        net,
        rule: r,
        oblivious: true,
        ports: topolab_core::routing::Ports::Random,
    };
    channel_load(net, &def, &Demands::uniform(net), &Silent)
        .unwrap()
        .throughput_bound
}

#[test]
fn nca_spreads_destination_hosts_evenly_over_roots_and_leaf_links() {
    for spec in ["fattree:k=4", "fattree:k=6"] {
        let net = build_str(spec).unwrap();
        let r = rule(&net, "fattree_nca");
        let mut through = vec![0.0f64; net.num_routers()];
        let mut down = std::collections::BTreeMap::new();
        for &s in &hosts(&net) {
            for &t in &hosts(&net) {
                for (rs, _, w) in paths(&net, r.clone(), s, t) {
                    if nca_level(&net, s, t) == 2 {
                        through[rs[2] as usize] += w;
                    }
                    if rs.len() > 1 {
                        let n = rs.len();
                        *down.entry((rs[n - 2], rs[n - 1])).or_insert(0.0) += w;
                    }
                }
            }
        }
        let core: Vec<f64> = (0..net.num_routers())
            .filter(|&x| net.label(x)[0] == 2)
            .map(|x| through[x])
            .collect();
        assert!(
            core[0] > 0.0 && core.iter().all(|&c| (c - core[0]).abs() < 1e-9),
            "{spec}: {core:?}"
        );
        // Every link into a leaf carries the same traffic (one destination host's worth).
        let first = *down.values().next().unwrap();
        assert!(
            down.values().all(|&v| (v - first).abs() < 1e-9),
            "{spec}: {down:?}"
        );
    }
}

#[test]
fn per_host_d_mod_k_reaches_full_bisection_where_per_leaf_keys_do_not() {
    // A full-bisection fat tree under uniform traffic: per-host d-mod-k loads no link above
    // one endpoint's injection rate (bound >= 1); keyed on the leaf, all of a leaf's traffic
    // comes down one of its k/2 links.
    for (spec, p) in [
        ("fattree:k=4", 2.0),
        ("fattree:k=6", 3.0),
        ("fattree:k=6,levels=2", 3.0),
    ] {
        let net = build_str(spec).unwrap();
        let good = uniform_bound(&net, rule(&net, "fattree_nca"));
        assert!(good >= 1.0 - 1e-9, "{spec}: {good}");
        let leaf = FatTreeNca::new(&net, false).unwrap().keyed_per_leaf();
        let bad = uniform_bound(&net, Arc::new(leaf));
        // About 1/p: the traffic of the N - p other hosts to the leaf's p hosts, each pair
        // 1/(N - 1) of a host's injection (uniform), on one link: bound (N - 1)/(p (N - p)).
        let n = net.num_endpoints() as f64;
        assert!(
            (bad - (n - 1.0) / (p * (n - p))).abs() < 1e-9,
            "{spec}: {bad}"
        );
    }
}

#[test]
fn anca_offers_every_up_port() {
    let net = build_str("fattree:k=6").unwrap();
    let r = rule(&net, "fattree_anca");
    for &s in &hosts(&net) {
        for &t in &hosts(&net) {
            let ps = paths(&net, r.clone(), s, t);
            // k/2 = 3 aggregation routers, each with 3 core routers above.
            let want = [1, 3, 9][nca_level(&net, s, t)];
            assert_eq!(ps.len(), want, "{s}->{t}");
            let distinct: std::collections::BTreeSet<_> = ps.iter().map(|p| p.0.clone()).collect();
            assert_eq!(distinct.len(), want);
            assert!(ps
                .iter()
                .all(|p| p.0.len() - 1 == 2 * nca_level(&net, s, t)));
        }
    }
}

#[test]
fn nca_and_anca_are_deadlock_free_on_one_vl() {
    for spec in TREES {
        let net = build_str(spec).unwrap();
        for routing in ["fattree_nca", "fattree_anca"] {
            let rep = cdg(&net, rule(&net, routing));
            assert!(rep.acyclic, "{spec} {routing}");
            assert_eq!(rep.vcs_used, 1);
        }
    }
    let net = build_str("torus:dims=4x4").unwrap();
    let e = build_rule(&net, "fattree_nca", &Silent)
        .err()
        .unwrap()
        .to_string();
    assert!(e.contains("fattree") && e.contains("torus"), "{e}");
}
