//! The input-queued router's deflection (`deflect`, `deflect_after`) and hop-counter VC
//! priority (`vc_priority = hops`): the buffered, virtual cut-through reading of Koibuchi et
//! al.'s (2018, §III-B2/§III-B3) hot-potato router. At a load that blocks no head the paths are
//! the minimal ones (routers per packet against a breadth-first search of the network); at a
//! load that fills the VCs packets are deflected, paths grow, and a fixed exchange still
//! delivers every packet; runs are deterministic on one thread or several; the default path is
//! the router without either option; bad parameters are refused by name.

use crate::common;

use common::short;
use std::collections::VecDeque;
use topolab_core::progress::Silent;
use topolab_core::traffic::{Exchange, MessageOrder};
use topolab_core::{build_str, Network};
use topolab_sim::{run_exchange, simulate, Prepared, RunResult, SimConfig, SimError};

/// 36 routers, directed (in = out = 3), 2 hosts each: a uni-directional network like Koibuchi
/// et al.'s MDDP.
const KAUTZ: &str = "kautz:d=3,k=3,p=2";

/// Virtual cut-through, 4-flit packets, VCs of two packets: the buffered reading's setup
/// shrunk.
fn vct(pairs: &[(&str, &str)]) -> SimConfig {
    let mut all = vec![
        ("flow_control", "vct"),
        ("packet_size", "4"),
        ("vc_buf_size", "8"),
    ];
    all.extend_from_slice(pairs);
    short(&all)
}

fn run(spec: &str, load: f64, cfg: &SimConfig) -> RunResult {
    let net = build_str(spec).unwrap();
    let r = simulate(&net, "min", "uniform", load, cfg, &Silent)
        .unwrap_or_else(|e| panic!("{spec} at {load}: {e}"));
    RunResult {
        wall_seconds: 0.0,
        ..r
    }
}

/// Mean routers a packet traverses on a shortest path under uniform traffic (every pair of
/// endpoints, a router's own endpoints included), from a breadth-first search of the directed
/// links.
fn bfs_mean_routers(net: &Network) -> f64 {
    let n = net.num_routers();
    let ep = net.endpoints();
    let (mut sum, mut count) = (0.0, 0.0);
    for s in 0..n {
        let mut dist = vec![usize::MAX; n];
        dist[s] = 0;
        let mut queue = VecDeque::from([s]);
        while let Some(u) = queue.pop_front() {
            for &v in net.neighbors(u) {
                if dist[v as usize] == usize::MAX {
                    dist[v as usize] = dist[u] + 1;
                    queue.push_back(v as usize);
                }
            }
        }
        for t in 0..n {
            let pairs = (ep[s] * ep[t]) as f64;
            sum += pairs * (dist[t] + 1) as f64;
            count += pairs;
        }
    }
    sum / count
}

/// Long enough measurement for a sample mean of routers per packet within about 0.5%.
fn long(cfg: &mut SimConfig) {
    cfg.set("sample_period", "2000").unwrap();
    cfg.set("max_samples", "6").unwrap();
    cfg.set("warmup_periods", "1").unwrap();
}

/// Deflection after 30 cycles of waiting (the Kautz graph deadlocks with immediate deflection
/// from load 0.15 on, `a_deadlock_is_an_error_not_a_hang`).
const PATIENT: [(&str, &str); 2] = [("deflect_after", "30"), ("vc_priority", "hops")];

#[test]
fn paths_are_minimal_at_low_load_and_grow_when_buffers_fill() {
    let net = build_str(KAUTZ).unwrap();
    let minimal = bfs_mean_routers(&net);
    for deflect in ["random", "closest"] {
        let mut pairs = PATIENT.to_vec();
        pairs.push(("deflect", deflect));
        let mut cfg = vct(&pairs);
        long(&mut cfg);
        let low = run(KAUTZ, 0.02, &cfg);
        assert!(low.measured_packets > 1000, "{deflect}: {low:?}");
        // A head waits 30 cycles only behind several packets holding its minimal outputs.
        assert!(low.deflection_rate < 0.001, "{deflect}: {low:?}");
        assert!(
            (low.avg_hops / minimal - 1.0).abs() < 0.015,
            "{deflect}: {} routers per packet at low load, minimal paths {minimal}",
            low.avg_hops
        );
        // Near minimal routing's saturation (0.34 here) the VCs fill and packets detour.
        let high = run(KAUTZ, 0.3, &cfg);
        assert!(!high.saturated, "{deflect}: {high:?}");
        assert!(high.deflection_rate > 0.005, "{deflect}: {high:?}");
        assert!(
            high.avg_hops > minimal + 0.5 * high.deflection_rate,
            "{deflect}: {} routers per packet at load 0.3, minimal paths {minimal}",
            high.avg_hops
        );
    }
}

/// Immediate deflection on the Kautz graph at load 0.2: the last hop class's VCs close a cycle
/// and no flit moves; the watchdog stops the run with the deadlock error.
#[test]
fn a_deadlock_is_an_error_not_a_hang() {
    let net = build_str(KAUTZ).unwrap();
    let mut cfg = vct(&[("deflect", "random"), ("latency_thres", "-1")]);
    cfg.set("sample_period", "2000").unwrap();
    cfg.set("max_samples", "10").unwrap();
    match simulate(&net, "min", "uniform", 0.2, &cfg, &Silent) {
        Err(SimError::Deadlock { in_flight, .. }) => assert!(in_flight > 0),
        other => panic!("expected a deadlock error, got {other:?}"),
    }
}

#[test]
fn without_deflection_paths_stay_minimal_at_any_load() {
    let net = build_str(KAUTZ).unwrap();
    let minimal = bfs_mean_routers(&net);
    let mut cfg = vct(&[]);
    long(&mut cfg);
    let r = run(KAUTZ, 0.9, &cfg);
    assert_eq!(r.deflection_rate, 0.0);
    assert!(
        (r.avg_hops / minimal - 1.0).abs() < 0.015,
        "{} routers, minimal {minimal}",
        r.avg_hops
    );
}

#[test]
fn a_long_wait_defers_deflection() {
    let at_once = run(KAUTZ, 0.1, &vct(&[("deflect", "random")]));
    let patient = run(
        KAUTZ,
        0.1,
        &vct(&[("deflect", "random"), ("deflect_after", "30")]),
    );
    assert!(at_once.deflection_rate > 0.0, "{at_once:?}");
    assert!(
        patient.deflection_rate < at_once.deflection_rate,
        "after 30 cycles {} vs at once {}",
        patient.deflection_rate,
        at_once.deflection_rate
    );
}

/// An all-to-all exchange with deflections delivers every packet and flit, with the engine's
/// conservation checks on every cycle.
#[test]
fn every_packet_of_an_exchange_is_delivered() {
    let net = build_str(KAUTZ).unwrap();
    let n = net.num_endpoints() as u32;
    for deflect in ["random", "closest"] {
        let cfg = vct(&[
            ("deflect", deflect),
            ("vc_priority", "hops"),
            ("debug_checks", "1"),
        ]);
        let prep = Prepared::new(&net, "min", &cfg, &Silent).unwrap();
        let per_source = (0..n)
            .map(|s| (0..n).filter(|&d| d != s).map(|d| (d, 2)).collect())
            .collect();
        let exchange = Exchange {
            name: "all-to-all".into(),
            per_source,
            order: MessageOrder::Sequential,
        };
        let done = run_exchange(&prep, &exchange, &Silent).unwrap();
        assert_eq!(done.packets, (n * (n - 1) * 2) as u64, "{deflect}");
        assert_eq!(done.delivered_packets, done.packets, "{deflect}");
        assert_eq!(done.delivered_flits, done.flits, "{deflect}");
        assert_eq!(done.sent_flits, done.flits, "{deflect}");
        // The exchange congests the network: some packets took longer than minimal paths.
        assert!(
            done.avg_hops > bfs_mean_routers(&net) * 1.01,
            "{deflect}: {}",
            done.avg_hops
        );
    }
}

#[test]
fn deterministic_on_one_thread_or_several() {
    let pairs = [("deflect", "closest"), ("vc_priority", "hops")];
    let one = run(KAUTZ, 0.1, &vct(&pairs));
    assert!(one.deflection_rate > 0.0 && !one.saturated, "{one:?}");
    let again = run(KAUTZ, 0.1, &vct(&pairs));
    assert_eq!(one, again);
    let mut threaded = pairs.to_vec();
    threaded.push(("threads", "3"));
    assert_eq!(one, run(KAUTZ, 0.1, &vct(&threaded)));
}

#[test]
fn defaults_are_no_deflection_and_round_robin() {
    let default = run(KAUTZ, 0.3, &vct(&[]));
    let spelled = run(
        KAUTZ,
        0.3,
        &vct(&[
            ("deflect", "off"),
            ("deflect_after", "0"),
            ("vc_priority", "round_robin"),
        ]),
    );
    assert_eq!(default, spelled);
    for (key, value) in [("deflect", "random"), ("vc_priority", "hops")] {
        let changed = run(KAUTZ, 0.3, &vct(&[(key, value)]));
        assert_ne!(changed, default, "{key}={value} changes nothing");
    }
}

fn refused(cfg: Result<SimConfig, SimError>, routing: &str) -> String {
    let net = build_str(KAUTZ).unwrap();
    match cfg {
        Err(e) => e.to_string(),
        Ok(cfg) => match Prepared::new(&net, routing, &cfg, &Silent) {
            Err(e) => e.to_string(),
            Ok(_) => panic!("{routing} with {cfg:?} accepted"),
        },
    }
}

#[test]
fn bad_parameters_are_refused_by_name() {
    let from = |pairs: &[(&str, &str)]| SimConfig::from_pairs(pairs.iter().copied());
    let e = refused(from(&[("deflect", "sideways")]), "min");
    assert!(
        e.contains("deflect") && e.contains("sideways") && e.contains("closest"),
        "{e}"
    );
    let e = refused(from(&[("vc_priority", "age")]), "min");
    assert!(
        e.contains("vc_priority") && e.contains("age") && e.contains("hops"),
        "{e}"
    );
    let e = refused(from(&[("deflect_after", "-1")]), "min");
    assert!(e.contains("deflect_after"), "{e}");
    let e = refused(
        from(&[("router", "hotpotato"), ("deflect", "random")]),
        "min",
    );
    assert!(
        e.contains("deflect") && e.contains("hotpotato_deflect"),
        "{e}"
    );
    let e = refused(
        from(&[("router", "hotpotato"), ("vc_priority", "hops")]),
        "min",
    );
    assert!(
        e.contains("vc_priority") && e.contains("round_robin"),
        "{e}"
    );
    let e = refused(from(&[("deflect", "random")]), "valiant:vcs=any");
    assert!(
        e.contains("routing") && e.contains("valiant") && e.contains("min_static"),
        "{e}"
    );
    // min_static and min with any VC are accepted.
    let net = build_str(KAUTZ).unwrap();
    for routing in ["min_static", "min:vcs=any"] {
        let cfg = from(&[("deflect", "random")]).unwrap();
        Prepared::new(&net, routing, &cfg, &Silent).unwrap_or_else(|e| panic!("{routing}: {e}"));
    }
}
