//! Two-level Orthogonal Fat-Tree against Kathareios et al., SC15, §2.2.4 (Table 2, closed forms),
//! the single-path property of Kathareios et al., SC15, §2.2.2/§2.3.3 and the sizes quoted in its
//! §2.3.1 and §4.1.

use topolab_core::field::Field;
use topolab_core::metrics::distance::{diameter_among, endpoint_routers};
use topolab_core::topology::oft::ml3b_table;
use topolab_core::{build_str, Network, TopolabError};

/// k with k - 1 prime, and k with k - 1 a proper prime power (5, 9, 10).
const KS: [u64; 9] = [3, 4, 5, 6, 8, 9, 10, 12, 14];

/// Largest number of ports any router uses. `Network::radix()` adds the largest concentration
/// to the largest network degree, which overcounts when the two sit on different routers.
fn router_radix(net: &Network) -> u32 {
    (0..net.num_routers())
        .map(|r| net.degree(r) + net.endpoints()[r])
        .max()
        .unwrap_or(0)
}

fn common_neighbours(net: &Network, a: usize, b: usize) -> usize {
    net.neighbors(a)
        .iter()
        .filter(|x| net.neighbors(b).binary_search(x).is_ok())
        .count()
}

#[test]
fn the_4_ml3b_is_table_2() {
    // Kathareios et al., SC15, Table 2: row i lists the j such that (0, i) and (1, j) are
    // connected.
    let table2: [[u32; 4]; 13] = [
        [9, 10, 11, 12],
        [9, 0, 1, 2],
        [9, 3, 4, 5],
        [9, 6, 7, 8],
        [10, 0, 3, 6],
        [10, 1, 4, 7],
        [10, 2, 5, 8],
        [11, 0, 4, 8],
        [11, 1, 5, 6],
        [11, 2, 3, 7],
        [12, 0, 5, 7],
        [12, 1, 3, 8],
        [12, 2, 4, 6],
    ];
    let table = ml3b_table(&Field::new(3, "test", "q").unwrap());
    assert_eq!(table, table2.map(|r| r.to_vec()).to_vec());

    let net = build_str("oft:k=4").unwrap();
    for (i, row) in table2.iter().enumerate() {
        let mut want: Vec<u32> = row.iter().map(|&j| 13 + j).collect();
        want.sort();
        assert_eq!(net.neighbors(i), want.as_slice(), "(0,{i})");
        assert_eq!(net.neighbors(26 + i), want.as_slice(), "(2,{i})");
    }
}

#[test]
fn counts_match_the_closed_forms() {
    // Kathareios et al., SC15, §2.2.4: R_L = 1 + k(k-1), R = 3k^2 - 3k + 3, N = 2k^3 - 2k^2 + 2k
    // with p = k, routers of radix 2k; Fig. 3: 2 links and 3 ports per end-node.
    for k in KS {
        let net = build_str(&format!("oft:k={k}")).unwrap();
        let n = 2 * k * k * k - 2 * k * k + 2 * k;
        assert_eq!(net.num_routers() as u64, 3 * k * k - 3 * k + 3, "R k={k}");
        assert_eq!(net.num_endpoints(), n, "N k={k}");
        assert_eq!(net.num_links() + n, 2 * n, "links per end-node k={k}");
        for r in 0..net.num_routers() {
            let ports = (net.degree(r) + net.endpoints()[r]) as u64;
            assert_eq!(ports, 2 * k, "router {r} radix k={k}");
            let level = net.label(r)[0];
            assert_eq!(
                net.endpoints()[r] > 0,
                level != 1,
                "endpoints only on L0/L2"
            );
        }
    }
}

#[test]
fn smaller_p_leaves_ports_free() {
    // p is the end-nodes per L0/L2 router (Kathareios et al., SC15, Table 1); p <= k stays within
    // radix 2k.
    for (k, p) in [(4u64, 1u64), (6, 3), (8, 0)] {
        let net = build_str(&format!("oft:k={k},p={p}")).unwrap();
        let rl = 1 + k * (k - 1);
        assert_eq!(net.num_endpoints(), 2 * rl * p);
        for r in 0..net.num_routers() {
            let ports = (net.degree(r) + net.endpoints()[r]) as u64;
            assert!(ports <= 2 * k, "router {r} k={k} p={p}");
        }
    }
}

#[test]
fn endpoint_routers_are_two_hops_apart() {
    for k in KS {
        let net = build_str(&format!("oft:k={k}")).unwrap();
        let ends = endpoint_routers(&net);
        assert_eq!(ends.len() as u64, 2 * (1 + k * (k - 1)));
        assert_eq!(diameter_among(&net, &ends), Some(2), "k={k}");
    }
}

#[test]
fn single_minimal_path_except_counterparts() {
    // Kathareios et al., SC15, §2.2.2 (SPT: exactly one minimal path between level-one routers) and
    // §2.3.3: only the counterparts (0, i), (2, i) share more, namely all k L1 routers.
    for k in KS {
        let net = build_str(&format!("oft:k={k}")).unwrap();
        let rl = (1 + k * (k - 1)) as usize;
        let ends = endpoint_routers(&net);
        for (x, &a) in ends.iter().enumerate() {
            for &b in &ends[x + 1..] {
                let counterparts = b == a + 2 * rl;
                let expected = if counterparts { k as usize } else { 1 };
                assert_eq!(common_neighbours(&net, a, b), expected, "k={k} {a},{b}");
            }
        }
    }
}

#[test]
fn labels_and_link_classes() {
    let net = build_str("oft:k=5").unwrap();
    let rl = 21;
    assert_eq!(net.label_fields(), ["level", "index"]);
    assert_eq!(net.link_classes(), ["l0-l1", "l1-l2"]);
    for r in 0..net.num_routers() {
        assert_eq!(net.label(r), [(r / rl) as i64, (r % rl) as i64]);
    }
    for link in net.links() {
        let (a, b) = (
            net.label(link.src as usize)[0],
            net.label(link.dst as usize)[0],
        );
        let class = &net.link_classes()[link.class as usize];
        match class.as_str() {
            "l0-l1" => assert_eq!((a, b), (0, 1)),
            _ => assert_eq!((a, b), (1, 2)),
        }
    }
}

#[test]
fn sizes_quoted_in_the_paper() {
    // Kathareios et al., SC15, §4.1: OFT with k = 12, N = 3192, R = 399, r = 24.
    let net = build_str("oft:k=12").unwrap();
    assert_eq!(
        (net.num_endpoints(), net.num_routers(), router_radix(&net)),
        (3192, 399, 24)
    );
    // Kathareios et al., SC15, §2.3.1: with radix-64 routers the OFT supports approximately 63.5K
    // nodes.
    let net = build_str("oft:k=32").unwrap();
    assert_eq!(router_radix(&net), 64);
    assert_eq!(net.num_endpoints(), 63_552);
}

#[test]
fn bad_parameters_are_errors_naming_the_parameter() {
    for (spec, needle) in [
        ("oft", "missing parameter 'k'"),
        (
            "oft:k=2",
            "'k' = 2 is not allowed: an integer k with k - 1 a prime power",
        ),
        ("oft:k=0", "'k' = 0"),
        ("oft:k=-1", "'k' = -1"),
        ("oft:k=5000", "'k' = 5000"),
        (
            "oft:k=7",
            "'k' = 7 is not allowed: an integer k with k - 1 a prime power",
        ),
        ("oft:k=11", "'k' = 11"),
        ("oft:k=16", "'k' = 16"),
        ("oft:k=abc", "'k'"),
        ("oft:k=4,p=-1", "'p' = -1"),
        ("oft:k=1025", "'k' = 1025"),
    ] {
        let msg = build_str(spec).unwrap_err().to_string();
        assert!(msg.contains(needle), "{spec}: {msg}");
    }
    let e = build_str("oft:k=4,q=3").unwrap_err();
    assert!(matches!(e, TopolabError::UnknownParameter { .. }), "{e}");
}
