//! Results identical field by field to a recording (`tests/golden/sim_results.json`), made before
//! the engine and routing-catalog changes of issues 14 and 16: same spec, routing, traffic, load,
//! parameters and seed must give the same numbers after any change that claims not to alter the
//! model. Covers the reference configurations' routings (min_static, dor, dragonfly_min,
//! dragonfly_ugal), the core rules (min, valiant, ugal_l, ugal_g, updown), multi-flit packets,
//! internal speedup, credit delay, the hot-potato router and one and two threads.
//!
//! Re-record only on purpose, when a change is meant to alter results:
//! `TOPOLAB_BLESS=1 cargo test -p topolab-sim --test sim sim_golden::`, and say why in the commit.

use crate::common;

use common::short;
use serde_json::Value;
use std::path::PathBuf;
use topolab_core::build_str;
use topolab_core::progress::Silent;
use topolab_sim::simulate;

/// (network, routing, traffic, load, parameters)
type Case = (
    &'static str,
    &'static str,
    &'static str,
    f64,
    &'static [(&'static str, &'static str)],
);

const CASES: &[Case] = &[
    ("slimfly:q=5", "min_static", "uniform", 0.3, &[]),
    ("slimfly:q=5", "min_static", "uniform", 0.7, &[]),
    ("slimfly:q=5", "min", "uniform", 0.5, &[("num_vcs", "2")]),
    ("slimfly:q=5", "valiant", "uniform", 0.3, &[]),
    ("slimfly:q=5", "ugal_l", "worst", 0.3, &[]),
    ("slimfly:q=5", "ugal_g", "uniform", 0.4, &[]),
    (
        "slimfly:q=7",
        "ugal_l",
        "uniform",
        0.6,
        &[("internal_speedup", "2"), ("credit_delay", "2")],
    ),
    (
        "slimfly:q=5",
        "min",
        "uniform",
        0.4,
        &[("packet_size", "4")],
    ),
    // Internal speedup 2 with one-flit packets and unit delays: compare's router setup.
    (
        "slimfly:q=5",
        "min",
        "uniform",
        0.8,
        &[("internal_speedup", "2")],
    ),
    (
        "dragonfly:a=4,h=2",
        "ugal_l",
        "uniform",
        0.5,
        &[("internal_speedup", "2"), ("num_vcs", "6")],
    ),
    (
        "torus:dims=4x4x4",
        "dor",
        "tornado",
        0.4,
        &[("internal_speedup", "2"), ("booksim_compat", "1")],
    ),
    (
        "slimfly:q=5",
        "min",
        "uniform",
        0.5,
        &[("internal_speedup", "1.5"), ("packet_size", "2")],
    ),
    ("slimfly:q=5", "min", "uniform", 0.4, &[]),
    ("slimfly:q=5", "min", "uniform", 0.4, &[("threads", "2")]),
    ("torus:dims=4x4x4", "dor", "uniform", 0.3, &[]),
    (
        "torus:dims=4x4x4",
        "dor",
        "uniform",
        0.6,
        &[("booksim_compat", "1")],
    ),
    ("torus:dims=4x4", "updown", "uniform", 0.2, &[]),
    ("dragonfly:a=4,h=2", "dragonfly_min", "uniform", 0.3, &[]),
    ("dragonfly:a=4,h=2", "dragonfly_ugal", "uniform", 0.3, &[]),
    ("dragonfly:a=4,h=2", "dragonfly_ugal", "worst", 0.2, &[]),
    (
        "dragonfly:a=4,h=2",
        "ugal_l",
        "uniform",
        0.3,
        &[("num_vcs", "6")],
    ),
    ("fattree:k=4", "min", "uniform", 0.5, &[]),
    (
        "slimfly:q=5",
        "min",
        "uniform",
        0.3,
        &[("router", "hotpotato")],
    ),
];

fn golden_path() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/golden/sim_results.json")
}

fn key(case: &Case) -> String {
    let params: Vec<String> = case.4.iter().map(|(k, v)| format!("{k}={v}")).collect();
    format!(
        "{} {} {} {} [{}]",
        case.0,
        case.1,
        case.2,
        case.3,
        params.join(",")
    )
}

fn record() -> serde_json::Map<String, Value> {
    let mut out = serde_json::Map::new();
    for case in CASES {
        let net = build_str(case.0).unwrap();
        let cfg = short(case.4);
        let r = simulate(&net, case.1, case.2, case.3, &cfg, &Silent)
            .unwrap_or_else(|e| panic!("{}: {e}", key(case)));
        let mut v = serde_json::to_value(&r).unwrap();
        // The only field that may differ between identical runs.
        v.as_object_mut().unwrap().remove("wall_seconds");
        out.insert(key(case), v);
    }
    out
}

#[test]
fn results_equal_the_recording_field_by_field() {
    let now = record();
    let path = golden_path();
    if std::env::var_os("TOPOLAB_BLESS").is_some() {
        let text = serde_json::to_string_pretty(&Value::Object(now)).unwrap();
        std::fs::write(&path, text + "\n").unwrap();
        return;
    }
    let text = std::fs::read_to_string(&path).expect("tests/golden/sim_results.json");
    let then: serde_json::Map<String, Value> = serde_json::from_str(&text).unwrap();
    // serde_json's float parsing may be off by one ulp from what it printed, so the new results
    // make the same print-and-parse trip before being compared.
    let now: serde_json::Map<String, Value> =
        serde_json::from_str(&serde_json::to_string(&Value::Object(now)).unwrap()).unwrap();
    let mut differences = Vec::new();
    for case in CASES {
        let k = key(case);
        let (Some(a), Some(b)) = (then.get(&k), now.get(&k)) else {
            differences.push(format!("{k}: not in the recording"));
            continue;
        };
        for (field, want) in a.as_object().unwrap() {
            let got = &b[field];
            if got != want {
                differences.push(format!("{k}: {field} recorded {want}, now {got}"));
            }
        }
    }
    assert!(differences.is_empty(), "{}", differences.join("\n"));
}

#[test]
fn two_threads_give_the_one_thread_results() {
    let net = build_str("slimfly:q=5").unwrap();
    let mut results = Vec::new();
    for threads in ["1", "2"] {
        let cfg = short(&[("threads", threads)]);
        let mut r = simulate(&net, "ugal_l", "worst", 0.3, &cfg, &Silent).unwrap();
        r.wall_seconds = 0.0;
        results.push(r);
    }
    assert_eq!(results[0], results[1]);
}
