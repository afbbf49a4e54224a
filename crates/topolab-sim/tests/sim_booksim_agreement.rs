//! Agreement with BookSim2 on the small reference configuration (Slim Fly q = 5, anynet, min),
//! read through topolab's BookSim2 config reader: average latency within 5% below 80% of
//! saturation, accepted throughput within 3 percentage points on every row, including the
//! saturated ones (that is where the saturation throughput shows). Full BookSim2-method runs:
//! the 50-router network takes well under a second each.

mod common;

use topolab_core::progress::Silent;
use topolab_sim::booksim::read_config;
use topolab_sim::{run, Prepared};

#[test]
fn slimfly_q5_agrees_with_booksim2() {
    let dir = common::reference_dir();
    let setup = read_config(&dir.join("sf_q5_p4_min.cfg")).unwrap();
    assert!(setup.config.booksim_compat);
    assert_eq!(setup.routing, "min_static");
    let rows: Vec<_> = common::results(&dir)
        .into_iter()
        .filter(|r| r.config == "sf_q5_p4_min.cfg")
        .collect();
    assert_eq!(rows.len(), 9);
    // Saturation per VC count, read from the rows: the highest converged load with accepted
    // within 1% of offered.
    let saturation = |vcs: u32| -> f64 {
        rows.iter()
            .filter(|r| r.num_vcs.unwrap_or(4) == vcs && r.converged)
            .filter(|r| r.accepted >= 0.99 * r.load)
            .map(|r| r.load)
            .fold(0.0, f64::max)
    };
    let mut report = Vec::new();
    for vcs in [4u32, 2, 1] {
        let mut cfg = setup.config.clone();
        cfg.set("num_vcs", &vcs.to_string()).unwrap();
        let prep = Prepared::new(&setup.network, &setup.routing, &cfg, &Silent).unwrap();
        let sat = saturation(vcs);
        for row in rows.iter().filter(|r| r.num_vcs.unwrap_or(4) == vcs) {
            let ours = run(&prep, "uniform", row.load, &Silent).unwrap();
            report.push(format!(
                "vcs {vcs} load {}: latency {:.2} vs {:.2}, accepted {:.4} vs {:.4}, converged {} vs {}",
                row.load, ours.avg_latency, row.latency, ours.accepted_throughput, row.accepted, ours.converged, row.converged
            ));
            assert!(
                (ours.accepted_throughput - row.accepted).abs() <= 0.03,
                "{}",
                report.last().unwrap()
            );
            assert_eq!(ours.converged, row.converged, "{}", report.last().unwrap());
            if row.converged && row.load < 0.8 * sat {
                let rel = (ours.avg_latency - row.latency).abs() / row.latency;
                assert!(rel <= 0.05, "{}", report.last().unwrap());
                // Below saturation the run ends as BookSim2's does: 3 warm-up and 3 converged
                // periods, then the drain.
                assert!((ours.cycles as i64 - row.cycles as i64).abs() < 100);
            }
        }
    }
    println!("{}", report.join("\n"));
}
