//! Hypercube against its closed forms (2^n routers, degree n, n 2^(n-1) links, diameter n) and
//! the configurations of Daryin & Korzh, JSFI 2014, §1.3, Besta & Hoefler, SC14, Table IV and
//! Fujiwara et al., IPDPS 2014, §III-A.

use topolab_core::build_str;
use topolab_core::metrics::distance::diameter;

#[test]
fn closed_forms_for_small_dimensions() {
    for n in 1u32..=10 {
        for width in [1u32, 3] {
            let net = build_str(&format!("hypercube:n={n},width={width}")).unwrap();
            let routers = 1usize << n;
            assert_eq!(net.num_routers(), routers);
            for r in 0..routers {
                assert_eq!(net.degree(r), n * width, "n={n}");
            }
            assert_eq!(net.links().len(), n as usize * routers / 2, "n={n}");
            assert_eq!(net.num_links(), (n * width) as u64 * routers as u64 / 2);
            assert_eq!(net.num_endpoints(), routers as u64, "p defaults to 1");
            assert_eq!(diameter(&net), Some(n), "n={n}");
        }
    }
}

#[test]
fn labels_are_bits_and_links_flip_one_bit() {
    let net = build_str("hypercube:n=5").unwrap();
    assert_eq!(net.label_fields(), ["b0", "b1", "b2", "b3", "b4"]);
    assert_eq!(net.link_classes(), ["dim0", "dim1", "dim2", "dim3", "dim4"]);
    for r in 0..net.num_routers() {
        let bits: usize = net
            .label(r)
            .iter()
            .enumerate()
            .map(|(i, &b)| (b as usize) << i)
            .sum();
        assert_eq!(bits, r);
    }
    for l in net.links() {
        let diff = l.src ^ l.dst;
        assert!(diff.is_power_of_two());
        assert_eq!(diff.trailing_zeros(), l.class as u32);
    }
}

#[test]
fn configurations_of_the_papers() {
    // Daryin & Korzh, JSFI 2014, §1.3: 11D hypercube with double links, C = 8: diameter 11, radix
    // 30.
    let net = build_str("hypercube:n=11,width=2,p=8").unwrap();
    assert_eq!((net.num_routers(), net.num_endpoints()), (2048, 16384));
    assert_eq!(net.radix(), 30);
    assert_eq!(diameter(&net), Some(11));
    // Besta & Hoefler, SC14, Table IV HC: N = N_r = 8,192, k = 14 (p = 1).
    let net = build_str("hypercube:n=13").unwrap();
    assert_eq!((net.num_endpoints(), net.radix()), (8192, 14));
    // Fujiwara et al., IPDPS 2014, §III-A: Hypercube(2048, 11) has degree 11.
    let net = build_str("hypercube:n=11").unwrap();
    assert_eq!(net.network_radix(), 11);
}

#[test]
fn bad_parameters_are_errors_naming_the_parameter() {
    for (spec, needle) in [
        ("hypercube", "missing parameter 'n'"),
        ("hypercube:n=0", "'n'"),
        ("hypercube:n=25", "'n'"),
        ("hypercube:n=65", "'n'"),
        ("hypercube:n=3,width=0", "'width'"),
        ("hypercube:n=3,p=-2", "'p'"),
        ("hypercube:n=3,dims=2", "unknown parameter 'dims'"),
    ] {
        let msg = build_str(spec).unwrap_err().to_string();
        assert!(msg.contains(needle), "{spec}: {msg}");
    }
}
