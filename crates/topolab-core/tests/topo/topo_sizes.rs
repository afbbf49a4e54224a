//! Every family's closed-form sizes (`Family::sizes`, read by the design enumeration) against
//! the network its builder makes, over a sample of parameters per family, and the balance
//! rules against the numbers the papers print.

use topolab_core::{build_str, families, sizes_str, Network};

/// Specs per family: the defaults, uneven shapes, non-default widths and concentrations, and
/// each family's variants (cabinet parameters, fewer groups or pods, oversubscribed leaves).
const SAMPLES: &[(&str, &[&str])] = &[
    (
        "slimfly",
        &[
            "slimfly:q=3",
            "slimfly:q=4,p=1",
            "slimfly:q=5",
            "slimfly:q=7,p=6",
            "slimfly:q=8",
        ],
    ),
    (
        "polarfly",
        &[
            "polarfly:q=2",
            "polarfly:q=4,p=1",
            "polarfly:q=7",
            "polarfly:q=9,p=6",
        ],
    ),
    ("bdf", &["bdf:u=3", "bdf:u=5,p=2", "bdf:u=7", "bdf:u=9,p=4"]),
    (
        "bundlefly",
        &[
            "bundlefly:q=3,a=5",
            "bundlefly:q=4,a=9,p=2",
            "bundlefly:q=5,a=5,p=5",
        ],
    ),
    (
        "polarstar",
        &[
            "polarstar:q=2,d=3",
            "polarstar:q=3,d=4,p=2",
            "polarstar:q=3,a=9",
            "polarstar:q=4,a=5,p=3",
        ],
    ),
    (
        "dragonfly",
        &[
            "dragonfly:a=4,h=2",
            "dragonfly:a=4,h=2,g=5",
            "dragonfly:a=6,h=3,p=2,g=7",
            "dragonfly:a=1,h=3,g=3",
            "dragonfly:a=5,h=2,p=4,g=2",
            "dragonfly:z=4,c=9",
            "dragonfly:z=3,c=3,p=2",
        ],
    ),
    (
        "fattree",
        &[
            "fattree:k=4",
            "fattree:k=6,levels=2",
            "fattree:k=6,levels=2,p=4",
            "fattree:k=8,p=5,pods=3",
            "fattree:k=8,p=2",
            "fattree:k=2,levels=2,p=1",
        ],
    ),
    (
        "hyperx",
        &[
            "hyperx:dims=4x4",
            "hyperx:dims=3x5,widths=2x1",
            "hyperx:dims=2x3x4,p=2",
            "hyperx:dims=6",
            "hyperx:z=4,c=6",
            "hyperx:z=2,c=7,widths=1x2x3",
        ],
    ),
    (
        "torus",
        &[
            "torus:dims=4x4x4",
            "torus:dims=2x5,widths=3x2,p=2",
            "torus:dims=1x3",
            "torus:dims=3x4x5,widths=1x2x1,p=3",
        ],
    ),
    (
        "mesh",
        &[
            "mesh:dims=4x4",
            "mesh:dims=2x3x5,widths=2x1x3,p=2",
            "mesh:dims=3",
        ],
    ),
    (
        "hypercube",
        &[
            "hypercube:n=4",
            "hypercube:n=1",
            "hypercube:n=5,width=2,p=3",
        ],
    ),
    (
        "longhop",
        &[
            "longhop:n=4,hops=1",
            "longhop:n=8",
            "longhop:n=6,hops=3,p=2",
        ],
    ),
    ("delorme", &["delorme:v=2,p=3", "delorme:v=3"]),
    (
        "jellyfish",
        &[
            "jellyfish:routers=20,degree=4",
            "jellyfish:routers=15,degree=6,p=2,seed=3",
        ],
    ),
    (
        "dln",
        &[
            "dln:routers=64,shortcuts=4",
            "dln:routers=9,shortcuts=0,p=2",
        ],
    ),
    (
        "spectralfly",
        &[
            "spectralfly:lps_p=3,lps_q=5",
            "spectralfly:lps_p=5,lps_q=11,p=2",
            "spectralfly:lps_p=13,lps_q=5",
            "spectralfly:lps_p=7,lps_q=3,p=1",
        ],
    ),
    (
        "xpander",
        &[
            "xpander:d=5,l=4",
            "xpander:d=2,l=7,p=2",
            "xpander:d=8,l=1",
            "xpander:d=6,l=30,p=3,seed=9",
        ],
    ),
    (
        "mlfm",
        &["mlfm:h=3", "mlfm:h=2,l=5,p=1", "mlfm:h=4,l=1,p=6"],
    ),
    ("oft", &["oft:k=3", "oft:k=4,p=2", "oft:k=5,p=9"]),
    (
        "dragonflyplus",
        &[
            "dragonflyplus:h=2",
            "dragonflyplus:h=2,s=3,l=4,p=1,g=4",
            "dragonflyplus:h=3,g=5,p=5",
            "dragonflyplus:h=1,s=1,l=1,g=2",
        ],
    ),
    (
        "hammingmesh",
        &[
            "hammingmesh:a=2,x=3",
            "hammingmesh:a=4,b=2,x=2,y=3,p=2",
            "hammingmesh:a=2,x=6,y=2,radix=8",
            "hammingmesh:a=2,x=12,y=5,radix=8,taper=3",
            "hammingmesh:a=1,b=1,x=2,y=2",
            "hammingmesh:a=2,x=1,y=1",
        ],
    ),
    (
        "sspt",
        &[
            "sspt:r1=3,r2=2",
            "sspt:r1=4,r2=4,p=2",
            "sspt:r1=4,r2=3,s=2",
            "sspt:r1=1,r2=5,s=3,p=2",
            "sspt:r1=6,r2=5,s=1,p=7",
        ],
    ),
    ("kautz", &["kautz:d=2,k=3", "kautz:d=3,k=2,p=1"]),
    ("debruijn", &["debruijn:d=2,k=4", "debruijn:d=3,k=2,p=2"]),
    ("imase", &["imase:n=8,d=3", "imase:n=10,d=3,a=9,b=0,p=2"]),
    (
        "random_directed",
        &["random_directed:n=12,d=3", "random_directed:n=20,d=4,p=1"],
    ),
    ("mddp", &["mddp:n=10,d=2", "mddp:n=15,d=3,p=2"]),
    (
        "skywalk",
        &["skywalk:z=4,c=6,di=3,do=2", "skywalk:z=2,c=9,di=1,do=3,p=2"],
    ),
    (
        "product",
        &[
            "product:a=(slimfly:q=3),b=(hyperx:dims=3)",
            "product:a=(slimfly:q=3),b=(hyperx:dims=2x2),wa=2,p=3",
            "product:a=(fattree:k=4,levels=2),b=(hyperx:dims=3)",
            "product:a=(torus:dims=3x3),b=(jellyfish:routers=4,degree=3),wb=2",
        ],
    ),
];

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
        let samples = SAMPLES
            .iter()
            .find(|(name, _)| *name == family.name)
            .unwrap_or_else(|| panic!("family {} has no samples here: add some", family.name));
        check(family.example);
        for spec in samples.1 {
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
