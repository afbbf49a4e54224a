//! Extreme eigenvalues of the adjacency matrix (link width as multiplicity) of an undirected
//! network, for expander comparisons: λ1, λ2, λmin and the spectral gaps. docs/bisection.md
//! gives the definitions.
//!
//! Eigenvalues are counted with multiplicity, λ1 >= λ2 >= ... >= λn. λ2 is thus "the second
//! largest eigenvalue"; for a connected network Perron–Frobenius makes λ1 simple, so λ2 is the
//! largest eigenvalue strictly below λ1. A disconnected network is split into its components
//! (the spectrum is their union), so there λ2 can equal λ1 and the gap is 0.
//!
//! The solver is Lanczos with full reorthogonalisation on the CSR. Why not power iteration with
//! deflation: its convergence to λ2 goes like (λ3/λ2)^k, and in expanders λ2, λ3, ... crowd at
//! the edge of the bulk (gaps ~0.01 for a 20,000-router degree-24 random graph), so it would
//! need ~10^4 products per eigenvalue; Lanczos converges like Chebyshev polynomials of the
//! relative gap, i.e. with its square root, needs a few hundred products, and gives both ends of
//! the spectrum from one run. Full reorthogonalisation (one classical Gram–Schmidt pass after the
//! three-term step, a second when cancellation shows) keeps the basis orthogonal, so no spurious
//! copies of converged eigenvalues appear; a connected component has one Krylov vector per
//! distinct eigenvalue, which is why λ2 per component is simply the second Ritz value. Ritz
//! values are the eigenvalues of the tridiagonal T (implicit QL), and the residual of Ritz value
//! θ_i is β_m·|s_i[m]| (the last component of its eigenvector of T), a rigorous bound: some
//! eigenvalue lies within it.

use crate::error::{Result, TopolabError};
use crate::network::Network;
use crate::progress::Monitor;
use crate::rng::{stream, Stream};
use rand::Rng;
use rayon::prelude::*;

crate::result_type! {
    /// Adjacency eigenvalues for expander comparisons (docs/bisection.md): λ1, λ2 (second
    /// largest counting multiplicity), λmin and the gaps.
    pub struct Spectrum {
        /// Largest adjacency eigenvalue (the degree for a connected regular network).
        pub lambda1: f64,
        /// Second largest eigenvalue counting multiplicity.
        pub lambda2: f64,
        /// Smallest eigenvalue (-λ1 exactly when the network has a bipartite component as large).
        pub lambda_min: f64,
        /// One-sided spectral gap λ1 - λ2 (0 when disconnected).
        pub gap: f64,
        /// max(|λ2|, |λmin|): the λ of the expander mixing lemma and of the Ramanujan property.
        pub lambda_abs: f64,
        /// Two-sided gap λ1 - max(|λ2|, |λmin|) (0 for bipartite networks).
        pub two_sided_gap: f64,
        /// The degree d (counting width) when every router has the same degree.
        pub regular_degree: Option<u32>,
        /// 2·sqrt(d - 1) for a d-regular network: Ramanujan when `lambda_abs` is at most this.
        pub ramanujan_bound: Option<f64>,
        pub components: u32,
        /// Every reported eigenvalue is within this distance of an exact eigenvalue (residual
        /// bound).
        pub error_bound: f64,
        /// Lanczos steps (matrix-vector products) over all components.
        pub lanczos_steps: u64,
    }
}

const CONTEXT: &str = "spectrum";

/// Relative residual at which a Ritz value counts as converged: |θ - λ| <= TOL·‖A‖.
const TOL: f64 = 1e-9;

/// Lanczos basis memory cap (f64 entries): 2^27 = 1 GiB.
const BASIS_CAP: usize = 1 << 27;

/// The eigenvalues do not depend on the start vector beyond rounding, so it needs no user seed:
/// it comes from this fixed seed through `rng::stream` like every random draw, on the Partition
/// stream (adjacency eigenvectors are the tools of spectral partitioning; rng.rs has no
/// separate stream for them).
const START_SEED: u64 = 0x5bec_72a1;

/// λ1, λ2, λmin and the gaps of an undirected network's adjacency matrix.
pub fn spectrum(net: &Network, monitor: &dyn Monitor) -> Result<Spectrum> {
    let n = net.num_routers();
    if net.directed() {
        return Err(TopolabError::invalid(
            CONTEXT,
            "network",
            "directed",
            "undirected networks only: a directed adjacency matrix is not symmetric, its \
             eigenvalues are complex and the expander spectral gap is not defined for it",
        ));
    }
    if n < 2 {
        return Err(TopolabError::invalid(
            CONTEXT,
            "network",
            format!("{n} router(s)"),
            "at least 2 routers (λ2 needs two eigenvalues)",
        ));
    }
    let components = components(net);
    // Candidates for λ1 and λ2 (each component's top two), and the smallest eigenvalue.
    let mut tops: Vec<f64> = Vec::new();
    let mut lambda_min = f64::INFINITY;
    let mut error_bound: f64 = 0.0;
    let mut steps = 0u64;
    for (index, members) in components.iter().enumerate() {
        if members.len() == 1 {
            tops.push(0.0);
            lambda_min = lambda_min.min(0.0);
            continue;
        }
        let csr = WeightedCsr::induced(net, members);
        let ends = lanczos_extremes(&csr, index as u64, monitor)?;
        tops.push(ends.largest);
        tops.push(ends.second);
        lambda_min = lambda_min.min(ends.smallest);
        error_bound = error_bound.max(ends.residual);
        steps += ends.steps;
    }
    tops.sort_unstable_by(|a, b| b.total_cmp(a));
    let (lambda1, lambda2) = (tops[0], tops[1]);
    let lambda_abs = lambda2.abs().max(lambda_min.abs());
    let degrees: Vec<u32> = (0..n).map(|r| net.degree(r)).collect();
    let regular_degree = degrees
        .iter()
        .all(|&d| d == degrees[0])
        .then_some(degrees[0]);
    Ok(Spectrum {
        lambda1,
        lambda2,
        lambda_min,
        gap: lambda1 - lambda2,
        lambda_abs,
        two_sided_gap: lambda1 - lambda_abs,
        regular_degree,
        ramanujan_bound: regular_degree
            .filter(|&d| d >= 1)
            .map(|d| 2.0 * ((d - 1) as f64).sqrt()),
        components: components.len() as u32,
        error_bound,
        lanczos_steps: steps,
    })
}

/// Routers of each connected component, components ordered by their smallest router.
fn components(net: &Network) -> Vec<Vec<u32>> {
    let n = net.num_routers();
    let mut seen = vec![false; n];
    let mut result = Vec::new();
    for root in 0..n {
        if seen[root] {
            continue;
        }
        seen[root] = true;
        let mut members = vec![root as u32];
        let mut head = 0;
        while head < members.len() {
            let u = members[head] as usize;
            head += 1;
            for &v in net.neighbors(u) {
                if !seen[v as usize] {
                    seen[v as usize] = true;
                    members.push(v);
                }
            }
        }
        members.sort_unstable();
        result.push(members);
    }
    result
}

/// Symmetric adjacency of one component with local indices and width as entry value.
struct WeightedCsr {
    offsets: Vec<u32>,
    targets: Vec<u32>,
    weights: Vec<f64>,
}

impl WeightedCsr {
    fn induced(net: &Network, members: &[u32]) -> Self {
        let whole = members.len() == net.num_routers();
        let mut local = Vec::new();
        if !whole {
            local = vec![u32::MAX; net.num_routers()];
            for (i, &r) in members.iter().enumerate() {
                local[r as usize] = i as u32;
            }
        }
        let mut offsets = Vec::with_capacity(members.len() + 1);
        let mut targets = Vec::new();
        let mut weights = Vec::new();
        offsets.push(0);
        for &r in members {
            let r = r as usize;
            for (&v, &l) in net.neighbors(r).iter().zip(net.neighbor_links(r)) {
                targets.push(if whole { v } else { local[v as usize] });
                weights.push(net.links()[l as usize].width as f64);
            }
            offsets.push(targets.len() as u32);
        }
        WeightedCsr {
            offsets,
            targets,
            weights,
        }
    }

    fn len(&self) -> usize {
        self.offsets.len() - 1
    }

    /// Largest row sum: a bound on ‖A‖ used to scale tolerances.
    fn norm_bound(&self) -> f64 {
        (0..self.len())
            .map(|u| {
                self.weights[self.offsets[u] as usize..self.offsets[u + 1] as usize]
                    .iter()
                    .sum::<f64>()
            })
            .fold(0.0, f64::max)
    }

    /// y = A x, rows in parallel (each row summed in a fixed order: deterministic).
    fn multiply(&self, x: &[f64], y: &mut [f64]) {
        y.par_chunks_mut(ROW_CHUNK)
            .enumerate()
            .for_each(|(c, chunk)| {
                for (i, out) in chunk.iter_mut().enumerate() {
                    let u = c * ROW_CHUNK + i;
                    let (a, b) = (self.offsets[u] as usize, self.offsets[u + 1] as usize);
                    *out = self.targets[a..b]
                        .iter()
                        .zip(&self.weights[a..b])
                        .map(|(&v, &w)| w * x[v as usize])
                        .sum();
                }
            });
    }
}

const ROW_CHUNK: usize = 2048;

struct Extremes {
    largest: f64,
    second: f64,
    smallest: f64,
    residual: f64,
    steps: u64,
}

/// Lanczos with full reorthogonalisation until λ1, λ2 and λmin of a connected component (at
/// least 2 routers) have residuals below TOL·‖A‖, or the Krylov space is exhausted (then the
/// Ritz values are exact).
fn lanczos_extremes(a: &WeightedCsr, component: u64, monitor: &dyn Monitor) -> Result<Extremes> {
    let n = a.len();
    let scale = a.norm_bound().max(f64::MIN_POSITIVE);
    let max_steps = n.min((BASIS_CAP / n).max(64));
    let mut rng = stream(START_SEED, Stream::Partition, component);
    let mut v: Vec<f64> = (0..n).map(|_| rng.random_range(-1.0..1.0)).collect();
    let norm = dot(&v, &v).sqrt();
    v.iter_mut().for_each(|x| *x /= norm);

    let mut basis: Vec<f64> = Vec::with_capacity(n * max_steps.min(512));
    let mut alpha: Vec<f64> = Vec::new();
    let mut beta: Vec<f64> = Vec::new();
    let mut w = vec![0.0; n];
    let mut coefficients = Vec::new();
    let mut last = None;
    for j in 0..max_steps {
        monitor.progress(CONTEXT, j as u64, max_steps as u64)?;
        basis.extend_from_slice(&v);
        a.multiply(&v, &mut w);
        // Three-term step, then Gram–Schmidt against the whole basis.
        let aj = dot(&w, &v);
        axpy(-aj, &v, &mut w);
        if j > 0 {
            let previous = &basis[(j - 1) * n..j * n];
            axpy(-beta[j - 1], previous, &mut w);
        }
        let mut correction = 0.0;
        for _pass in 0..2 {
            let before = dot(&w, &w).sqrt();
            orthogonalise(&basis, n, &mut w, &mut coefficients);
            correction += coefficients[j];
            let after = dot(&w, &w).sqrt();
            // Kahan–Parlett "twice is enough": repeat only when the pass cancelled heavily.
            if after > std::f64::consts::FRAC_1_SQRT_2 * before {
                break;
            }
        }
        alpha.push(aj + correction);
        let bj = dot(&w, &w).sqrt();
        let done = j + 1 == max_steps;
        if j + 1 >= 2 && (j < 64 || j % 4 == 3 || done || bj <= TOL * scale) {
            let ritz = ritz_values(&alpha, &beta, bj)?;
            let converged = ritz.residual <= TOL * scale;
            if converged || done || j + 1 == n {
                last = Some((ritz, converged || j + 1 == n));
                break;
            }
        }
        if bj == 0.0 {
            // Exact invariant subspace with a single vector: the start was an eigenvector.
            return Err(TopolabError::InvalidNetwork(
                "spectrum: Lanczos start vector was an exact eigenvector".into(),
            ));
        }
        beta.push(bj);
        v.iter_mut().zip(&w).for_each(|(x, &y)| *x = y / bj);
    }
    let (ritz, converged) = last.expect("a component of >= 2 routers runs >= 2 steps");
    if !converged {
        return Err(TopolabError::invalid(
            CONTEXT,
            "network",
            format!("{n} routers"),
            format!(
                "networks whose extreme eigenvalues converge within {max_steps} Lanczos steps \
                 (residual {:.3e} > {:.3e})",
                ritz.residual,
                TOL * scale
            ),
        ));
    }
    Ok(Extremes {
        largest: ritz.largest,
        second: ritz.second,
        smallest: ritz.smallest,
        residual: ritz.residual,
        steps: alpha.len() as u64,
    })
}

fn dot(x: &[f64], y: &[f64]) -> f64 {
    x.iter().zip(y).map(|(a, b)| a * b).sum()
}

fn axpy(a: f64, x: &[f64], y: &mut [f64]) {
    y.iter_mut().zip(x).for_each(|(y, &x)| *y += a * x);
}

/// One classical Gram–Schmidt pass: c = Vᵀw, w -= V c. Both halves in parallel, each number
/// summed in a fixed order.
fn orthogonalise(basis: &[f64], n: usize, w: &mut [f64], c: &mut Vec<f64>) {
    c.clear();
    c.par_extend(basis.par_chunks(n).map(|q| dot(q, w)));
    let c = &*c;
    w.par_chunks_mut(ROW_CHUNK)
        .enumerate()
        .for_each(|(chunk, part)| {
            let start = chunk * ROW_CHUNK;
            for (k, q) in basis.chunks(n).enumerate() {
                axpy(-c[k], &q[start..start + part.len()], part);
            }
        });
}

struct Ritz {
    largest: f64,
    second: f64,
    smallest: f64,
    /// Largest residual bound of the three.
    residual: f64,
}

/// Eigenvalues of the Lanczos tridiagonal T (diagonal `alpha`, off-diagonal `beta`) and the
/// residual bounds β·|s_i[last]| of its two largest and its smallest Ritz values.
fn ritz_values(alpha: &[f64], beta: &[f64], next_beta: f64) -> Result<Ritz> {
    let m = alpha.len();
    let mut d = alpha.to_vec();
    let mut e = beta.to_vec();
    e.push(0.0);
    let mut last_row = vec![0.0; m];
    last_row[m - 1] = 1.0;
    tridiagonal_ql(&mut d, &mut e, &mut last_row)?;
    let mut order: Vec<usize> = (0..m).collect();
    order.sort_unstable_by(|&i, &j| d[j].total_cmp(&d[i]));
    let residual = |i: usize| next_beta * last_row[i].abs();
    let (top, second, bottom) = (order[0], order[1], order[m - 1]);
    Ok(Ritz {
        largest: d[top],
        second: d[second],
        smallest: d[bottom],
        residual: residual(top).max(residual(second)).max(residual(bottom)),
    })
}

/// Implicit QL with Wilkinson shifts on a symmetric tridiagonal matrix (the tqli algorithm of
/// Numerical Recipes §11.3, 0-based): on return `d` holds the eigenvalues. `e[i]` couples
/// `d[i]` and `d[i + 1]` (`e[m - 1]` = 0). Only the last row of the eigenvector matrix is
/// accumulated, in `z`, because the Lanczos residuals need nothing else: O(m²) instead of O(m³).
fn tridiagonal_ql(d: &mut [f64], e: &mut [f64], z: &mut [f64]) -> Result<()> {
    let n = d.len();
    for l in 0..n {
        let mut iterations = 0;
        loop {
            let mut m = l;
            while m + 1 < n {
                let dd = d[m].abs() + d[m + 1].abs();
                if e[m].abs() <= f64::EPSILON * dd {
                    break;
                }
                m += 1;
            }
            if m == l {
                break;
            }
            iterations += 1;
            if iterations > 60 {
                return Err(TopolabError::InvalidNetwork(
                    "spectrum: tridiagonal QL did not converge".into(),
                ));
            }
            let mut g = (d[l + 1] - d[l]) / (2.0 * e[l]);
            let mut r = g.hypot(1.0);
            g = d[m] - d[l] + e[l] / (g + if g >= 0.0 { r } else { -r });
            let (mut s, mut c, mut p) = (1.0f64, 1.0f64, 0.0f64);
            let mut underflow = false;
            let mut i = m;
            while i > l {
                i -= 1;
                let f = s * e[i];
                let b = c * e[i];
                r = f.hypot(g);
                e[i + 1] = r;
                if r == 0.0 {
                    d[i + 1] -= p;
                    e[m] = 0.0;
                    underflow = true;
                    break;
                }
                s = f / r;
                c = g / r;
                g = d[i + 1] - p;
                r = (d[i] - g) * s + 2.0 * c * b;
                p = s * r;
                d[i + 1] = g + p;
                g = c * r - b;
                let zf = z[i + 1];
                z[i + 1] = s * z[i] + c * zf;
                z[i] = c * z[i] - s * zf;
            }
            if underflow {
                continue;
            }
            d[l] -= p;
            e[l] = g;
            e[m] = 0.0;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The QL solver against the closed-form spectrum of the path P_m: 2cos(kπ/(m+1)).
    #[test]
    fn tridiagonal_ql_matches_path_graph() {
        for m in [1usize, 2, 3, 7, 40] {
            let mut d = vec![0.0; m];
            let mut e = vec![1.0; m];
            e[m - 1] = 0.0;
            let mut z = vec![0.0; m];
            z[m - 1] = 1.0;
            tridiagonal_ql(&mut d, &mut e, &mut z).unwrap();
            d.sort_by(|a, b| b.total_cmp(a));
            for (k, &x) in d.iter().enumerate() {
                let exact = 2.0 * ((k + 1) as f64 * std::f64::consts::PI / (m + 1) as f64).cos();
                assert!((x - exact).abs() < 1e-12, "m={m} k={k}: {x} vs {exact}");
            }
            // The last components of the orthonormal eigenvectors have unit norm together.
            let norm: f64 = z.iter().map(|x| x * x).sum();
            assert!((norm - 1.0).abs() < 1e-12);
        }
    }
}
