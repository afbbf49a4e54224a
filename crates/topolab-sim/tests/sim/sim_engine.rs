//! Engine invariants: conservation of flits and credits every cycle (debug mode) across router
//! settings, determinism (seed, threads), zero-load latency against the pipeline's closed form,
//! hop counts against BFS distances, and the deadlock watchdog.

use crate::common;

use common::short;
use topolab_core::metrics::distance::distances_from;
use topolab_core::progress::Silent;
use topolab_core::{build_str, Network, NetworkBuilder};
use topolab_sim::{run, simulate, Prepared, SimConfig, SimError};

/// Runs with conservation checks after every cycle; the run must also drain completely.
fn checked(spec: &str, routing: &str, load: f64, pairs: &[(&str, &str)]) {
    let net = build_str(spec).unwrap();
    let mut all = vec![("debug_checks", "1")];
    all.extend_from_slice(pairs);
    let cfg = short(&all);
    let r = simulate(&net, routing, "uniform", load, &cfg, &Silent)
        .unwrap_or_else(|e| panic!("{spec} {routing} {pairs:?}: {e}"));
    assert!(r.measured_packets > 0, "{spec} {routing} {pairs:?}");
    if load < 1.0 {
        assert!(
            !r.saturated,
            "{spec} {routing} {pairs:?}: saturated at {load}"
        );
        assert!(
            (r.accepted_throughput - load).abs() < 0.1 * load + 0.01,
            "{spec} {routing} {pairs:?}: accepted {} at load {load}",
            r.accepted_throughput
        );
    }
}

#[test]
fn conservation_holds_across_router_settings() {
    let sf = "slimfly:q=5,p=2";
    checked(sf, "min_static", 0.4, &[("booksim_compat", "1")]);
    checked(sf, "min", 0.4, &[]);
    checked(sf, "valiant", 0.2, &[]);
    checked(
        sf,
        "min",
        0.3,
        &[("packet_size", "4"), ("vc_buf_size", "6")],
    );
    checked(
        sf,
        "min",
        0.3,
        &[
            ("packet_size", "5"),
            ("flow_control", "vct"),
            ("vc_buf_size", "10"),
        ],
    );
    checked(
        sf,
        "min",
        0.3,
        &[("wait_for_tail_credit", "1"), ("packet_size", "3")],
    );
    checked(
        sf,
        "min",
        0.3,
        &[("internal_speedup", "2"), ("packet_size", "2")],
    );
    checked(sf, "min", 0.3, &[("internal_speedup", "1.5")]);
    checked(
        sf,
        "min",
        0.3,
        &[
            ("routing_delay", "2"),
            ("vc_alloc_delay", "2"),
            ("sw_alloc_delay", "2"),
            ("st_final_delay", "3"),
            ("credit_delay", "0"),
        ],
    );
    checked(
        sf,
        "min",
        0.3,
        &[("channel_latency", "7"), ("endpoint_latency", "3")],
    );
    checked("torus:dims=4x4", "dor", 0.4, &[]);
    checked("torus:dims=4x4", "dor", 0.4, &[("booksim_compat", "1")]);
    checked("mesh:dims=3x4", "dor", 0.3, &[]);
    checked(
        "dragonfly:a=4,h=2,p=2",
        "dragonfly_ugal",
        0.3,
        &[("num_vcs", "3"), ("link_latency", "global:5")],
    );
    checked(
        "dragonfly:a=4,h=2,p=2",
        "dragonfly_min",
        0.3,
        &[("booksim_compat", "1")],
    );
    checked("hyperx:dims=3x3,widths=2x1", "min", 0.4, &[]);
    checked("hyperx:dims=3x3,widths=2x1", "min_static", 0.4, &[]);
    // Past saturation: buffers fill, credits run out, the latency threshold stops the run.
    checked(sf, "min", 1.0, &[("num_vcs", "2"), ("vc_buf_size", "4")]);
}

fn comparable(mut r: topolab_sim::RunResult) -> topolab_sim::RunResult {
    r.wall_seconds = 0.0;
    r
}

#[test]
fn one_way_channels_give_the_one_thread_results() {
    // On a digraph a router returns credits to routers it sends no flits to, and the other way
    // round: the pulled delivery (several threads) then reads slots carrying one direction
    // only, beside slots of two-way pairs.
    let net = build_str("kautz:d=2,k=3").unwrap();
    for latency in ["1", "3"] {
        let cfg = |threads| {
            short(&[
                ("num_vcs", "3"),
                ("channel_latency", latency),
                ("threads", threads),
            ])
        };
        let run = |threads| {
            comparable(simulate(&net, "imase", "uniform", 0.2, &cfg(threads), &Silent).unwrap())
        };
        let one = run("1");
        assert!(one.measured_packets > 0);
        assert_eq!(one, run("2"), "channel_latency = {latency}");
    }
}

#[test]
fn threads_raised_after_preparing_give_the_same_results() {
    // A network prepared for one thread has no tables for pulling: its runs deliver serially
    // whatever `cfg.threads` says by then.
    let net = build_str("slimfly:q=5,p=3").unwrap();
    let mut prep = Prepared::new(&net, "min", &short(&[("seed", "4")]), &Silent).unwrap();
    let one = comparable(run(&prep, "uniform", 0.4, &Silent).unwrap());
    prep.cfg.threads = 2;
    assert_eq!(
        one,
        comparable(run(&prep, "uniform", 0.4, &Silent).unwrap())
    );
}

#[test]
fn same_seed_same_result_with_any_thread_count() {
    let net = build_str("slimfly:q=5,p=4").unwrap();
    let one = short(&[("seed", "7")]);
    let two = short(&[("seed", "7"), ("threads", "2")]);
    for routing in ["min", "valiant"] {
        let a = comparable(simulate(&net, routing, "uniform", 0.45, &one, &Silent).unwrap());
        let b = comparable(simulate(&net, routing, "uniform", 0.45, &one, &Silent).unwrap());
        let c = comparable(simulate(&net, routing, "uniform", 0.45, &two, &Silent).unwrap());
        assert_eq!(a, b);
        assert_eq!(a, c, "{routing}: threads = 2 differs from threads = 1");
        let other = comparable(
            simulate(
                &net,
                routing,
                "uniform",
                0.45,
                &short(&[("seed", "8")]),
                &Silent,
            )
            .unwrap(),
        );
        assert_ne!(a.avg_latency, other.avg_latency);
    }
}

/// Mean over all (source, destination) endpoint pairs of f(routers traversed), from BFS.
fn pair_mean(net: &Network, f: impl Fn(u32) -> f64) -> f64 {
    let n = net.num_routers();
    let (mut sum, mut count) = (0.0, 0.0);
    for s in 0..n {
        let d = distances_from(net, s);
        for (t, &dist) in d.iter().enumerate() {
            let w = (net.endpoints()[s] * net.endpoints()[t]) as f64;
            sum += w * f(dist + 1);
            count += w;
        }
    }
    sum / count
}

#[test]
fn zero_load_latency_matches_the_pipeline() {
    // Per router: routing_delay + vc_alloc_delay + sw_alloc_delay + st_final_delay - 1 cycles
    // from arrival to sending; a channel of latency d delivers d + 1 cycles later. For H routers:
    // (e + 1) + H * router + (H - 1) * (c + 1) + (e + 1), c router channels, e endpoint links.
    let net = build_str("slimfly:q=5,p=2").unwrap();
    for (pairs, router, c, e) in [
        (vec![], 2.0, 1.0, 1.0),
        (
            vec![("channel_latency", "4"), ("endpoint_latency", "2")],
            2.0,
            4.0,
            2.0,
        ),
        (
            vec![
                ("routing_delay", "1"),
                ("vc_alloc_delay", "2"),
                ("sw_alloc_delay", "2"),
                ("st_final_delay", "2"),
            ],
            6.0,
            1.0,
            1.0,
        ),
    ] {
        let mut all = pairs.clone();
        all.push(("sample_period", "2000"));
        let cfg = short(&all);
        let r = simulate(&net, "min", "uniform", 0.002, &cfg, &Silent).unwrap();
        let want = pair_mean(&net, |h| {
            let h = h as f64;
            2.0 * (e + 1.0) + h * router + (h - 1.0) * (c + 1.0)
        });
        assert!(
            (r.avg_network_latency - want).abs() < 0.01 * want,
            "{pairs:?}: {} vs closed form {want}",
            r.avg_network_latency
        );
    }
}

#[test]
fn hop_counts_follow_shortest_paths() {
    for (spec, routing) in [
        ("slimfly:q=5,p=3", "min"),
        ("slimfly:q=5,p=3", "min_static"),
        ("torus:dims=5x4", "dor"),
        ("dragonfly:a=4,h=2,p=2", "dragonfly_min"),
    ] {
        let net = build_str(spec).unwrap();
        let r = simulate(
            &net,
            routing,
            "uniform",
            0.1,
            &short(&[("num_vcs", "4")]),
            &Silent,
        )
        .unwrap();
        let want = pair_mean(&net, |h| h as f64);
        assert!(
            (r.avg_hops - want).abs() < 0.02 * want,
            "{spec} {routing}: {} hops vs BFS {want}",
            r.avg_hops
        );
    }
    // Valiant goes through a random intermediate: longer paths than minimal.
    let net = build_str("slimfly:q=5,p=3").unwrap();
    let r = simulate(&net, "valiant", "uniform", 0.1, &short(&[]), &Silent).unwrap();
    let min = pair_mean(&net, |h| h as f64);
    assert!(
        r.avg_hops > min + 1.0,
        "valiant {} vs minimal {min}",
        r.avg_hops
    );
}

#[test]
fn vc_reallocation_quirk_caps_one_vc_at_half_a_packet_per_cycle() {
    // One router, 8 endpoints, one VC per port, single-flit packets. In BookSim2's iq router an
    // output VC takes a new packet only every second cycle, so no ejection port accepts more than
    // 0.5 flit per cycle; topolab's default is limited only by head-of-line blocking (about 0.62
    // for an 8-port input-queued switch under uniform traffic).
    let mut b = NetworkBuilder::new("switch", 1, false);
    b.uniform_endpoints(8);
    let net = b.build().unwrap();
    let cfg = |compat: &str| {
        short(&[
            ("num_vcs", "1"),
            ("booksim_compat", compat),
            ("sample_period", "1000"),
        ])
    };
    let quirk = simulate(&net, "min", "uniform", 0.9, &cfg("1"), &Silent).unwrap();
    let plain = simulate(&net, "min", "uniform", 0.9, &cfg("0"), &Silent).unwrap();
    assert!(quirk.accepted_throughput <= 0.51, "{quirk:?}");
    assert!(plain.accepted_throughput > 0.56, "{plain:?}");
}

fn directed_ring(n: usize) -> Network {
    let mut b = NetworkBuilder::new("ring", n, true);
    let c = b.link_class("link");
    for r in 0..n {
        b.add_link(r, (r + 1) % n, 1, c);
    }
    b.uniform_endpoints(1);
    b.build().unwrap()
}

#[test]
fn watchdog_names_the_blocked_cycle() {
    // A one-way ring with one VC and worm-hole packets longer than the buffers: the classic
    // cyclic channel dependency.
    let net = directed_ring(4);
    let cfg = short(&[
        ("num_vcs", "1"),
        ("vc_buf_size", "2"),
        ("packet_size", "6"),
        ("deadlock_timeout", "300"),
        ("latency_thres", "-1"),
    ]);
    let prep = Prepared::new(&net, "min:vcs=any", &cfg, &Silent).unwrap();
    match run(&prep, "uniform", 1.0, &Silent) {
        Err(SimError::Deadlock {
            blocked,
            wait_cycle,
            ..
        }) => {
            assert!(!blocked.is_empty());
            assert!(wait_cycle.len() >= 3, "{wait_cycle:?}");
            assert_eq!(wait_cycle.first(), wait_cycle.last());
            assert!(wait_cycle.iter().all(|s| s.starts_with("router ")));
        }
        other => panic!("expected a deadlock, got {other:?}"),
    }
    // Hop-indexed VCs break the cycle: same traffic, no deadlock.
    let cfg = short(&[
        ("num_vcs", "3"),
        ("vc_buf_size", "2"),
        ("packet_size", "6"),
        ("deadlock_timeout", "300"),
    ]);
    let r = simulate(&net, "min", "uniform", 1.0, &cfg, &Silent).unwrap();
    assert!(r.saturated);
}

#[test]
fn bad_parameters_are_named() {
    let mut c = SimConfig::default();
    let e = c.set("num_vc", "4").unwrap_err().to_string();
    assert!(e.contains("num_vc") && e.contains("num_vcs"), "{e}");
    let e = c.set("num_vcs", "0").unwrap_err().to_string();
    assert!(e.contains("num_vcs") && e.contains("1 to 64"), "{e}");
    let e = c.set("flow_control", "store").unwrap_err().to_string();
    assert!(e.contains("wormhole"), "{e}");
    let net = build_str("slimfly:q=5,p=2").unwrap();
    let e = simulate(&net, "dor", "uniform", 0.1, &c, &Silent)
        .unwrap_err()
        .to_string();
    assert!(e.contains("torus or mesh"), "{e}");
    let e = simulate(&net, "minimal", "uniform", 0.1, &c, &Silent)
        .unwrap_err()
        .to_string();
    assert!(e.contains("min_static") && e.contains("valiant"), "{e}");
    let e = simulate(&net, "min", "uniform", 1.5, &c, &Silent)
        .unwrap_err()
        .to_string();
    assert!(e.contains("load"), "{e}");
    c.set("num_vcs", "1").unwrap();
    let e = simulate(&net, "min", "uniform", 0.1, &c, &Silent)
        .unwrap_err()
        .to_string();
    assert!(e.contains("num_vcs") && e.contains("vcs=any"), "{e}");
    let mut c = SimConfig::default();
    c.set("link_latency", "optical:3").unwrap();
    let e = simulate(&net, "min", "uniform", 0.1, &c, &Silent)
        .unwrap_err()
        .to_string();
    assert!(e.contains("optical"), "{e}");
}
