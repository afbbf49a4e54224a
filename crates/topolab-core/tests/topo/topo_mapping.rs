//! Mapping (Daryin & Korzh, JSFI 2014, §2): HyperX and Dragonfly networks with their router ids
//! shuffled and their labels stripped are mapped back; the recovered labels must equal the
//! construction's up to the family's symmetries, and the structured routings must run on the
//! result. Networks of other families must be refused with the property that failed.

use std::collections::BTreeMap;
use topolab_core::progress::Silent;
use topolab_core::rng::{stream, Stream};
use topolab_core::routing::catalog::build_static;
use topolab_core::routing::cdg;
use topolab_core::topology::mapping::map_network;
use topolab_core::{build_str, Network, NetworkBuilder};

/// The network with router i renamed perm[i], labels and link classes dropped.
fn shuffled(net: &Network, seed: u64) -> (Network, Vec<usize>) {
    use rand::seq::SliceRandom;
    let n = net.num_routers();
    let mut perm: Vec<usize> = (0..n).collect();
    perm.shuffle(&mut stream(seed, Stream::Construction, 0));
    let mut b = NetworkBuilder::new("imported", n, false);
    let c = b.link_class("link");
    for (r, &to) in perm.iter().enumerate() {
        b.set_endpoints(to, net.endpoints()[r]);
    }
    for l in net.links() {
        b.add_link(perm[l.src as usize], perm[l.dst as usize], l.width, c);
    }
    (b.build().unwrap(), perm)
}

/// True when `f` (a list of (a, b) pairs over all routers) is a bijection between the a's and
/// the b's.
fn bijective(pairs: impl Iterator<Item = (i64, i64)>) -> bool {
    let (mut fwd, mut back) = (BTreeMap::new(), BTreeMap::new());
    for (a, b) in pairs {
        if *fwd.entry(a).or_insert(b) != b || *back.entry(b).or_insert(a) != a {
            return false;
        }
    }
    true
}

/// Every mapped coordinate is a relabelling of a distinct original coordinate.
fn same_up_to_symmetry(orig: &Network, mapped: &Network, perm: &[usize]) -> bool {
    let nd = orig.label_fields().len();
    if mapped.label_fields().len() != nd {
        return false;
    }
    let mut used = vec![false; nd];
    for m in 0..nd {
        let Some(o) = (0..nd).find(|&o| {
            !used[o]
                && bijective(
                    (0..orig.num_routers()).map(|r| (orig.label(r)[o], mapped.label(perm[r])[m])),
                )
        }) else {
            return false;
        };
        used[o] = true;
    }
    true
}

fn deadlock_free(net: &Network, routing: &str) -> bool {
    let def = build_static(net, routing, &Silent).unwrap();
    cdg::check(net, &*def, &Silent).unwrap().acyclic
}

#[test]
fn hyperx_coordinates_recovered_from_shuffled_ids() {
    for (k, spec) in [
        "hyperx:dims=4x4",
        "hyperx:dims=3x5",
        "hyperx:dims=2x3x4",
        "hyperx:dims=4x4,widths=2x1",
        "hyperx:dims=3x3x3,widths=1x2x3",
        "hypercube:n=4",
    ]
    .iter()
    .enumerate()
    {
        let orig = build_str(spec).unwrap();
        let (bare, perm) = shuffled(&orig, k as u64);
        let mapped = map_network(&bare, "hyperx", 0).unwrap();
        let net = &mapped.network;
        assert_eq!(net.family(), "hyperx");
        assert!(same_up_to_symmetry(&orig, net, &perm), "{spec}");
        let mut dims: Vec<i64> = (0..orig.label_fields().len())
            .map(|d| {
                (0..orig.num_routers())
                    .map(|r| orig.label(r)[d])
                    .max()
                    .unwrap()
                    + 1
            })
            .collect();
        dims.sort_unstable();
        let got: Vec<i64> = mapped.report.shape.iter().map(|&k| k as i64).collect();
        assert_eq!(got, dims, "{spec}");
        assert!(mapped.report.missing_links.is_empty());
        assert_eq!(net.num_links(), orig.num_links());
        assert!(deadlock_free(net, "hyperx_dor"), "{spec}");
    }
}

#[test]
fn hyperx_widths_reported_per_dimension() {
    let orig = build_str("hyperx:dims=3x4,widths=2x1").unwrap();
    let (bare, _) = shuffled(&orig, 7);
    let m = map_network(&bare, "hyperx", 0).unwrap();
    // dimensions sorted by size: K=3 (width 2) then K=4 (width 1)
    assert_eq!(m.report.shape, vec![3, 4]);
    assert_eq!(m.report.widths, vec![2, 1]);
}

#[test]
fn dragonfly_groups_recovered_from_shuffled_ids() {
    for (k, spec) in [
        "dragonfly:a=4,h=2",
        "dragonfly:a=4,h=2,g=5",
        "dragonfly:a=3,h=1",
        "dragonfly:a=6,h=3,g=7",
        "dragonfly:a=4,h=1,g=3",
    ]
    .iter()
    .enumerate()
    {
        let orig = build_str(spec).unwrap();
        let (bare, perm) = shuffled(&orig, 100 + k as u64);
        let mapped = map_network(&bare, "dragonfly", 0).unwrap_or_else(|e| panic!("{spec}: {e}"));
        let net = &mapped.network;
        assert_eq!(net.label_fields(), ["group", "index"]);
        let n = orig.num_routers();
        assert!(
            bijective((0..n).map(|r| (orig.label(r)[0], net.label(perm[r])[0]))),
            "{spec}: groups"
        );
        let mut between: BTreeMap<(i64, i64), u32> = BTreeMap::new();
        for l in orig.links() {
            let (a, b) = (orig.label(l.src as usize)[0], orig.label(l.dst as usize)[0]);
            if a != b {
                *between.entry((a.min(b), a.max(b))).or_default() += l.width;
            }
        }
        let groups = (0..n).map(|r| orig.label(r)[0]).max().unwrap() as u32 + 1;
        assert_eq!(
            mapped.report.shape,
            vec![groups, n as u32 / groups],
            "{spec}"
        );
        assert_eq!(
            mapped.report.widths[1],
            *between.values().max().unwrap(),
            "{spec}"
        );
        assert!(deadlock_free(net, "dragonfly_static"), "{spec}");
    }
}

#[test]
fn missing_links_are_refused_or_reported() {
    let orig = build_str("hyperx:dims=4x4").unwrap();
    let mut b = NetworkBuilder::new("imported", 16, false);
    let c = b.link_class("link");
    let cut = (orig.links()[0].src, orig.links()[0].dst);
    for l in orig.links().iter().skip(1) {
        b.add_link(l.src as usize, l.dst as usize, l.width, c);
    }
    let bare = b.build().unwrap();
    let err = map_network(&bare, "hyperx", 0).unwrap_err().to_string();
    assert!(err.contains("1 links missing"), "{err}");
    let m = map_network(&bare, "hyperx", 1).unwrap();
    assert_eq!(m.report.missing_links, vec![cut]);
    assert_eq!(m.report.shape, vec![4, 4]);
    // A complete HyperX is what hyperx_dor needs: the gap is named there too.
    assert!(build_static(&m.network, "hyperx_dor", &Silent).is_err());
}

#[test]
fn other_families_are_refused_with_the_failed_property() {
    let torus = build_str("torus:dims=5x5").unwrap();
    let err = map_network(&torus, "hyperx", 0).unwrap_err().to_string();
    assert!(
        err.contains("not a HyperX") && err.contains("product"),
        "{err}"
    );
    let err = map_network(&torus, "dragonfly", 0).unwrap_err().to_string();
    assert!(err.contains("no triangle"), "{err}");
    let sf = build_str("slimfly:q=5").unwrap();
    let err = map_network(&sf, "hyperx", 0).unwrap_err().to_string();
    assert!(err.contains("not a HyperX"), "{err}");
    let err = map_network(&sf, "dragonfly", 0).unwrap_err().to_string();
    assert!(err.contains("not a Dragonfly"), "{err}");
    let hx = build_str("hyperx:dims=4x4").unwrap();
    let err = map_network(&hx, "dragonfly", 0).unwrap_err().to_string();
    assert!(err.contains("not a Dragonfly"), "{err}");
    let err = map_network(&hx, "torus", 0).unwrap_err().to_string();
    assert!(err.contains("'as'"), "{err}");
}

#[test]
fn dragonfly_with_a_missing_local_link() {
    let orig = build_str("dragonfly:a=4,h=2").unwrap();
    let cut = *orig
        .links()
        .iter()
        .find(|l| orig.label(l.src as usize)[0] == orig.label(l.dst as usize)[0])
        .unwrap();
    let mut b = NetworkBuilder::new("imported", orig.num_routers(), false);
    let c = b.link_class("link");
    for l in orig.links().iter().filter(|l| **l != cut) {
        b.add_link(l.src as usize, l.dst as usize, l.width, c);
    }
    let bare = b.build().unwrap();
    let err = map_network(&bare, "dragonfly", 0).unwrap_err().to_string();
    assert!(err.contains("1 links missing"), "{err}");
    let m = map_network(&bare, "dragonfly", 1).unwrap();
    assert_eq!(m.report.missing_links, vec![(cut.src, cut.dst)]);
    assert_eq!(m.report.shape, vec![9, 4]);
}
