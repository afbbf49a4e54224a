//! Fat trees against the closed forms of Besta & Hoefler, SC14, §VI-B3c (FT-3) and Kathareios et
//! al., SC15, §2.2.1 / Fig. 3 (two levels), and the FT-3 configurations of Besta & Hoefler, SC14,
//! §V and Table IV.

use topolab_core::metrics::distance::{diameter_among, endpoint_routers};
use topolab_core::{build_str, Network};

fn cables(net: &Network, class: &str) -> u64 {
    let c = net.link_classes().iter().position(|x| x == class).unwrap() as u16;
    net.links()
        .iter()
        .filter(|l| l.class == c)
        .map(|l| l.width as u64)
        .sum()
}

fn total_ports(net: &Network) -> u64 {
    (0..net.num_routers())
        .map(|r| (net.degree(r) + net.endpoints()[r]) as u64)
        .sum()
}

#[test]
fn three_level_closed_forms() {
    for k in (2u64..=16).step_by(2) {
        let net = build_str(&format!("fattree:k={k}")).unwrap();
        // Besta & Hoefler, SC14, §VI-B3c with p = k/2: 5p^2 routers, 2p^3 endpoints, 2p^3 agg-core
        // and 2p^3 leaf-agg cables, p^2 endpoints per pod.
        let p = k / 2;
        assert_eq!(net.num_routers() as u64, 5 * p * p, "k={k}");
        assert_eq!(net.num_endpoints(), 2 * p * p * p, "k={k}");
        assert_eq!(cables(&net, "leaf-agg"), 2 * p * p * p, "k={k}");
        assert_eq!(cables(&net, "agg-core"), 2 * p * p * p, "k={k}");
        assert_eq!(net.num_endpoints(), k * k * k / 4, "k^3/4 endpoints");
        // Every port of every router is used.
        for r in 0..net.num_routers() {
            assert_eq!(
                net.degree(r) + net.endpoints()[r],
                k as u32,
                "k={k} router {r}"
            );
        }
        // Kathareios et al., SC15, Fig. 3: 3-level fat tree has diameter 4, 3 links and 5 ports per
        // endpoint.
        let n = net.num_endpoints();
        assert_eq!(net.num_links() + n, 3 * n, "k={k}");
        assert_eq!(total_ports(&net), 5 * n, "k={k}");
        let leaves = endpoint_routers(&net);
        assert_eq!(leaves.len() as u64, k * k / 2);
        assert_eq!(diameter_among(&net, &leaves), Some(4), "k={k}");
        // Endpoints only on leaves (level 0), p^2 per pod.
        for r in 0..net.num_routers() {
            let label = net.label(r);
            assert_eq!(net.endpoints()[r] > 0, label[0] == 0, "k={k} router {r}");
        }
        for pod in 0..k as i64 {
            let in_pod: u64 = (0..net.num_routers())
                .filter(|&r| net.label(r)[0] == 0 && net.label(r)[1] == pod)
                .map(|r| net.endpoints()[r] as u64)
                .sum();
            assert_eq!(in_pod, p * p, "k={k} pod {pod}");
        }
    }
}

#[test]
fn links_respect_the_levels_and_pods() {
    let net = build_str("fattree:k=6").unwrap();
    assert_eq!(net.label_fields(), ["level", "pod", "index"]);
    assert_eq!(net.link_classes(), ["leaf-agg", "agg-core"]);
    for l in net.links() {
        let (a, b) = (net.label(l.src as usize), net.label(l.dst as usize));
        let (lo, hi) = if a[0] < b[0] { (a, b) } else { (b, a) };
        assert_eq!(hi[0], lo[0] + 1, "links join adjacent levels: {a:?} {b:?}");
        if hi[0] == 1 {
            assert_eq!(lo[1], hi[1], "leaf-agg links stay in the pod");
        } else {
            assert_eq!(hi[1], -1, "core routers belong to no pod");
        }
    }
    // Each core router reaches every pod exactly once.
    for r in 0..net.num_routers() {
        if net.label(r)[0] == 2 {
            let mut pods: Vec<i64> = net
                .neighbors(r)
                .iter()
                .map(|&v| net.label(v as usize)[1])
                .collect();
            pods.sort();
            assert_eq!(pods, (0..6).collect::<Vec<_>>());
        }
    }
}

#[test]
fn two_level_closed_forms_of_001() {
    // Kathareios et al., SC15, §2.2.1: p = r/2, 3r/2 routers, r^2/2 endpoints; Fig. 3: diameter 2,
    // 2 links and 3 ports per endpoint.
    for k in (2u64..=24).step_by(2) {
        let net = build_str(&format!("fattree:k={k},levels=2")).unwrap();
        assert_eq!(net.num_routers() as u64, 3 * k / 2, "k={k}");
        let n = net.num_endpoints();
        assert_eq!(n, k * k / 2, "k={k}");
        assert_eq!(cables(&net, "leaf-spine"), k * k / 2, "k={k}");
        assert_eq!(net.num_links() + n, 2 * n, "k={k}");
        assert_eq!(total_ports(&net), 3 * n, "k={k}");
        for r in 0..net.num_routers() {
            assert_eq!(net.degree(r) + net.endpoints()[r], k as u32, "k={k}");
        }
        let leaves = endpoint_routers(&net);
        assert_eq!(leaves.len() as u64, k);
        assert_eq!(diameter_among(&net, &leaves), Some(2), "k={k}");
    }
}

#[test]
fn configurations_of_000() {
    // Besta & Hoefler, SC14, §V: FT-3 with k = 44, p = 22, N_r = 1,452, N = 10,648: 22 of the 44
    // possible pods.
    let net = build_str("fattree:k=44,pods=22").unwrap();
    assert_eq!((net.num_routers(), net.num_endpoints()), (1452, 10648));
    // The full k = 44 tree: 5p^2 = 2,420 routers, 2p^3 = 21,296 endpoints.
    let net = build_str("fattree:k=44").unwrap();
    assert_eq!((net.num_routers(), net.num_endpoints()), (2420, 21296));
    assert_eq!(net.network_radix(), 44);
    // Besta & Hoefler, SC14, Table IV's FT-3 columns (N = 19,876, N_r = 2,311, k = 43 and N =
    // 10,718, N_r = 1,531, k = 35) are floor(k^3/4) and floor(5k^2/4) at odd k: no k-ary fat tree
    // has them, and odd k is rejected rather than rounded.
    for k in [43, 35] {
        let msg = build_str(&format!("fattree:k={k}"))
            .unwrap_err()
            .to_string();
        assert!(msg.contains("'k'") && msg.contains("even"), "{msg}");
    }
}

#[test]
fn oversubscribed_and_undersubscribed_leaves() {
    // p > k/2: a leaf keeps k - p up ports; every router still uses at most k ports and the
    // leaf up/down ratio is (k - p) : p.
    for levels in [2u32, 3] {
        for (k, p) in [(8u32, 5u32), (8, 6), (8, 7), (12, 9)] {
            let spec = format!("fattree:k={k},levels={levels},p={p}");
            let net = build_str(&spec).unwrap();
            let up = k - p;
            let pods = if levels == 3 { k } else { 1 };
            let leaves_per_pod = if levels == 3 { k / 2 } else { k };
            let leaves = pods * leaves_per_pod;
            assert_eq!(net.num_endpoints(), (leaves * p) as u64, "{spec}");
            let routers = if levels == 3 {
                leaves + pods * up + up * k / 2
            } else {
                leaves + up
            };
            assert_eq!(net.num_routers() as u32, routers, "{spec}");
            for r in 0..net.num_routers() {
                let used = net.degree(r) + net.endpoints()[r];
                assert_eq!(used, k, "{spec} router {r}");
                if net.endpoints()[r] > 0 {
                    assert_eq!(net.degree(r), up, "{spec}");
                }
            }
            let ends = endpoint_routers(&net);
            assert_eq!(
                diameter_among(&net, &ends),
                Some(2 * (levels - 1)),
                "{spec}"
            );
        }
    }
    // p < k/2 keeps the full tree and leaves endpoint ports free.
    let net = build_str("fattree:k=8,p=2").unwrap();
    assert_eq!((net.num_routers(), net.num_endpoints()), (80, 64));
}

#[test]
fn bad_parameters_are_errors_naming_the_parameter() {
    for (spec, needle) in [
        ("fattree", "missing parameter 'k'"),
        ("fattree:k=7", "'k'"),
        ("fattree:k=0", "'k'"),
        ("fattree:k=4,levels=1", "'levels'"),
        ("fattree:k=4,levels=4", "'levels'"),
        ("fattree:k=4,p=4", "'p'"),
        ("fattree:k=4,p=0", "'p'"),
        ("fattree:k=4,pods=5", "'pods'"),
        ("fattree:k=4,pods=0", "'pods'"),
        ("fattree:k=4,levels=2,pods=2", "'pods'"),
        ("fattree:k=4096", "'k'"),
    ] {
        let msg = build_str(spec).unwrap_err().to_string();
        assert!(msg.contains(needle), "{spec}: {msg}");
    }
}
