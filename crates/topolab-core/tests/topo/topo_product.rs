//! Cartesian products: the definition checked by brute force, diameters adding up, the
//! SF x FF networks of Daryin & Korzh, JSFI 2014, §1.5 and errors naming the nested parameter.

use std::collections::BTreeMap;
use topolab_core::metrics::distance::diameter;
use topolab_core::{build_str, Network, TopolabError};

fn link_between(net: &Network, x: usize, y: usize) -> Option<(u32, String)> {
    let pos = net.neighbors(x).iter().position(|&n| n as usize == y)?;
    let l = net.links()[net.neighbor_links(x)[pos] as usize];
    Some((l.width, net.link_classes()[l.class as usize].clone()))
}

#[test]
fn links_labels_and_endpoints_follow_the_definition() {
    let a = build_str("slimfly:q=3").unwrap();
    let b = build_str("dln:routers=7,shortcuts=2,seed=4").unwrap();
    let net = build_str("product:a=(slimfly:q=3),b=(dln:routers=7,shortcuts=2,seed=4),wa=2,wb=3")
        .unwrap();
    let (na, nb) = (a.num_routers(), b.num_routers());
    assert_eq!(net.num_routers(), na * nb);
    assert_eq!(net.label_fields(), ["a.t", "a.x", "a.y", "b.index"]);
    assert_eq!(
        net.link_classes(),
        ["a:local", "a:global", "b:ring", "b:shortcut"]
    );
    assert_eq!(
        net.num_links(),
        na as u64 * b.num_links() * 3 + nb as u64 * a.num_links() * 2
    );
    for x in 0..net.num_routers() {
        let (u, v) = (x / nb, x % nb);
        let mut label = a.label(u).to_vec();
        label.extend_from_slice(b.label(v));
        assert_eq!(net.label(x), label.as_slice(), "label of {x}");
        assert_eq!(
            net.endpoints()[x],
            a.endpoints()[u],
            "endpoints default to a's"
        );
        assert_eq!(net.degree(x), 2 * a.degree(u) + 3 * b.degree(v));
        for y in 0..net.num_routers() {
            let (u2, v2) = (y / nb, y % nb);
            let expected = if u == u2 {
                link_between(&b, v, v2).map(|(w, c)| (3 * w, format!("b:{c}")))
            } else if v == v2 {
                link_between(&a, u, u2).map(|(w, c)| (2 * w, format!("a:{c}")))
            } else {
                None
            };
            assert_eq!(link_between(&net, x, y), expected, "({u},{v})-({u2},{v2})");
        }
    }
}

#[test]
fn diameter_is_the_sum_of_the_factor_diameters() {
    for (sa, sb) in [
        ("slimfly:q=3", "jellyfish:routers=4,degree=3"),
        ("dln:routers=9,shortcuts=0", "slimfly:q=3"),
        (
            "jellyfish:routers=30,degree=3,seed=1",
            "dln:routers=10,shortcuts=1",
        ),
        (
            "jellyfish:routers=2,degree=1",
            "jellyfish:routers=7,degree=2",
        ),
        (
            "product:a=(dln:routers=5,shortcuts=0),b=(jellyfish:routers=6,degree=3)",
            "dln:routers=8,shortcuts=1,seed=2",
        ),
    ] {
        let da = diameter(&build_str(sa).unwrap()).unwrap();
        let db = diameter(&build_str(sb).unwrap()).unwrap();
        let net = build_str(&format!("product:a=({sa}),b=({sb})")).unwrap();
        assert_eq!(diameter(&net), Some(da + db), "({sa}) x ({sb})");
    }
}

/// The FlatFly K_n1 x K_n2 x ... of Daryin & Korzh, JSFI 2014, §1.2 as a product of complete graphs
/// (Jellyfish of degree n - 1 is K_n), nested to the right.
fn flatfly(dims: &[u32]) -> String {
    let k = |n: u32| format!("jellyfish:routers={n},degree={}", n - 1);
    match dims {
        [n] => k(*n),
        [n, rest @ ..] => format!("product:a=({}),b=({})", k(*n), flatfly(rest)),
        [] => unreachable!(),
    }
}

#[test]
fn sf_x_ff_1_of_003() {
    // Daryin & Korzh, JSFI 2014, §1.5: Slim Fly q = 4 with link width L = 2 times FlatFly 8x8, C =
    // 8: 2,048 switches, 16,384 nodes, degree 34, diameter 4.
    let net = build_str(&format!(
        "product:a=(slimfly:q=4),b=({}),wa=2,p=8",
        flatfly(&[8, 8])
    ))
    .unwrap();
    assert_eq!(net.num_routers(), 2048);
    assert_eq!(net.num_endpoints(), 16384);
    assert!((0..2048).all(|r| net.degree(r) + net.endpoints()[r] == 34));
    assert_eq!(diameter(&net), Some(4));
    // "Saves 1,024 optical cables" against the 4D FlatFly 4x8x8x8 with widths 2,1,1,1, whose
    // degree C + sum L_n (K_n - 1) = 35 gives 2048 * (35 - 8) / 2 cables (Daryin & Korzh, JSFI
    // 2014, §1.2).
    assert_eq!(net.num_links(), 2048 * (35 - 8) / 2 - 1024);
    // "Each twin rack is connected to 6 other racks using bundles of 128 cables": a twin rack
    // is one 8x8 FlatFly (64 switches sharing the Slim Fly coordinate).
    let rack = |r: u32| r as usize / 64;
    let mut bundles: BTreeMap<(usize, usize), u64> = BTreeMap::new();
    for l in net.links() {
        if rack(l.src) != rack(l.dst) {
            *bundles.entry((rack(l.src), rack(l.dst))).or_default() += l.width as u64;
        }
    }
    for r in 0..32 {
        let mine: Vec<u64> = bundles
            .iter()
            .filter(|((x, y), _)| *x == r || *y == r)
            .map(|(_, &c)| c)
            .collect();
        assert_eq!(mine, vec![128; 6], "rack {r}");
    }
}

#[test]
fn sf_x_ff_2_of_003() {
    // Daryin & Korzh, JSFI 2014, §1.5: Slim Fly q = 8 (L = 1) times FlatFly K16, C = 8: degree 35,
    // diameter 3.
    let net = build_str(&format!(
        "cartesian:a=(slimfly:q=8),b=({}),p=8",
        flatfly(&[16])
    ))
    .unwrap();
    assert_eq!(net.family(), "product");
    assert_eq!(net.num_routers(), 2048);
    assert_eq!(net.num_endpoints(), 16384);
    assert!((0..2048).all(|r| net.degree(r) + net.endpoints()[r] == 35));
    assert_eq!(diameter(&net), Some(3));
}

#[test]
fn p_overrides_the_endpoints_and_the_spec_round_trips() {
    let spec = "product:a=(dln:routers=5,shortcuts=0,p=3),b=(slimfly:q=3)";
    let net = build_str(spec).unwrap();
    assert!(net.endpoints().iter().all(|&e| e == 3));
    let none = build_str(&format!("{spec},p=0")).unwrap();
    assert_eq!(none.num_endpoints(), 0);
    let again = build_str(net.spec()).unwrap();
    assert_eq!(again.links(), net.links());
    assert_eq!(again.spec(), net.spec());
}

#[test]
fn errors_name_the_parameter_and_the_nested_problem() {
    for (spec, param, needles) in [
        (
            "product:a=(slimfly:q=6),b=(slimfly:q=3)",
            "a",
            &["(slimfly:q=6)", "slimfly: parameter 'q'"][..],
        ),
        (
            "product:a=(slimfly:q=3),b=(nosuch:x=1)",
            "b",
            &["unknown topology family 'nosuch'"][..],
        ),
        (
            "product:a=(slimfly:q=3,z=1),b=(slimfly:q=3)",
            "a",
            &["unknown parameter 'z'"][..],
        ),
        (
            "product:a=(slimfly),b=(slimfly:q=3)",
            "a",
            &["missing parameter 'q'"][..],
        ),
        (
            "product:a=slim fly,b=(slimfly:q=3)",
            "a",
            &["cannot parse spec 'slim fly'"][..],
        ),
        (
            "product:a=(slimfly:q=3),b=(slimfly:q=3),wa=0",
            "wa",
            &["from 1"][..],
        ),
        (
            "product:a=(slimfly:q=3),b=(slimfly:q=3),wb=x",
            "wb",
            &["integer"][..],
        ),
        (
            "product:a=(slimfly:q=3),b=(slimfly:q=3),p=-2",
            "p",
            &["from 0"][..],
        ),
        (
            "product:a=(jellyfish:routers=5000,degree=4),b=(jellyfish:routers=5000,degree=4)",
            "b",
            &["at most"][..],
        ),
    ] {
        let e = build_str(spec).unwrap_err();
        assert!(
            matches!(&e, TopolabError::InvalidParameter { param: p, .. } if p == param),
            "{spec}: {e}"
        );
        for needle in needles {
            assert!(e.to_string().contains(needle), "{spec}: {e}");
        }
    }
    let e = build_str("product:b=(slimfly:q=3)").unwrap_err();
    assert!(
        matches!(&e, TopolabError::MissingParameter { param, .. } if param == "a"),
        "{e}"
    );
    let e = build_str("product:a=(slimfly:q=3),b=(slimfly:q=3").unwrap_err();
    assert!(matches!(e, TopolabError::SpecSyntax { .. }), "{e}");
    let e = build_str("product:a=(slimfly:q=3),b=(slimfly:q=3),c=1").unwrap_err();
    assert!(matches!(e, TopolabError::UnknownParameter { .. }), "{e}");
}
