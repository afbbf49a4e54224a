//! On/off bursty injection (BookSim2's `injection_process = on_off`): the gaps topolab draws a
//! period at a time against a cycle-by-cycle simulation of BookSim2's per-cycle rule
//! (OnOffInjectionProcess::test), BookSim2's derivation of the missing parameter, the errors
//! naming the parameter, and whole runs (mean rate, determinism over threads, the Bernoulli
//! path unchanged by the parameters).

use crate::common;

use common::short;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use topolab_core::progress::Silent;
use topolab_core::{build_str, TopolabError};
use topolab_sim::injection::{OnOff, NEVER};
use topolab_sim::{simulate, RunResult, SimConfig, SimError};

/// BookSim2's rule, one cycle at a time: the state moves, then an endpoint that is on creates
/// with probability r1. Returns the failed cycles between consecutive creations.
fn per_cycle_gaps(p: &OnOff, creations: usize, seed: u64) -> Vec<u64> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut on = true;
    let mut gaps = Vec::with_capacity(creations);
    let mut gap = 0u64;
    while gaps.len() < creations {
        on = if on {
            rng.random::<f64>() >= p.beta
        } else {
            rng.random::<f64>() < p.alpha
        };
        if on && rng.random::<f64>() < p.r1 {
            gaps.push(gap);
            gap = 0;
        } else {
            gap += 1;
        }
    }
    gaps
}

fn drawn_gaps(p: &OnOff, creations: usize, seed: u64) -> Vec<u64> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    (0..creations).map(|_| p.gap(true, &mut rng)).collect()
}

/// Mean, variance and the fractions of gaps of 0 and of more than 20 cycles.
fn summary(gaps: &[u64]) -> (f64, f64, f64, f64) {
    let n = gaps.len() as f64;
    let mean = gaps.iter().sum::<u64>() as f64 / n;
    let var = gaps.iter().map(|&g| (g as f64 - mean).powi(2)).sum::<f64>() / n;
    let zero = gaps.iter().filter(|&&g| g == 0).count() as f64 / n;
    let long = gaps.iter().filter(|&&g| g > 20).count() as f64 / n;
    (mean, var, zero, long)
}

#[test]
fn gaps_drawn_by_periods_follow_booksim2s_per_cycle_process() {
    for (rate, alpha, beta) in [(0.4, 0.1, 0.025), (0.1, 0.5, 0.5), (0.04, 0.01, 0.2)] {
        let p = OnOff::new(rate, alpha, beta, -1.0).unwrap();
        let n = 200_000;
        let (m1, v1, z1, l1) = summary(&per_cycle_gaps(&p, n, 1));
        let (m2, v2, z2, l2) = summary(&drawn_gaps(&p, n, 2));
        let line = format!(
            "rate {rate} alpha {alpha} beta {beta}: per cycle mean {m1:.3} var {v1:.2} P0 {z1:.4} \
             P>20 {l1:.4}; drawn mean {m2:.3} var {v2:.2} P0 {z2:.4} P>20 {l2:.4}"
        );
        // Mean gap of a process at `rate` packets per cycle: 1 / rate - 1.
        let want = 1.0 / rate - 1.0;
        // Standard error of a mean of n gaps: sqrt(var / n); 5 of them.
        let tol = 5.0 * (v1 / n as f64).sqrt();
        assert!((m1 - want).abs() < tol, "{line}");
        assert!((m2 - want).abs() < tol, "{line}");
        assert!((v2 - v1).abs() < 0.05 * v1, "{line}");
        for (a, b) in [(z1, z2), (l1, l2)] {
            let se = (a * (1.0 - a) / n as f64).sqrt().max(1e-4);
            assert!((a - b).abs() < 6.0 * se, "{line}");
        }
        // With alpha + beta = 1 the state forgets itself every cycle: Bernoulli's geometric
        // gaps. Below, bursts: more variable than those at the same rate.
        let geometric_var = (1.0 - rate) / (rate * rate);
        if alpha + beta == 1.0 {
            assert!((v2 - geometric_var).abs() < 0.05 * geometric_var, "{line}");
        } else {
            assert!(v2 > 1.5 * geometric_var, "{line}");
        }
    }
}

#[test]
fn the_missing_parameter_is_derived_as_booksim2_derives_it() {
    let r1 = OnOff::new(0.4, 0.1, 0.025, -1.0).unwrap();
    assert!((r1.r1 - 0.4 * 0.125 / 0.1).abs() < 1e-12);
    let alpha = OnOff::new(0.2, -1.0, 0.5, 0.8).unwrap();
    assert!((alpha.alpha - 0.5 * 0.2 / (0.8 - 0.2)).abs() < 1e-12);
    let beta = OnOff::new(0.2, 0.3, -1.0, 0.8).unwrap();
    assert!((beta.beta - 0.3 * (0.8 - 0.2) / 0.2).abs() < 1e-12);
    // Each gives the mean rate asked for: r1 alpha / (alpha + beta).
    for p in [r1, alpha, beta] {
        assert!((p.r1 * p.alpha / (p.alpha + p.beta) - p.rate).abs() < 1e-12);
    }
    // Never on, or never sending: no creation at all.
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    let off = OnOff::new(0.0, 0.5, 0.5, -1.0).unwrap();
    assert_eq!(off.gap(true, &mut rng), NEVER);
    // Never turning on cannot carry a load.
    assert!(OnOff::new(0.5, 0.0, 0.5, -1.0).is_err());
}

/// The parameter a ParameterError names, or a panic naming what came instead.
fn named_param(err: SimError) -> String {
    match err {
        SimError::Core(TopolabError::InvalidParameter { param, .. }) => param,
        other => panic!("expected a parameter error, got {other}"),
    }
}

#[test]
fn bad_on_off_settings_name_their_parameter() {
    let net = build_str("slimfly:q=5,p=3").unwrap();
    let try_run = |pairs: &[(&str, &str)], load: f64| -> SimError {
        let mut cfg = SimConfig::default();
        for (k, v) in pairs {
            if let Err(e) = cfg.set(k, v) {
                return e;
            }
        }
        if let Err(e) = cfg.validate() {
            return e;
        }
        simulate(&net, "min", "uniform", load, &cfg, &Silent).unwrap_err()
    };
    let on_off = ("injection_process", "on_off");
    // At most alpha / (alpha + beta) = 0.5 is reachable with the default bursts.
    let e = try_run(&[on_off], 0.6);
    assert!(format!("{e}").contains("0.5000"), "{e}");
    assert_eq!(named_param(e), "burst_r1");
    assert_eq!(
        named_param(try_run(&[("injection_process", "poisson")], 0.1)),
        "injection_process"
    );
    assert_eq!(
        named_param(try_run(&[on_off, ("burst_alpha", "1.5")], 0.1)),
        "burst_alpha"
    );
    // None negative: nothing to derive.
    assert_eq!(
        named_param(try_run(&[on_off, ("burst_r1", "0.5")], 0.1)),
        "burst_r1"
    );
    // A derived alpha above 1.
    assert_eq!(
        named_param(try_run(
            &[on_off, ("burst_alpha", "-1"), ("burst_r1", "0.3")],
            0.25
        )),
        "burst_alpha"
    );
}

fn run(load: f64, pairs: &[(&str, &str)]) -> RunResult {
    let net = build_str("slimfly:q=5,p=3").unwrap();
    let mut r = simulate(&net, "min", "uniform", load, &short(pairs), &Silent).unwrap();
    r.wall_seconds = 0.0;
    r
}

#[test]
fn on_off_runs_carry_the_load_are_deterministic_and_leave_bernoulli_alone() {
    let bursts = [
        ("injection_process", "on_off"),
        ("burst_alpha", "0.05"),
        ("burst_beta", "0.05"),
    ];
    let one = run(0.3, &bursts);
    let two = run(0.3, &[&bursts[..], &[("threads", "2")]].concat());
    assert_eq!(format!("{one:?}"), format!("{two:?}"));
    assert!(
        (one.accepted_throughput - 0.3).abs() < 0.02,
        "{}",
        one.accepted_throughput
    );
    // Bursts of 20 cycles at twice the mean rate queue at the source: latency above
    // Bernoulli's at the same load.
    let bernoulli = run(0.3, &[]);
    assert!(one.avg_latency > bernoulli.avg_latency);
    // The burst parameters mean nothing to a Bernoulli run.
    let ignored = run(0.3, &[("burst_alpha", "0.05"), ("burst_beta", "0.05")]);
    assert_eq!(format!("{bernoulli:?}"), format!("{ignored:?}"));
}

#[test]
fn booksim2_configs_carry_the_on_off_keys() {
    let dir = common::reference_dir();
    let text = std::fs::read_to_string(dir.join("sf_q5_p4_onoff.cfg")).unwrap();
    let setup = topolab_sim::booksim::parse_config(&text, &dir, "sf_q5_p4_onoff.cfg").unwrap();
    assert_eq!(
        (
            setup.config.burst_alpha,
            setup.config.burst_beta,
            setup.config.burst_r1
        ),
        (0.1, 0.025, -1.0)
    );
    // BookSim2's inline form is refused by name rather than read as something else.
    let inline = text.replace(
        "injection_process = on_off;",
        "injection_process = on_off(0.1,0.025);",
    );
    let e = topolab_sim::booksim::parse_config(&inline, &dir, "inline.cfg").unwrap_err();
    assert_eq!(named_param(e), "injection_process");
    let two = text.replace("burst_beta = 0.025;", "burst_beta = -1;");
    // Two negatives (burst_r1 is -1 by default): nothing says which to derive.
    let e = topolab_sim::booksim::parse_config(&two, &dir, "two.cfg").unwrap_err();
    assert!(
        format!("{e}").contains("now burst_beta and burst_r1 are"),
        "{e}"
    );
    assert_eq!(named_param(e), "burst_r1");
}
