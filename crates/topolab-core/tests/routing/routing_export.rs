//! Forwarding tables: following the LFT from every switch reaches every destination in the
//! BFS distance (minimal) and the VL table reproduces the hop-indexed VLs; budgets are enforced.

use topolab_core::build_str;
use topolab_core::progress::Silent;
use topolab_core::routing::catalog::build_static;
use topolab_core::routing::export::forwarding_tables;

#[test]
fn slimfly_min_tables_deliver_and_fit_two_vls() {
    let net = build_str("slimfly:q=5").unwrap();
    let r = build_static(&net, "min:vcs=hop", &Silent).unwrap();
    let ft = forwarding_tables(&net, &*r, 8).unwrap();
    assert_eq!(ft.vls_used, 2);
    let n = net.num_routers();
    for s in 0..n {
        for t in 0..n {
            if s == t {
                continue;
            }
            // Follow the first listed port; Slim Fly diameter 2.
            let (mut r, mut hops) = (s, 0);
            while r != t {
                let p = ft.lft[&(r as u32, t as u32)][0];
                r = net.neighbors(r)[(p - 1) as usize] as usize;
                hops += 1;
                assert!(hops <= 2);
            }
        }
    }
    // Hop-indexed on a diameter-2 network: from a host VL 0, from a switch port VL 1.
    for (&(_, inp, _), &vl) in &ft.vl {
        assert_eq!(vl, if inp == 0 { 0 } else { 1 });
    }
    assert!(ft.to_text().lines().any(|l| l.starts_with("vl 0 host ")));
    let err = forwarding_tables(&net, &*r, 1).unwrap_err().to_string();
    assert!(
        err.contains("vl_budget") && err.contains("at least 2"),
        "{err}"
    );
}

#[test]
fn valiant_is_not_destination_based() {
    let net = build_str("slimfly:q=4").unwrap();
    let r = build_static(&net, "valiant", &Silent).unwrap();
    assert!(forwarding_tables(&net, &*r, 8).is_err());
}

#[test]
fn catalog_rejects_bad_names_and_keys() {
    let net = build_str("slimfly:q=4").unwrap();
    let e = build_static(&net, "nope", &Silent)
        .err()
        .unwrap()
        .to_string();
    assert!(e.contains("nope") && e.contains("dfsssp"), "{e}");
    let e = build_static(&net, "min:foo=1", &Silent)
        .err()
        .unwrap()
        .to_string();
    assert!(e.contains("foo") && e.contains("vcs"), "{e}");
    let e = build_static(&net, "min:vcs=phase", &Silent)
        .err()
        .unwrap()
        .to_string();
    assert!(e.contains("phase"), "{e}");
}
