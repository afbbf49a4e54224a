//! Tori and meshes against Daryin & Korzh, JSFI 2014, §1.1 (degree C + 2 sum L_n, diameter sum
//! floor(K_n/2)) and the configurations quoted in Besta & Hoefler, SC14, Table IV, Daryin & Korzh,
//! JSFI 2014, §1.1 and Fujiwara et al., IPDPS 2014, §III-A.

use topolab_core::metrics::distance::diameter;
use topolab_core::{build_str, Network};

fn dims_text(dims: &[u32]) -> String {
    dims.iter()
        .map(|d| d.to_string())
        .collect::<Vec<_>>()
        .join("x")
}

fn cables_of_class(net: &Network, class: &str) -> u64 {
    let c = net.link_classes().iter().position(|x| x == class).unwrap() as u16;
    net.links()
        .iter()
        .filter(|l| l.class == c)
        .map(|l| l.width as u64)
        .sum()
}

const SHAPES: &[&[u32]] = &[
    &[1],
    &[2],
    &[3],
    &[7],
    &[2, 3],
    &[3, 4, 5],
    &[2, 2, 2],
    &[1, 4],
    &[6, 3],
    &[4, 1, 5],
    &[8, 16, 16],
];

#[test]
fn torus_diameter_degree_and_link_counts() {
    for &dims in SHAPES {
        let widths: Vec<u32> = (0..dims.len() as u32).map(|i| i % 3 + 1).collect();
        let spec = format!(
            "torus:dims={},widths={}",
            dims_text(dims),
            dims_text(&widths)
        );
        let net = build_str(&spec).unwrap();
        let routers: u64 = dims.iter().map(|&k| k as u64).product();
        assert_eq!(net.num_routers() as u64, routers, "{spec}");
        let expected_diameter: u32 = dims.iter().map(|k| k / 2).sum();
        assert_eq!(diameter(&net), Some(expected_diameter), "{spec}");
        // A ring of K >= 3 gives each router two links of width L, a dimension of size 2 one
        // link (Daryin & Korzh's (JSFI 2014) rings degenerate to a single pair), size 1 none.
        let degree: u32 = dims
            .iter()
            .zip(&widths)
            .map(|(&k, &l)| match k {
                1 => 0,
                2 => l,
                _ => 2 * l,
            })
            .sum();
        for r in 0..net.num_routers() {
            assert_eq!(net.degree(r), degree, "{spec} router {r}");
        }
        for (n, (&k, &l)) in dims.iter().zip(&widths).enumerate() {
            let per_ring = match k {
                1 => 0,
                2 => 1,
                _ => k as u64,
            };
            assert_eq!(
                cables_of_class(&net, &format!("dim{n}")),
                routers / k as u64 * per_ring * l as u64,
                "{spec} dim{n}"
            );
        }
        assert_eq!(net.num_endpoints(), routers, "p defaults to 1");
    }
}

#[test]
fn mesh_diameter_degree_and_link_counts() {
    for &dims in SHAPES {
        let spec = format!("mesh:dims={}", dims_text(dims));
        let net = build_str(&spec).unwrap();
        let routers: u64 = dims.iter().map(|&k| k as u64).product();
        let expected_diameter: u32 = dims.iter().map(|k| k - 1).sum();
        assert_eq!(diameter(&net), Some(expected_diameter), "{spec}");
        let links: u64 = dims
            .iter()
            .map(|&k| routers / k as u64 * (k as u64 - 1))
            .sum();
        assert_eq!(net.num_links(), links, "{spec}");
        // Corner router 0 has one neighbour per dimension of size > 1.
        let corner = dims.iter().filter(|&&k| k > 1).count() as u32;
        assert_eq!(net.degree(0), corner, "{spec}");
        let max_degree: u32 = dims.iter().map(|&k| (k - 1).min(2)).sum();
        assert_eq!(net.network_radix(), max_degree, "{spec}");
    }
}

#[test]
fn neighbours_differ_by_one_step_in_one_coordinate() {
    for family in ["torus", "mesh"] {
        let net = build_str(&format!("{family}:dims=3x4x5")).unwrap();
        assert_eq!(net.label_fields(), ["d0", "d1", "d2"]);
        assert_eq!(net.link_classes(), ["dim0", "dim1", "dim2"]);
        let dims = [3i64, 4, 5];
        for l in net.links() {
            let (a, b) = (net.label(l.src as usize), net.label(l.dst as usize));
            let differing: Vec<usize> = (0..3).filter(|&n| a[n] != b[n]).collect();
            assert_eq!(differing.len(), 1, "{family}: {a:?}-{b:?}");
            let n = differing[0];
            assert_eq!(l.class as usize, n);
            let step = (a[n] - b[n]).rem_euclid(dims[n]);
            assert!(step == 1 || step == dims[n] - 1, "{family}: {a:?}-{b:?}");
            if family == "mesh" {
                assert_eq!((a[n] - b[n]).abs(), 1, "mesh has no wraparound");
            }
        }
        // Distinct routers have distinct labels.
        let mut labels: Vec<Vec<i64>> = (0..net.num_routers())
            .map(|r| net.label(r).to_vec())
            .collect();
        labels.sort();
        labels.dedup();
        assert_eq!(labels.len(), 60);
    }
}

#[test]
fn configurations_of_003() {
    // Daryin & Korzh, JSFI 2014, §1.1 table, C = 8: 8x16x16 widths 3,5,5 (degree 34, diameter 20)
    // and 4x8x8x8 widths 2,4,4,4 (degree 36, diameter 14); 2,048 switches, 16,384 nodes each.
    for (spec, radix, diam) in [
        ("torus:dims=8x16x16,widths=3x5x5,p=8", 34, 20),
        ("torus:dims=4x8x8x8,widths=2x4x4x4,p=8", 36, 14),
    ] {
        let net = build_str(spec).unwrap();
        assert_eq!(net.num_routers(), 2048, "{spec}");
        assert_eq!(net.num_endpoints(), 16384, "{spec}");
        assert_eq!(net.radix(), radix, "{spec}");
        assert_eq!(diameter(&net), Some(diam), "{spec}");
    }
}

#[test]
fn configurations_of_000_and_004() {
    // Besta & Hoefler, SC14, Table IV, p = 1: T3D with N = 10,648, k = 7; T5D with N = 10,368, k =
    // 11 (the paper gives no factorisation; 6x6x6x6x8 is one).
    let t3d = build_str("torus:dims=22x22x22").unwrap();
    assert_eq!((t3d.num_endpoints(), t3d.radix()), (10648, 7));
    let t5d = build_str("torus:dims=6x6x6x6x8").unwrap();
    assert_eq!((t5d.num_endpoints(), t5d.radix()), (10368, 11));
    // Fujiwara et al., IPDPS 2014, §III-A: Torus(8, 256, 6) is an 8x16x16 torus of degree 6 whose
    // canonical numbering puts one first-dimension ring in each cabinet of 8 consecutive switches.
    let net = build_str("torus:dims=8x16x16").unwrap();
    assert_eq!((net.num_routers(), net.network_radix()), (2048, 6));
    for r in 0..net.num_routers() {
        assert_eq!(net.label(r)[0], (r % 8) as i64);
    }
    assert_eq!(net.neighbors(0)[..2], [1, 7]);
}

#[test]
fn torus_of_twos_is_the_hypercube() {
    let torus = build_str("torus:dims=2x2x2x2,widths=2x2x2x2").unwrap();
    let cube = build_str("hypercube:n=4,width=2").unwrap();
    let ends = |n: &Network| {
        n.links()
            .iter()
            .map(|l| (l.src, l.dst, l.width, l.class))
            .collect::<Vec<_>>()
    };
    assert_eq!(ends(&torus), ends(&cube));
}

#[test]
fn bad_parameters_are_errors_naming_the_parameter() {
    for (spec, needle) in [
        ("torus", "missing parameter 'dims'"),
        ("torus:dims=0x4", "'dims'"),
        ("torus:dims=4xa", "'dims'"),
        ("torus:dims=4x4,widths=1", "'widths'"),
        ("torus:dims=4x4,widths=1x1x1", "'widths'"),
        ("torus:dims=4x4,widths=1x0", "'widths'"),
        ("torus:dims=4x4,p=-1", "'p'"),
        ("mesh:dims=1000x1000x1000", "'dims'"),
        ("mesh:dims=4x4,q=3", "unknown parameter 'q'"),
    ] {
        let msg = build_str(spec).unwrap_err().to_string();
        assert!(msg.contains(needle), "{spec}: {msg}");
    }
    let huge = vec!["16777216"; 32].join("x");
    let msg = build_str(&format!("torus:dims={huge}"))
        .unwrap_err()
        .to_string();
    assert!(msg.contains("'dims'"), "{msg}");
    let many = vec!["1"; 33].join("x");
    let msg = build_str(&format!("torus:dims={many}"))
        .unwrap_err()
        .to_string();
    assert!(msg.contains("'dims'") && msg.contains("32"), "{msg}");
}
