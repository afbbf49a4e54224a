//! Static throughput bounds of simulator traffic patterns (`routing::traffic_demands`) against
//! the closed forms of 001 §4.2 / §4.3.1 (minimal routing under each topology's worst case:
//! 1/(2p) on Slim Fly, 1/h on the h-MLFM under shift by h, 1/k on the k-OFT under shift by k),
//! and the simulated saturation load against the bound.

mod common;

use common::short;
use topolab_core::progress::Silent;
use topolab_core::routing::catalog::build_static;
use topolab_core::routing::load::channel_load;
use topolab_core::{build_str, Network};
use topolab_sim::routing::traffic_demands;
use topolab_sim::{sweep, Prepared};

fn bound(net: &Network, routing: &str, traffic: &str) -> f64 {
    let def = build_static(net, routing, &Silent).unwrap();
    let dem = traffic_demands(net, traffic, None).unwrap();
    channel_load(net, &*def, &dem, &Silent)
        .unwrap()
        .throughput_bound
}

#[test]
fn minimal_worst_case_bounds_follow_001() {
    for h in [3u32, 4] {
        let net = build_str(&format!("mlfm:h={h}")).unwrap();
        assert_eq!(
            net.endpoints().iter().copied().max(),
            Some(h),
            "h-MLFM has p = h"
        );
        for traffic in [format!("shift:k={h}"), "mlfm-worst".to_string()] {
            let b = bound(&net, "min", &traffic);
            assert!(
                (b - 1.0 / h as f64).abs() < 1e-9,
                "mlfm h={h} {traffic}: {b}"
            );
        }
    }
    for k in [3u32, 4] {
        let net = build_str(&format!("oft:k={k}")).unwrap();
        for traffic in [format!("shift:k={k}"), "oft-worst".to_string()] {
            let b = bound(&net, "min", &traffic);
            assert!(
                (b - 1.0 / k as f64).abs() < 1e-9,
                "oft k={k} {traffic}: {b}"
            );
        }
    }
    for (q, p) in [(5u32, 3u32), (7, 4)] {
        let net = build_str(&format!("slimfly:q={q},p={p}")).unwrap();
        let b = bound(&net, "min", "worst");
        assert!(
            (b - 1.0 / (2 * p) as f64).abs() < 1e-9,
            "slimfly q={q}: {b}"
        );
        // Uniform: no link of a Slim Fly is loaded beyond what full injection needs.
        assert!(bound(&net, "min", "uniform") > 0.8, "slimfly q={q} uniform");
    }
}

#[test]
fn simulated_saturation_stays_under_the_static_bound() {
    // The bound is what the busiest link allows; the simulator gets close to it and never
    // above (up to the saturation search's resolution).
    let net = build_str("mlfm:h=3").unwrap();
    let cfg = short(&[("num_vcs", "2")]);
    let prep = Prepared::new(&net, "min", &cfg, &Silent).unwrap();
    let b = bound(&net, "min", "shift:k=3");
    let s = sweep(
        &prep,
        "shift:k=3",
        Some(&[0.1, 0.2, 0.3, 0.4, 0.5]),
        0.02,
        false,
        &Silent,
    )
    .unwrap();
    eprintln!(
        "mlfm h=3 shift by 3: static bound {b}, simulated saturation {}",
        s.saturation_load
    );
    assert!(
        s.saturation_load <= b + 0.02,
        "{} vs bound {b}",
        s.saturation_load
    );
    assert!(
        s.saturation_load >= 0.8 * b,
        "{} vs bound {b}",
        s.saturation_load
    );
}
