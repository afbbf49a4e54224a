//! Failure sets: what each kind fails, checked against the intact network by hand-countable
//! cases (a ring cut twice, one Dragonfly global link, one router's endpoints), the surviving
//! component against an independent BFS, determinism, clear errors, and the routings that
//! refuse or re-verify a degraded network.

use std::collections::VecDeque;
use topolab_core::failures::{apply, FailureSpec, FAILURE_KINDS};
use topolab_core::progress::Silent;
use topolab_core::routing::catalog::build_static;
use topolab_core::routing::cdg::check;
use topolab_core::{build_str, Network, TopolabError};

fn tmp_file(name: &str, text: &str) -> String {
    let dir = std::env::temp_dir().join(format!("topolab-failures-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path.to_string_lossy().into_owned()
}

/// Routers reachable from router 0 over the links of `net`.
fn reachable(net: &Network) -> usize {
    let mut seen = vec![false; net.num_routers()];
    seen[0] = true;
    let mut q = VecDeque::from([0usize]);
    let mut count = 1;
    while let Some(u) = q.pop_front() {
        for &v in net.neighbors(u) {
            if !seen[v as usize] {
                seen[v as usize] = true;
                count += 1;
                q.push_back(v as usize);
            }
        }
    }
    count
}

#[test]
fn no_failure_leaves_the_network_as_it_was() {
    let net = build_str("slimfly:q=5,p=3").unwrap();
    let d = apply(&net, "links:fraction=0,seed=3").unwrap();
    assert_eq!(d.network.links(), net.links());
    assert_eq!(d.network.endpoints(), net.endpoints());
    assert!(d.cut_off_endpoints.is_empty());
    assert_eq!(d.excluded_pair_fraction, 0.0);
    assert_eq!(d.network.failures(), Some("links:fraction=0,seed=3"));
    assert_eq!(d.network.spec(), "");
}

#[test]
fn random_links_fail_the_rounded_share_of_cables() {
    let net = build_str("slimfly:q=5,p=3").unwrap();
    let cables = net.num_links();
    for f in [0.01, 0.05, 0.1, 0.2] {
        let d = apply(&net, &format!("links:fraction={f},seed=7")).unwrap();
        let k = (f * cables as f64).round() as u64;
        assert_eq!(d.failed_cables, k, "fraction {f}");
        // Every router survives in one piece at these fractions on this graph (checked by BFS):
        // the cables lost are exactly the ones missing.
        if d.network.num_routers() == net.num_routers() {
            assert_eq!(d.network.num_links(), cables - k);
        } else {
            assert!(!d.isolated_routers.is_empty());
        }
        assert_eq!(reachable(&d.network), d.network.num_routers());
    }
}

#[test]
fn the_same_seed_fails_the_same_cables() {
    let net = build_str("dragonfly:a=4,h=2").unwrap();
    let a = apply(&net, "links:fraction=0.1,seed=11").unwrap();
    let b = apply(&net, "links:fraction=0.1,seed=11").unwrap();
    let c = apply(&net, "links:fraction=0.1,seed=12").unwrap();
    assert_eq!(a.network, b.network);
    assert_ne!(a.network.links(), c.network.links());
}

#[test]
fn a_ring_cut_twice_keeps_the_half_with_router_zero() {
    // Ring 0-1-2-3-4-5, one endpoint per router; cutting 0-1 and 3-4 leaves {1,2,3} and
    // {4,5,0}, equal in endpoints: the tie goes to the piece holding router 0.
    let net = build_str("torus:dims=6,p=1").unwrap();
    let path = tmp_file(
        "ring.txt",
        "# two cuts\nlink 0 1\nlink 4 3  # either order\n",
    );
    let d = apply(&net, &format!("file:path={path}")).unwrap();
    assert_eq!(d.router_ids, vec![0, 4, 5]);
    assert_eq!(d.isolated_routers, vec![1, 2, 3]);
    assert_eq!(d.cut_off_endpoints, vec![1, 2, 3]);
    assert_eq!(d.network.num_endpoints(), 3);
    assert_eq!(d.network.num_links(), 2);
    // 6*5 ordered pairs before, 3*2 after.
    assert!((d.excluded_pair_fraction - (1.0 - 6.0 / 30.0)).abs() < 1e-12);
}

#[test]
fn a_router_fails_with_its_endpoints() {
    let net = build_str("slimfly:q=5,p=3").unwrap();
    let d = apply(&net, "router:id=4").unwrap();
    assert_eq!(d.failed_routers, vec![4]);
    assert_eq!(d.cut_off_endpoints, vec![12, 13, 14]);
    assert_eq!(d.network.num_routers(), net.num_routers() - 1);
    assert_eq!(
        d.network.num_links(),
        net.num_links() - net.degree(4) as u64
    );
    // Labels follow their routers.
    assert_eq!(d.network.label(4), net.label(5));
    let n = net.num_endpoints() as f64;
    let expect = 1.0 - (n - 3.0) * (n - 4.0) / (n * (n - 1.0));
    assert!((d.excluded_pair_fraction - expect).abs() < 1e-12);
}

#[test]
fn a_router_given_by_label_in_a_file() {
    let net = build_str("dragonfly:a=4,h=2").unwrap();
    let path = tmp_file("df.txt", "router (3,2)\n");
    let d = apply(&net, &format!("file:path={path}")).unwrap();
    let r = (0..net.num_routers())
        .find(|&r| net.label(r) == [3, 2])
        .unwrap();
    assert_eq!(d.failed_routers, vec![r as u32]);
}

#[test]
fn a_global_bundle_of_a_dragonfly() {
    // g = a*h + 1 = 9 groups: exactly one global link between any two groups.
    let net = build_str("dragonfly:a=4,h=2").unwrap();
    let d = apply(&net, "bundle:a=0,b=5,class=global").unwrap();
    assert_eq!(d.failed_cables, 1);
    assert!(d.cut_off_endpoints.is_empty());
    let groups = |n: &Network, l: usize| {
        let link = n.links()[l];
        let (a, b) = (n.label(link.src as usize)[0], n.label(link.dst as usize)[0]);
        (a.min(b), a.max(b))
    };
    let between = |n: &Network| {
        (0..n.links().len())
            .filter(|&l| groups(n, l) == (0, 5))
            .count()
    };
    assert_eq!(between(&net), 1);
    assert_eq!(between(&d.network), 0);
    // a = b: the local links of group 2, a complete graph K_4.
    let d = apply(&net, "bundle:a=2,b=2").unwrap();
    assert_eq!(d.failed_cables, 6);
    // Group 2's routers keep their global links, so nothing is cut off.
    assert!(d.cut_off_endpoints.is_empty());
}

#[test]
fn a_cabinet_loses_its_routers_or_its_cables() {
    use topolab_core::physical::{place, Floor, PlaceOptions};
    let net = build_str("dragonfly:a=4,h=2").unwrap();
    let placement = place(
        &net,
        &Floor::resolve("skywalk").unwrap(),
        &PlaceOptions::default(),
    )
    .unwrap();
    let inside: Vec<u32> = (0..net.num_routers() as u32)
        .filter(|&r| placement.cabinet(r as usize) == 1)
        .collect();
    assert!(!inside.is_empty());
    let d = apply(&net, "cabinet:id=1,what=routers").unwrap();
    assert_eq!(d.failed_routers, inside);
    let d = apply(&net, "cabinet:id=1").unwrap();
    let leaving = net
        .links()
        .iter()
        .filter(|l| inside.contains(&l.src) != inside.contains(&l.dst))
        .map(|l| l.width as u64)
        .sum::<u64>();
    assert_eq!(d.failed_cables, leaving);
}

#[test]
fn sets_joined_with_plus_fail_together() {
    let net = build_str("slimfly:q=5,p=3").unwrap();
    let d = apply(&net, "router:id=1+router:id=2").unwrap();
    assert_eq!(d.failed_routers, vec![1, 2]);
}

#[test]
fn a_directed_network_keeps_a_strongly_connected_part() {
    let net = build_str("kautz:d=2,k=3").unwrap();
    let d = apply(&net, "router:id=0").unwrap();
    // Every kept router reaches every other along directed links.
    let n = &d.network;
    for s in 0..n.num_routers() {
        let mut seen = vec![false; n.num_routers()];
        seen[s] = true;
        let mut q = VecDeque::from([s]);
        while let Some(u) = q.pop_front() {
            for &v in n.neighbors(u) {
                if !seen[v as usize] {
                    seen[v as usize] = true;
                    q.push_back(v as usize);
                }
            }
        }
        assert!(
            seen.iter().all(|&x| x),
            "router {s} does not reach every router"
        );
    }
    assert_eq!(
        d.cut_off_endpoints.len() as u64 + n.num_endpoints(),
        net.num_endpoints()
    );
}

fn message(e: TopolabError) -> String {
    e.to_string()
}

#[test]
fn impossible_sets_are_refused_with_the_parameter_named() {
    let net = build_str("dragonfly:a=4,h=2").unwrap();
    let cases = [
        ("links:fraction=1.5", "fraction"),
        ("links:fraction=-0.1", "fraction"),
        ("links:seed=1", "missing parameter 'fraction'"),
        (
            "links:fraction=0.1,colour=red",
            "valid parameters: fraction, seed",
        ),
        (
            "meteor:size=3",
            "links, routers, file, bundle, cabinet, tray, router",
        ),
        ("router:id=999", "a router from 0 to 35"),
        ("bundle:a=0,b=1,class=optical", "local, global"),
        ("bundle:a=0,b=1,field=rack", "group, index"),
        ("bundle:a=0,b=99", "joined by at least one link"),
        ("cabinet:id=9999", "cabinet from 0 to"),
        ("cabinet:id=0,what=doors", "cables or routers"),
        ("file:path=/no/such/failure/list", "/no/such/failure/list"),
        ("links:fraction=0.1+", "empty failure set"),
    ];
    for (spec, expect) in cases {
        let err = message(apply(&net, spec).unwrap_err());
        assert!(err.contains(expect), "{spec}: {err}");
    }
    let bad = tmp_file("bad.txt", "link 0 35\n");
    let err = message(apply(&net, &format!("file:path={bad}")).unwrap_err());
    assert!(err.contains("line 1") && err.contains("no link"), "{err}");
    let bad = tmp_file("bad2.txt", "router (1,2,3)\n");
    let err = message(apply(&net, &format!("file:path={bad}")).unwrap_err());
    assert!(err.contains("(group, index)"), "{err}");
}

#[test]
fn every_kind_declares_its_parameters() {
    for kind in FAILURE_KINDS {
        assert!(!kind.summary.is_empty());
        for p in kind.params {
            assert!(!p.help.is_empty(), "{}: {}", kind.name, p.name);
        }
    }
    let spec = FailureSpec::parse("links:fraction=0.25,seed=4").unwrap();
    assert_eq!(spec.sets.len(), 1);
}

#[test]
fn structured_routings_refuse_a_degraded_network_and_name_one_that_works() {
    let net = build_str("dragonfly:a=4,h=2").unwrap();
    let d = apply(&net, "links:fraction=0.05,seed=1").unwrap();
    for routing in [
        "dragonfly_static",
        "dragonfly_min",
        "ugal_l:paths=dragonfly",
    ] {
        let err = match build_static(&d.network, routing, &Silent) {
            Err(e) => message(e),
            Ok(_) => panic!("{routing} accepted a degraded network"),
        };
        assert!(
            err.contains("updown") && err.contains("min"),
            "{routing}: {err}"
        );
    }
    let torus = apply(&build_str("torus:dims=4x4").unwrap(), "router:id=5").unwrap();
    assert!(build_static(&torus.network, "torus_dor", &Silent).is_err());
    // On the intact network they build.
    assert!(build_static(&net, "dragonfly_static", &Silent).is_ok());
}

#[test]
fn the_deadlock_check_reverifies_the_degraded_routing() {
    let net = build_str("slimfly:q=5,p=3").unwrap();
    for seed in 0..3 {
        let d = apply(&net, &format!("links:fraction=0.1,seed={seed}")).unwrap();
        let updown = build_static(&d.network, "updown", &Silent).unwrap();
        let report = check(&d.network, &*updown, &Silent).unwrap();
        assert!(report.acyclic, "updown, seed {seed}");
        assert_eq!(report.vcs_used, 1);
        // Minimal routing with one VC per hop needs as many VCs as the degraded graph's
        // longest shortest path, which failures can only lengthen.
        let min = build_static(&d.network, "min:vcs=hop", &Silent).unwrap();
        let report = check(&d.network, &*min, &Silent).unwrap();
        assert!(report.acyclic);
        assert!(report.vcs_used >= 2, "the intact diameter is 2");
        assert_eq!(report.vcs_used, report.max_hops);
    }
}

#[test]
fn every_catalog_routing_either_runs_on_the_survivors_or_is_refused() {
    use topolab_core::routing::catalog::ROUTINGS;
    use topolab_core::routing::degraded::ON_ANY_GRAPH;
    // A Slim Fly has no structure for most routings: build on a Dragonfly, a torus and a fat
    // tree too, so that each structured routing meets a network it accepts when intact.
    let intact = [
        build_str("slimfly:q=5,p=3").unwrap(),
        build_str("dragonfly:a=4,h=2").unwrap(),
        build_str("torus:dims=4x4").unwrap(),
        build_str("fattree:k=4").unwrap(),
    ];
    let degraded: Vec<Network> = intact
        .iter()
        .map(|n| apply(n, "links:fraction=0.05,seed=2").unwrap().network)
        .collect();
    for entry in ROUTINGS.iter().filter(|r| r.readers.static_analysis) {
        let general = ON_ANY_GRAPH.contains(&entry.name);
        for (net, broken) in intact.iter().zip(&degraded) {
            if build_static(net, entry.name, &Silent).is_err() {
                continue; // not a routing for this family
            }
            match build_static(broken, entry.name, &Silent) {
                Ok(r) => {
                    assert!(
                        general,
                        "{} accepted a degraded {}",
                        entry.name,
                        net.family()
                    );
                    if net.num_routers() <= 50 {
                        let report = check(broken, &*r, &Silent).unwrap();
                        assert!(report.num_paths > 0, "{}", entry.name);
                    }
                }
                Err(e) => {
                    assert!(
                        !general,
                        "{} refused a degraded {}: {e}",
                        entry.name,
                        net.family()
                    );
                    assert!(e.to_string().contains("updown"), "{}: {e}", entry.name);
                }
            }
        }
    }
}

#[test]
fn a_degraded_network_saved_as_json_stays_degraded() {
    use topolab_core::io::{self, Format, LoadOptions};
    let net = build_str("dragonfly:a=4,h=2").unwrap();
    let d = apply(&net, "bundle:a=0,b=1").unwrap();
    let text = io::to_string(&d.network, Format::Json).unwrap();
    let back = io::from_str(&text, Format::Json, &LoadOptions::default()).unwrap();
    assert_eq!(back, d.network);
    assert_eq!(back.failures(), Some("bundle:a=0,b=1"));
    let err = build_static(&back, "dragonfly_static", &Silent)
        .err()
        .unwrap();
    assert!(err.to_string().contains("updown"), "{err}");
    // An intact network's file has no such field.
    let text = io::to_string(&net, Format::Json).unwrap();
    assert!(!text.contains("failures"));
}
