use topolab_core::{build_str, progress::Silent};
use topolab_sim::{simulate, SimConfig};
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let net = build_str(&args[1]).unwrap();
    let mut cfg = SimConfig::default();
    for kv in &args[4..] {
        let (k, v) = kv.split_once('=').unwrap();
        cfg.set(k, v).unwrap();
    }
    for l in args[3].split(',') {
        let load: f64 = l.parse().unwrap();
        let r = simulate(&net, &args[2], "uniform", load, &cfg, &Silent).unwrap();
        println!("{load} acc={:.4} lat={:.2} hops={:.3} defl={:.4} max={} sat={} unst={} pk={} cyc={} wall={:.2}", r.accepted_throughput, r.avg_latency, r.avg_hops, r.deflection_rate, r.max_hops, r.saturated, r.unstable, r.measured_packets, r.cycles, r.wall_seconds);
    }
}
