//! Agreement with BookSim2 on the small reference configurations, read through topolab's
//! BookSim2 config reader: average latency within 5% below 80% of saturation, accepted
//! throughput within 3 percentage points on every row, including the saturated ones (that is
//! where the saturation throughput shows). Full BookSim2-method runs: the 50- and 64-router
//! networks take well under a second each.

use crate::common;

use common::Row;
use topolab_core::io::anynet;
use topolab_core::progress::Silent;
use topolab_core::{build_str, failures};
use topolab_sim::booksim::read_config;
use topolab_sim::{run, Prepared};

/// Runs every row on `prep` and checks it against BookSim2's figures; returns the report lines.
/// Saturation is read from the rows: the highest converged load with accepted within 1% of
/// offered (none when every row saturates: no latency is compared then).
fn check_rows(label: &str, prep: &Prepared, rows: &[&Row]) -> Vec<String> {
    let sat = rows
        .iter()
        .filter(|r| r.converged && r.accepted >= 0.99 * r.load)
        .map(|r| r.load)
        .fold(0.0, f64::max);
    let mut report = Vec::new();
    for row in rows {
        let ours = run(prep, "uniform", row.load, &Silent).unwrap();
        report.push(format!(
            "{label} load {}: latency {:.2} vs {:.2}, accepted {:.4} vs {:.4}, converged {} vs {}, cycles {} vs {}",
            row.load, ours.avg_latency, row.latency, ours.accepted_throughput, row.accepted,
            ours.converged, row.converged, ours.cycles, row.cycles
        ));
        let line = report.last().unwrap();
        assert!(
            (ours.accepted_throughput - row.accepted).abs() <= 0.03,
            "{line}"
        );
        assert_eq!(ours.converged, row.converged, "{line}");
        if row.converged && row.load < 0.8 * sat {
            let rel = (ours.avg_latency - row.latency).abs() / row.latency;
            assert!(rel <= 0.05, "{line}");
            // Below saturation the run ends as BookSim2's does: 3 warm-up and 3 converged
            // periods, then the drain.
            assert!(
                (ours.cycles as i64 - row.cycles as i64).abs() < 100,
                "{line}"
            );
        }
    }
    report
}

fn rows_of(all: &[Row], config: &str) -> Vec<Row> {
    all.iter().filter(|r| r.config == config).cloned().collect()
}

#[test]
fn slimfly_q5_agrees_with_booksim2() {
    let dir = common::reference_dir();
    let setup = read_config(&dir.join("sf_q5_p4_min.cfg")).unwrap();
    assert!(setup.config.booksim_compat);
    assert_eq!(setup.routing, "min_static");
    let rows = rows_of(&common::results(&dir), "sf_q5_p4_min.cfg");
    assert_eq!(rows.len(), 9);
    let mut report = Vec::new();
    for vcs in [4u32, 2, 1] {
        let mut cfg = setup.config.clone();
        cfg.set("num_vcs", &vcs.to_string()).unwrap();
        let prep = Prepared::new(&setup.network, &setup.routing, &cfg, &Silent).unwrap();
        let of_vcs: Vec<&Row> = rows
            .iter()
            .filter(|r| r.num_vcs.unwrap_or(4) == vcs)
            .collect();
        report.extend(check_rows(&format!("vcs {vcs}"), &prep, &of_vcs));
    }
    println!("{}", report.join("\n"));
}

/// Bursty injection (BookSim2's `injection_process = on_off`, bursts of 40 cycles on average
/// and 10 off) on the same Slim Fly: the same latency, throughput and saturation as BookSim2
/// within the tolerances of the Bernoulli rows, with the config's burst parameters read through
/// the config reader. The bursts show: latency at 0.5 above Bernoulli's, saturation below.
#[test]
fn slimfly_q5_on_off_agrees_with_booksim2() {
    let dir = common::reference_dir();
    let setup = read_config(&dir.join("sf_q5_p4_onoff.cfg")).unwrap();
    assert_eq!(
        setup.config.injection_process,
        topolab_sim::config::InjectionProcess::OnOff
    );
    assert_eq!(
        (
            setup.config.burst_alpha,
            setup.config.burst_beta,
            setup.config.burst_r1
        ),
        (0.1, 0.025, -1.0)
    );
    let all = common::results(&dir);
    let rows = rows_of(&all, "sf_q5_p4_onoff.cfg");
    assert_eq!(rows.len(), 6);
    let prep = Prepared::new(&setup.network, &setup.routing, &setup.config, &Silent).unwrap();
    let report = check_rows("on_off", &prep, &rows.iter().collect::<Vec<_>>());
    println!("{}", report.join("\n"));
    // Bursts cost latency at the same mean load (BookSim2's own rows, both processes).
    let bernoulli = rows_of(&all, "sf_q5_p4_min.cfg");
    let at = |rows: &[Row], load: f64| rows.iter().find(|r| r.load == load).unwrap().latency;
    assert!(at(&rows, 0.5) > at(&bernoulli, 0.5));
}

/// Request-reply traffic (BookSim2's `use_read_write`) on the same Slim Fly: reads of a 1-flit
/// request and a 4-flit reply, writes of a 4-flit request and a 1-flit reply, half each; the
/// load in flits counts requests and replies. Same tolerances as the Bernoulli rows.
#[test]
fn slimfly_q5_request_reply_agrees_with_booksim2() {
    let dir = common::reference_dir();
    let setup = read_config(&dir.join("sf_q5_p4_rw.cfg")).unwrap();
    let cfg = &setup.config;
    assert!(cfg.use_read_write);
    assert_eq!(
        (
            cfg.read_request_size,
            cfg.read_reply_size,
            cfg.write_request_size,
            cfg.write_reply_size
        ),
        (1, 4, 4, 1)
    );
    assert_eq!(cfg.flits_per_injection(), 5.0);
    let all = common::results(&dir);
    let rows = rows_of(&all, "sf_q5_p4_rw.cfg");
    assert_eq!(rows.len(), 6);
    let prep = Prepared::new(&setup.network, &setup.routing, cfg, &Silent).unwrap();
    let report = check_rows("request-reply", &prep, &rows.iter().collect::<Vec<_>>());
    println!("{}", report.join("\n"));
}

/// BookSim2's own link failures (`link_failures` of its k-ary n-cube) cannot be run at commit
/// 28f43299 (KNCube::InsertRandomFaults aborts on every call; reference/booksim/README.md), so
/// the failed links are given to BookSim2 the other way it takes them: the degraded network as
/// an anynet file. That file is topolab's own export of the network its explicit failure list
/// leaves, and topolab simulates that network (built here from the list, not read back from the
/// file) with the configuration's router. The 8x8 mesh is the 8x8 torus with its 16
/// wrap-around links failed: the same failure lists on `torus:dims=8x8` give the same networks.
#[test]
fn mesh_with_failed_links_agrees_with_booksim2() {
    let dir = common::reference_dir();
    let all = common::results(&dir);
    let mesh = build_str("mesh:dims=8x8").unwrap();
    let torus = build_str("torus:dims=8x8").unwrap();
    let list = |name: &str| format!("file:path={}", dir.join(name).display());
    let wraparound = list("torus_8x8_wraparound.txt");
    let mut report = Vec::new();
    for (name, failed_links, expected_rows) in [
        ("mesh_8x8", 0, 8),
        ("mesh_8x8_fail4", 4, 7),
        ("mesh_8x8_fail7", 7, 6),
    ] {
        let config = format!("{name}_min.cfg");
        let setup = read_config(&dir.join(&config)).unwrap();
        assert!(setup.config.booksim_compat);
        assert_eq!(setup.routing, "min_static");
        let (from_mesh, from_torus) = if failed_links == 0 {
            (mesh.clone(), failures::apply(&torus, &wraparound).unwrap())
        } else {
            let own = list(&format!("{name}.txt"));
            let degraded = failures::apply(&mesh, &own).unwrap();
            assert_eq!(degraded.failed_cables, failed_links, "{name}");
            assert!(degraded.cut_off_endpoints.is_empty(), "{name}");
            (
                degraded.network,
                failures::apply(&torus, &format!("{wraparound}+{own}")).unwrap(),
            )
        };
        assert_eq!(from_mesh.num_links(), 112 - failed_links, "{name}");
        assert_eq!(from_torus.failed_cables, 16 + failed_links, "{name}");
        // BookSim2 ran on exactly this network, from the mesh and from the torus.
        let booksim_input = std::fs::read_to_string(dir.join(format!("{name}.anynet"))).unwrap();
        assert_eq!(
            anynet::to_string(&from_mesh).unwrap(),
            booksim_input,
            "{name}"
        );
        let torus_input = anynet::to_string(&from_torus.network).unwrap();
        assert_eq!(torus_input, booksim_input, "{name} from the torus");
        let prep = Prepared::new(&from_mesh, &setup.routing, &setup.config, &Silent).unwrap();
        let rows = rows_of(&all, &config);
        assert_eq!(rows.len(), expected_rows, "{config}");
        report.extend(check_rows(name, &prep, &rows.iter().collect::<Vec<_>>()));
        // The degraded torus runs as the degraded mesh does.
        let prep_torus =
            Prepared::new(&from_torus.network, &setup.routing, &setup.config, &Silent).unwrap();
        let (a, b) = (
            run(&prep, "uniform", 0.1, &Silent).unwrap(),
            run(&prep_torus, "uniform", 0.1, &Silent).unwrap(),
        );
        assert_eq!(
            (a.avg_latency, a.accepted_throughput, a.cycles),
            (b.avg_latency, b.accepted_throughput, b.cycles),
            "{name}"
        );
    }
    println!("{}", report.join("\n"));
}
