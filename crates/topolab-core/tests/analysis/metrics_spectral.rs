//! Adjacency spectrum (Lanczos) against closed forms and against a dense Jacobi eigenvalue
//! solver written here, independent of the Lanczos code.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::f64::consts::PI;
use topolab_core::metrics::spectral::{spectrum, Spectrum};
use topolab_core::progress::Silent;
use topolab_core::{build_str, Network, NetworkBuilder};

/// All eigenvalues of a symmetric matrix, descending, by cyclic Jacobi rotations.
fn jacobi_eigenvalues(mut a: Vec<Vec<f64>>) -> Vec<f64> {
    let n = a.len();
    for _sweep in 0..100 {
        let off: f64 = (0..n)
            .flat_map(|i| (0..n).filter(move |&j| j != i).map(move |j| (i, j)))
            .map(|(i, j)| a[i][j] * a[i][j])
            .sum();
        if off < 1e-24 {
            break;
        }
        for p in 0..n {
            for q in p + 1..n {
                if a[p][q].abs() < 1e-300 {
                    continue;
                }
                // Rotation angle zeroing a[p][q] (Golub & Van Loan, symmetric Schur).
                let theta = (a[q][q] - a[p][p]) / (2.0 * a[p][q]);
                let t = theta.signum().max(0.0) * 2.0 - 1.0;
                let t = t / (theta.abs() + (theta * theta + 1.0).sqrt());
                let c = 1.0 / (t * t + 1.0).sqrt();
                let s = t * c;
                for row in a.iter_mut() {
                    let (akp, akq) = (row[p], row[q]);
                    row[p] = c * akp - s * akq;
                    row[q] = s * akp + c * akq;
                }
                let (low, high) = a.split_at_mut(q);
                for (apk, aqk) in low[p].iter_mut().zip(high[0].iter_mut()) {
                    let (x, y) = (*apk, *aqk);
                    *apk = c * x - s * y;
                    *aqk = s * x + c * y;
                }
            }
        }
    }
    let mut eig: Vec<f64> = (0..n).map(|i| a[i][i]).collect();
    eig.sort_by(|x, y| y.total_cmp(x));
    eig
}

fn dense_adjacency(net: &Network) -> Vec<Vec<f64>> {
    let n = net.num_routers();
    let mut a = vec![vec![0.0; n]; n];
    for l in net.links() {
        a[l.src as usize][l.dst as usize] = l.width as f64;
        a[l.dst as usize][l.src as usize] = l.width as f64;
    }
    a
}

fn close(x: f64, y: f64) -> bool {
    (x - y).abs() <= 1e-7 * (1.0 + y.abs())
}

fn assert_spectrum(s: &Spectrum, lambda1: f64, lambda2: f64, lambda_min: f64, what: &str) {
    assert!(
        close(s.lambda1, lambda1) && close(s.lambda2, lambda2) && close(s.lambda_min, lambda_min),
        "{what}: got ({}, {}, {}), expected ({lambda1}, {lambda2}, {lambda_min})",
        s.lambda1,
        s.lambda2,
        s.lambda_min
    );
    assert!(
        s.error_bound <= 1e-7 * (1.0 + lambda1.abs()),
        "{what}: {s:?}"
    );
}

fn graph(n: usize, edges: &[(usize, usize, u32)]) -> Network {
    let mut b = NetworkBuilder::new("test", n, false);
    let c = b.link_class("link");
    for &(u, v, w) in edges {
        b.add_link(u, v, w, c);
    }
    b.build().unwrap()
}

fn complete(n: usize) -> Network {
    let edges: Vec<_> = (0..n)
        .flat_map(|u| (u + 1..n).map(move |v| (u, v, 1)))
        .collect();
    graph(n, &edges)
}

fn cycle(n: usize) -> Network {
    let edges: Vec<_> = (0..n).map(|u| (u, (u + 1) % n, 1)).collect();
    graph(n, &edges)
}

#[test]
fn complete_graphs() {
    for n in [2usize, 3, 5, 17, 60] {
        let s = spectrum(&complete(n), &Silent).unwrap();
        let d = (n - 1) as f64;
        assert_spectrum(&s, d, -1.0, -1.0, &format!("K_{n}"));
        assert!(close(s.gap, d + 1.0) && close(s.lambda_abs, 1.0));
        assert_eq!(s.regular_degree, Some(n as u32 - 1));
    }
}

/// C_n: 2cos(2πk/n); λ2 = 2cos(2π/n), λmin = -2 (n even) or -2cos(π/n) (n odd).
#[test]
fn cycles() {
    for n in [3usize, 4, 7, 10, 101, 500] {
        let s = spectrum(&cycle(n), &Silent).unwrap();
        let lambda2 = 2.0 * (2.0 * PI / n as f64).cos();
        let lambda_min = if n % 2 == 0 {
            -2.0
        } else {
            -2.0 * (PI / n as f64).cos()
        };
        assert_spectrum(&s, 2.0, lambda2, lambda_min, &format!("C_{n}"));
        assert_eq!(s.ramanujan_bound, Some(2.0));
    }
}

/// Q_n: n - 2k with multiplicity C(n, k); width w scales everything by w.
#[test]
fn hypercubes() {
    for n in 1u32..=10 {
        for width in [1u32, 3] {
            let s = spectrum(
                &build_str(&format!("hypercube:n={n},width={width}")).unwrap(),
                &Silent,
            )
            .unwrap();
            let (d, w) = (n as f64, width as f64);
            assert_spectrum(
                &s,
                w * d,
                w * (d - 2.0),
                -w * d,
                &format!("Q_{n} width {width}"),
            );
            // Bipartite: the two-sided gap vanishes.
            assert!(s.two_sided_gap.abs() < 1e-7, "Q_{n}: {s:?}");
        }
    }
}

/// Strongly regular graphs: Petersen (3, 1, -2) and Hoffman–Singleton = Slim Fly q = 5
/// (7, 2, -3), both Ramanujan.
#[test]
fn petersen_and_hoffman_singleton() {
    let mut edges = Vec::new();
    for i in 0..5 {
        edges.push((i, (i + 1) % 5, 1));
        edges.push((i, i + 5, 1));
        edges.push((i + 5, (i + 2) % 5 + 5, 1));
    }
    let s = spectrum(&graph(10, &edges), &Silent).unwrap();
    assert_spectrum(&s, 3.0, 1.0, -2.0, "Petersen");
    assert!(s.lambda_abs <= s.ramanujan_bound.unwrap());

    let hs = build_str("slimfly:q=5").unwrap();
    assert_eq!(hs.num_routers(), 50);
    let s = spectrum(&hs, &Silent).unwrap();
    assert_spectrum(&s, 7.0, 2.0, -3.0, "Hoffman-Singleton");
    assert!(close(s.gap, 5.0) && close(s.lambda_abs, 3.0) && close(s.two_sided_gap, 4.0));
}

fn random_graph(n: usize, density: f64, seed: u64) -> Network {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut edges = Vec::new();
    for u in 0..n {
        for v in u + 1..n {
            if rng.random_bool(density) {
                edges.push((u, v, rng.random_range(1..=3)));
            }
        }
    }
    graph(n, &edges)
}

/// Random graphs with widths 1..3, sparse enough to be disconnected at times (isolated routers
/// included), against the dense Jacobi solver.
#[test]
fn random_graphs_match_dense_jacobi() {
    let mut disconnected = 0;
    for seed in 0..60 {
        let n = 2 + (seed as usize * 7) % 70;
        let density = [0.03, 0.1, 0.3, 0.8][seed as usize % 4];
        let net = random_graph(n, density, seed);
        let s = spectrum(&net, &Silent).unwrap();
        let exact = jacobi_eigenvalues(dense_adjacency(&net));
        let what = format!("seed {seed}, {n} routers, density {density}");
        assert_spectrum(&s, exact[0], exact[1], exact[n - 1], &what);
        disconnected += (s.components > 1) as u32;
    }
    assert!(
        disconnected >= 5,
        "the sample must include disconnected networks"
    );
}

/// A disconnected network has λ2 = λ1 when two components share the top eigenvalue: the gap
/// is 0 (λ2 counts multiplicity).
#[test]
fn disconnected_networks_count_multiplicity() {
    let mut edges = Vec::new();
    for base in [0, 4] {
        for u in 0..4 {
            for v in u + 1..4 {
                edges.push((base + u, base + v, 1));
            }
        }
    }
    let two_k4 = graph(9, &edges); // and router 8 isolated
    let s = spectrum(&two_k4, &Silent).unwrap();
    assert_spectrum(&s, 3.0, 3.0, -1.0, "2 K4 + K1");
    assert_eq!(s.components, 3);
    assert!(s.gap.abs() < 1e-9, "{s:?}");
    assert_eq!(s.regular_degree, None);

    let no_links = graph(3, &[]);
    let s = spectrum(&no_links, &Silent).unwrap();
    assert_spectrum(&s, 0.0, 0.0, 0.0, "3 isolated routers");
}

/// Random regular graphs are nearly Ramanujan (Friedman): λ1 = d exactly and
/// max(|λ2|, |λmin|) close to 2·sqrt(d - 1). A 150-router one is also checked against Jacobi.
#[test]
fn random_regular_graphs() {
    let net = build_str("jellyfish:routers=150,degree=6,seed=2").unwrap();
    let s = spectrum(&net, &Silent).unwrap();
    let exact = jacobi_eigenvalues(dense_adjacency(&net));
    assert_spectrum(&s, exact[0], exact[1], exact[149], "jellyfish 150");
    assert!(close(s.lambda1, 6.0));

    let net = build_str("jellyfish:routers=3000,degree=10,seed=1").unwrap();
    let s = spectrum(&net, &Silent).unwrap();
    assert!(close(s.lambda1, 10.0), "{s:?}");
    let bound = s.ramanujan_bound.unwrap();
    assert!((bound - 6.0).abs() < 1e-12);
    assert!(
        s.lambda2 < bound + 0.2 && s.lambda_min > -bound - 0.2,
        "{s:?}"
    );
    assert!(
        s.lambda2 > bound - 0.5,
        "the bulk edge is near 2 sqrt(d-1): {s:?}"
    );
    assert_eq!(spectrum(&net, &Silent).unwrap(), s, "deterministic");
}

#[test]
fn directed_and_tiny_networks_are_rejected() {
    let mut b = NetworkBuilder::new("directed", 3, true);
    let c = b.link_class("link");
    b.add_link(0, 1, 1, c)
        .add_link(1, 2, 1, c)
        .add_link(2, 0, 1, c);
    let err = spectrum(&b.build().unwrap(), &Silent)
        .unwrap_err()
        .to_string();
    assert!(err.contains("'network' = directed") && err.contains("undirected networks only"));

    let err = spectrum(&graph(1, &[]), &Silent).unwrap_err().to_string();
    assert!(err.contains("'network' = 1 router(s)"), "{err}");
}
