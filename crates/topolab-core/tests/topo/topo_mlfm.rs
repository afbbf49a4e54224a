//! Multi-Layer Full-Mesh against the closed forms of Kathareios et al., SC15, §2.2.3, the path
//! diversity of Kathareios et al., SC15, §2.3.3 and the configuration simulated in Kathareios et
//! al., SC15, §4.1.

use topolab_core::metrics::distance::{diameter_among, endpoint_routers};
use topolab_core::{build_str, Network, TopolabError};

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
fn h_mlfm_counts_match_the_closed_forms() {
    // Kathareios et al., SC15, §2.2.3: R = 3/2 h(h+1), N = h^3 + h^2, every router of radix 2h;
    // Fig. 3: 2 links and 3 router ports per end-node (endpoint links included).
    for h in 1u64..=8 {
        let net = build_str(&format!("mlfm:h={h}")).unwrap();
        let n = h * h * h + h * h;
        assert_eq!(net.num_routers() as u64 * 2, 3 * h * (h + 1), "R for h={h}");
        assert_eq!(net.num_endpoints(), n, "N for h={h}");
        assert_eq!(net.num_links() + n, 2 * n, "links per end-node for h={h}");
        let ports: u64 = (0..net.num_routers())
            .map(|r| (net.degree(r) + net.endpoints()[r]) as u64)
            .sum();
        assert_eq!(ports, 3 * n, "ports per end-node for h={h}");
        for r in 0..net.num_routers() {
            assert_eq!(
                net.degree(r) + net.endpoints()[r],
                2 * h as u32,
                "router {r} radix for h={h}"
            );
        }
    }
}

#[test]
fn hlp_mlfm_counts_and_radices() {
    // Kathareios et al., SC15, §2.2.3: l layers of h+1 LRs with p endpoints each, Rg = h(h+1)/2 GRs
    // of radix 2l, LRs of radix h + p.
    for (h, l, p) in [
        (1u64, 1u64, 1u64),
        (2, 5, 1),
        (3, 2, 7),
        (4, 3, 2),
        (5, 1, 5),
        (6, 9, 0),
    ] {
        let net = build_str(&format!("mlfm:h={h},l={l},p={p}")).unwrap();
        let (lr, gr) = (l * (h + 1), h * (h + 1) / 2);
        assert_eq!(net.num_routers() as u64, lr + gr, "R for {h},{l},{p}");
        assert_eq!(net.num_endpoints(), lr * p, "N for {h},{l},{p}");
        // Every GR port is used: Rg·2l router-to-router links.
        assert_eq!(net.num_links(), gr * 2 * l, "links for {h},{l},{p}");
        for r in 0..net.num_routers() {
            let label = net.label(r);
            let ports = (net.degree(r) + net.endpoints()[r]) as u64;
            if label[0] == 0 {
                assert_eq!(ports, h + p, "LR {r} radix");
                assert_eq!(net.endpoints()[r] as u64, p);
            } else {
                assert_eq!(ports, 2 * l, "GR {r} radix");
                assert_eq!(net.endpoints()[r], 0, "GR {r} has no endpoints");
            }
        }
    }
}

#[test]
fn endpoint_routers_are_two_hops_apart() {
    for spec in [
        "mlfm:h=1",
        "mlfm:h=2",
        "mlfm:h=4",
        "mlfm:h=7",
        "mlfm:h=3,l=1",
        "mlfm:h=2,l=6,p=3",
    ] {
        let net = build_str(spec).unwrap();
        let ends = endpoint_routers(&net);
        assert_eq!(diameter_among(&net, &ends), Some(2), "{spec}");
        for &a in &ends {
            assert!(
                !ends.iter().any(|&b| net.neighbors(a).contains(&(b as u32))),
                "{spec}: LRs are never adjacent"
            );
        }
    }
}

#[test]
fn minimal_path_diversity_of_section_2_3_3() {
    // Kathareios et al., SC15, §2.3.3: two LRs of the same column have h minimal routes, any other
    // pair exactly one.
    for (h, l) in [(2usize, 2usize), (3, 3), (4, 2), (5, 5), (3, 1)] {
        let net = build_str(&format!("mlfm:h={h},l={l}")).unwrap();
        let ends = endpoint_routers(&net);
        assert_eq!(ends.len(), l * (h + 1));
        for (i, &a) in ends.iter().enumerate() {
            for &b in &ends[i + 1..] {
                let same_column = net.label(a)[2] == net.label(b)[2];
                let expected = if same_column { h } else { 1 };
                assert_eq!(
                    common_neighbours(&net, a, b),
                    expected,
                    "h={h} l={l} {a},{b}"
                );
            }
        }
    }
}

#[test]
fn labels_describe_layers_columns_and_column_pairs() {
    let (h, l) = (4usize, 3usize);
    let net = build_str(&format!("mlfm:h={h},l={l}")).unwrap();
    assert_eq!(net.label_fields(), ["kind", "layer", "col", "col2"]);
    assert_eq!(net.link_classes(), ["local-global"]);
    let mut locals = std::collections::BTreeSet::new();
    let mut pairs = std::collections::BTreeSet::new();
    for r in 0..net.num_routers() {
        let lab = net.label(r).to_vec();
        if lab[0] == 0 {
            assert!((0..l as i64).contains(&lab[1]) && (0..=h as i64).contains(&lab[2]));
            assert!(locals.insert((lab[1], lab[2])), "LR label repeated");
        } else {
            assert_eq!(lab[0], 1);
            assert!(lab[2] < lab[3] && lab[3] <= h as i64);
            assert!(pairs.insert((lab[2], lab[3])), "GR label repeated");
            // The GR of pair {a, b} joins the LRs of columns a and b in every layer.
            let mut seen: Vec<(i64, i64)> = net
                .neighbors(r)
                .iter()
                .map(|&n| (net.label(n as usize)[1], net.label(n as usize)[2]))
                .collect();
            seen.sort();
            let mut want: Vec<(i64, i64)> = (0..l as i64)
                .flat_map(|layer| [(layer, lab[2]), (layer, lab[3])])
                .collect();
            want.sort();
            assert_eq!(seen, want, "GR {r}");
        }
    }
    assert_eq!(locals.len(), l * (h + 1));
    assert_eq!(pairs.len(), h * (h + 1) / 2);
    // Documented numbering: LRs layer by layer, then GRs in lexicographic pair order.
    let order: Vec<Vec<i64>> = (0..net.num_routers())
        .map(|r| net.label(r).to_vec())
        .collect();
    let mut sorted = order.clone();
    sorted.sort_by_key(|lab| (lab[0], lab[1], lab[2], lab[3]));
    assert_eq!(order, sorted);
}

#[test]
fn configuration_of_section_4_1() {
    // Kathareios et al., SC15, §4.1: MLFM with h = 15, N = 3600, R = 360, r = 30.
    let net = build_str("mlfm:h=15").unwrap();
    assert_eq!(
        (net.num_endpoints(), net.num_routers(), router_radix(&net)),
        (3600, 360, 30)
    );
    let ends = endpoint_routers(&net);
    assert_eq!(diameter_among(&net, &ends), Some(2));
}

#[test]
fn bad_parameters_are_errors_naming_the_parameter() {
    for (spec, needle) in [
        ("mlfm", "missing parameter 'h'"),
        ("mlfm:h=0", "'h' = 0"),
        ("mlfm:h=-3", "'h' = -3"),
        ("mlfm:h=abc", "'h'"),
        ("mlfm:h=3,l=0", "'l' = 0"),
        ("mlfm:h=3,p=-1", "'p' = -1"),
        ("mlfm:h=100000", "'h' = 100000"),
        ("mlfm:h=4,l=10000000", "'l' = 10000000"),
    ] {
        let msg = build_str(spec).unwrap_err().to_string();
        assert!(msg.contains(needle), "{spec}: {msg}");
    }
    let e = build_str("mlfm:h=3,k=1").unwrap_err();
    assert!(matches!(e, TopolabError::UnknownParameter { .. }), "{e}");
}
