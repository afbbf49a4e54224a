//! The bufferless hot-potato router (router=hotpotato, Koibuchi et al., 2018, §III-B2): delivery
//! and conservation on a directed Kautz graph and an undirected torus, minimal hops and no
//! deflection at low load (against plain BFS distances), deflections and accepted <= offered at
//! high load, the per-hop delay against the closed form, the livelock bound, determinism over seeds
//! and threads, and the errors for networks and routings a bufferless router cannot serve.

use crate::common;

use common::short;
use topolab_core::metrics::distance::distances_from;
use topolab_core::progress::Silent;
use topolab_core::{build_str, Network, NetworkBuilder};
use topolab_sim::{simulate, RunResult, SimError};

fn hp(pairs: &[(&str, &str)]) -> topolab_sim::SimConfig {
    let mut all = vec![("router", "hotpotato")];
    all.extend_from_slice(pairs);
    short(&all)
}

fn run(spec: &str, routing: &str, traffic: &str, load: f64, pairs: &[(&str, &str)]) -> RunResult {
    let net = build_str(spec).unwrap();
    simulate(&net, routing, traffic, load, &hp(pairs), &Silent)
        .unwrap_or_else(|e| panic!("{spec} {routing} {pairs:?}: {e}"))
}

/// Longest and mean (over ordered pairs of distinct routers) router-to-router distance, by BFS.
fn bfs_stats(net: &Network) -> (u32, f64) {
    let n = net.num_routers();
    let (mut max, mut sum) = (0u32, 0u64);
    for s in 0..n {
        let d = distances_from(net, s);
        for (t, &x) in d.iter().enumerate() {
            if t != s {
                max = max.max(x);
                sum += x as u64;
            }
        }
    }
    (max, sum as f64 / (n * (n - 1)) as f64)
}

const KAUTZ: &str = "kautz:d=3,k=3,p=2"; // 36 routers, directed, in = out = 3
const TORUS: &str = "torus:dims=4x4,p=2"; // 16 routers, undirected

#[test]
fn delivers_and_conserves_at_low_load_directed_and_undirected() {
    for spec in [KAUTZ, TORUS] {
        for pairs in [
            vec![("debug_checks", "1")],
            vec![("debug_checks", "1"), ("packet_size", "4")],
            vec![("debug_checks", "1"), ("hotpotato_delay", "3")],
            vec![
                ("debug_checks", "1"),
                ("packet_size", "5"),
                ("hotpotato_switching", "packet"),
            ],
        ] {
            let r = run(spec, "min", "uniform", 0.1, &pairs);
            // (the 3% saturation tolerance is within sampling noise of these short runs)
            assert!(r.measured_packets > 100, "{spec} {pairs:?}");
            assert!(
                (r.accepted_throughput - 0.1).abs() < 0.015,
                "{spec} {pairs:?}: accepted {}",
                r.accepted_throughput
            );
        }
    }
}

#[test]
fn low_load_takes_minimal_paths_without_deflection() {
    for spec in [KAUTZ, TORUS] {
        let net = build_str(spec).unwrap();
        let (diameter, mean) = bfs_stats(&net);
        let r = run(spec, "min", "uniform", 0.0005, &[("sample_period", "4000")]);
        assert!(r.measured_packets > 100, "{spec}");
        assert_eq!(r.deflection_rate, 0.0, "{spec}: deflected at load 0.0005");
        // Routers traversed = router-to-router hops + 1; no flit longer than the diameter.
        assert!(
            r.max_hops <= diameter + 1,
            "{spec}: a flit traversed {} routers, diameter {diameter}",
            r.max_hops
        );
        // Uniform traffic: the destination router is another router with probability
        // (n - 1) / n up to the source endpoint itself; a statistical check against BFS.
        let n = net.num_routers() as f64;
        let expect = 1.0 + mean * (n - 1.0) / n;
        assert!(
            (r.avg_hops - expect).abs() < 0.08 * expect,
            "{spec}: avg hops {} vs BFS {expect}",
            r.avg_hops
        );
    }
}

#[test]
fn router_delay_adds_exactly_per_router_traversed() {
    // Without conflicts the same packets take the same paths, so the latency grows by
    // (delay - 1) per router traversed: (h + 1) routers for h router-to-router hops.
    let long = ("sample_period", "3000");
    let a = run(TORUS, "min", "uniform", 0.0005, &[long]);
    let b = run(
        TORUS,
        "min",
        "uniform",
        0.0005,
        &[long, ("hotpotato_delay", "4")],
    );
    assert!(a.measured_packets > 50);
    assert_eq!(a.deflection_rate, 0.0);
    assert_eq!(b.deflection_rate, 0.0);
    assert_eq!(a.measured_packets, b.measured_packets);
    assert!((a.avg_hops - b.avg_hops).abs() < 1e-12);
    let grown = b.avg_latency - a.avg_latency;
    assert!(
        (grown - 3.0 * a.avg_hops).abs() < 1e-9,
        "latency grew by {grown}, expected 3 x {}",
        a.avg_hops
    );
}

#[test]
fn high_load_deflects_and_never_accepts_more_than_offered() {
    for spec in [KAUTZ, TORUS] {
        let low = run(spec, "min", "uniform", 0.05, &[("packet_size", "3")]);
        for (load, switching) in [(0.3, "flit"), (0.6, "flit"), (1.0, "flit"), (0.6, "packet")] {
            let pairs = [
                ("debug_checks", "1"),
                ("packet_size", "3"),
                ("hotpotato_switching", switching),
            ];
            let r = run(spec, "min", "uniform", load, &pairs);
            assert!(
                r.deflection_rate > 0.0,
                "{spec}: no deflection at load {load}"
            );
            assert!(
                r.accepted_throughput <= load * 1.03,
                "{spec}: accepted {} > offered {load}",
                r.accepted_throughput
            );
            // Past saturation the latency limit may stop the run before a packet is measured.
            assert!(
                r.measured_packets == 0 || r.avg_hops > low.avg_hops,
                "{spec}: hops {} at {load} not above {} at 0.05",
                r.avg_hops,
                low.avg_hops
            );
        }
    }
}

#[test]
fn packet_switching_moves_worms_and_deflects_them_whole() {
    // At zero load a worm of P flits behind its head: latency = flit switching's (the last
    // flit arrives P - 1 cycles after the first either way) and the same minimal hops.
    let long = ("sample_period", "3000");
    let size = ("packet_size", "6");
    let flit = run(TORUS, "min", "uniform", 0.0005, &[long, size]);
    let worm = run(
        TORUS,
        "min",
        "uniform",
        0.0005,
        &[long, size, ("hotpotato_switching", "packet")],
    );
    assert_eq!(flit.deflection_rate, 0.0);
    assert_eq!(worm.deflection_rate, 0.0);
    assert!((flit.avg_latency - worm.avg_latency).abs() < 1e-9);
    assert!((flit.avg_hops - worm.avg_hops).abs() < 1e-12);
    // Under load whole worms are deflected: every flit of a packet traverses as many routers
    // as its first flit unless an injection worm was preempted, so the spread of hops between
    // flits is far below flit switching's. Measured through the hops of the last flit against
    // the mean: with worms, deflections still happen.
    let busy = run(
        KAUTZ,
        "min",
        "uniform",
        0.3,
        &[
            size,
            ("hotpotato_switching", "packet"),
            ("debug_checks", "1"),
        ],
    );
    assert!(busy.deflection_rate > 0.0);
    assert!(busy.accepted_throughput <= 0.3 * 1.03);
}

#[test]
fn a_directed_ring_never_deflects() {
    // One incoming router link per router: the one arriving flit always finds its output or
    // its ejection port free (a flit injected for a local endpoint waits instead), so even
    // past saturation every path is the ring's single path.
    let n = 6;
    let mut b = NetworkBuilder::new("ring", n, true);
    let c = b.link_class("link");
    for r in 0..n {
        b.add_link(r, (r + 1) % n, 1, c);
    }
    b.uniform_endpoints(2);
    let net = b.build().unwrap();
    // Packet switching too: an arriving worm preempts injection worms, at the ring output and
    // at a local ejection port alike.
    for pairs in [
        vec![("debug_checks", "1")],
        vec![
            ("debug_checks", "1"),
            ("packet_size", "4"),
            ("hotpotato_switching", "packet"),
        ],
    ] {
        let cfg = hp(&pairs);
        for load in [0.01, 0.3, 0.9] {
            let r = simulate(&net, "min", "uniform", load, &cfg, &Silent).unwrap();
            assert_eq!(r.deflection_rate, 0.0, "{pairs:?} load {load}");
            assert!(r.max_hops <= n as u32, "{pairs:?} load {load}");
            assert!(
                r.accepted_throughput <= load * 1.03,
                "{pairs:?} load {load}"
            );
        }
    }
}

#[test]
fn livelock_bound_stops_the_run() {
    let net = build_str(TORUS).unwrap();
    let cfg = hp(&[("hotpotato_max_hops", "4")]);
    match simulate(&net, "min", "uniform", 0.5, &cfg, &Silent) {
        Err(SimError::Livelock { hops, bound, .. }) => {
            assert_eq!(bound, 4);
            assert!(hops > 4);
        }
        other => panic!("expected a livelock error, got {other:?}"),
    }
}

fn without_clock(mut r: RunResult) -> RunResult {
    r.wall_seconds = 0.0;
    r
}

#[test]
fn same_seed_same_result_with_one_or_two_threads() {
    let net = build_str(KAUTZ).unwrap();
    let one = hp(&[
        ("seed", "5"),
        ("packet_size", "3"),
        ("hotpotato_switching", "packet"),
    ]);
    let two = hp(&[
        ("seed", "5"),
        ("packet_size", "3"),
        ("hotpotato_switching", "packet"),
        ("threads", "2"),
    ]);
    let a = without_clock(simulate(&net, "min", "uniform", 0.5, &one, &Silent).unwrap());
    let b = without_clock(simulate(&net, "min", "uniform", 0.5, &one, &Silent).unwrap());
    let c = without_clock(simulate(&net, "min", "uniform", 0.5, &two, &Silent).unwrap());
    assert_eq!(a, b);
    assert_eq!(a, c, "threads = 2 differs from threads = 1");
    let other = without_clock(
        simulate(&net, "min", "uniform", 0.5, &hp(&[("seed", "6")]), &Silent).unwrap(),
    );
    assert_ne!(a, other, "the seed changes nothing");
}

#[test]
fn rule_and_static_routings_name_the_preferred_outputs() {
    // up*/down* candidates as the preferred outputs: deflected flits plan again from where they
    // land; static minimal: one preferred output per destination. Fewer preferred outputs, more
    // deflections: every minimal next hop (min) deflects least, one fixed path most.
    let mut rate = Vec::new();
    for routing in ["min", "updown", "min_static"] {
        let r = run(TORUS, routing, "uniform", 0.2, &[("debug_checks", "1")]);
        assert!(!r.saturated, "{routing}");
        assert!(r.measured_packets > 100, "{routing}");
        rate.push(r.deflection_rate);
    }
    assert!(
        rate[0] < rate[2],
        "deflection rates min, updown, min_static: {rate:?}"
    );
    assert!(
        rate[1] < rate[2],
        "deflection rates min, updown, min_static: {rate:?}"
    );
}

#[test]
fn rejects_what_a_bufferless_router_cannot_serve() {
    // Router 0 has two incoming links and one outgoing: an arriving flit could find no output.
    let mut b = NetworkBuilder::new("fan_in", 3, true);
    let c = b.link_class("link");
    b.add_link(1, 0, 1, c);
    b.add_link(2, 0, 1, c);
    b.add_link(0, 1, 1, c);
    b.add_link(1, 2, 1, c);
    b.uniform_endpoints(1);
    let net = b.build().unwrap();
    let err = simulate(&net, "min", "uniform", 0.1, &hp(&[]), &Silent).unwrap_err();
    let text = err.to_string();
    assert!(text.contains("router 0 has 2 in, 1 out"), "{text}");

    let torus = build_str(TORUS).unwrap();
    let err = simulate(&torus, "dor", "uniform", 0.1, &hp(&[]), &Silent).unwrap_err();
    assert!(err.to_string().contains("routing"), "{err}");
    let mut cfg = hp(&[]);
    assert!(cfg.set("router", "bufferless").is_err());
    cfg.set("internal_speedup", "2").unwrap();
    let err = simulate(&torus, "min", "uniform", 0.1, &cfg, &Silent).unwrap_err();
    assert!(err.to_string().contains("internal_speedup"), "{err}");
}

#[test]
fn zero_load_latency_matches_the_iq_router_with_the_same_router_delay() {
    // The iq router costs vc_alloc + sw_alloc + st_final - 1 = 2 cycles plus the input register
    // per router at zero load (its closed form is checked in sim_engine.rs); a hot-potato router
    // with hotpotato_delay = 3 has the same timing, so without contention the same packets
    // (same injection and traffic streams) see the same latency.
    let net = build_str(TORUS).unwrap();
    let long = ("sample_period", "3000");
    let iq = simulate(
        &net,
        "min:vcs=any",
        "uniform",
        0.0005,
        &short(&[long]),
        &Silent,
    )
    .unwrap();
    let hp = simulate(
        &net,
        "min",
        "uniform",
        0.0005,
        &hp(&[long, ("hotpotato_delay", "3")]),
        &Silent,
    )
    .unwrap();
    assert_eq!(hp.deflection_rate, 0.0);
    assert_eq!(iq.measured_packets, hp.measured_packets);
    assert!((iq.avg_hops - hp.avg_hops).abs() < 1e-12);
    assert!(
        (iq.avg_latency - hp.avg_latency).abs() < 0.005 * iq.avg_latency,
        "iq {} vs hot-potato {}",
        iq.avg_latency,
        hp.avg_latency
    );
}
