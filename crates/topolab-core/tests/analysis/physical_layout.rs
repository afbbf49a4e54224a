//! Placement and cable lengths on small layouts worked out by hand, and the cabinet
//! parameterisations Dragonfly(z, c, d) and HyperX(z, c, d) of Fujiwara et al., IPDPS 2014, §III-A.

use topolab_core::physical::{
    link_lengths, place, read_placement, Floor, PlaceOptions, Placement, PlacementRule,
};
use topolab_core::{build_str, Network, NetworkBuilder};

fn floor(name: &str) -> Floor {
    Floor::builtin(name).unwrap()
}

fn family_place(net: &Network, f: &Floor) -> Placement {
    place(net, f, &PlaceOptions::default()).unwrap()
}

fn total_m(net: &Network, p: &Placement, f: &Floor) -> f64 {
    link_lengths(net, p, f)
        .iter()
        .zip(net.links())
        .map(|(len, l)| len * l.width as f64)
        .sum()
}

#[test]
fn slimfly_q5_racks_by_hand() {
    // Besta & Hoefler, SC14, §VI-A: rack x = subgroups (0, x, *) and (1, x, *); q = 5 racks of 2q =
    // 10 routers.
    let net = build_str("slimfly:q=5").unwrap();
    let f = floor("slimfly");
    let p = family_place(&net, &f);
    assert_eq!((p.cabinets, p.rows, p.cols), (5, 3, 2));
    for r in 0..net.num_routers() {
        assert_eq!(p.cabinet(r) as i64, net.label(r)[1]);
    }
    // Per rack, by hand: each subgroup is a q-cycle-like Cayley graph with |X| = (q - δ)/2 = 2,
    // so 5 links each, plus q = 5 links between the two subgroups: 15 intra-rack links;
    // 2q = 10 links join every pair of racks (Besta & Hoefler, SC14, §VI-A).
    let lengths = link_lengths(&net, &p, &f);
    let intra = lengths.iter().filter(|&&l| l == 1.0).count();
    assert_eq!((intra, lengths.len() - intra), (75, 100));
    // Rack cells (0,0) (0,1) (1,0) (1,1) (2,0) at 1 m pitch; the ten pair distances add to 16 m,
    // each pair has 10 cables of distance + 2 m: 10·(16 + 10·2) = 360 m, plus 75 × 1 m.
    assert!((total_m(&net, &p, &f) - 435.0).abs() < 1e-9);
}

#[test]
fn dragonfly_groups_on_the_skywalk_floor() {
    // a = 2, h = 1, g = 3: three cabinets at (0,0) (0,1) (1,0), 0.6 m and 2.1 m apart.
    let net = build_str("dragonfly:a=2,h=1").unwrap();
    let f = floor("skywalk");
    let p = family_place(&net, &f);
    assert_eq!(p.cabinet_of, vec![0, 0, 1, 1, 2, 2]);
    let mut lengths = link_lengths(&net, &p, &f);
    lengths.sort_by(f64::total_cmp);
    let expected = [2.0, 2.0, 2.0, 4.6, 6.1, 6.7];
    for (got, want) in lengths.iter().zip(expected) {
        assert!((got - want).abs() < 1e-9, "{lengths:?}");
    }
}

#[test]
fn fat_tree_core_stands_in_the_central_row() {
    // k = 4: four pods of 2 leaves + 2 aggregation routers, 4 core routers in one cabinet of
    // the same size. 5 cabinets: grid 3 x 2; the central row is row 1, its first cell is
    // cabinet 2; pods take cells 0, 1, 3, 4 in order.
    let net = build_str("fattree:k=4").unwrap();
    let f = floor("slimfly");
    let p = family_place(&net, &f);
    assert_eq!((p.cabinets, p.rows, p.cols), (5, 3, 2));
    let pod_cells = [0u32, 1, 3, 4];
    for r in 0..net.num_routers() {
        let (level, pod) = (net.label(r)[0], net.label(r)[1]);
        let want = if level == 2 {
            2
        } else {
            pod_cells[pod as usize]
        };
        assert_eq!(p.cabinet_of[r], want, "router {r}");
    }
    // A three-level tree has no per-cabinet knob.
    let e = place(
        &net,
        &f,
        &PlaceOptions {
            per_cabinet: Some(3),
            ..Default::default()
        },
    )
    .unwrap_err()
    .to_string();
    assert!(e.contains("per_cabinet"), "{e}");
}

#[test]
fn sequential_tori_and_hypercubes() {
    // torus 4x4: one d0 ring per cabinet, four cabinets on a 2 x 2 grid.
    let net = build_str("torus:dims=4x4").unwrap();
    let f = floor("skywalk");
    let p = family_place(&net, &f);
    assert_eq!(p.cabinet_of, (0..16).map(|r| r / 4).collect::<Vec<u32>>());
    // dim0: 16 rings links × 2 m. dim1: router (i, j) – (i, j+1 mod 4) between cabinets j and
    // j+1 mod 4 at cells (0,0) (0,1) (1,0) (1,1): pairs 0-1 0.6, 1-2 2.7, 2-3 0.6, 3-0 2.7 m,
    // each used by 4 links, + 4 m overhead each: 4·(0.6 + 2.7 + 0.6 + 2.7 + 16) = 90.4 m.
    assert!((total_m(&net, &p, &f) - (32.0 + 90.4)).abs() < 1e-9);
    // per_cabinet overrides: 16 cabinets of 1 router.
    let one = place(
        &net,
        &f,
        &PlaceOptions {
            per_cabinet: Some(1),
            ..Default::default()
        },
    )
    .unwrap();
    assert_eq!((one.cabinets, one.rows, one.cols), (16, 4, 4));
    // Hypercube: floor default of 8 per cabinet (Fujiwara et al., IPDPS 2014, §III-A), 2 cabinets
    // for n = 4.
    let hc = build_str("hypercube:n=4").unwrap();
    let p = family_place(&hc, &f);
    assert_eq!((p.cabinets, p.per_cabinet), (2, Some(8)));
}

#[test]
fn structured_families_refuse_per_cabinet_but_sequential_takes_any() {
    let net = build_str("slimfly:q=5").unwrap();
    let f = floor("slimfly");
    let opts = PlaceOptions {
        per_cabinet: Some(7),
        ..Default::default()
    };
    let e = place(&net, &f, &opts).unwrap_err().to_string();
    assert!(e.contains("per_cabinet") && e.contains("slimfly"), "{e}");
    let seq = PlaceOptions {
        rule: PlacementRule::Sequential,
        per_cabinet: Some(7),
    };
    let p = place(&net, &f, &seq).unwrap();
    assert_eq!(p.cabinets, 8); // ceil(50 / 7)
    assert_eq!(p.cabinet_of[49], 7);
}

#[test]
fn placement_files_are_read_and_checked() {
    let cabs = read_placement("# router cabinet\n0 3\n2, 1\n1 1 # same rack\n", 3, "t").unwrap();
    assert_eq!(cabs, vec![3, 1, 1]);
    assert_eq!(read_placement("[0, 0, 5]", 3, "t").unwrap(), vec![0, 0, 5]);
    for (text, needle) in [
        ("0 1\n0 2\n1 1\n2 1", "twice"),
        ("0 1\n1 1", "router 2 has no cabinet"),
        ("0 1\n1 1\n7 1", "does not exist"),
        ("0 1 2", "router cabinet"),
        ("0 x\n", "cabinet 'x'"),
        ("[1, 2]", "2 cabinets listed for 3"),
    ] {
        let e = read_placement(text, 3, "f.txt").unwrap_err().to_string();
        assert!(e.contains(needle) && e.contains("f.txt"), "{text:?}: {e}");
    }
    let net = build_str("torus:dims=3").unwrap();
    let f = floor("skywalk");
    let p = place(
        &net,
        &f,
        &PlaceOptions {
            rule: PlacementRule::Given(vec![0, 0, 3]),
            per_cabinet: None,
        },
    )
    .unwrap();
    assert_eq!((p.cabinets, p.rows, p.cols), (4, 2, 2));
    let bad = PlaceOptions {
        rule: PlacementRule::Given(vec![0, 1]),
        per_cabinet: None,
    };
    assert!(place(&net, &f, &bad).is_err());
}

#[test]
fn imported_networks_are_placed_arbitrarily() {
    let mut b = NetworkBuilder::new("imported", 10, false);
    let c = b.link_class("link");
    for i in 0..9 {
        b.add_link(i, i + 1, 1, c);
    }
    let net = b.build().unwrap();
    let p = family_place(&net, &floor("skywalk"));
    assert_eq!(p.cabinets, 2);
    assert!(p.method.contains("arbitrary"));
}

#[test]
fn dragonfly_from_cabinet_parameters() {
    // Dragonfly(8, 256, 39) of Fujiwara et al., IPDPS 2014, §III-A is a = 8, g = 256, h =
    // ceil(255/8) = 32.
    let cab = build_str("dragonfly:z=8,c=256").unwrap();
    let classic = build_str("dragonfly:a=8,h=32,g=256,p=8").unwrap();
    assert_eq!(cab.links(), classic.links());
    assert_eq!(cab.endpoints(), classic.endpoints());
    assert_eq!(cab.network_radix(), 39);
    assert!(build_str("dragonfly:z=8,c=256,d=39").is_ok());
    let e = build_str("dragonfly:z=8,c=256,d=40")
        .unwrap_err()
        .to_string();
    assert!(e.contains("'d'") && e.contains("39"), "{e}");
    let e = build_str("dragonfly:z=8,c=256,a=8")
        .unwrap_err()
        .to_string();
    assert!(e.contains("'a'"), "{e}");
    let e = build_str("dragonfly:z=8").unwrap_err().to_string();
    assert!(e.contains("'c'"), "{e}");
    // One group per cabinet on the grid of c cabinets.
    let p = family_place(&cab, &floor("skywalk"));
    assert_eq!((p.cabinets, p.rows, p.cols), (256, 16, 16));
}

#[test]
fn hyperx_from_cabinet_parameters() {
    // HyperX(8, 256, 37): 16 x 16 cabinets, dims slot x column x row = 8x16x16.
    let cab = build_str("hyperx:z=8,c=256,d=37").unwrap();
    let classic = build_str("hyperx:dims=8x16x16,p=8").unwrap();
    assert_eq!(cab.links(), classic.links());
    assert_eq!(cab.network_radix(), 37);
    let e = build_str("hyperx:z=8,c=256,d=36").unwrap_err().to_string();
    assert!(e.contains("'d'") && e.contains("37"), "{e}");
    let e = build_str("hyperx:z=8,c=256,dims=8x16x16")
        .unwrap_err()
        .to_string();
    assert!(e.contains("'dims'"), "{e}");
    // c = 3: a 2 x 2 grid with cell (1,1) empty, z = 2. Cabinets 0 (0,0), 1 (0,1), 2 (1,0).
    // Switch (slot s, cabinet k) joins the other slot (dim0), the same slot of the cabinet in
    // its row (dim1: only 0-1) and in its column (dim2: only 0-2).
    let part = build_str("hyperx:z=2,c=3").unwrap();
    assert_eq!(part.num_routers(), 6);
    let degrees: Vec<u32> = (0..6).map(|r| part.degree(r)).collect();
    assert_eq!(degrees, vec![3, 3, 2, 2, 2, 2]);
    assert_eq!(part.num_links(), 3 + 2 + 2);
    let p = family_place(&part, &floor("skywalk"));
    assert_eq!(p.cabinet_of, vec![0, 0, 1, 1, 2, 2]);
}
