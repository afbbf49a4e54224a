//! Speed and agreement on BookSim2's reference configurations (reference/booksim in the repository).
//!
//!     cargo run --release -p topolab-sim --example booksim_reference -- [FILTER] [load=X] [repeat=K] [PARAM=VALUE ...]
//!
//! For every row of results.csv whose config contains FILTER (and whose load is X), runs the same configuration at the
//! same offered load (read by topolab's BookSim2 config reader) and prints, beside BookSim2's
//! figures: average latency, accepted throughput, simulated cycles, wall and CPU seconds,
//! simulated cycles/s, router-cycles/s, flit-hops (for instructions per flit-hop under
//! callgrind), flit-hops/s and the ratio of BookSim2's recorded wall time (wall_times.csv) to
//! topolab's (the best of `repeat` runs). The recorded times were measured on another day: the
//! ratio is indicative only; `make bench` with a BookSim2 binary measures both back to back. CPU seconds are the whole process's (all threads).
//! PARAM=VALUE pairs override simulation parameters (threads=2, booksim_compat=0, ...);
//! routing=NAME replaces the configuration's routing (e.g. routing=min to time the random
//! minimal rule against the fixed table on the same network and load).

use topolab_core::progress::Silent;
use topolab_sim::booksim::read_config;
use topolab_sim::{run, Prepared};

mod common;
use common::{cpu_seconds, reference_dir, wall_times};

fn main() {
    let mut filter = String::new();
    let mut overrides: Vec<(String, String)> = Vec::new();
    let mut repeat = 1;
    let mut only_load: Option<f64> = None;
    let mut routing: Option<String> = None;
    for a in std::env::args().skip(1) {
        match a.split_once('=') {
            Some(("repeat", v)) => repeat = v.parse().expect("repeat=K"),
            Some(("load", v)) => only_load = Some(v.parse().expect("load=X")),
            Some(("routing", v)) => routing = Some(v.to_string()),
            Some((k, v)) => overrides.push((k.to_string(), v.to_string())),
            None => filter = a,
        }
    }
    let dir = reference_dir();
    let csv = std::fs::read_to_string(dir.join("results.csv")).unwrap();
    let recorded_wall = wall_times(&dir);
    println!(
        "{:<28} {:>6} {:>9} {:>9} {:>7} {:>7} {:>6} {:>6} {:>7} {:>7} {:>8} {:>10} {:>10} {:>11} {:>7} {:>9}",
        "config", "load", "lat", "bs_lat", "acc", "bs_acc", "cyc", "bs_cyc", "wall_s", "cpu_s",
        "cyc/s", "rcyc/s", "fhops", "fhops/s", "bs_wall", "speedup"
    );
    let mut last: Option<(String, Prepared)> = None;
    for line in csv.lines().skip(1) {
        let f: Vec<&str> = line.split(',').collect();
        if !f[0].contains(&filter) {
            continue;
        }
        let (file, vcs) = match f[0].split_once(" num_vcs=") {
            Some((c, v)) => (c, Some(v)),
            None => (f[0], None),
        };
        let load: f64 = f[2].parse().unwrap();
        if only_load.is_some_and(|l| (l - load).abs() > 1e-9) {
            continue;
        }
        let key = f[0].to_string();
        if last.as_ref().map(|l| &l.0) != Some(&key) {
            let setup = read_config(&dir.join(file)).unwrap();
            let mut cfg = setup.config.clone();
            if let Some(v) = vcs {
                cfg.set("num_vcs", v).unwrap();
            }
            for (k, v) in &overrides {
                cfg.set(k, v).unwrap();
            }
            let name = routing.as_deref().unwrap_or(&setup.routing);
            let prep = Prepared::new(&setup.network, name, &cfg, &Silent).unwrap();
            last = Some((key.clone(), prep));
        }
        let prep = &last.as_ref().unwrap().1;
        let (mut best_wall, mut best_cpu) = (f64::INFINITY, f64::INFINITY);
        let mut result = None;
        for _ in 0..repeat {
            let c0 = cpu_seconds();
            let r = run(prep, "uniform", load, &Silent).unwrap();
            best_cpu = best_cpu.min(cpu_seconds() - c0);
            best_wall = best_wall.min(r.wall_seconds);
            result = Some(r);
        }
        let r = result.unwrap();
        let bs_wall = recorded_wall[&(f[0].to_string(), f[2].to_string())];
        let cycles = r.cycles as f64;
        println!(
            "{:<28} {:>6} {:>9.2} {:>9} {:>7.4} {:>7} {:>6} {:>6} {:>7.2} {:>7.2} {:>8.0} {:>10.0} {:>10} {:>11.0} {:>7} {:>8.1}x",
            f[0], load, r.avg_latency, f[3], r.accepted_throughput, f[6], r.cycles, f[8],
            best_wall, best_cpu, cycles / best_wall, r.router_cycles as f64 / best_wall,
            r.flit_hops, r.flit_hops as f64 / best_wall, bs_wall, bs_wall / best_wall
        );
    }
}
