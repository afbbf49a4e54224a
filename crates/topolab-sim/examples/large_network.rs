//! Memory and speed on a large network: builds SPEC, prepares it for simulation (wiring, routing
//! tables), simulates a short run and prints the setup's and the run's CPU seconds separately,
//! the CPU seconds per simulated cycle and per endpoint-cycle, and the peak resident memory
//! (VmHWM from /proc/self/status). The run's figures include building every router's state
//! (`Engine::new`, inside `run`); that is timed once more on its own beforehand and printed, with
//! the per-cycle cost without it, since a short run spends a good part of its time there.
//!
//!     cargo run --release -p topolab-sim --example large_network -- slimfly:q=37,p=27 [ROUTING] [LOAD] [PARAM=VALUE ...]
//!
//! The default run is short (3 periods of 200 cycles); `sample_period=10 max_samples=3` bounds
//! it to some 40-60 cycles for the largest networks.

use topolab_core::build_str;
use topolab_core::progress::Silent;
use topolab_sim::engine::Engine;
use topolab_sim::injection::Source;
use topolab_sim::traffic::Traffic;
use topolab_sim::{run, Prepared, SimConfig};

mod common;
use common::{cpu_seconds, peak_rss_mib};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let spec = args
        .first()
        .map(String::as_str)
        .unwrap_or("slimfly:q=37,p=27");
    let routing = args.get(1).map(String::as_str).unwrap_or("min");
    let load: f64 = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(0.5);
    let mut cfg = SimConfig::default();
    cfg.set("sample_period", "200").unwrap();
    cfg.set("warmup_periods", "1").unwrap();
    cfg.set("max_samples", "3").unwrap();
    for kv in args.iter().skip(3) {
        let (k, v) = kv.split_once('=').expect("PARAM=VALUE");
        cfg.set(k, v).unwrap();
    }
    let (t, c) = (std::time::Instant::now(), cpu_seconds());
    let net = build_str(spec).unwrap();
    println!(
        "{spec}: {} routers, {} endpoints, radix {} (built in {:.1} s, {:.1} CPU-s, peak {:.0} MiB)",
        net.num_routers(),
        net.num_endpoints(),
        net.radix(),
        t.elapsed().as_secs_f64(),
        cpu_seconds() - c,
        peak_rss_mib()
    );
    let (t, c) = (std::time::Instant::now(), cpu_seconds());
    let prep = Prepared::new(&net, routing, &cfg, &Silent).unwrap();
    println!(
        "prepared ({routing}) in {:.1} s, {:.1} CPU-s, peak {:.0} MiB",
        t.elapsed().as_secs_f64(),
        cpu_seconds() - c,
        peak_rss_mib()
    );
    let c = cpu_seconds();
    let pattern = Traffic::parse("uniform", &prep.net).unwrap();
    let engine = Engine::new(
        &prep,
        Source::bernoulli(pattern, load / cfg.packet_size as f64),
    );
    drop(engine.unwrap());
    let setup = cpu_seconds() - c;
    let c = cpu_seconds();
    let r = run(&prep, "uniform", load, &Silent).unwrap();
    let cpu = cpu_seconds() - c;
    let cycles = r.cycles as f64;
    println!(
        "{routing} load {load}: latency {:.2}, accepted {:.4}, {} cycles in {:.1} s, {:.1} CPU-s: \
         {:.3} CPU-s per cycle, {:.1} CPU-ns per endpoint-cycle, {:.0} flit-hops/s; peak resident memory {:.0} MiB",
        r.avg_latency,
        r.accepted_throughput,
        r.cycles,
        r.wall_seconds,
        cpu,
        cpu / cycles,
        cpu / cycles / net.num_endpoints() as f64 * 1e9,
        r.flit_hops as f64 / r.wall_seconds,
        peak_rss_mib()
    );
    println!(
        "router state built in {setup:.1} CPU-s (part of the run's): {:.3} CPU-s per cycle without it",
        (cpu - setup) / cycles
    );
}
