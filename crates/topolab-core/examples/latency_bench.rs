//! All-pairs latency on a 16,384-switch Skywalk (Fujiwara et al., IPDPS 2014, §II-E quotes under
//! 140 s for Fastest Routing on a 3.47 GHz Xeon X5690). Prints the time of Nearest and Fastest
//! Routing and, as a peer measured in the same run, plain all-pairs BFS hop distances over the same
//! graph.
//!
//! cargo run --release -p topolab-core --example latency_bench [-- SPEC]

use std::time::Instant;
use topolab_core::build_str;
use topolab_core::metrics::distance::distances_from;
use topolab_core::physical::{latency, place, Floor, LatencyModel, PlaceOptions, Routing};
use topolab_core::progress::Silent;

fn main() {
    let spec = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "skywalk:z=8,c=2048,di=7,do=4".to_string());
    let t = Instant::now();
    let net = build_str(&spec).expect("spec builds");
    println!(
        "{spec}: {} switches, {} links, built in {:.2} s; {} threads",
        net.num_routers(),
        net.num_links(),
        t.elapsed().as_secs_f64(),
        rayon::current_num_threads()
    );
    let floor = Floor::builtin("skywalk").unwrap();
    let p = place(&net, &floor, &PlaceOptions::default()).unwrap();
    let m = LatencyModel::default();
    let mut times = Vec::new();
    for routing in [Routing::Nearest, Routing::Fastest] {
        let t = Instant::now();
        let r = latency(&net, &p, &floor, &m, routing, &Silent).unwrap();
        let s = t.elapsed().as_secs_f64();
        times.push(s);
        println!(
            "{routing:?}: {s:.2} s  max {:.1} ns  avg {:.1} ns  avg hops {:.3}",
            r.max_latency_ns, r.avg_latency_ns, r.avg_hops
        );
    }
    use rayon::prelude::*;
    let t = Instant::now();
    let total: u64 = (0..net.num_routers())
        .into_par_iter()
        .map(|s| {
            distances_from(&net, s)
                .iter()
                .map(|&d| d as u64)
                .sum::<u64>()
        })
        .sum();
    let bfs = t.elapsed().as_secs_f64();
    println!("peer, all-pairs BFS (metrics::distance): {bfs:.2} s (sum {total})");
    println!(
        "ratio to BFS: nearest {:.2}x, fastest {:.2}x",
        times[0] / bfs,
        times[1] / bfs
    );
}
