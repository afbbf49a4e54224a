//! The generic routings (min, valiant: core `HopRouting` rules; ugal_l / ugal_g: their source
//! decision in the simulator) against independent references: simulated hop counts against the
//! static path enumeration and BFS, Slim Fly worst-case throughput against the 1/(2p) bound of
//! minimal routing (Kathareios et al., SC15, §4.2), deadlock freedom of the VC schemes by the CDG
//! checker.

use crate::common;

use common::{short, static_mean_routers};
use topolab_core::metrics::distance::distances_from;
use topolab_core::progress::Silent;
use topolab_core::routing::catalog::build_static;
use topolab_core::routing::cdg::check;
use topolab_core::{build_str, Network};
use topolab_sim::{simulate, RunResult};

/// Mean over endpoint pairs of (BFS distance + 1): routers visited by minimal paths.
fn bfs_mean_routers(net: &Network) -> f64 {
    let ep = net.endpoints();
    let (mut sum, mut count) = (0.0, 0.0);
    for s in 0..net.num_routers() {
        for (t, &d) in distances_from(net, s).iter().enumerate() {
            let w = (ep[s] * ep[t]) as f64;
            sum += w * (d + 1) as f64;
            count += w;
        }
    }
    sum / count
}

fn sim(
    net: &Network,
    routing: &str,
    traffic: &str,
    load: f64,
    pairs: &[(&str, &str)],
) -> RunResult {
    simulate(net, routing, traffic, load, &short(pairs), &Silent)
        .unwrap_or_else(|e| panic!("{routing} {traffic} {load}: {e}"))
}

#[test]
fn min_and_valiant_follow_their_static_paths() {
    let sf = build_str("slimfly:q=5,p=3").unwrap();
    let mlfm = build_str("mlfm:h=3").unwrap();
    for (net, routing, vcs) in [
        (&sf, "min", "4"),
        (&sf, "min:select=queue", "4"),
        (&sf, "valiant", "4"),
        (&sf, "valiant:max_hops=3", "4"),
        (&sf, "valiant:vcs=phase", "2"),
        (&mlfm, "valiant:endpoints_only=true,vcs=phase", "2"),
    ] {
        let r = sim(
            net,
            routing,
            "uniform",
            0.05,
            &[("num_vcs", vcs), ("debug_checks", "1")],
        );
        assert!(!r.saturated, "{routing}");
        assert!(
            (r.accepted_throughput - 0.05).abs() < 0.01,
            "{routing}: {r:?}"
        );
        // Static paths of the same rule, and for minimal also plain BFS (independent).
        let static_name = routing.replace(":select=queue", "");
        let want = static_mean_routers(net, &static_name);
        assert!(
            (r.avg_hops - want).abs() < 0.03 * want,
            "{routing}: simulated {} routers per packet, static paths {want}",
            r.avg_hops
        );
        if routing.starts_with("min") {
            let bfs = bfs_mean_routers(net);
            assert!(
                (want - bfs).abs() < 1e-9,
                "{routing}: static {want} vs BFS {bfs}"
            );
        }
    }
    // Besta & Hoefler, SC14, §IV-B: Valiant paths are longer than minimal ones; at most 3 hops when
    // asked.
    assert!(static_mean_routers(&sf, "valiant") > bfs_mean_routers(&sf) + 1.0);
    let three = static_mean_routers(&sf, "valiant:max_hops=3");
    assert!(three < static_mean_routers(&sf, "valiant") && three <= 4.0);
}

#[test]
fn lowest_queue_minimal_delivers_past_saturation_without_deadlock() {
    // Hop-indexed VCs (two classes on a diameter-2 network) with the least occupied minimal
    // output: overloaded, buffers fill, and the run still drains (debug_checks verifies flit
    // and credit conservation every cycle; the watchdog would report a deadlock).
    let net = build_str("hyperx:dims=4x4,p=2").unwrap();
    let pairs = [
        ("num_vcs", "2"),
        ("vc_buf_size", "4"),
        ("debug_checks", "1"),
    ];
    let q = sim(&net, "min:select=queue", "uniform", 1.0, &pairs);
    let r = sim(&net, "min", "uniform", 1.0, &pairs);
    assert!(q.measured_packets > 0 && r.measured_packets > 0);
    eprintln!(
        "hyperx 4x4 uniform overload: accepted min {} vs min:select=queue {}",
        r.accepted_throughput, q.accepted_throughput
    );
    // Adaptive choice among the two minimal paths of every off-row-and-column pair does not
    // lose throughput against the random choice (it balances transient imbalance).
    assert!(q.accepted_throughput > 0.95 * r.accepted_throughput);
}

#[test]
fn ugal_beats_minimal_under_slimfly_worst_case() {
    // Kathareios et al., SC15, §4.2: minimal routing on the Slim Fly worst case carries 2p flows on
    // a link, so it accepts at most 1/(2p) (the static bound, checked in routing_load); UGAL
    // spreads the overlapping pairs over Valiant paths.
    let net = build_str("slimfly:q=5,p=3").unwrap();
    let p = 3.0;
    let pairs = [("num_vcs", "4")];
    let load = 0.4;
    let min = sim(&net, "min", "worst", load, &pairs);
    assert!(min.accepted_throughput < 1.0 / (2.0 * p) + 0.03, "{min:?}");
    for routing in [
        "ugal_l",
        "ugal_g",
        "ugal_l:threshold=10",
        "ugal_l:hops=false,c=2",
    ] {
        let u = sim(&net, routing, "worst", load, &pairs);
        eprintln!(
            "{routing}: worst case accepted {} (min {})",
            u.accepted_throughput, min.accepted_throughput
        );
        assert!(
            u.accepted_throughput > 1.5 * min.accepted_throughput,
            "{routing}: {} vs min {}",
            u.accepted_throughput,
            min.accepted_throughput
        );
    }
    // Uniform traffic: UGAL delivers what minimal delivers. Plain UGAL-L takes detours when
    // a Valiant first queue is momentarily emptier (Besta & Hoefler, SC14, §V-A, Kathareios et al.,
    // SC15, §4.3.2); with a threshold (Kathareios et al., SC15, §3.3) it routes minimally while the
    // minimal queue is short.
    let load = 0.6;
    let min_u = sim(&net, "min", "uniform", load, &pairs);
    assert!(!min_u.saturated);
    for routing in ["ugal_l", "ugal_g", "ugal_l:threshold=20"] {
        let u = sim(&net, routing, "uniform", load, &pairs);
        eprintln!(
            "{routing}: uniform {load}: accepted {}, {} routers per packet (min {})",
            u.accepted_throughput, u.avg_hops, min_u.avg_hops
        );
        assert!(!u.saturated, "{routing}");
        assert!(
            (u.accepted_throughput - load).abs() < 0.03,
            "{routing}: {u:?}"
        );
        if routing.contains("threshold") {
            assert!(
                u.avg_hops < min_u.avg_hops + 0.1,
                "{routing}: {} routers per packet vs min {}",
                u.avg_hops,
                min_u.avg_hops
            );
        }
    }
}

#[test]
fn ugal_vc_schemes_are_deadlock_free() {
    // Besta & Hoefler, SC14, §IV-D: hop-indexed VCs, 2·D classes for the candidate union;
    // Kathareios et al., SC15, §3.4: per phase on MLFM/OFT with intermediates among endpoint
    // routers.
    for (spec, routing, vcs) in [
        ("slimfly:q=5", "ugal_l", 4),
        ("mlfm:h=3", "ugal_l:vcs=phase,endpoints_only=true", 2),
        ("oft:k=3", "ugal_g:vcs=phase,endpoints_only=true", 2),
    ] {
        let net = build_str(spec).unwrap();
        let def = build_static(&net, routing, &Silent).unwrap();
        assert!(!def.oblivious(), "{routing} is adaptive");
        let rep = check(&net, &*def, &Silent).unwrap();
        assert!(rep.acyclic, "{spec} {routing}: {:?}", rep.cycle);
        assert_eq!(rep.vcs_used, vcs, "{spec} {routing}");
        let r = sim(
            &net,
            routing,
            "uniform",
            0.2,
            &[("num_vcs", &vcs.to_string()), ("debug_checks", "1")],
        );
        assert!(!r.saturated, "{spec} {routing}");
    }
    // One VC class for the union is cyclic on MLFM (Kathareios et al., SC15, §3.4).
    let net = build_str("mlfm:h=3").unwrap();
    let def = build_static(&net, "ugal_l:vcs=single,endpoints_only=true", &Silent).unwrap();
    assert!(!check(&net, &*def, &Silent).unwrap().acyclic);
}

#[test]
fn ugal_errors_name_the_parameter() {
    let net = build_str("slimfly:q=5").unwrap();
    let cfg = short(&[]);
    let e = simulate(&net, "ugal", "uniform", 0.1, &cfg, &Silent)
        .unwrap_err()
        .to_string();
    assert!(e.contains("ugal_l") && e.contains("ugal_g"), "{e}");
    let e = simulate(&net, "ugal_l:n=0", "uniform", 0.1, &cfg, &Silent)
        .unwrap_err()
        .to_string();
    assert!(e.contains('n') && e.contains('0'), "{e}");
    // The static reading refuses the same spec.
    assert!(build_static(&net, "ugal_l:n=0", &Silent).is_err());
    assert!(build_static(&net, "ugal_g:threshold=150", &Silent).is_err());
    let e = simulate(&net, "ugal_g:threshold=150", "uniform", 0.1, &cfg, &Silent)
        .unwrap_err()
        .to_string();
    assert!(e.contains("threshold") && e.contains("150"), "{e}");
    let e = simulate(
        &net,
        "ugal_l:vcs=hop",
        "uniform",
        0.1,
        &short(&[("num_vcs", "2")]),
        &Silent,
    )
    .unwrap_err()
    .to_string();
    assert!(e.contains("num_vcs") && e.contains('4'), "{e}");
}

#[test]
fn ugal_is_deterministic_with_any_thread_count() {
    // UGAL-G reads other routers' queues: the previous cycle's published state, so the
    // decision cannot depend on which thread routed first.
    let net = build_str("slimfly:q=5,p=3").unwrap();
    for routing in ["ugal_l", "ugal_g"] {
        let run = |threads: &str| {
            let mut r = sim(
                &net,
                routing,
                "worst",
                0.3,
                &[("seed", "3"), ("threads", threads)],
            );
            r.wall_seconds = 0.0;
            r
        };
        assert_eq!(run("1"), run("2"), "{routing}");
    }
}
