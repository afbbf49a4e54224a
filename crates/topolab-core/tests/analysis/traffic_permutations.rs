//! Permutation, shift, hot-spot and uniform patterns against their definitions (Besta & Hoefler,
//! SC14, §V-B; Dally & Towles Table 9.1), checked bit by bit or coordinate by coordinate and by
//! brute force over every source.

use rand_chacha::ChaCha8Rng;
use topolab_core::rng::{stream, Stream};
use topolab_core::traffic::{Traffic, PATTERNS};
use topolab_core::{build_str, Network};

fn rng() -> ChaCha8Rng {
    stream(7, Stream::Traffic, 0)
}

fn pattern(spec: &str, net: &Network) -> Traffic {
    Traffic::parse(spec, net).unwrap_or_else(|e| panic!("{spec}: {e}"))
}

/// Destination of every endpoint (None = idle) for a deterministic pattern.
fn table(t: &Traffic, n: u32) -> Vec<Option<u32>> {
    let mut r = rng();
    (0..n).map(|s| t.destination(s, &mut r)).collect()
}

/// Asserts the active sources are exactly 0..active and map onto 0..active bijectively.
fn assert_permutation_of_prefix(dest: &[Option<u32>], active: u32) {
    let mut hit = vec![false; active as usize];
    for (s, d) in dest.iter().enumerate() {
        match d {
            Some(d) => {
                assert!((s as u32) < active, "idle source {s} sends");
                assert!(*d < active, "source {s} sends outside the active set: {d}");
                assert!(!hit[*d as usize], "destination {d} hit twice");
                hit[*d as usize] = true;
            }
            None => assert!(s as u32 >= active, "active source {s} is idle"),
        }
    }
    assert!(hit.iter().all(|&h| h), "not onto the active set");
}

fn bit(x: u32, i: u32) -> u32 {
    (x >> i) & 1
}

fn from_bits(b: u32, f: impl Fn(u32) -> u32) -> u32 {
    (0..b).map(|i| f(i) << i).sum()
}

/// slimfly:q=5 has 200 endpoints: the bit patterns use 128 = 2^7 (transpose 64 = 4^3).
#[test]
fn bit_patterns_follow_000_definitions_on_the_power_of_two_prefix() {
    let net = build_str("slimfly:q=5").unwrap();
    let n = net.num_endpoints() as u32;
    assert_eq!(n, 200);
    const B: u32 = 7;
    let b = B;
    type BitDef = Box<dyn Fn(u32, u32) -> u32>;
    let defs: [(&str, BitDef); 5] = [
        ("bitcomp", Box::new(|s, i| 1 - bit(s, i))),
        ("bitrev", Box::new(|s, i| bit(s, B - i - 1))),
        ("shuffle", Box::new(|s, i| bit(s, (i + B - 1) % B))),
        ("rotation", Box::new(|s, i| bit(s, (i + 1) % B))),
        ("rotation:k=3", Box::new(|s, i| bit(s, (i + 3) % B))),
    ];
    for (spec, def) in defs {
        let dest = table(&pattern(spec, &net), n);
        assert_permutation_of_prefix(&dest, 128);
        for s in 0..128 {
            assert_eq!(
                dest[s as usize],
                Some(from_bits(b, |i| def(s, i))),
                "{spec} {s}"
            );
        }
    }
    // Transpose needs an even number of bits: b = 6, 64 active endpoints.
    let dest = table(&pattern("transpose", &net), n);
    assert_permutation_of_prefix(&dest, 64);
    for s in 0..64u32 {
        assert_eq!(
            dest[s as usize],
            Some(from_bits(6, |i| bit(s, (i + 3) % 6)))
        );
    }
}

#[test]
fn bit_pattern_known_points() {
    let net = build_str("hypercube:n=10").unwrap(); // 1024 endpoints, all active
    let n = 1024;
    let comp = table(&pattern("bitcomp", &net), n);
    assert_eq!(comp[0], Some(n - 1));
    assert_eq!(comp[(n - 1) as usize], Some(0));
    assert!(comp
        .iter()
        .enumerate()
        .all(|(s, d)| d.unwrap() + s as u32 == n - 1));
    let rev = table(&pattern("bitrev", &net), n);
    assert_eq!(rev[1], Some(512));
    assert_eq!(rev[0b11_0000_0000], Some(0b11));
    // Palindromes are fixed points of bit reversal.
    assert_eq!(rev[0b10_0000_0001], Some(0b10_0000_0001));
    // Transpose of a 32x32 matrix address (row = high 5 bits, column = low 5 bits).
    let tr = table(&pattern("transpose", &net), n);
    for row in 0..32u32 {
        for col in 0..32u32 {
            assert_eq!(tr[(row * 32 + col) as usize], Some(col * 32 + row));
        }
    }
    // Shuffle and rotation by 1 are inverse bit rotations.
    let sh = table(&pattern("shuffle", &net), n);
    let rot = table(&pattern("rotation", &net), n);
    for s in 0..n as usize {
        assert_eq!(rot[sh[s].unwrap() as usize], Some(s as u32));
    }
    assert_eq!(sh[1], Some(2));
    assert_eq!(sh[512], Some(1));
}

#[test]
fn digit_patterns_move_every_torus_coordinate() {
    // 5x4 torus with 3 endpoints per router: tornado adds ceil(k/2) - 1 (2 and 1), neighbor 1.
    let net = build_str("torus:dims=5x4,p=3").unwrap();
    let n = net.num_endpoints() as u32;
    for (spec, steps) in [("tornado", [2i64, 1]), ("neighbor", [1, 1])] {
        let dest = table(&pattern(spec, &net), n);
        assert_permutation_of_prefix(&dest, n);
        for s in 0..n {
            let d = dest[s as usize].unwrap();
            let (rs, rd) = (
                net.endpoint_router(s as u64).unwrap(),
                net.endpoint_router(d as u64).unwrap(),
            );
            assert_eq!(s % 3, d % 3, "{spec}: endpoint index on the router kept");
            for (dim, (&k, step)) in [5i64, 4].iter().zip(steps).enumerate() {
                assert_eq!(
                    net.label(rd)[dim],
                    (net.label(rs)[dim] + step) % k,
                    "{spec}: source {s} dimension {dim}"
                );
            }
        }
    }
    // On a hypercube (k = 2) neighbor flips every bit of the router: the complement router.
    let cube = build_str("hypercube:n=4,p=2").unwrap();
    let dest = table(&pattern("neighbor", &cube), 32);
    for s in 0..32u32 {
        let d = dest[s as usize].unwrap();
        assert_eq!(d / 2, 15 - s / 2);
        assert_eq!(d % 2, s % 2);
    }
    // ...and tornado does not move anything (ceil(2/2) - 1 = 0).
    let dest = table(&pattern("tornado", &cube), 32);
    assert!(dest.iter().enumerate().all(|(s, d)| *d == Some(s as u32)));
}

#[test]
fn digit_patterns_with_explicit_dims_and_on_a_ring() {
    let net = build_str("slimfly:q=5").unwrap(); // 200 endpoints, not a grid family
    let ring = table(&pattern("tornado", &net), 200);
    for s in 0..200u32 {
        assert_eq!(ring[s as usize], Some((s + 99) % 200)); // ceil(200/2) - 1
    }
    let ring = table(&pattern("neighbor", &net), 200);
    assert_eq!(ring[199], Some(0));
    // dims=8x8x3: 192 active, digits (x fastest) each moved by tornado steps 3, 3, 1.
    let dest = table(&pattern("tornado:dims=8x8x3", &net), 200);
    assert_permutation_of_prefix(&dest, 192);
    for s in 0..192u32 {
        let (x, y, z) = (s % 8, s / 8 % 8, s / 64);
        let d = dest[s as usize].unwrap();
        assert_eq!(
            (d % 8, d / 8 % 8, d / 64),
            ((x + 3) % 8, (y + 3) % 8, (z + 1) % 3)
        );
    }
}

#[test]
fn random_permutation_is_a_permutation_fixed_by_its_seed() {
    let net = build_str("slimfly:q=7").unwrap();
    let n = net.num_endpoints() as u32;
    let a = table(&pattern("randperm:seed=3", &net), n);
    assert_permutation_of_prefix(&a, n);
    assert_eq!(a, table(&pattern("randperm:seed=3", &net), n));
    assert_eq!(
        pattern("randperm:seed=3", &net),
        pattern("randperm:seed=3", &net)
    );
    let b = table(&pattern("randperm:seed=4", &net), n);
    assert_ne!(a, b, "different seeds give different permutations");
    assert_eq!(
        table(&pattern("randperm", &net), n),
        table(&pattern("randperm:seed=0", &net), n)
    );
    // Not the identity, nor a shift: at least half the sources move by distinct offsets.
    let offsets: std::collections::BTreeSet<u32> = a
        .iter()
        .enumerate()
        .map(|(s, d)| (d.unwrap() + n - s as u32) % n)
        .collect();
    assert!(offsets.len() > n as usize / 4, "{} offsets", offsets.len());
}

#[test]
fn shift_of_000_sends_to_both_halves_with_equal_probability() {
    let net = build_str("slimfly:q=5").unwrap(); // 200 endpoints: halves of 100
    let t = pattern("shift", &net);
    let mut r = rng();
    for s in 0..200u32 {
        let mut upper = 0;
        for _ in 0..400 {
            let d = t.destination(s, &mut r).unwrap();
            assert!(d == s % 100 || d == s % 100 + 100, "{s} -> {d}");
            upper += (d >= 100) as u32;
        }
        // Binomial(400, 1/2): mean 200, sd 10; 6 sd either way.
        assert!(
            (140..=260).contains(&upper),
            "source {s}: {upper}/400 upper"
        );
    }
    // pow2: 128 active endpoints, halves of 64; 201 endpoints with active=all: 200 active.
    let t = pattern("shift:active=pow2", &net);
    assert!(t.is_source(127) && !t.is_source(128));
    for s in 0..128 {
        let d = t.destination(s, &mut r).unwrap();
        assert!(d == s % 64 || d == s % 64 + 64);
    }
    let odd = build_str("torus:dims=67,p=3").unwrap(); // 201 endpoints
    let t = pattern("shift", &odd);
    assert!(t.is_source(199) && !t.is_source(200));
}

#[test]
fn shift_by_k_is_an_offset_permutation() {
    let net = build_str("slimfly:q=5").unwrap();
    let dest = table(&pattern("shift:k=3", &net), 200);
    assert_permutation_of_prefix(&dest, 200);
    assert_eq!(dest[0], Some(3));
    assert_eq!(dest[198], Some(1));
    let dest = table(&pattern("shift:k=100,active=pow2", &net), 200);
    assert_permutation_of_prefix(&dest, 128);
    assert_eq!(dest[100], Some(72));
}

#[test]
fn hotspot_sends_the_requested_fraction_to_the_spots() {
    let net = build_str("slimfly:q=5").unwrap(); // 200 endpoints
    let t = pattern("hotspot:fraction=0.25,spots=4", &net);
    let Traffic::Hotspot { spots, .. } = &t else {
        panic!("{t:?}")
    };
    assert_eq!(&spots[..], &[25, 75, 125, 175]); // middles of 4 blocks of 50
    let mut r = rng();
    let mut count = vec![0u32; 200];
    let draws = 200_000;
    for i in 0..draws {
        count[t.destination(i % 200, &mut r).unwrap() as usize] += 1;
    }
    // Each spot: 0.25/4 + 0.75/200 of the packets; each other endpoint 0.75/200.
    let spot_share = 0.25 / 4.0 + 0.75 / 200.0;
    for (e, &c) in count.iter().enumerate() {
        let expected = if spots.contains(&(e as u32)) {
            spot_share
        } else {
            0.75 / 200.0
        } * draws as f64;
        let sd = expected.sqrt();
        assert!(
            (c as f64 - expected).abs() < 6.0 * sd,
            "endpoint {e}: {c}, expected {expected}"
        );
    }
    let t = pattern("hotspot:fraction=1,at=7x9", &net);
    for s in 0..200 {
        assert!(matches!(t.destination(s, &mut r), Some(7) | Some(9)));
    }
}

#[test]
fn uniform_covers_every_endpoint() {
    let net = build_str("slimfly:q=3").unwrap(); // 54 endpoints
    let n = net.num_endpoints() as u32;
    let t = pattern("uniform", &net);
    let mut r = rng();
    let mut seen = vec![0u32; n as usize];
    for i in 0..n * 1000 {
        seen[t.destination(i % n, &mut r).unwrap() as usize] += 1;
    }
    // 1000 expected per endpoint, sd about 31.6: 6 sd either way.
    assert!(seen.iter().all(|&c| (810..1190).contains(&c)), "{seen:?}");
}

#[test]
fn sources_out_of_range_send_nothing() {
    let net = build_str("slimfly:q=3").unwrap();
    let n = net.num_endpoints() as u32;
    let mut r = rng();
    for name in PATTERNS
        .iter()
        .map(|d| d.name)
        .filter(|n| !n.contains("worst"))
    {
        let t = pattern(name, &net);
        assert_eq!(t.destination(n, &mut r), None, "{name}");
        assert_eq!(t.destination(u32::MAX, &mut r), None, "{name}");
        assert!(!t.is_source(n), "{name}");
        assert_eq!(t.name(), name);
    }
}
