//! HyperX / FlatFly against Daryin & Korzh, JSFI 2014, §1.2 (degree C + sum L_n (K_n - 1), diameter
//! N), Kathareios et al., SC15, §2.1.1 and Fig. 3 (balanced 2D HyperX) and the configurations of
//! Daryin & Korzh, JSFI 2014, §1.2, Fujiwara et al., IPDPS 2014, §III-A and Besta & Hoefler, SC14,
//! Table IV.

use topolab_core::metrics::distance::diameter;
use topolab_core::{build_str, Network};

fn dims_text(dims: &[u32]) -> String {
    dims.iter()
        .map(|d| d.to_string())
        .collect::<Vec<_>>()
        .join("x")
}

#[test]
fn degree_diameter_and_links_follow_003() {
    for (dims, widths) in [
        (&[5u32][..], &[1u32][..]),
        (&[3, 4], &[1, 2]),
        (&[2, 3, 4], &[3, 1, 1]),
        (&[4, 1, 3], &[1, 5, 2]),
        (&[2, 2, 2, 2, 2], &[1, 1, 1, 1, 1]),
        (&[6, 6], &[1, 1]),
        (&[1], &[1]),
    ] {
        let spec = format!(
            "hyperx:dims={},widths={},p=2",
            dims_text(dims),
            dims_text(widths)
        );
        let net = build_str(&spec).unwrap();
        let routers: u64 = dims.iter().map(|&k| k as u64).product();
        assert_eq!(net.num_routers() as u64, routers, "{spec}");
        let degree: u32 = dims.iter().zip(widths).map(|(&k, &l)| l * (k - 1)).sum();
        for r in 0..net.num_routers() {
            assert_eq!(net.degree(r), degree, "{spec}");
        }
        assert_eq!(net.num_links(), routers * degree as u64 / 2, "{spec}");
        assert_eq!(net.radix(), degree + 2, "{spec}");
        let nontrivial = dims.iter().filter(|&&k| k > 1).count() as u32;
        assert_eq!(diameter(&net), Some(nontrivial), "{spec}");
    }
}

#[test]
fn every_dimension_is_a_complete_graph() {
    // Brute force: two routers are adjacent iff their coordinates differ in exactly one
    // dimension n, and then the link has class dim<n> and width L_n.
    let widths = [2u32, 1, 3];
    let net = build_str("hyperx:dims=3x4x2,widths=2x1x3").unwrap();
    assert_eq!(net.label_fields(), ["d0", "d1", "d2"]);
    assert_eq!(net.link_classes(), ["dim0", "dim1", "dim2"]);
    let n = net.num_routers();
    for u in 0..n {
        for v in u + 1..n {
            let (a, b) = (net.label(u), net.label(v));
            let differing: Vec<usize> = (0..3).filter(|&i| a[i] != b[i]).collect();
            let link = net
                .neighbors(u)
                .iter()
                .position(|&w| w as usize == v)
                .map(|i| net.links()[net.neighbor_links(u)[i] as usize]);
            match (differing.len(), link) {
                (1, Some(l)) => {
                    assert_eq!(l.class as usize, differing[0]);
                    assert_eq!(l.width, widths[differing[0]]);
                }
                (1, None) => panic!("{a:?} and {b:?} should be adjacent"),
                (_, Some(_)) => panic!("{a:?} and {b:?} should not be adjacent"),
                (_, None) => {}
            }
        }
    }
}

#[test]
fn flatfly_of_003() {
    // Daryin & Korzh, JSFI 2014, §1.2: 4x8x8x8 with widths 2,1,1,1 and C = 8: diameter 4, radix 35,
    // 2,048 switches.
    let net = build_str("flatfly:dims=4x8x8x8,widths=2x1x1x1,p=8").unwrap();
    assert_eq!(net.num_routers(), 2048);
    assert_eq!(net.num_endpoints(), 16384);
    assert_eq!(net.radix(), 35);
    assert_eq!(diameter(&net), Some(4));
}

#[test]
fn balanced_2d_hyperx_of_001() {
    // Kathareios et al., SC15, §2.1.1: radix r splits into r/3 ports per dimension and r/3
    // endpoints, so the complete graphs have r/3 + 1 routers, R = (r/3 + 1)^2, N = r/3 (r/3 + 1)^2;
    // Fig. 3: diameter 2, 2 links and 3 router ports per endpoint. p defaults to that balance.
    for r in [6u32, 12, 30, 48] {
        let k = r / 3 + 1;
        let net = build_str(&format!("hyperx:dims={k}x{k}")).unwrap();
        let routers = (k * k) as u64;
        assert_eq!(net.num_routers() as u64, routers, "r={r}");
        assert_eq!(net.num_endpoints(), routers * (r / 3) as u64, "r={r}");
        assert_eq!(net.radix(), r, "r={r}");
        let n = net.num_endpoints();
        assert_eq!(net.num_links() + n, 2 * n, "links per endpoint, r={r}");
        assert_eq!(routers * r as u64, 3 * n, "ports per endpoint, r={r}");
        assert_eq!(diameter(&net), Some(2), "r={r}");
    }
}

#[test]
fn default_p() {
    // Equal port counts per dimension follow Kathareios et al.'s (SC15) balance; otherwise no paper
    // gives a rule.
    let p_of = |spec: &str| build_str(spec).unwrap().endpoints()[0];
    assert_eq!(p_of("hyperx:dims=8x8"), 7);
    assert_eq!(p_of("hyperx:dims=5x5x5"), 4);
    assert_eq!(p_of("hyperx:dims=5x3,widths=1x2"), 4);
    assert_eq!(p_of("hyperx:dims=8x8x1"), 7);
    assert_eq!(p_of("hyperx:dims=4x8"), 1);
    assert_eq!(p_of("hyperx:dims=4x8x8x8,widths=2x1x1x1"), 1);
    assert_eq!(p_of("hyperx:dims=1"), 1);
}

#[test]
fn configurations_of_004_and_000() {
    // Fujiwara et al., IPDPS 2014, §III-A: HyperX(8, 256, 37) on a 16x16 cabinet grid with 8
    // switches per cabinet has degree x + y + z - 3 = 37: dims 8x16x16.
    let net = build_str("hyperx:dims=8x16x16").unwrap();
    assert_eq!((net.num_routers(), net.network_radix()), (2048, 37));
    // Besta & Hoefler, SC14, §VI-B3d / Table IV FBF-3: p routers per group, p^2 groups (p x p x p):
    // N_r = 1,000, N = 10,000 and N_r = 1,728, N = 20,736. (Table IV's radix 33 and 43 do not match
    // p + 3(p - 1) = 37 and 45 and are not checked.)
    for (p, nr, n) in [(10u32, 1000usize, 10000u64), (12, 1728, 20736)] {
        let net = build_str(&format!("flattened_butterfly:dims={p}x{p}x{p},p={p}")).unwrap();
        assert_eq!((net.num_routers(), net.num_endpoints()), (nr, n));
        assert_eq!(net.network_radix(), 3 * (p - 1));
    }
}

#[test]
fn aliases_build_the_same_network() {
    let a = build_str("hyperx:dims=3x4,widths=1x2").unwrap();
    for alias in ["flatfly", "flattened_butterfly"] {
        let b: Network = build_str(&format!("{alias}:dims=3x4,widths=1x2")).unwrap();
        assert_eq!(a.links(), b.links());
        assert_eq!(b.family(), "hyperx");
    }
}

#[test]
fn bad_parameters_are_errors_naming_the_parameter() {
    for (spec, needle) in [
        ("hyperx", "missing parameter 'dims'"),
        ("hyperx:dims=0x4", "'dims'"),
        ("hyperx:dims=4x4,widths=2", "'widths'"),
        ("hyperx:dims=4x4,widths=0x1", "'widths'"),
        ("hyperx:dims=4x4,p=x", "'p'"),
        ("hyperx:dims=1000x1000x100", "'dims'"),
        ("hyperx:dims=100000x1000", "'dims'"),
        (
            "hyperx:dims=16777216x16777216x16777216x16777216x16777216x16777216",
            "'dims'",
        ),
    ] {
        let msg = build_str(spec).unwrap_err().to_string();
        assert!(msg.contains(needle), "{spec}: {msg}");
    }
}
