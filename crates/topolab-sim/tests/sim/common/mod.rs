//! Helpers shared by the simulator's integration tests.
#![allow(dead_code)]

use std::path::PathBuf;
use topolab_core::progress::Silent;
use topolab_core::routing::catalog::build_static;
use topolab_core::routing::path::PathSet;
use topolab_core::Network;
use topolab_sim::SimConfig;

/// The BookSim2 reference data kept in the repository (reference/booksim, its README says how it
/// was measured). Missing data is a failure, not a reason to skip: the agreement with BookSim2 is
/// what these tests exist to check.
pub fn reference_dir() -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../reference/booksim");
    assert!(
        dir.join("results.csv").is_file(),
        "BookSim2 reference data missing: {} has no results.csv",
        dir.display()
    );
    dir
}

/// A configuration with short sample periods, for tests that do not compare with BookSim2, on
/// seed 1 (the seed the recordings of tests/golden and these tests' thresholds were made with).
pub fn short(pairs: &[(&str, &str)]) -> SimConfig {
    let mut c = SimConfig::default();
    c.set("seed", "1").unwrap();
    c.set("sample_period", "300").unwrap();
    c.set("warmup_periods", "1").unwrap();
    c.set("max_samples", "3").unwrap();
    for (k, v) in pairs {
        c.set(k, v).unwrap();
    }
    c.validate().unwrap();
    c
}

/// One row of results.csv.
#[derive(Debug, Clone)]
pub struct Row {
    pub config: String,
    pub num_vcs: Option<u32>,
    pub load: f64,
    pub latency: f64,
    pub network_latency: f64,
    pub accepted: f64,
    pub converged: bool,
    pub cycles: u64,
}

pub fn results(dir: &std::path::Path) -> Vec<Row> {
    let text = std::fs::read_to_string(dir.join("results.csv")).unwrap();
    text.lines()
        .skip(1)
        .map(|l| {
            let f: Vec<&str> = l.split(',').collect();
            let (config, vcs) = match f[0].split_once(" num_vcs=") {
                Some((c, v)) => (c.to_string(), Some(v.parse().unwrap())),
                None => (f[0].to_string(), None),
            };
            Row {
                config,
                num_vcs: vcs,
                load: f[2].parse().unwrap(),
                latency: f[3].parse().unwrap(),
                network_latency: f[4].parse().unwrap(),
                accepted: f[6].parse().unwrap(),
                converged: f[7] == "true",
                cycles: f[8].parse().unwrap(),
            }
        })
        .collect()
}

/// Mean routers visited per packet under uniform traffic (every endpoint pair, self included as
/// in BookSim2's uniform pattern), from the static path enumeration of the same routing: what
/// the simulated `avg_hops` of an oblivious routing must approach.
pub fn static_mean_routers(net: &Network, routing: &str) -> f64 {
    let def = build_static(net, routing, &Silent).unwrap();
    let ep = net.endpoints();
    let mut ps = PathSet::default();
    let (mut sum, mut count) = (0.0, 0.0);
    for s in 0..net.num_routers() {
        for t in 0..net.num_routers() {
            let pairs = (ep[s] * ep[t]) as f64;
            if pairs == 0.0 {
                continue;
            }
            def.paths(s, t, &mut ps).unwrap();
            let total: f64 = (0..ps.len()).map(|i| ps.path(i).2).sum();
            let mean: f64 = (0..ps.len())
                .map(|i| {
                    let (rs, _, w) = ps.path(i);
                    w * rs.len() as f64
                })
                .sum::<f64>()
                / total;
            sum += pairs * mean;
            count += pairs;
        }
    }
    sum / count
}
