//! Every family's closed-form sizes (`Family::sizes`, read by the design enumeration) against
//! the network its builder makes, over a sample of parameters per family, and the balance
//! rules against the numbers the papers print.

use topolab_core::{build_str, families, sizes_str, Network};

fn check(spec: &str) {
    let net: Network = build_str(spec).unwrap_or_else(|e| panic!("{spec}: {e}"));
    let s = sizes_str(spec).unwrap_or_else(|e| panic!("{spec}: {e}"));
    assert_eq!(s.routers, net.num_routers() as u64, "{spec}: routers");
    assert_eq!(s.endpoints, net.num_endpoints(), "{spec}: endpoints");
    let most = net.endpoints().iter().copied().max().unwrap_or(0);
    assert_eq!(s.concentration, most, "{spec}: concentration");
    if s.radix_is_bound {
        assert!(
            net.radix() <= s.radix,
            "{spec}: radix {} > bound {}",
            net.radix(),
            s.radix
        );
        assert!(
            net.network_radix() <= s.network_radix,
            "{spec}: network radix"
        );
    } else {
        assert_eq!(s.radix, net.radix(), "{spec}: radix");
        assert_eq!(
            s.network_radix,
            net.network_radix(),
            "{spec}: network radix"
        );
    }
    assert!(s.balanced_concentration > 0.0, "{spec}: balanced p");
}

#[test]
fn sizes_equal_the_built_network_for_every_family() {
    for family in families() {
        assert!(
            !family.samples.is_empty(),
            "family {} declares no samples (`Family::samples`): add some",
            family.name
        );
        check(family.example);
        for spec in family.samples {
            check(spec);
        }
    }
}

#[test]
fn sizes_reject_what_the_builder_rejects() {
    for spec in [
        "slimfly:q=6",
        "slimfly:q=2",
        "longhop:n=8,hops=9",
        "delorme:v=6",
        "polarfly:q=10",
        "bdf:u=4",
        "bdf:u=9,p=-1",
        "bundlefly:q=3,a=13,p=1,x=1",
        "bundlefly:q=3,a=11",
        "polarstar:q=3,d=6",
        "polarstar:q=3",
        "oft:k=7",
        "dragonflyplus:h=2,g=6",
        "sspt:r1=5,r2=3",
        "sspt:r1=7,r2=3,s=2",
        "dragonfly:a=4,h=2,g=10",
        "fattree:k=5",
        "fattree:k=4,levels=2,pods=2",
        "hyperx:dims=4x4,widths=2",
        "jellyfish:routers=5,degree=3",
        "dln:routers=8,shortcuts=6",
        "imase:n=10,d=3,a=2",
        "skywalk:z=4,c=6,di=4,do=2",
        "kautz:d=2,k=3,bogus=1",
        "product:a=(slimfly:q=6),b=(hyperx:dims=3)",
        "spectralfly:lps_p=9,lps_q=5",
        "spectralfly:lps_p=5,lps_q=5",
        "spectralfly:lps_p=11,lps_q=3",
        "spectralfly:lps_p=2,lps_q=5",
        "xpander:d=1,l=4",
        "xpander:d=4,l=0",
        "hammingmesh:x=6,radix=8,taper=2",
        "hammingmesh:x=40,radix=8",
    ] {
        let built = build_str(spec).err().map(|e| e.to_string());
        let sized = sizes_str(spec).err().map(|e| e.to_string());
        assert!(built.is_some(), "{spec}: the builder accepts it");
        assert_eq!(sized, built, "{spec}: sizes and build disagree");
    }
}

/// Balanced concentrations the papers state for their designs.
#[test]
fn balance_rules_give_the_papers_numbers() {
    // Besta & Hoefler, SC14, §V-E: the q = 19 Slim Fly is balanced at p = 15 (k' = 29).
    let sf = sizes_str("slimfly:q=19,p=15").unwrap();
    assert_eq!((sf.balanced_concentration, sf.network_radix), (15.0, 29));
    assert_eq!(sf.load, 1.0);
    // SC14 §VI-B4's g = 45 Dragonfly (a = 22, h = 11): 220 of its 242 global ports per group in
    // use, G = 10 global links per router, so p = 11 is 10% over.
    let df = sizes_str("dragonfly:a=22,h=11,g=45,p=11").unwrap();
    assert_eq!(df.balanced_concentration, 10.0);
    assert!((df.load - 1.1).abs() < 1e-12);
    // SC14 §V's FT-3: k = 44, 22 pods, N_r = 1,452 and N = 10,648, full bisection.
    let ft = sizes_str("fattree:k=44,p=22,pods=22").unwrap();
    assert_eq!((ft.routers, ft.endpoints, ft.load), (1452, 10648, 1.0));
    // An oversubscribed leaf carries p endpoints over k - p up ports.
    assert_eq!(sizes_str("fattree:k=8,p=6").unwrap().load, 3.0);
    // SC14 §II-B2's k' N_r / (2 N_r - k' - 2) for Slim Fly, which is diameter 2: the Moore
    // estimate the random families use is exact there (q = 5: k' = 7, N_r = 50).
    let moore = topolab_core::topology::moore_balance(7, 50, false);
    assert!((moore - 7.0 * 50.0 / (2.0 * 50.0 - 7.0 - 2.0)).abs() < 1e-12);
}
