//! Kautz and de Bruijn digraphs against their string definitions and the numbers of Koibuchi et
//! al., 2018, §IV-A.

use topolab_core::metrics::distance::{diameter, distances_from};
use topolab_core::{build_str, find_family, Network};

fn labels(net: &Network) -> Vec<Vec<i64>> {
    (0..net.num_routers())
        .map(|r| net.label(r).to_vec())
        .collect()
}

/// Length of the longest proper suffix of `u` that is a prefix of `v`.
fn overlap(u: &[i64], v: &[i64]) -> usize {
    (0..u.len())
        .rev()
        .find(|&l| u[u.len() - l..] == v[..l])
        .unwrap_or(0)
}

/// Directed Moore bound Σ_{i=0}^{k} d^i (Koibuchi et al., 2018, §I).
fn moore(d: u64, k: u32) -> u64 {
    (0..=k).map(|i| d.pow(i)).sum()
}

/// Checks the shift structure through the labels, and that every shortest distance is
/// k - (longest suffix of u that is a prefix of v): the classical distance of shift digraphs,
/// computed here from strings only.
fn check_shift_digraph(net: &Network, k: usize) {
    let lab = labels(net);
    let mut sorted = lab.clone();
    sorted.sort();
    sorted.dedup();
    assert_eq!(sorted.len(), lab.len(), "labels are distinct strings");
    for l in net.links() {
        let (u, v) = (&lab[l.src as usize], &lab[l.dst as usize]);
        assert_eq!(u[1..], v[..k - 1], "arc {u:?} -> {v:?} is a left shift");
        assert_eq!(l.width, 1);
        assert_eq!(net.link_classes()[l.class as usize], "arc");
    }
    for s in 0..net.num_routers() {
        let dist = distances_from(net, s);
        for t in 0..net.num_routers() {
            let expected = if s == t {
                0
            } else {
                k - overlap(&lab[s], &lab[t])
            };
            assert_eq!(dist[t] as usize, expected, "{:?} -> {:?}", lab[s], lab[t]);
        }
    }
}

#[test]
fn kautz_counts_degrees_labels_and_distances() {
    for (d, k) in [
        (2u64, 1u32),
        (2, 2),
        (2, 3),
        (2, 5),
        (3, 1),
        (3, 3),
        (4, 2),
        (4, 3),
        (5, 3),
    ] {
        let net = build_str(&format!("kautz:d={d},k={k}")).unwrap();
        let n = ((d + 1) * d.pow(k - 1)) as usize;
        assert!(net.directed());
        assert_eq!(net.num_routers(), n, "K({d},{k}) routers");
        assert_eq!(net.num_links(), n as u64 * d, "K({d},{k}) arcs");
        assert_eq!(net.num_endpoints(), 4 * n as u64, "default p = 4");
        let indeg = net.in_degrees();
        for (r, &din) in indeg.iter().enumerate() {
            assert_eq!(net.degree(r), d as u32, "out-degree K({d},{k})");
            assert_eq!(din, d as u32, "in-degree K({d},{k})");
            let l = net.label(r);
            assert!(l.iter().all(|&s| (0..=d as i64).contains(&s)));
            assert!(l.windows(2).all(|w| w[0] != w[1]), "Kautz string {l:?}");
        }
        check_shift_digraph(&net, k as usize);
        assert_eq!(diameter(&net), Some(k), "diameter of K({d},{k})");
    }
}

#[test]
fn kautz_sizes_and_moore_fractions_quoted_in_002() {
    // Koibuchi et al., 2018, §IV-A: 98% for d = 8, k = 4 with 4,608 vertices; 99% for d = 12, k = 4
    // with 22,464.
    for (d, k, n, percent) in [(8u64, 4u32, 4608usize, 98u64), (12, 4, 22464, 99)] {
        let net = build_str(&format!("kautz:d={d},k={k},p=1")).unwrap();
        assert_eq!(net.num_routers(), n);
        assert_eq!(net.num_links(), n as u64 * d);
        assert_eq!(100 * n as u64 / moore(d, k), percent, "d={d} k={k}");
    }
    // Koibuchi et al. (2018) quote "97% for d = 6 and k = 5 for 3,750 vertices", which mixes two
    // graphs: K(6,5) has 9,072 vertices and is 97% of M(6,5) = 9,331; 3,750 vertices is K(5,5),
    // 96% of M(5,5) = 3,906.
    let k65 = build_str("kautz:d=6,k=5,p=1").unwrap();
    assert_eq!(k65.num_routers(), 9072);
    assert_eq!(100 * 9072 / moore(6, 5), 97);
    let k55 = build_str("kautz:d=5,k=5,p=1").unwrap();
    assert_eq!(k55.num_routers(), 3750);
    assert_eq!(100 * 3750 / moore(5, 5), 96);
    assert_eq!(diameter(&k55), Some(5));
}

#[test]
fn debruijn_counts_degrees_labels_and_distances() {
    for (d, k) in [(2u64, 1u32), (3, 1), (2, 2), (2, 4), (3, 3), (4, 2), (5, 3)] {
        let net = build_str(&format!("debruijn:d={d},k={k},p=2")).unwrap();
        let n = d.pow(k) as usize;
        assert!(net.directed());
        assert_eq!(net.num_routers(), n, "B({d},{k}) routers");
        // d^(k+1) shift arcs less the d self-loops on the constant strings.
        assert_eq!(net.num_links(), d.pow(k + 1) - d, "B({d},{k}) arcs");
        assert_eq!(net.num_endpoints(), 2 * n as u64);
        let indeg = net.in_degrees();
        let mut constant = 0;
        for (r, &din) in indeg.iter().enumerate() {
            let l = net.label(r);
            let expected = if l.iter().all(|&s| s == l[0]) {
                constant += 1;
                d as u32 - 1
            } else {
                d as u32
            };
            assert_eq!(net.degree(r), expected, "out-degree of {l:?}");
            assert_eq!(din, expected, "in-degree of {l:?}");
            assert!(!net.neighbors(r).contains(&(r as u32)));
        }
        assert_eq!(constant, d, "d constant strings");
        check_shift_digraph(&net, k as usize);
        assert_eq!(diameter(&net), Some(k), "diameter of B({d},{k})");
    }
}

#[test]
fn families_are_registered_as_directed() {
    for name in ["kautz", "debruijn", "de_bruijn"] {
        let f = find_family(name).unwrap();
        assert!(f.directed, "{name}");
        let net = build_str(f.example).unwrap();
        assert!(net.directed() && net.num_routers() > 0);
    }
}

#[test]
fn bad_parameters_are_errors_naming_the_parameter() {
    for (spec, param, needle) in [
        ("kautz:d=1,k=3", "'d'", "from 2"),
        ("kautz:d=3,k=0", "'k'", "from 1"),
        ("kautz:d=x,k=3", "'d'", "integer"),
        ("kautz:k=3", "'d'", "missing"),
        ("kautz:d=3", "'k'", "missing"),
        ("kautz:d=2,k=40", "'k'", "routers"),
        ("kautz:d=3,k=3,p=-1", "'p'", "from 0"),
        ("debruijn:d=1,k=3", "'d'", "from 2"),
        ("debruijn:d=2,k=0", "'k'", "from 1"),
        ("debruijn:d=1000,k=5", "'k'", "routers"),
        ("debruijn:d=2,k=64", "'k'", "routers"),
        // 2^23 routers fit, but 23 label fields each would exceed the label budget.
        ("debruijn:d=2,k=23", "'k'", "label entries"),
    ] {
        let msg = build_str(spec).unwrap_err().to_string();
        assert!(msg.contains(param) && msg.contains(needle), "{spec}: {msg}");
    }
}
