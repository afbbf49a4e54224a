//! Resilience to random cable failures against closed forms (ring), exact expectations by
//! enumeration (complete graphs), determinism across seeds and threads, interruption.

use crate::metrics_support;

use metrics_support::{complete, network, ring};
use std::sync::atomic::AtomicBool;
use topolab_core::metrics::resilience::{resilience, Resilience, ResilienceOptions, Threshold};
use topolab_core::progress::{CancelFlag, Silent};
use topolab_core::{build_str, Network, TopolabError};

fn run(net: &Network, seed: u64) -> Resilience {
    resilience(
        net,
        &ResilienceOptions {
            seed,
            ..Default::default()
        },
        &Silent,
    )
    .unwrap()
}

/// m_k = ⌊k·C/20⌋ cables removed at step k.
fn removed(k: u64, cables: u64) -> u64 {
    k * cables / 20
}

fn assert_exact(t: &Threshold, steps: u64, what: &str) {
    let want = steps as f64 / 20.0;
    assert!(
        (t.mean - want).abs() < 1e-12,
        "{what}: mean {} want {want}",
        t.mean
    );
    assert_eq!(
        (t.ci_low, t.ci_high, t.std_dev),
        (t.mean, t.mean, 0.0),
        "{what}"
    );
}

#[test]
fn ring_closed_form() {
    // A ring of n routers survives one cut (it becomes a path) and no second: connected while
    // m_k <= 1. After one cut the diameter is n - 1 (from ⌊n/2⌋) and the distance sum over
    // ordered pairs (n³ - n)/3 (from n·⌊n²/4⌋); if that breaks a criterion it holds only while
    // m_k = 0. Every sample gives the same threshold, so the interval is a point.
    for n in 3u64..=45 {
        let got = run(&ring(n as usize), 1);
        let largest = |limit: u64| (0..=20).filter(|&k| removed(k, n) <= limit).max().unwrap();
        let connected = largest(1);
        let diameter_ok = n - 1 <= n / 2 + 2;
        let aspl_ok = (n * n * n - n) / 3 <= n * (n * n / 4) + n * (n - 1);
        assert_eq!(got.samples, 64, "n={n}: one round suffices");
        assert!(got.converged);
        assert_exact(&got.disconnect, connected, &format!("ring {n} connected"));
        assert_exact(
            &got.diameter_plus2,
            if diameter_ok { connected } else { largest(0) },
            &format!("ring {n} diameter"),
        );
        assert_exact(
            &got.aspl_plus1,
            if aspl_ok { connected } else { largest(0) },
            &format!("ring {n} aspl"),
        );
    }
}

/// For K_n: over every set of removed links, whether each criterion holds, grouped by the
/// number removed: returns per m the fraction of m-subsets meeting (connected, diameter <= 3,
/// distance sum <= 2·n(n-1)).
fn complete_graph_probabilities(n: usize) -> Vec<[f64; 3]> {
    let pairs: Vec<(usize, usize)> = (0..n)
        .flat_map(|u| (u + 1..n).map(move |v| (u, v)))
        .collect();
    let c = pairs.len();
    let mut hits = vec![[0u64; 3]; c + 1];
    let mut total = vec![0u64; c + 1];
    for mask in 0u32..(1 << c) {
        // Floyd–Warshall on the links kept (bit clear = kept).
        let mut d = vec![vec![u32::MAX / 4; n]; n];
        for (i, &(u, v)) in pairs.iter().enumerate() {
            if mask >> i & 1 == 0 {
                d[u][v] = 1;
                d[v][u] = 1;
            }
        }
        for (i, row) in d.iter_mut().enumerate() {
            row[i] = 0;
        }
        for m in 0..n {
            for s in 0..n {
                for t in 0..n {
                    d[s][t] = d[s][t].min(d[s][m] + d[m][t]);
                }
            }
        }
        let connected = d.iter().flatten().all(|&x| x < u32::MAX / 4);
        let diameter = d.iter().flatten().copied().max().unwrap();
        let sum: u64 = d.iter().flatten().map(|&x| x as u64).sum();
        let m = mask.count_ones() as usize;
        total[m] += 1;
        hits[m][0] += connected as u64;
        hits[m][1] += (connected && diameter <= 3) as u64;
        hits[m][2] += (connected && sum as usize <= 2 * n * (n - 1)) as u64;
    }
    (0..=c)
        .map(|m| [0, 1, 2].map(|i| hits[m][i] as f64 / total[m] as f64))
        .collect()
}

#[test]
fn complete_graphs_match_exact_expectations() {
    // The first m_k cables of a uniform order are a uniform m_k-subset, and the criteria are
    // monotone along the order, so P(threshold >= k/20) = P_c(m_k) and
    // E[threshold] = (1/20) Σ_{k=1}^{20} P_c(m_k).
    for n in [4usize, 5] {
        let probabilities = complete_graph_probabilities(n);
        let cables = (n * (n - 1) / 2) as u64;
        let got = run(&complete(n), 11);
        assert!(got.converged);
        for (c, t) in [&got.disconnect, &got.diameter_plus2, &got.aspl_plus1]
            .into_iter()
            .enumerate()
        {
            let p = |k: u64| probabilities[removed(k, cables) as usize][c];
            let exact: f64 = (1..=20).map(p).sum::<f64>() / 20.0;
            let width = t.ci_high - t.ci_low;
            assert!(width <= 0.02, "K{n} criterion {c}: interval {width}");
            assert!(
                (t.mean - exact).abs() <= width + 1e-9,
                "K{n} criterion {c}: mean {} exact {exact} interval [{}, {}]",
                t.mean,
                t.ci_low,
                t.ci_high
            );
            let samples = got.samples as f64;
            for k in 0..=20u64 {
                let q = p(k);
                let tolerance = 4.0 * (q * (1.0 - q) / samples).sqrt() + 1e-9;
                assert!(
                    (t.survival[k as usize] - q).abs() <= tolerance,
                    "K{n} criterion {c} step {k}: {} vs {q}",
                    t.survival[k as usize]
                );
            }
        }
    }
}

#[test]
fn widths_count_cables() {
    // A ring of 10 links, each 2 cables wide: 20 cables, step k removes k of them. A link goes
    // only with both its cables and the ring survives one lost link, so at least 4 cables must
    // go before it can disconnect: steps 1 to 3 always survive, and step 20 never does.
    let mut b = topolab_core::NetworkBuilder::new("test", 10, false);
    let c = b.link_class("x");
    for i in 0..10 {
        b.add_link(i, (i + 1) % 10, 2, c);
    }
    let got = run(&b.build().unwrap(), 3);
    assert_eq!(got.cables, 20);
    assert_eq!(got.disconnect.survival[..4], [1.0; 4]);
    assert_eq!(got.disconnect.survival[20], 0.0);
}

#[test]
fn deterministic_per_seed_and_independent_of_threads() {
    let net = build_str("jellyfish:routers=120,degree=5,seed=2").unwrap();
    let a = run(&net, 7);
    assert_eq!(a, run(&net, 7));
    assert_ne!(a.disconnect, run(&net, 8).disconnect);
    let in_pool = |threads| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap()
            .install(|| run(&net, 7))
    };
    assert_eq!(in_pool(1), a);
    assert_eq!(in_pool(2), a);
}

#[test]
fn directed_networks_need_strong_connectivity() {
    // A directed cycle dies with its first cut; the bidirectional ring survives one.
    let links: Vec<(usize, usize)> = (0..10).map(|i| (i, (i + 1) % 10)).collect();
    let got = run(&network(10, true, &links, &[1; 10]), 0);
    // m_1 = ⌊10/20⌋ = 0, m_2 = 1: survives step 1 only.
    assert_exact(&got.disconnect, 1, "directed 10-cycle");
}

#[test]
fn bad_input_and_interruption() {
    let net = network(4, false, &[(0, 1), (2, 3)], &[1; 4]);
    let err = resilience(&net, &ResilienceOptions::default(), &Silent).unwrap_err();
    assert!(
        err.to_string()
            .contains("connected network; this one has 2 components"),
        "{err}"
    );
    let err = resilience(
        &ring(5),
        &ResilienceOptions {
            steps: 0,
            ..Default::default()
        },
        &Silent,
    )
    .unwrap_err();
    assert!(err.to_string().contains("'steps' = 0"), "{err}");
    let flag = AtomicBool::new(true);
    let got = resilience(&ring(30), &ResilienceOptions::default(), &CancelFlag(&flag));
    assert_eq!(got.unwrap_err(), TopolabError::Interrupted);
}
