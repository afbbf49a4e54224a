//! Routers run several cycles back to back when every router-to-router channel is long enough
//! (the engine's batches: min latency + 1 cycles, at most 8). With `debug_checks` the engine
//! runs one cycle at a time (conservation is checked after each); the results must be
//! identical either way, for any channel latencies and thread counts.

use crate::common;

use common::short;
use topolab_core::build_str;
use topolab_core::progress::Silent;
use topolab_sim::engine::Engine;
use topolab_sim::router::ReadAhead;
use topolab_sim::{simulate, Prepared, RunResult};

fn run(spec: &str, routing: &str, load: f64, pairs: &[(&str, &str)]) -> RunResult {
    let net = build_str(spec).unwrap();
    let mut r = simulate(&net, routing, "uniform", load, &short(pairs), &Silent).unwrap();
    r.wall_seconds = 0.0;
    r
}

#[test]
fn batched_cycles_give_the_results_of_single_cycles() {
    for (spec, routing, load, extra) in [
        ("slimfly:q=5,p=3", "min", 0.5, vec![]),
        (
            "slimfly:q=5,p=3",
            "min",
            0.9,
            vec![("channel_latency", "3")],
        ),
        ("slimfly:q=5,p=3", "valiant", 0.3, vec![("threads", "2")]),
        // Batches of 4 (d - e = 4), of 8 (d - e = 8), with d < e, from the floor (5 to 20).
        ("torus:dims=4x4", "dor", 0.4, vec![("channel_latency", "5")]),
        ("torus:dims=4x4", "dor", 0.4, vec![("channel_latency", "9")]),
        (
            "torus:dims=4x4",
            "dor",
            0.4,
            vec![("channel_latency", "2"), ("endpoint_latency", "4")],
        ),
        (
            "torus:dims=4x4",
            "dor",
            0.4,
            vec![("channel_latency", "floor")],
        ),
        (
            "dragonfly:a=4,h=2,p=2",
            "dragonfly_min",
            0.3,
            vec![("link_latency", "local:5,global:9"), ("packet_size", "4")],
        ),
        (
            "dragonfly:a=4,h=2,p=2",
            "dragonfly_ugal",
            0.3,
            vec![
                ("link_latency", "local:2,global:9"),
                ("endpoint_latency", "3"),
            ],
        ),
    ] {
        let mut single = extra.clone();
        single.push(("debug_checks", "1"));
        let a = run(spec, routing, load, &extra);
        let b = run(spec, routing, load, &single);
        assert!(a.measured_packets > 0);
        assert_eq!(a, b, "{spec} {routing} {extra:?}");
    }
}

/// Above 1 MiB of VC records the engine reads each router's state a turn ahead (one span of
/// routers per thread with two threads), whole arrays, for small routers and large ones (16
/// VCs: 16 KiB of VC records per router), and with two threads also the lists each turn pulls
/// (`delivery::ask_senders`, `delivery::ask_chains`). The reads must change nothing: one cycle
/// at a time with conservation checked after each, batches, and two threads agree field for
/// field.
#[test]
fn reading_ahead_changes_no_result() {
    let spec = "slimfly:q=13,p=2";
    let net = build_str(spec).unwrap();
    let cfg = short(&[]);
    let prep = Prepared::new(&net, "min", &cfg, &Silent).unwrap();
    assert_eq!(Engine::read_ahead_mode(&prep), ReadAhead::Whole, "{spec}");
    // 21 ports x 16 VCs x 48 bytes of VC records: 16 KiB per router.
    let many_vcs = short(&[("num_vcs", "16")]);
    let large = Prepared::new(&net, "min", &many_vcs, &Silent).unwrap();
    assert_eq!(Engine::read_ahead_mode(&large), ReadAhead::Whole);
    assert!(!Engine::lists_deliveries(&large), "{spec} lists nothing");
    let small =
        Prepared::new(&build_str("slimfly:q=5,p=3").unwrap(), "min", &cfg, &Silent).unwrap();
    assert_eq!(
        Engine::read_ahead_mode(&small),
        ReadAhead::Off,
        "slimfly:q=5 fits in the caches"
    );

    for vcs in ["4", "16"] {
        let pairs = [("sample_period", "100"), ("num_vcs", vcs)];
        same_as_single_cycles_and_two_threads(spec, "min", 0.4, &pairs);
    }
}

/// The run with `pairs` measures packets and equals, field for field, the run one cycle at a
/// time with conservation checked (`debug_checks`) and the run on two threads.
fn same_as_single_cycles_and_two_threads(
    spec: &str,
    routing: &str,
    load: f64,
    pairs: &[(&str, &str)],
) {
    let batched = run(spec, routing, load, pairs);
    let with = |extra| {
        let mut all = pairs.to_vec();
        all.push(extra);
        run(spec, routing, load, &all)
    };
    let checked = with(("debug_checks", "1"));
    let threads = with(("threads", "2"));
    assert!(batched.measured_packets > 0);
    assert_eq!(batched, checked, "{pairs:?}");
    assert_eq!(batched, threads, "{pairs:?}");
}

/// Above 8 MiB of VC records one thread lists each cycle's items before pushing them into the
/// receivers' wheels (`delivery::deliver_serial`). The order of the flits arriving
/// at a router in one cycle is the order in which they draw their next hops among the minimal
/// ones of a HyperX, so a listing that reordered them would change the results. With channels of
/// several latencies (their lengths on the floor) and batches of several cycles, one cycle at a time
/// and two threads pulling by receiver must give the same results.
#[test]
fn listing_the_items_of_a_batch_changes_no_result() {
    let (spec, routing) = ("hyperx:dims=8x8x8,p=1", "min");
    let pairs = [
        ("num_vcs", "16"),
        ("channel_latency", "floor"),
        ("sample_period", "50"),
    ];
    let net = build_str(spec).unwrap();
    let prep = Prepared::new(&net, routing, &short(&pairs), &Silent).unwrap();
    assert!(Engine::lists_deliveries(&prep), "{spec}");
    let latencies: std::collections::BTreeSet<u32> = prep
        .topo
        .out_link
        .iter()
        .filter(|l| l.peer != topolab_sim::topo::NONE)
        .map(|l| l.latency)
        .collect();
    assert!(latencies.len() > 1, "channel latencies {latencies:?}");
    same_as_single_cycles_and_two_threads(spec, routing, 0.4, &pairs);
}
