//! Static throughput bounds of simulator traffic patterns (`routing::traffic_demands`) against
//! the closed forms of Kathareios et al., SC15, §4.2 / §4.3.1 (minimal routing under each
//! topology's worst case: 1/(2p) on Slim Fly, 1/h on the h-MLFM under shift by h, 1/k on the k-OFT
//! under shift by k), and the simulated saturation load against the bound.

use crate::common;

use common::short;
use topolab_core::progress::Silent;
use topolab_core::routing::catalog::build_static;
use topolab_core::routing::load::channel_load;
use topolab_core::traffic::traffic_demands;
use topolab_core::{build_str, Network};
use topolab_sim::{sweep, Prepared};

fn bound(net: &Network, routing: &str, traffic: &str) -> f64 {
    let def = build_static(net, routing, &Silent).unwrap();
    let dem = traffic_demands(net, traffic, routing, None).unwrap();
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
        for traffic in [format!("shift:k={h}"), "mlfm_worst".to_string()] {
            let b = bound(&net, "min", &traffic);
            assert!(
                (b - 1.0 / h as f64).abs() < 1e-9,
                "mlfm h={h} {traffic}: {b}"
            );
        }
    }
    for k in [3u32, 4] {
        let net = build_str(&format!("oft:k={k}")).unwrap();
        for traffic in [format!("shift:k={k}"), "oft_worst".to_string()] {
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

#[test]
fn a_bundle_whose_port_follows_the_destination_is_bounded_by_that_port() {
    // `dor` takes a bundle's port by the destination endpoint (BookSim2's torus,
    // `ports=destination`). On a 5x6 torus of 4-wide bundles with one endpoint per router,
    // tornado (2 hops up in each dimension) puts two flows on every link of the route's
    // direction, and by destination both can land on one port: a port carries twice the
    // injection rate where the bundle's width would share it to half. The spread reading
    // (`ports=random`) is bounded by the width.
    let net = build_str("torus:dims=5x6,widths=4x4,p=1").unwrap();
    let by_destination = bound(&net, "dor", "tornado");
    let spread = bound(
        &net,
        "torus_dor:vcs=dateline,ports=random,vc_split=fill",
        "tornado",
    );
    assert!((by_destination - 0.5).abs() < 1e-9, "{by_destination}");
    assert!((spread - 2.0).abs() < 1e-9, "{spread}");
    // The simulator, routing by destination, saturates near that port's bound, far below the
    // spread one (a little above is allowed: a run counts as carried while it accepts 97% of
    // the offered load, and only the flows through the busiest ports are held back).
    let cfg = short(&[]);
    let prep = Prepared::new(&net, "dor", &cfg, &Silent).unwrap();
    let s = sweep(
        &prep,
        "tornado",
        Some(&[0.3, 0.4, 0.45, 0.5, 0.55, 0.6, 0.7]),
        0.02,
        false,
        &Silent,
    )
    .unwrap();
    assert!(
        s.saturation_load <= 1.1 * by_destination && s.saturation_load >= 0.8 * by_destination,
        "simulated saturation {} against the bound {by_destination}",
        s.saturation_load
    );
    // Uniform traffic and a permutation with two endpoints per router: the per-port bound is
    // never above the spread one and the simulation stays under it.
    let net = build_str("mesh:dims=4x5,widths=3x2,p=2").unwrap();
    for traffic in ["uniform", "randperm", "tornado"] {
        let b = bound(&net, "dor", traffic);
        let spread = bound(
            &net,
            "torus_dor:vcs=dateline,ports=random,vc_split=fill",
            traffic,
        );
        assert!(
            b <= spread + 1e-9,
            "{traffic}: {b} above the spread {spread}"
        );
    }
}
