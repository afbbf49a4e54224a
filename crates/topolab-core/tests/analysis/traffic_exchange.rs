//! The exchanges of Kathareios et al., SC15, §4.4: message counts, volumes (§4.1 sizes), the torus
//! shapes the paper lists, and nearest neighbours checked coordinate by coordinate.

use std::collections::BTreeMap;

use topolab_core::build_str;
use topolab_core::traffic::{Exchange, MessageOrder};

fn exchange(spec: &str, net_spec: &str) -> Exchange {
    let net = build_str(net_spec).unwrap();
    Exchange::parse(spec, &net).unwrap_or_else(|e| panic!("{spec} on {net_spec}: {e}"))
}

#[test]
fn all_to_all_sends_one_message_to_every_other_endpoint() {
    let ex = exchange("alltoall", "slimfly:q=3"); // 54 endpoints
    let n = 54u32;
    assert_eq!(ex.per_source.len(), n as usize);
    assert_eq!(ex.num_messages(), (n * (n - 1)) as u64);
    // Kathareios et al., SC15, §4.1: 7.5 KB messages in 256-byte packets = 30 packets.
    assert_eq!(ex.total_packets(), (n * (n - 1) * 30) as u64);
    for (s, msgs) in ex.per_source.iter().enumerate() {
        let mut dests: Vec<u32> = msgs.iter().map(|m| m.0).collect();
        assert!(msgs.iter().all(|m| m.1 == 30));
        dests.sort_unstable();
        let expected: Vec<u32> = (0..n).filter(|&d| d != s as u32).collect();
        assert_eq!(dests, expected, "source {s}");
    }
    // Random order by default, fixed by the seed.
    assert!(ex
        .per_source
        .iter()
        .any(|m| m.windows(2).any(|w| (w[0].0 + 1) % n != w[1].0)));
    assert_eq!(ex, exchange("alltoall:seed=0", "slimfly:q=3"));
    assert_ne!(ex, exchange("alltoall:seed=1", "slimfly:q=3"));
    // Shift order: s+1, s+2, ...: every step is a permutation.
    let shift = exchange("alltoall:order=shift,packets=2", "slimfly:q=3");
    for (s, msgs) in shift.per_source.iter().enumerate() {
        for (i, &(d, p)) in msgs.iter().enumerate() {
            assert_eq!((d, p), ((s as u32 + i as u32 + 1) % n, 2));
        }
    }
}

#[test]
fn message_sizes_in_bytes_become_packets() {
    let packets = |spec: &str| exchange(spec, "slimfly:q=3").per_source[0][0].1;
    assert_eq!(packets("alltoall:packet_bytes=512"), 15); // 7,680 / 512
    assert_eq!(packets("alltoall:bytes=1000,packet_bytes=100"), 10);
    assert_eq!(packets("alltoall:bytes=1001,packet_bytes=100"), 11);
    assert_eq!(packets("nn3d"), 2048); // 512 KB / 256 B
    assert_eq!(packets("nn3d:packet_bytes=1024"), 512);
    assert_eq!(packets("nn3d:packets=7"), 7);
}

#[test]
fn default_tori_are_the_ones_001_lists() {
    // Kathareios et al., SC15, §4.4: 12x14x19 (OFT, N = 3192), 13x13x18 (SF p = 9, N = 3042),
    // 13x13x20 (SF p = 10, N = 3380), 15x16x15 (MLFM, N = 3600; topolab orders sizes ascending:
    // 15x15x16).
    for (net, dims) in [
        ("oft:k=12", "12x14x19"),
        ("slimfly:q=13,p=9", "13x13x18"),
        ("slimfly:q=13", "13x13x20"),
        ("mlfm:h=15", "15x15x16"),
    ] {
        let ex = exchange("nn3d", net);
        assert!(
            ex.name.contains(&format!("dims={dims}")),
            "{net}: {}",
            ex.name
        );
        assert!(
            ex.per_source.iter().all(|m| m.len() == 6),
            "{net}: 6 neighbours each"
        );
    }
}

#[test]
fn nearest_neighbour_messages_go_to_the_six_torus_neighbours() {
    // 3x4x5 = 60 processes on 64 endpoints (hypercube:n=6): the last 4 endpoints are idle.
    let ex = exchange("nn3d:dims=3x4x5,packets=3", "hypercube:n=6");
    let (a, b, c) = (3i64, 4i64, 5i64);
    let rank = |x: i64, y: i64, z: i64| {
        (x.rem_euclid(a) + a * (y.rem_euclid(b) + b * z.rem_euclid(c))) as u32
    };
    for z in 0..c {
        for y in 0..b {
            for x in 0..a {
                let mut got: Vec<u32> = ex.per_source[rank(x, y, z) as usize]
                    .iter()
                    .map(|m| m.0)
                    .collect();
                let mut want = vec![
                    rank(x + 1, y, z),
                    rank(x - 1, y, z),
                    rank(x, y + 1, z),
                    rank(x, y - 1, z),
                    rank(x, y, z + 1),
                    rank(x, y, z - 1),
                ];
                got.sort_unstable();
                want.sort_unstable();
                assert_eq!(got, want, "process ({x},{y},{z})");
            }
        }
    }
    assert!(ex.per_source[60..].iter().all(Vec::is_empty));
    assert_eq!(ex.num_messages(), 360);
    assert_eq!(ex.total_packets(), 360 * 3);
}

#[test]
fn exchanges_interleave_their_messages_unless_asked_not_to() {
    // Sends posted together: one packet of each message in turn by default, named in the spec.
    for (spec, net) in [
        ("nn3d:dims=3x4x5,packets=3", "hypercube:n=6"),
        ("alltoall:packets=2", "hypercube:n=3"),
    ] {
        let default = exchange(spec, net);
        assert_eq!(default.order, MessageOrder::Interleaved, "{spec}");
        assert!(
            default.name.ends_with(",interleave=true"),
            "{}",
            default.name
        );
        let one_by_one = exchange(&format!("{spec},interleave=false"), net);
        assert_eq!(one_by_one.order, MessageOrder::Sequential, "{spec}");
        assert!(
            one_by_one.name.ends_with(",interleave=false"),
            "{}",
            one_by_one.name
        );
        assert_eq!(one_by_one.per_source, default.per_source, "{spec}");
        // The canonical names parse back to the same exchanges.
        let network = build_str(net).unwrap();
        for ex in [default, one_by_one] {
            assert_eq!(Exchange::parse(&ex.name, &network).unwrap(), ex);
        }
    }
}

#[test]
fn nearest_neighbour_degenerate_dimensions() {
    // Size 2: +1 and -1 are the same neighbour (two messages); size 1: no neighbour.
    let ex = exchange("nn3d:dims=2x1x4", "hypercube:n=3");
    let mut pair_count: BTreeMap<(u32, u32), u32> = BTreeMap::new();
    for (s, msgs) in ex.per_source.iter().enumerate() {
        assert_eq!(
            msgs.len(),
            4,
            "x: 2 messages to one neighbour, z: 2, y: none"
        );
        for &(d, _) in msgs {
            assert_ne!(d, s as u32);
            *pair_count.entry((s as u32, d)).or_insert(0) += 1;
        }
    }
    // Symmetric: as many messages d -> s as s -> d.
    for (&(s, d), &k) in &pair_count {
        assert_eq!(pair_count.get(&(d, s)), Some(&k));
    }
}

#[test]
fn bad_exchange_specs_are_rejected_by_name() {
    let net = build_str("slimfly:q=3").unwrap();
    let cases = [
        ("ring", &["'name'", "ring", "alltoall", "nn3d"][..]),
        ("alltoall:dims=3x3x3", &["'dims'", "packets", "order"]),
        (
            "alltoall:order=backwards",
            &["'order'", "backwards", "random or shift"],
        ),
        ("alltoall:packets=3,bytes=100", &["'bytes'", "packets"]),
        ("alltoall:packets=0", &["'packets'", "0"]),
        (
            "nn3d:dims=10x10x10",
            &["'dims'", "10x10x10", "54 endpoints"],
        ),
        ("nn3d:dims=6x9", &["'dims'", "three sizes"]),
        ("nn3d:packet_bytes=0", &["'packet_bytes'", "0"]),
        (
            "nn3d:interleave=sometimes",
            &["'interleave'", "sometimes", "true or false"],
        ),
    ];
    for (spec, needles) in cases {
        let err = Exchange::parse(spec, &net).unwrap_err().to_string();
        for needle in needles {
            assert!(err.contains(needle), "{spec}: '{err}' lacks {needle}");
        }
    }
    // N(N-1) messages past the limit: refused before anything is allocated.
    let big = build_str("torus:dims=12000").unwrap();
    let err = Exchange::parse("alltoall", &big).unwrap_err().to_string();
    assert!(
        err.contains("12000 endpoints") && err.contains("messages"),
        "{err}"
    );
}

#[test]
fn a_listed_exchange_is_checked_against_the_network() {
    use topolab_core::traffic::MAX_LISTED_PACKETS;
    use topolab_core::TopolabError;
    let param = |r: topolab_core::Result<Exchange>| match r {
        Err(TopolabError::InvalidParameter { param, .. }) => param,
        other => panic!("expected a parameter error, got {other:?}"),
    };
    let ok = Exchange::listed("x", vec![vec![(1, 2)], vec![(0, 3)]], 2).unwrap();
    assert_eq!((ok.name.as_str(), ok.total_packets()), ("x", 5));
    // one list per endpoint at most, destinations among the endpoints
    assert_eq!(
        param(Exchange::listed("x", vec![vec![]; 3], 2)),
        "per_source"
    );
    assert_eq!(
        param(Exchange::listed("x", vec![vec![(2, 1)]], 2)),
        "destination"
    );
    assert_eq!(
        param(Exchange::listed("x", vec![vec![(0, 1)]], 0)),
        "per_source"
    );
    // the bound on packets in all, reached exactly and passed by one
    let half = (MAX_LISTED_PACKETS / 2) as u32;
    assert!(Exchange::listed("x", vec![vec![(1, half), (1, half)]], 2).is_ok());
    assert_eq!(
        param(Exchange::listed(
            "x",
            vec![vec![(1, half), (1, half + 1)]],
            2
        )),
        "packets"
    );
}
