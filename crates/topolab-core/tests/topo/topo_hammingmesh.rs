//! HammingMesh (Hoefler et al., SC 2022): router, endpoint and link counts counted by hand
//! from the construction (boards, row and column trees), every accelerator with four network
//! ports, switch radix and tree levels, and parameters that make the construction impossible.

use topolab_core::{build_str, sizes_str, Network};

fn degree(net: &Network, r: usize) -> u32 {
    net.neighbor_links(r)
        .iter()
        .map(|&l| net.links()[l as usize].width)
        .sum()
}

/// (spec, routers, endpoints, links, network radix), counted from the construction:
/// accelerators a·b·x·y; y·a row trees over 2x ports and x·b column trees over 2y ports, each
/// one switch when it has at most `radix` ports, else L = ceil(2x/d) leaves and S spines (the
/// fewest, S dividing u, with L·u/S spine ports); links = board meshes + one per tree port +
/// L·u leaf-spine cables per two-level tree.
const CASES: &[(&str, u64, u64, u64, u32)] = &[
    // Hx2Mesh of 3 x 3 boards: 36 accelerators, 6 + 6 single 6-port switches; 9 boards of 4 mesh
    // links, 6 row trees of 6 ports, 6 column trees of 6 ports.
    ("hammingmesh:a=2,x=3", 36 + 12, 36, 9 * 4 + 36 + 36, 6),
    // 4 x 4 boards, 2 x 1 grid: 32 accelerators; 4 row trees of 4 ports, 8 column trees of 2
    // ports (the ring of one board column); 2 boards of 24 mesh links.
    (
        "hammingmesh:a=4,x=2,y=1",
        32 + 4 + 8,
        32,
        2 * 24 + 16 + 16,
        4,
    ),
    // 2 x 3 boards, 5 x 2 grid, p = 2: 60 accelerators; 4 row trees of 10 ports, 15 column
    // trees of 4 ports; 10 boards of 2·2 + 3·1 = 7 mesh links.
    (
        "hammingmesh:a=2,b=3,x=5,y=2,p=2",
        60 + 4 + 15,
        120,
        70 + 40 + 60,
        10,
    ),
    // radix 8 forces two levels on the 12-port row trees: leaves of 4 down and 4 up ports,
    // 3 leaves, 12 up-links on 2 spines of 6 ports (links of width 2): 5 switches, 12 + 12
    // cables each; column trees of 4 ports stay single.
    (
        "hammingmesh:a=2,x=6,y=2,radix=8",
        48 + 4 * 5 + 12,
        48,
        12 * 4 + 4 * 24 + 12 * 4,
        8,
    ),
    // taper 3 on radix 8: leaves of 6 down and 2 up ports; 12 ports need 2 leaves, whose 4
    // up-links one spine takes (links of width 2).
    (
        "hammingmesh:a=2,x=6,y=2,radix=8,taper=3",
        48 + 4 * 3 + 12,
        48,
        12 * 4 + 4 * (12 + 4) + 12 * 4,
        8,
    ),
    // one-wide boards (b = 1): the accelerator's east and west ports are one width-2 link.
    (
        "hammingmesh:a=2,b=1,x=3,y=2",
        12 + 4 + 3,
        12,
        6 + 4 * 6 + 3 * 4,
        6,
    ),
];

#[test]
fn counts_match_the_construction() {
    for &(spec, routers, endpoints, links, net_radix) in CASES {
        let net = build_str(spec).unwrap_or_else(|e| panic!("{spec}: {e}"));
        assert_eq!(net.num_routers() as u64, routers, "{spec}: routers");
        assert_eq!(net.num_endpoints(), endpoints, "{spec}: endpoints");
        assert_eq!(net.num_links(), links, "{spec}: links");
        assert_eq!(net.network_radix(), net_radix, "{spec}: network radix");
        let s = sizes_str(spec).unwrap();
        assert_eq!(
            (s.routers, s.endpoints, s.network_radix),
            (routers, endpoints, net_radix),
            "{spec}: closed form"
        );
        // every accelerator (the routers with endpoints) has exactly four network ports
        for r in 0..net.num_routers() {
            if net.endpoints()[r] > 0 {
                assert_eq!(degree(&net, r), 4, "{spec}: accelerator {r}");
            } else {
                assert!(degree(&net, r) <= net_radix, "{spec}: switch {r}");
            }
        }
    }
}

#[test]
fn balance_is_one_endpoint_per_accelerator_on_hx2mesh_and_half_on_hx4mesh() {
    // nonblocking trees: every accelerator of a board row of b has 2/b of a tree port per
    // direction; Hx2Mesh balanced at p = 1, Hx4Mesh oversubscribed 2:1 at p = 1
    let hx2 = sizes_str("hammingmesh:a=2,x=8").unwrap();
    assert_eq!((hx2.balanced_concentration, hx2.load), (1.0, 1.0));
    let hx4 = sizes_str("hammingmesh:a=4,x=8").unwrap();
    assert_eq!((hx4.balanced_concentration, hx4.load), (0.5, 2.0));
    // a 3:1 tapered two-level row tree carries a third of that across its middle
    let tapered = sizes_str("hammingmesh:a=2,x=32,y=2,radix=16,taper=3").unwrap();
    let untapered = sizes_str("hammingmesh:a=2,x=32,y=2,radix=16").unwrap();
    assert!(tapered.balanced_concentration < untapered.balanced_concentration);
}

#[test]
fn a_hundred_port_tree_of_48_port_switches_has_five_leaves_and_three_spines() {
    // 50 boards per row: 100 ports, leaves of 24 down and 24 up, 120 up-links on 3 spines of
    // 40 ports (width 8); the column trees over 2 boards are one 4-port switch
    let net = build_str("hammingmesh:a=2,x=50,y=2,radix=48").unwrap();
    let switches = net.num_routers() - 2 * 2 * 50 * 2;
    assert_eq!(switches, 4 * (5 + 3) + 100);
    let widths: Vec<u32> = net.links().iter().map(|l| l.width).collect();
    assert_eq!(widths.iter().filter(|&&w| w == 8).count(), 4 * 5 * 3);
    assert_eq!(net.network_radix(), 48);
}

#[test]
fn impossible_parameters_are_refused_naming_them() {
    for (spec, param) in [
        ("hammingmesh:a=0,x=2", "a"),
        ("hammingmesh:x=0", "x"),
        ("hammingmesh:a=2", "x"),
        // radix 8 taper 2: 8 is not divisible by 3
        ("hammingmesh:x=6,radix=8,taper=2", "taper"),
        // radix 4: two-level trees reach 4 leaves of 2 ports, 8 ports = 4 boards
        ("hammingmesh:x=5,y=2,radix=4", "x"),
        ("hammingmesh:x=2,y=9,radix=4", "y"),
        ("hammingmesh:x=2,p=-1", "p"),
    ] {
        let err = build_str(spec).expect_err(spec).to_string();
        assert!(err.contains(param), "{spec}: {err}");
        assert_eq!(sizes_str(spec).err().map(|e| e.to_string()), Some(err));
    }
}
