//! Dragonfly+ / Megafly against the closed forms of Shpiner et al., HiPINEB 2017 (the
//! full-bisection group p = l = s = h = k/2 of radix-k routers, k²/4 + 1 groups,
//! N = k²/4 (k²/4 + 1)) and the structure both papers describe: complete bipartite leaf-spine
//! groups, global links between spines only, the same number of them between every two groups.

use std::collections::BTreeMap;
use topolab_core::{build_str, sizes_str, Network};

use crate::routing_support;
use routing_support::bfs;

fn class_of(net: &Network, name: &str) -> u16 {
    net.link_classes().iter().position(|c| c == name).unwrap() as u16
}

/// Global cables between each pair of groups (x < y), from the group labels.
fn group_pairs(net: &Network) -> BTreeMap<(i64, i64), u64> {
    let global = class_of(net, "global");
    let mut pairs = BTreeMap::new();
    for l in net.links().iter().filter(|l| l.class == global) {
        let (x, y) = (net.label(l.src as usize)[0], net.label(l.dst as usize)[0]);
        assert_ne!(x, y, "global link inside a group");
        *pairs.entry((x.min(y), x.max(y))).or_insert(0) += l.width as u64;
    }
    pairs
}

#[test]
fn full_bisection_dragonflyplus_follows_the_papers_closed_forms() {
    for k in [2u64, 4, 6, 8, 10] {
        let half = k / 2;
        let spec = format!("dragonflyplus:h={half}");
        let net = build_str(&spec).unwrap();
        let groups = half * half + 1;
        assert_eq!(net.num_routers() as u64, groups * k, "{spec}");
        assert_eq!(net.num_endpoints(), half * half * groups, "{spec}");
        // every router has radix k: a leaf k/2 endpoints + k/2 spines, a spine k/2 leaves +
        // k/2 global links
        for r in 0..net.num_routers() {
            assert_eq!(
                net.degree(r) as u64 + net.endpoints()[r] as u64,
                k,
                "{spec} router {r}"
            );
        }
        let pairs = group_pairs(&net);
        assert_eq!(pairs.len() as u64, groups * (groups - 1) / 2, "{spec}");
        assert!(pairs.values().all(|&c| c == 1), "{spec}");
    }
}

#[test]
fn groups_are_complete_bipartite_leaf_spine_trees() {
    let net = build_str("dragonflyplus:h=2,s=3,l=4,p=1").unwrap();
    let per = 7usize;
    let global = class_of(&net, "global");
    for r in 0..net.num_routers() {
        let (g, i) = (net.label(r)[0] as usize, net.label(r)[1] as usize);
        assert_eq!((g, i), (r / per, r % per));
        let inner: Vec<usize> = net
            .neighbors(r)
            .iter()
            .map(|&v| v as usize)
            .filter(|&v| v / per == g)
            .collect();
        if i < 4 {
            // a leaf: every spine of its group, nothing else, one endpoint
            assert_eq!(inner, (g * per + 4..g * per + 7).collect::<Vec<_>>());
            assert_eq!(net.neighbors(r).len(), 3);
            assert_eq!(net.endpoints()[r], 1);
        } else {
            assert_eq!(inner, (g * per..g * per + 4).collect::<Vec<_>>());
            assert_eq!(net.endpoints()[r], 0);
        }
    }
    for l in net.links().iter().filter(|l| l.class == global) {
        assert!(
            l.src as usize % per >= 4 && l.dst as usize % per >= 4,
            "global link off a spine"
        );
    }
}

#[test]
fn fewer_groups_share_the_global_ports_evenly() {
    // s·h = 6 global ports per group: g = 4 gives 2 links per pair, g = 5 one per pair (two
    // ports unused), as the Dragonfly's arrangement does
    for (g, per_pair) in [(4u64, 2u64), (5, 1), (7, 1), (2, 6)] {
        let spec = format!("dragonflyplus:h=2,s=3,g={g}");
        let net = build_str(&spec).unwrap();
        let pairs = group_pairs(&net);
        assert_eq!(pairs.len() as u64, g * (g - 1) / 2, "{spec}");
        assert!(pairs.values().all(|&c| c == per_pair), "{spec}: {pairs:?}");
        let s = sizes_str(&spec).unwrap();
        assert_eq!(s.routers, net.num_routers() as u64);
        assert_eq!(s.network_radix, net.network_radix(), "{spec}");
    }
}

#[test]
fn leaves_are_three_hops_apart_and_spines_five() {
    // leaf -> spine -> (global) spine -> leaf; two spines off the one link between their
    // groups need a leaf on each side
    let net = build_str("dragonflyplus:h=3").unwrap();
    let per = 6;
    let mut leaf_max = 0;
    let mut any_max = 0;
    for s in 0..net.num_routers() {
        let d = bfs(&net, s);
        for (t, &dt) in d.iter().enumerate() {
            any_max = any_max.max(dt);
            if s % per < 3 && t % per < 3 {
                leaf_max = leaf_max.max(dt);
            }
        }
    }
    assert_eq!((leaf_max, any_max), (3, 5));
}

#[test]
fn balance_is_the_papers_full_bisection() {
    // p = l = s = h: balanced; the global links per leaf, q(g-1)/l, limit fewer groups
    let s = sizes_str("dragonflyplus:h=4").unwrap();
    assert_eq!((s.balanced_concentration, s.load), (4.0, 1.0));
    let s = sizes_str("dragonflyplus:h=4,l=8,p=4").unwrap();
    assert_eq!(s.balanced_concentration, 2.0);
    assert_eq!(s.load, 2.0);
    let s = sizes_str("dragonflyplus:h=4,g=9").unwrap(); // 2 links per pair: 16 of 16 ports
    assert_eq!(s.balanced_concentration, 4.0);
    let s = sizes_str("dragonflyplus:h=4,g=10").unwrap(); // 1 per pair: 9 of 16 ports
    assert_eq!(s.balanced_concentration, 9.0 / 4.0);
}

#[test]
fn impossible_parameters_name_the_parameter_and_what_is_allowed() {
    for (spec, needle) in [
        ("dragonflyplus:h=2,g=6", "'g'"),
        ("dragonflyplus:h=2,g=1", "from 2 to s*h + 1 = 5"),
        ("dragonflyplus:h=0", "'h'"),
        ("dragonflyplus:h=2,s=0", "'s'"),
        ("dragonflyplus:h=2,l=0", "'l'"),
        ("dragonflyplus:s=2", "h"),
        ("dragonflyplus:h=65536,s=65536", "'g'"),
    ] {
        let e = build_str(spec)
            .err()
            .unwrap_or_else(|| panic!("{spec} accepted"));
        assert!(e.to_string().contains(needle), "{spec}: {e}");
        assert_eq!(
            sizes_str(spec).err().map(|e| e.to_string()),
            Some(e.to_string())
        );
    }
    // the alias builds the same network
    let a = build_str("megafly:h=2").unwrap();
    let b = build_str("dragonflyplus:h=2").unwrap();
    assert_eq!(a.links(), b.links());
}
