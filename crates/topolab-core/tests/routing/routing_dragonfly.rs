//! Dragonfly Static and G/S/I/D routings (Daryin & Korzh, JSFI 2014, §3.5): delivery, the hop
//! structure each letter allows (counted from the group labels), at most 8 hops, the paper's VL
//! budget (up to 6, never decreasing along a path), acyclic CDGs, and a cycle when Static runs on
//! one VL.

#![allow(clippy::needless_range_loop)] // router pairs index distance rows

use crate::routing_support;

use routing_support::{bfs, cdg, hosts, label, paths, OneVc};
use std::sync::Arc;
use topolab_core::progress::Silent;
use topolab_core::routing::catalog::build_rule;
use topolab_core::routing::rule::check_rule_paths;
use topolab_core::routing::HopRouting;
use topolab_core::{build_str, Network};

fn rule(net: &Network, spec: &str) -> Arc<dyn HopRouting> {
    build_rule(net, spec, &Silent).unwrap().unwrap().rule
}

fn adaptive(letters: &str) -> String {
    if letters.is_empty() {
        "dragonfly_adaptive".into()
    } else {
        format!("dragonfly_adaptive:extra={letters}")
    }
}

/// (global hops, local hops per visited group in order) of a path.
fn structure(net: &Network, rs: &[u32]) -> (usize, Vec<usize>) {
    let mut globals = 0;
    let mut locals = vec![0];
    for w in rs.windows(2) {
        if label(net, w[0])[0] == label(net, w[1])[0] {
            *locals.last_mut().unwrap() += 1;
        } else {
            globals += 1;
            locals.push(0);
        }
    }
    (globals, locals)
}

#[test]
fn static_is_local_global_local_and_not_always_minimal() {
    let net = build_str("dragonfly:h=2").unwrap();
    let r = rule(&net, "dragonfly_static");
    let mut longer = 0;
    for s in 0..net.num_routers() {
        let d = bfs(&net, s);
        for t in 0..net.num_routers() {
            let ps = paths(&net, r.clone(), s, t);
            assert_eq!(ps.len(), 1);
            let (rs, vcs, _) = &ps[0];
            let (globals, locals) = structure(&net, rs);
            let same = label(&net, s as u32)[0] == label(&net, t as u32)[0];
            assert_eq!(globals, if same || s == t { 0 } else { 1 });
            assert!(locals.iter().all(|&l| l <= 1), "{rs:?}");
            assert!(rs.len() > d[t]);
            longer += (rs.len() > d[t] + 1) as usize;
            // VL 0 in the source group, VL 4 (class 1) from the global hop on.
            let g = (0..vcs.len()).position(|i| label(&net, rs[i])[0] != label(&net, rs[i + 1])[0]);
            for (i, &v) in vcs.iter().enumerate() {
                let want = match g {
                    Some(g) => (i >= g) as u8,
                    None => 1,
                };
                assert_eq!(v, want, "{rs:?} {vcs:?}");
            }
        }
    }
    // Daryin & Korzh, JSFI 2014, §3.5 footnote 9: some shortest paths take two global hops, which
    // Static does not.
    assert!(longer > 0);
}

const VARIANTS: [(&str, u32, u32); 9] = [
    // (extra letters, VLs, longest path)
    ("", 2, 3),
    ("S", 3, 4),
    ("D", 3, 4),
    ("SD", 4, 5),
    ("G", 3, 5),
    ("GS", 4, 6),
    ("GI", 4, 6),
    ("GD", 4, 6),
    ("GSID", 6, 8),
];

#[test]
fn letters_allow_exactly_their_extra_hops() {
    // h = 2: a gateway has a global link to another group too, so G can follow S's hops.
    let net = build_str("dragonfly:a=4,h=2,p=1").unwrap();
    for (letters, vls, longest) in VARIANTS {
        let r = rule(&net, &adaptive(letters));
        assert_eq!(r.vc_classes(), vls, "{letters}");
        assert_eq!(
            check_rule_paths(&net, r.clone()).unwrap(),
            longest,
            "{letters}"
        );
        let has = |c: char| letters.contains(c);
        for &s in &hosts(&net) {
            for &t in &hosts(&net) {
                if label(&net, s as u32)[0] == label(&net, t as u32)[0] {
                    continue;
                }
                let mut seen_extra_global = false;
                for (rs, vcs, _) in paths(&net, r.clone(), s, t) {
                    assert!(
                        vcs.windows(2).all(|w| w[0] <= w[1]),
                        "{letters}: VLs {vcs:?}"
                    );
                    let (globals, locals) = structure(&net, &rs);
                    assert!(
                        globals == 1 || (globals == 2 && has('G')),
                        "{letters} {rs:?}"
                    );
                    seen_extra_global |= globals == 2;
                    let n = locals.len();
                    assert!(locals[0] <= 1 + has('S') as usize, "{letters} {rs:?}");
                    assert!(locals[n - 1] <= 1 + has('D') as usize, "{letters} {rs:?}");
                    if n == 3 {
                        assert!(locals[1] <= 1 + has('I') as usize, "{letters} {rs:?}");
                    }
                }
                assert_eq!(seen_extra_global, has('G'), "{letters} {s}->{t}");
            }
        }
    }
}

#[test]
fn every_variant_is_deadlock_free_with_its_vls_and_static_is_not_on_one() {
    for spec in ["dragonfly:a=4,h=1,p=1", "dragonfly:h=2"] {
        let net = build_str(spec).unwrap();
        for (letters, vls, _) in VARIANTS {
            let r = rule(&net, &adaptive(letters));
            let rep = cdg(&net, r);
            assert!(rep.acyclic, "{spec} {letters}: {:?}", rep.cycle);
            assert_eq!(rep.vcs_used, vls, "{spec} {letters}");
        }
        let st = rule(&net, "dragonfly_static");
        assert!(cdg(&net, st.clone()).acyclic);
        assert!(
            !cdg(&net, Arc::new(OneVc(st))).acyclic,
            "{spec}: Static on one VL"
        );
    }
}

#[test]
fn bad_letters_and_families_are_refused() {
    let net = build_str("dragonfly:h=1").unwrap();
    let e = build_rule(&net, "dragonfly_adaptive:extra=GX", &Silent)
        .err()
        .unwrap()
        .to_string();
    assert!(
        e.contains("extra") && e.to_lowercase().contains("gx"),
        "{e}"
    );
    let net = build_str("hyperx:dims=4x4").unwrap();
    let e = build_rule(&net, "dragonfly_static", &Silent)
        .err()
        .unwrap()
        .to_string();
    assert!(e.contains("dragonfly") && e.contains("hyperx"), "{e}");
}

/// BookSim2's hop (`dragonfly_static:vcs=booksim`, the first hop from every router towards
/// every other), against a search of the network itself: within a group the destination; a
/// router with global links to the target group takes the one at its lowest neighbour position;
/// any other router goes to its group's end of the first link (in link order) to that group.
/// With g = 3 groups of a = 4 routers and h = 2, every two groups are joined several times
/// (several gateways per pair, the case the gateway table's per-gateway links serve).
#[test]
fn booksim_hop_matches_a_search_of_the_links() {
    for spec in ["dragonfly:h=2,g=3", "dragonfly:h=2"] {
        let net = build_str(spec).unwrap();
        let r = rule(&net, "dragonfly_static:vcs=booksim");
        let group = |x: u32| label(&net, x)[0];
        let n = net.num_routers() as u32;
        let mut several_gateways = false;
        for s in 0..n {
            for t in (0..n).filter(|&t| t != s) {
                let nbrs = net.neighbors(s as usize);
                let expected = if group(s) == group(t) {
                    t
                } else if let Some(&v) = nbrs.iter().find(|&&v| group(v) == group(t)) {
                    v
                } else {
                    let l = net
                        .links()
                        .iter()
                        .find(|l| {
                            (group(l.src), group(l.dst)) == (group(s), group(t))
                                || (group(l.dst), group(l.src)) == (group(s), group(t))
                        })
                        .unwrap();
                    if group(l.src) == group(s) {
                        l.src
                    } else {
                        l.dst
                    }
                };
                let gateways = (0..n)
                    .filter(|&x| group(x) == group(s))
                    .filter(|&x| {
                        net.neighbors(x as usize)
                            .iter()
                            .any(|&v| group(v) == group(t))
                    })
                    .count();
                several_gateways |= gateways > 1;
                let mut starts = Vec::new();
                r.start(s, t, &mut starts);
                let mut hops = Vec::new();
                r.next(s, t, 0, starts[0].0, &mut |h| hops.push(h));
                assert_eq!(hops.len(), 1, "{spec}: {s} -> {t}");
                assert_eq!(nbrs[hops[0].nb as usize], expected, "{spec}: {s} -> {t}");
            }
        }
        if spec.contains("g=3") {
            assert!(
                several_gateways,
                "{spec}: the case of several gateways is not exercised"
            );
        }
    }
}
