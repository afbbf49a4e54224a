//! Offered and accepted load in the same unit for patterns with idle endpoints: bit patterns
//! run on the largest power-of-two subset of endpoints (Besta & Hoefler, SC14, §V-B), so on a
//! network whose endpoint count is not a power of two some endpoints neither send nor receive.
//! Throughputs are per active (sending) endpoint, like the offered load.

use crate::common;

use common::short;
use topolab_core::build_str;
use topolab_core::metrics::distance::distances_from;
use topolab_core::progress::Silent;
use topolab_sim::simulate;

/// Largest power of two (of four for transpose, whose address halves must be equal) <= n,
/// counted independently of the traffic module.
fn largest_power_at_most(n: u32, base: u32) -> u32 {
    let mut p = 1;
    while p * base <= n {
        p *= base;
    }
    p
}

#[test]
fn bit_patterns_on_a_non_power_of_two_network_accept_what_they_offer() {
    // slimfly:q=5,p=4: 50 routers, 200 endpoints; 128 send under bit patterns (64 for
    // transpose). Low load: no link of the minimal routes comes close to its capacity.
    let net = build_str("slimfly:q=5,p=4").unwrap();
    let n = net.num_endpoints() as u32;
    assert_eq!(n, 200);
    let load = 0.1;
    let cfg = short(&[]);
    for (pattern, base) in [
        ("bitcomp", 2),
        ("bitrev", 2),
        ("shuffle", 2),
        ("rotation:k=3", 2),
        ("transpose", 4),
    ] {
        let r = simulate(&net, "min", pattern, load, &cfg, &Silent).unwrap();
        assert_eq!(
            r.active_endpoints,
            largest_power_at_most(n, base),
            "{pattern}"
        );
        assert!(!r.saturated, "{pattern}: saturated at {load}: {r:?}");
        assert!(
            (r.accepted_throughput - load).abs() < 0.1 * load,
            "{pattern}: accepted {} at offered {load}",
            r.accepted_throughput
        );
        assert!(
            (r.injected_throughput - load).abs() < 0.1 * load,
            "{pattern}: injected {} at offered {load}",
            r.injected_throughput
        );
    }
}

#[test]
fn uniform_counts_every_endpoint_as_active() {
    let net = build_str("slimfly:q=5,p=4").unwrap();
    let r = simulate(&net, "min", "uniform", 0.2, &short(&[]), &Silent).unwrap();
    assert_eq!(r.active_endpoints, 200);
    assert!(!r.saturated);
    assert!((r.accepted_throughput - 0.2).abs() < 0.02);
}

/// Expected flits per cycle on the busiest directed link when every active endpoint sends
/// `load` to its fixed destination and `min` splits each flow evenly among the minimal next
/// hops at every router (computed from BFS distances, independently of the simulator).
fn busiest_link_load(net: &topolab_core::Network, flows: &[(usize, usize)], load: f64) -> f64 {
    let n = net.num_routers();
    let dist: Vec<Vec<u32>> = (0..n).map(|r| distances_from(net, r)).collect();
    let mut link = std::collections::HashMap::<(usize, usize), f64>::new();
    for &(src, dst) in flows {
        // Flow fraction at each router, pushed hop by hop towards dst.
        let mut at = vec![(src, load)];
        while let Some((r, f)) = at.pop() {
            if r == dst {
                continue;
            }
            let next: Vec<usize> = net
                .neighbors(r)
                .iter()
                .map(|&x| x as usize)
                .filter(|&x| dist[x][dst] + 1 == dist[r][dst])
                .collect();
            for &x in &next {
                let share = f / next.len() as f64;
                *link.entry((r, x)).or_default() += share;
                at.push((x, share));
            }
        }
    }
    link.values().cloned().fold(0.0, f64::max)
}

#[test]
fn bit_complement_saturates_where_its_busiest_link_is_overloaded() {
    // The reported case: slimfly:q=5,p=4, bitcomp at 0.2. Endpoints 0..127 send, s -> 127 - s,
    // so the 4 endpoints of router r all go to router 31 - r.
    let net = build_str("slimfly:q=5,p=4").unwrap();
    let per_router = net.endpoints()[0] as usize;
    let flows: Vec<(usize, usize)> = (0..128usize)
        .map(|s| (s / per_router, (127 - s) / per_router))
        .collect();
    let cfg = short(&[]);
    for load in [0.1, 0.2] {
        let busiest = busiest_link_load(&net, &flows, load);
        let r = simulate(&net, "min", "bitcomp", load, &cfg, &Silent).unwrap();
        println!(
            "load {load}: busiest link {busiest:.2}, accepted {:.3}",
            r.accepted_throughput
        );
        // Saturated exactly when some link is asked for more than one flit per cycle.
        assert_eq!(
            r.saturated,
            busiest > 1.0,
            "load {load}: busiest link {busiest}, {r:?}"
        );
        if busiest > 1.0 {
            assert!(r.accepted_throughput < load);
        }
    }
}
