//! Message-level workloads: every message arrives once (a property over random workloads,
//! networks, routings and thread counts, with the per-cycle conservation checks on), the same
//! result on one thread or two, and the collectives' completion times against the alpha-beta
//! closed forms of Thakur, Rabenseifner & Gropp (IJHPCA 19(1), 2005, §4) with alpha and beta
//! measured independently by point-to-point messages on the same network.

use proptest::prelude::*;
use topolab_core::progress::Silent;
use topolab_core::{build_str, Network};
use topolab_sim::{run_workload, BoundWorkload, Prepared, SimConfig, WorkloadResult};

fn config(pairs: &[(&str, &str)]) -> SimConfig {
    let mut c = SimConfig::default();
    c.set("seed", "1").unwrap();
    for (k, v) in pairs {
        c.set(k, v).unwrap();
    }
    c.validate().unwrap();
    c
}

fn run(net: &Network, routing: &str, jobs: &[&str], pairs: &[(&str, &str)]) -> WorkloadResult {
    let cfg = config(pairs);
    let prep = Prepared::new(net, routing, &cfg, &Silent).unwrap();
    let w = BoundWorkload::parse(net, jobs, 256).unwrap();
    run_workload(&prep, &w, &Silent).unwrap_or_else(|e| panic!("{jobs:?} on {routing}: {e}"))
}

/// Every packet delivered once, every message counted, for the jobs given.
fn conserved(r: &WorkloadResult) {
    assert_eq!(r.delivered_packets, r.packets);
    assert_eq!(r.delivered_flits, r.flits);
    assert!(r.packets > 0);
    for j in &r.jobs {
        assert!(j.completion_cycles > 0 && j.completion_cycles <= r.completion_cycles);
        assert!(j.slowest_rank_cycles <= j.completion_cycles);
    }
}

const WORKLOADS: &[&str] = &[
    "allreduce:bytes=4KiB",
    "allreduce:bytes=4KiB,algorithm=tree",
    "allreduce:bytes=4KiB,algorithm=hierarchical",
    "alltoall:bytes=8KiB,skew=1,seed=4",
    "alltoall:bytes=8KiB,algorithm=shift,iterations=2,compute=30",
    "allgather:bytes=4KiB,placement=random",
    "reducescatter:bytes=4KiB,placement=router",
    "pipeline:bytes=1KiB,microbatches=3,backward=true,stage_compute=20",
    "halo3d:bytes=1KiB,iterations=2,compute=10",
];

proptest! {
    #![proptest_config(ProptestConfig { cases: 12, .. ProptestConfig::default() })]

    /// No packet is lost or duplicated and every message arrives, under random jobs (one or two
    /// at once), networks, routings, thread counts and router settings, with the engine's
    /// per-cycle conservation checks on.
    #[test]
    fn every_message_arrives_once(
        w1 in 0..WORKLOADS.len(),
        w2 in 0..WORKLOADS.len(),
        two in any::<bool>(),
        net in 0..3usize,
        adaptive in any::<bool>(),
        threads in 1..3u32,
        packet_size in 1..4u32,
        background in any::<bool>(),
    ) {
        let (spec, routing) = [
            ("slimfly:q=5,p=2", if adaptive { "ugal_l" } else { "min" }),
            ("dragonfly:a=4,h=2", if adaptive { "ugal_l" } else { "min" }),
            ("torus:dims=4x4,p=2", if adaptive { "updown" } else { "dor" }),
        ][net];
        let net = build_str(spec).unwrap();
        let half = (net.num_endpoints() / 2).to_string();
        let first = format!("{},ranks={half}", WORKLOADS[w1]);
        // one job on half the endpoints, the other half sending uniform background traffic
        let jobs: Vec<&str> = if two || background { vec![&first, WORKLOADS[w2]] } else { vec![WORKLOADS[w1]] };
        let jobs = if background { vec![jobs[0]] } else { jobs };
        let threads = threads.to_string();
        let size = packet_size.to_string();
        let cfg = config(&[
            ("debug_checks", "1"),
            ("threads", &threads),
            ("packet_size", &size),
            ("num_vcs", "6"),
        ]);
        let prep = Prepared::new(&net, routing, &cfg, &Silent).unwrap();
        let mut w = BoundWorkload::parse(&net, &jobs, 256).unwrap();
        if background {
            let uniform = topolab_core::traffic::Traffic::parse("uniform", &net).unwrap();
            w = w.with_background(uniform, 0.2).unwrap();
        }
        let r = run_workload(&prep, &w, &Silent).unwrap();
        conserved(&r);
        prop_assert_eq!(r.background_packets > 0, background);
        prop_assert_eq!(r.jobs.len(), jobs.len());
    }
}

#[test]
fn the_same_on_one_thread_or_two() {
    let net = build_str("slimfly:q=5,p=3").unwrap();
    let jobs = [
        "allreduce:bytes=8KiB,ranks=64,placement=random",
        "alltoall:bytes=4KiB",
    ];
    let a = run(&net, "ugal_l", &jobs, &[("threads", "1"), ("num_vcs", "6")]);
    let b = run(&net, "ugal_l", &jobs, &[("threads", "2"), ("num_vcs", "6")]);
    assert_eq!(a.completion_cycles, b.completion_cycles);
    assert_eq!(a.jobs, b.jobs);
}

/// alpha (cycles) and beta (cycles per byte) of one message between two neighbouring
/// endpoints, fitted through two point-to-point messages of different sizes.
fn alpha_beta(net: &Network, pairs: &[(&str, &str)]) -> (f64, f64) {
    let time = |bytes: u64| {
        let spec = format!("pipeline:bytes={bytes},ranks=2,microbatches=1");
        run(net, "min", &[&spec], pairs).completion_cycles as f64
    };
    let (small, large) = (256u64, 256 * 64);
    let (t1, t2) = (time(small), time(large));
    let beta = (t2 - t1) / (large - small) as f64;
    (t1 - beta * small as f64, beta)
}

#[test]
fn ring_and_tree_allreduce_follow_the_alpha_beta_model() {
    // A complete graph with one endpoint per router: every ring step's n messages take n
    // distinct links, and a binomial tree's concurrent messages too, so the network adds no
    // contention and the closed forms should hold up to rounding of the chunks to packets.
    let n = 8u32;
    let net = build_str(&format!("hyperx:dims={n},p=1")).unwrap();
    for pairs in [vec![], vec![("packet_size", "4")]] {
        let (alpha, beta) = alpha_beta(&net, &pairs);
        // A link carries one flit per cycle: beta is the flit's share of a 256-byte packet.
        let flit_bytes = 256.0 / pairs.first().map_or(1.0, |p| p.1.parse::<f64>().unwrap());
        assert!(
            (beta * flit_bytes - 1.0).abs() < 0.01 && alpha > 0.0,
            "alpha {alpha}, beta {beta}"
        );
        let bytes = 64 * 1024u64;
        let steps = 2.0 * (n - 1) as f64;
        // Thakur et al., IJHPCA 2005, §4.4 (ring / Patarasuk & Yuan): 2(p-1) alpha + 2(p-1)/p n beta.
        let ring_model = steps * alpha + steps * (bytes as f64 / n as f64) * beta;
        let spec = format!("allreduce:bytes={bytes}");
        let ring = run(&net, "min", &[&spec], &pairs);
        let measured = ring.jobs[0].completion_cycles as f64;
        assert!(
            (measured - ring_model).abs() / ring_model < 0.03,
            "ring: measured {measured}, model {ring_model} (alpha {alpha}, beta {beta}, {pairs:?})"
        );
        // Binomial reduce then broadcast: 2 ceil(lg p) (alpha + n beta) (§4.1, §4.4).
        let levels = (n as f64).log2().ceil();
        let tree_model = 2.0 * levels * (alpha + bytes as f64 * beta);
        let spec = format!("allreduce:bytes={bytes},algorithm=tree");
        let tree = run(&net, "min", &[&spec], &pairs);
        let measured = tree.jobs[0].completion_cycles as f64;
        assert!(
            (measured - tree_model).abs() / tree_model < 0.03,
            "tree: measured {measured}, model {tree_model} ({pairs:?})"
        );
        // NCCL's bus bandwidth of the ring is the link's bandwidth times the share of each
        // step spent transferring rather than waiting alpha.
        let chunk = bytes as f64 / n as f64 * beta;
        let busbw_model = chunk / (alpha + chunk);
        let busbw = ring.jobs[0].busbw_link_fraction;
        assert!(
            (busbw - busbw_model).abs() / busbw_model < 0.03,
            "busbw {busbw} of a link, model {busbw_model}"
        );
    }
}

#[test]
fn a_neighbour_job_slows_a_collective_down() {
    // Two jobs on a Slim Fly, ranks interleaved router by router: the all-to-all shares the
    // allreduce's links, so the allreduce finishes later than alone; alone it is the same as
    // a single-job run with the same placement.
    let net = build_str("slimfly:q=5,p=3").unwrap();
    let ar = "allreduce:bytes=32KiB,ranks=75,placement=router";
    let alone = run(&net, "min", &[ar], &[]);
    let shared = run(
        &net,
        "min",
        &[ar, "alltoall:bytes=32KiB,algorithm=shift"],
        &[],
    );
    assert!(
        shared.jobs[0].completion_cycles > alone.jobs[0].completion_cycles,
        "alone {}, with a neighbour {}",
        alone.jobs[0].completion_cycles,
        shared.jobs[0].completion_cycles
    );
}

#[test]
fn bad_jobs_are_refused_with_the_parameter_named() {
    let net = build_str("slimfly:q=5,p=2").unwrap();
    for (jobs, needle) in [
        (vec!["allreduce:ranks=200"], "ranks"),
        (vec!["allreduce:ranks=60", "alltoall:ranks=50"], "ranks"),
        (vec!["allreduce", "alltoall"], "jobs"),
        (vec!["allreduce:placement=everywhere"], "placement"),
        (vec!["allreduce:placement=group"], "group"),
        (vec!["allreduce:mapping=/nonexistent/ranks.txt"], "mapping"),
    ] {
        let err = BoundWorkload::parse(&net, &jobs, 256)
            .unwrap_err()
            .to_string();
        assert!(err.contains(needle), "{jobs:?}: {err}");
    }
}

#[test]
fn background_traffic_slows_a_job_without_counting_as_its_own() {
    // Half the Slim Fly's endpoints run an all-to-all; the other half send uniform traffic at
    // 0.6 flits per cycle, which crosses the job's links.
    let net = build_str("slimfly:q=5,p=3").unwrap();
    let cfg = config(&[("num_vcs", "4")]);
    let prep = Prepared::new(&net, "min", &cfg, &Silent).unwrap();
    let job = ["alltoall:bytes=16KiB,ranks=75,placement=random"];
    let quiet = BoundWorkload::parse(&net, &job, 256).unwrap();
    let busy = quiet
        .clone()
        .with_background(
            topolab_core::traffic::Traffic::parse("uniform", &net).unwrap(),
            0.6,
        )
        .unwrap();
    let a = run_workload(&prep, &quiet, &Silent).unwrap();
    let b = run_workload(&prep, &busy, &Silent).unwrap();
    conserved(&a);
    conserved(&b);
    assert_eq!(a.background_packets, 0);
    assert!(b.background_packets > 0);
    assert_eq!(a.packets, b.packets);
    assert!(
        b.jobs[0].completion_cycles > a.jobs[0].completion_cycles,
        "quiet {}, with background {}",
        a.jobs[0].completion_cycles,
        b.jobs[0].completion_cycles
    );
    let bad = quiet.with_background(
        topolab_core::traffic::Traffic::parse("uniform", &net).unwrap(),
        1.5,
    );
    assert!(bad.unwrap_err().to_string().contains("background_load"));
}
