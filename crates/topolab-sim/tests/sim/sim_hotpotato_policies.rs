//! The hot-potato router's policy options (Koibuchi et al., 2018, §III-B2 readings):
//! `hotpotato_priority` (hops / oldest / random), `hotpotato_deflect` (random / closest) and
//! `hotpotato_packet_hops` (last / mean): every combination delivers and conserves flits, the
//! defaults are the router's previous behaviour, each option changes the result where it should
//! and not where it cannot (closest = random deflection on a torus, mean = last with
//! single-flit packets), closest deflection lengthens paths less than random deflection,
//! and the mean over a packet's flits counts fewer routers than its last flit.

use crate::common;

use common::{short, static_mean_routers};
use topolab_core::build_str;
use topolab_core::progress::Silent;
use topolab_sim::{simulate, RunResult, SimConfig, SimError};

const KAUTZ: &str = "kautz:d=3,k=3,p=2"; // 36 routers, directed, in = out = 3
const TORUS: &str = "torus:dims=4x4,p=2"; // 16 routers, undirected

fn hp(pairs: &[(&str, &str)]) -> SimConfig {
    let mut all = vec![("router", "hotpotato")];
    all.extend_from_slice(pairs);
    short(&all)
}

fn run(spec: &str, load: f64, pairs: &[(&str, &str)]) -> RunResult {
    let net = build_str(spec).unwrap();
    let r = simulate(&net, "min", "uniform", load, &hp(pairs), &Silent)
        .unwrap_or_else(|e| panic!("{spec} {pairs:?}: {e}"));
    RunResult {
        wall_seconds: 0.0,
        ..r
    }
}

#[test]
fn every_combination_delivers_and_conserves() {
    for spec in [KAUTZ, TORUS] {
        for priority in ["hops", "oldest", "random"] {
            for deflect in ["random", "closest"] {
                for switching in ["flit", "packet"] {
                    let pairs = [
                        ("debug_checks", "1"),
                        ("packet_size", "4"),
                        ("hotpotato_priority", priority),
                        ("hotpotato_deflect", deflect),
                        ("hotpotato_switching", switching),
                    ];
                    let r = run(spec, 0.1, &pairs);
                    assert!(r.measured_packets > 0, "{spec} {pairs:?}");
                    assert!(
                        (r.accepted_throughput - 0.1).abs() < 0.02,
                        "{spec} {pairs:?}: accepted {}",
                        r.accepted_throughput
                    );
                }
            }
        }
    }
}

#[test]
fn defaults_are_hop_priority_random_deflection_and_the_last_flit() {
    let pairs = [("packet_size", "4")];
    let default = run(KAUTZ, 0.5, &pairs);
    let spelled = run(
        KAUTZ,
        0.5,
        &[
            ("packet_size", "4"),
            ("hotpotato_priority", "hops"),
            ("hotpotato_deflect", "random"),
            ("hotpotato_packet_hops", "last"),
        ],
    );
    assert_eq!(default, spelled);
    assert!(default.deflection_rate > 0.05, "the load must deflect");
    for (key, value) in [
        ("hotpotato_priority", "oldest"),
        ("hotpotato_priority", "random"),
        ("hotpotato_deflect", "closest"),
        ("hotpotato_packet_hops", "mean"),
    ] {
        let other = run(KAUTZ, 0.5, &[("packet_size", "4"), (key, value)]);
        assert_ne!(default, other, "{key} = {value} changes nothing");
        // Same seed, same result.
        assert_eq!(
            other,
            run(KAUTZ, 0.5, &[("packet_size", "4"), (key, value)])
        );
    }
    // With single-flit packets a packet's mean is its one flit's count: nothing changes.
    assert_eq!(
        run(KAUTZ, 0.5, &[]),
        run(KAUTZ, 0.5, &[("hotpotato_packet_hops", "mean")])
    );
}

#[test]
fn closest_deflection_lengthens_paths_less_than_random_deflection() {
    let random = run(KAUTZ, 0.6, &[]);
    let closest = run(KAUTZ, 0.6, &[("hotpotato_deflect", "closest")]);
    assert!(random.deflection_rate > 0.05, "the load must deflect");
    assert!(
        closest.avg_hops < random.avg_hops,
        "closest {} vs random {} routers",
        closest.avg_hops,
        random.avg_hops
    );
    // On a 4x4 torus every non-minimal neighbour is one hop farther from the destination than
    // the router itself, so "closest" leaves the same free outputs to draw from: same run.
    let random = run(TORUS, 0.6, &[]);
    assert!(random.deflection_rate > 0.05, "the load must deflect");
    assert_eq!(random, run(TORUS, 0.6, &[("hotpotato_deflect", "closest")]));
}

#[test]
fn a_packets_mean_over_its_flits_counts_fewer_routers_than_its_last_flit() {
    let net = build_str(KAUTZ).unwrap();
    let minimal = static_mean_routers(&net, "min");
    let pairs = |hops: &'static str| [("packet_size", "8"), ("hotpotato_packet_hops", hops)];
    // At a low load (1% of the flit hops deflected) both counts are near the minimal paths'.
    for hops in ["last", "mean"] {
        let r = run(KAUTZ, 0.02, &pairs(hops));
        assert!(r.deflection_rate < 0.05);
        assert!(
            (r.avg_hops - minimal).abs() < 0.3,
            "{hops}: {} routers vs minimal {minimal}",
            r.avg_hops
        );
    }
    let last = run(KAUTZ, 0.4, &pairs("last"));
    let mean = run(KAUTZ, 0.4, &pairs("mean"));
    assert!(last.deflection_rate > 0.05);
    assert!(
        mean.avg_hops < last.avg_hops && mean.avg_hops > minimal,
        "mean {} last {} minimal {minimal}",
        mean.avg_hops,
        last.avg_hops
    );
    // Only the count differs: the same flits moved the same way.
    assert_eq!(mean.accepted_throughput, last.accepted_throughput);
    assert_eq!(mean.deflection_rate, last.deflection_rate);
}

#[test]
fn unknown_policies_are_errors_naming_the_parameter() {
    for key in [
        "hotpotato_priority",
        "hotpotato_deflect",
        "hotpotato_packet_hops",
    ] {
        let mut c = SimConfig::default();
        match c.set(key, "fastest") {
            Err(e @ SimError::Core(_)) => {
                let text = e.to_string();
                assert!(
                    text.contains(key) && text.contains("fastest"),
                    "{key}: {text}"
                );
            }
            other => panic!("{key}: {other:?}"),
        }
    }
}
