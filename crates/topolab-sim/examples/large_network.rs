//! Memory and speed on a large network: builds SPEC, simulates a short run and prints the peak
//! resident memory (VmHWM from /proc/self/status) with the simulated rates.
//!
//!     cargo run --release -p topolab-sim --example large_network -- slimfly:q=37,p=27 [ROUTING] [LOAD] [PARAM=VALUE ...]

use topolab_core::build_str;
use topolab_core::progress::Silent;
use topolab_sim::{simulate, SimConfig};

fn peak_rss_mib() -> f64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmHWM:"))
                .and_then(|l| l.split_whitespace().nth(1)?.parse::<f64>().ok())
        })
        .map(|kib| kib / 1024.0)
        .unwrap_or(f64::NAN)
}

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
    let t = std::time::Instant::now();
    let net = build_str(spec).unwrap();
    println!(
        "{spec}: {} routers, {} endpoints, radix {} (built in {:.1} s, peak {:.0} MiB)",
        net.num_routers(),
        net.num_endpoints(),
        net.radix(),
        t.elapsed().as_secs_f64(),
        peak_rss_mib()
    );
    let r = simulate(&net, routing, "uniform", load, &cfg, &Silent).unwrap();
    println!(
        "{routing} load {load}: latency {:.2}, accepted {:.4}, {} cycles in {:.1} s: {:.0} cycles/s, {:.0} router-cycles/s, {:.0} flit-hops/s; peak resident memory {:.0} MiB",
        r.avg_latency,
        r.accepted_throughput,
        r.cycles,
        r.wall_seconds,
        r.cycles as f64 / r.wall_seconds,
        r.router_cycles as f64 / r.wall_seconds,
        r.flit_hops as f64 / r.wall_seconds,
        peak_rss_mib()
    );
}
