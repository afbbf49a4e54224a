//! Request-reply traffic (BookSim2's `use_read_write`): every request is answered by one reply
//! of its own size (the accepted throughput is the load only if each request brings its
//! reply's flits back), runs are deterministic over threads, and the settings topolab does
//! not model are refused by name. tests/sim_booksim_agreement.rs compares with BookSim2.

use crate::common;

use common::short;
use topolab_core::progress::Silent;
use topolab_core::{build_str, TopolabError};
use topolab_sim::{simulate, RunResult, SimConfig, SimError};

fn run(load: f64, pairs: &[(&str, &str)]) -> RunResult {
    let net = build_str("slimfly:q=5,p=3").unwrap();
    let mut r = simulate(&net, "min", "uniform", load, &short(pairs), &Silent).unwrap();
    r.wall_seconds = 0.0;
    r
}

const READS: &[(&str, &str)] = &[
    ("use_read_write", "true"),
    ("write_fraction", "0"),
    ("read_request_size", "1"),
    ("read_reply_size", "4"),
    ("debug_checks", "true"),
];

#[test]
fn every_request_brings_its_reply() {
    // Reads only: 1 request flit and 4 reply flits per request. Without replies the network
    // would accept a fifth of the load; with them, all of it.
    let r = run(0.2, READS);
    assert!(
        (r.accepted_throughput - 0.2).abs() < 0.01,
        "accepted {}",
        r.accepted_throughput
    );
    // Writes only, with the sizes the other way round: the same flits per pair.
    let w = run(
        0.2,
        &[
            ("use_read_write", "true"),
            ("write_fraction", "1"),
            ("write_request_size", "4"),
            ("write_reply_size", "1"),
        ],
    );
    assert!((w.accepted_throughput - 0.2).abs() < 0.01, "{w:?}");
    // A reply waits at least the cycle after its request's arrival, and multi-flit packets
    // take longer than single flits: latency above the 1-flit Bernoulli run's.
    let single = run(0.2, &[]);
    assert!(r.avg_latency > single.avg_latency + 1.0, "{r:?} {single:?}");
}

#[test]
fn request_reply_runs_are_deterministic_over_threads() {
    let one = run(0.3, READS);
    let two = run(0.3, &[READS, &[("threads", "2")]].concat());
    assert_eq!(format!("{one:?}"), format!("{two:?}"));
}

fn named_param(err: SimError) -> String {
    match err {
        SimError::Core(TopolabError::InvalidParameter { param, .. }) => param,
        other => panic!("expected a parameter error, got {other}"),
    }
}

#[test]
fn unmodelled_request_reply_settings_are_refused_by_name() {
    for other in [("router", "hotpotato"), ("flow_control", "vct")] {
        let mut cfg = SimConfig::default();
        cfg.set("use_read_write", "1").unwrap();
        cfg.set(other.0, other.1).unwrap();
        assert_eq!(named_param(cfg.validate().unwrap_err()), "use_read_write");
    }
    let mut cfg = SimConfig::default();
    assert_eq!(
        named_param(cfg.set("write_fraction", "1.5").unwrap_err()),
        "write_fraction"
    );
    assert_eq!(
        named_param(cfg.set("read_reply_size", "0").unwrap_err()),
        "read_reply_size"
    );
    // BookSim2's VC split between requests and replies is refused, not ignored.
    let dir = common::reference_dir();
    let text = std::fs::read_to_string(dir.join("sf_q5_p4_rw.cfg")).unwrap();
    let split = text.replace("read_reply_begin_vc = 0;", "read_reply_begin_vc = 2;");
    let e = topolab_sim::booksim::parse_config(&split, &dir, "split.cfg").unwrap_err();
    assert_eq!(named_param(e), "read_reply_begin_vc");
}
