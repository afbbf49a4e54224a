//! The one routing catalog: every name once, aliases resolving to one catalog routing, the
//! BookSim2 options of the core rules (`dragonfly_static:vcs=booksim`, `ugal_l:paths=dragonfly`)
//! checked against the paper's rule and the group labels, VC splits, and grid wrap read from
//! the links.

use crate::routing_support;

use routing_support::{label, paths};
use std::collections::BTreeSet;
use std::sync::Arc;
use topolab_core::progress::Silent;
use topolab_core::routing::catalog::{build_rule, build_static, resolve_alias, ALIASES, ROUTINGS};
use topolab_core::routing::{HopRouting, VcSplit};
use topolab_core::{build_str, Network, NetworkBuilder};

fn rule(net: &Network, spec: &str) -> Arc<dyn HopRouting> {
    build_rule(net, spec, &Silent).unwrap().unwrap().rule
}

#[test]
fn every_name_is_listed_once_and_every_alias_names_a_catalog_routing() {
    let mut names = BTreeSet::new();
    for r in ROUTINGS {
        assert!(names.insert(r.name), "{} listed twice", r.name);
        assert!(
            r.readers.static_analysis || r.readers.simulator,
            "{}",
            r.name
        );
    }
    for a in ALIASES {
        assert!(
            !names.contains(a.name),
            "alias {} shadows a routing",
            a.name
        );
        for spec in [a.spec, a.booksim] {
            let target = spec.split(':').next().unwrap();
            assert!(names.contains(target), "{} -> {spec}", a.name);
        }
    }
    assert_eq!(resolve_alias("min:vcs=hop", true).unwrap(), "min:vcs=hop");
    let e = resolve_alias("dor:vcs=booksim", false)
        .unwrap_err()
        .to_string();
    assert!(e.contains("torus_dor"), "{e}");
}

#[test]
fn vc_splits_cover_only_existing_vcs_and_differ_only_where_classes_do_not_divide_them() {
    for classes in 1..=4u32 {
        for vcs in classes..=9 {
            let even = VcSplit::Even.ranges(classes, vcs);
            let fill = VcSplit::Fill.ranges(classes, vcs);
            let overlap = VcSplit::Overlap.ranges(classes, vcs);
            let one = VcSplit::One.ranges(classes, vcs);
            for split in [&even, &fill, &overlap, &one] {
                assert_eq!(split.len(), classes as usize);
                assert!(split.iter().all(|&(lo, hi)| lo <= hi && (hi as u32) < vcs));
            }
            // fill uses every VC exactly once, in class order
            let mut next = 0u32;
            for &(lo, hi) in &fill {
                assert_eq!(lo as u32, next);
                next = hi as u32 + 1;
            }
            assert_eq!(next, vcs);
            if vcs % classes == 0 {
                assert_eq!(even, fill);
                assert_eq!(even, overlap);
            }
            assert!(one
                .iter()
                .enumerate()
                .all(|(c, &r)| r == (c as u8, c as u8)));
        }
    }
    // BookSim2 dim_order_torus with 5 VCs: class 0 [0, 5-1-5/2], class 1 [5/2, 4]
    assert_eq!(VcSplit::Overlap.ranges(2, 5), vec![(0, 2), (2, 4)]);
}

#[test]
fn booksim_dragonfly_static_takes_the_papers_paths_with_vc_one_from_the_global_hop() {
    // One global link per pair of groups (g = a h + 1): the gateway is unique, so BookSim2's
    // choice and the paper's agree on the paths; only the classes of intra-group paths differ.
    let net = build_str("dragonfly:a=4,h=2,p=2").unwrap();
    let paper = rule(&net, "dragonfly_static");
    let booksim = rule(&net, "dragonfly_static:vcs=booksim");
    assert_eq!(booksim.vc_classes(), 2);
    for s in 0..net.num_routers() {
        for t in 0..net.num_routers() {
            let a = paths(&net, paper.clone(), s, t);
            let b = paths(&net, booksim.clone(), s, t);
            assert_eq!(a.len(), 1);
            assert_eq!(b.len(), 1);
            assert_eq!(a[0].0, b[0].0, "{s} -> {t}");
            let rs = &b[0].0;
            for (i, w) in rs.windows(2).enumerate() {
                let crossed = rs[..=i + 1]
                    .windows(2)
                    .any(|x| label(&net, x[0])[0] != label(&net, x[1])[0]);
                assert_eq!(b[0].1[i], crossed as u8, "{s} -> {t} hop {i} {w:?}");
            }
        }
    }
}

#[test]
fn booksim_dragonfly_ugal_candidates_are_dragonfly_paths_with_nondecreasing_phases() {
    let net = build_str("dragonfly:a=4,h=2,p=2").unwrap();
    let r = rule(&net, "ugal_l:paths=dragonfly");
    assert_eq!(r.vc_classes(), 3);
    assert!(!r.oblivious());
    let mut nonminimal = 0;
    for s in 0..net.num_routers() {
        for t in 0..net.num_routers() {
            let ps = paths(&net, r.clone(), s, t);
            let total: f64 = ps.iter().map(|p| p.2).sum();
            assert!((total - 1.0).abs() < 1e-9);
            for (rs, vcs, _) in &ps {
                assert_eq!(*rs.last().unwrap() as usize, t);
                let globals = rs
                    .windows(2)
                    .filter(|w| label(&net, w[0])[0] != label(&net, w[1])[0])
                    .count();
                assert!(globals <= 2 && rs.len() <= 7, "{rs:?}");
                assert!(vcs.windows(2).all(|w| w[0] <= w[1]), "{vcs:?}");
                let same_group = label(&net, s as u32)[0] == label(&net, t as u32)[0];
                if same_group {
                    assert!(vcs.iter().all(|&v| v == 2), "{s} -> {t}: {vcs:?}");
                }
                nonminimal += (globals == 2) as usize;
            }
        }
    }
    assert!(nonminimal > 0);
    assert!(build_rule(&net, "ugal_l:paths=dragonfly,vcs=hop", &Silent).is_err());
    let sf = build_str("slimfly:q=5").unwrap();
    let e = build_rule(&sf, "ugal_l:paths=dragonfly", &Silent)
        .err()
        .unwrap()
        .to_string();
    assert!(e.contains("router groups"), "{e}");
}

#[test]
fn aliases_are_read_by_static_analysis_as_their_definition() {
    let torus = build_str("torus:dims=4x4").unwrap();
    let a = build_static(&torus, "dor", &Silent).unwrap();
    let b = build_static(&torus, "torus_dor", &Silent).unwrap();
    assert_eq!(a.num_vcs(), b.num_vcs());
    let (mut pa, mut pb) = (Default::default(), Default::default());
    for s in 0..16 {
        for t in 0..16 {
            a.paths(s, t, &mut pa).unwrap();
            b.paths(s, t, &mut pb).unwrap();
            assert_eq!(pa.len(), pb.len());
            for i in 0..pa.len() {
                assert_eq!(pa.path(i), pb.path(i));
            }
        }
    }
}

/// `from`'s routers, labels and links under the family name `family`.
fn renamed(from: &Network, family: &str) -> Network {
    let mut b = NetworkBuilder::new(family, from.num_routers(), false);
    b.label_fields(&["d0", "d1"]);
    for r in 0..from.num_routers() {
        b.set_label(r, from.label(r));
    }
    let class = b.link_class("dim");
    for l in from.links() {
        b.add_link(l.src as usize, l.dst as usize, l.width, class);
    }
    b.uniform_endpoints(1);
    b.build().unwrap()
}

#[test]
fn torus_wrap_is_read_from_the_links_not_the_family() {
    // The torus's links under the mesh's name keep the wrap links and the two dateline
    // classes; the mesh's links under the torus's name have none and need one class.
    let torus = build_str("torus:dims=4x4").unwrap();
    let mesh = build_str("mesh:dims=4x4").unwrap();
    assert_eq!(rule(&torus, "torus_dor").vc_classes(), 2);
    assert_eq!(rule(&mesh, "torus_dor").vc_classes(), 1);
    assert_eq!(rule(&renamed(&torus, "mesh"), "torus_dor").vc_classes(), 2);
    assert_eq!(rule(&renamed(&mesh, "torus"), "torus_dor").vc_classes(), 1);
}
