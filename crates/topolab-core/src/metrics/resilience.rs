//! Resilience to random cable failures (Besta & Hoefler, SC14, §III-D, Table III).
//!
//! A sample draws a uniformly random order of the cables (a link of width w is w cables; a link
//! disappears when its last cable is removed; both directions of an undirected link are one
//! cable) from `rng::stream(seed, Stream::Failures, sample)`. At step k of `steps` (5 % steps
//! for 20) the first m_k = ⌊k·C/steps⌋ cables of the order are removed, so the failures of a
//! step include those of the previous one. Distances can only grow as cables go, so each of the
//! three criteria holds up to some step and fails after it:
//!
//! - connected (strongly connected when directed): "disconnect";
//! - diameter ≤ D₀ + 2 (and connected): "diameter_plus2" (Besta & Hoefler, SC14, §III-D2);
//! - router-level ASPL ≤ ASPL₀ + 1 (and connected), tested exactly as Σd ≤ Σd₀ + R(R−1):
//!   "aspl_plus1" (Besta & Hoefler, SC14, §III-D3).
//!
//! The sample's threshold for a criterion is the largest fraction k/steps at which it holds,
//! found by binary search over k (an evaluation is one search or one all-pairs run on the
//! failure-masked rows, never a rebuilt network). The reported value is the mean threshold over
//! the samples with a 95 % confidence interval mean ± 1.96·s/√n (normal approximation; n ≥ 64
//! where Student's t differs by < 2 %). Samples are drawn in rounds of 64 until every interval is
//! at most `ci_width` wide (Besta & Hoefler, SC14: "a 95% confidence interval of width 2"
//! percentage points) or `max_samples` is reached (`converged` says which). Each sample depends
//! only on (seed, index) and the stopping rule only on completed rounds, so the result does not
//! depend on threads.

use super::adjacency::{strongly_connected, Adjacency};
use super::apsp::{all_pairs_sequential, PairOptions, Scratch as ApspScratch};
use super::distance::{distances, Distances};
use crate::error::{Result, TopolabError};
use crate::network::Network;
use crate::progress::Monitor;
use crate::rng::{stream, Stream};
use rand::seq::SliceRandom;
use rayon::prelude::*;
use std::sync::atomic::{AtomicU64, Ordering};

/// z for a two-sided 95 % normal interval.
const Z95: f64 = 1.959_963_984_540_054;

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ResilienceOptions {
    pub seed: u64,
    /// Steps from 0 to 100 % of the cables removed (20: 5 % steps, as in Besta & Hoefler, SC14,
    /// §III-D).
    pub steps: u32,
    /// Largest accepted width of each 95 % interval, as a fraction (0.02 = 2 points).
    pub ci_width: f64,
    /// Samples drawn per round (also the minimum).
    pub round: u32,
    pub max_samples: u32,
}

impl Default for ResilienceOptions {
    fn default() -> Self {
        ResilienceOptions {
            seed: 0,
            steps: 20,
            ci_width: 0.02,
            round: 64,
            max_samples: 4096,
        }
    }
}

crate::result_type! {
    /// One criterion's threshold over the samples: the mean over samples of the largest
    /// fraction of removed cables at which the criterion holds, with its 95 % confidence
    /// interval; `survival[k]` is the share of samples meeting it with `k * step` of the cables
    /// removed.
    pub struct Threshold {
        /// Mean of the per-sample largest fraction of removed cables at which the criterion holds.
        pub mean: f64,
        pub ci_low: f64,
        pub ci_high: f64,
        pub std_dev: f64,
        /// `survival[k]`: fraction of the samples meeting the criterion with k/steps removed.
        pub survival: Vec<f64>,
    }
}

crate::result_type! {
    /// Resilience to random cable failures (Besta & Hoefler, SC14, §III-D).
    pub struct Resilience {
        pub seed: u64,
        /// Cables (links counted with their width).
        pub cables: u64,
        /// Fraction of the cables removed per step.
        pub step: f64,
        pub samples: u32,
        /// Every interval is at most the requested width (else max_samples was reached).
        pub converged: bool,
        pub base_diameter: u32,
        pub base_aspl: f64,
        pub disconnect: Threshold,
        pub diameter_plus2: Threshold,
        pub aspl_plus1: Threshold,
    }
}

/// Resilience of `net`, whose distances are computed first.
pub fn resilience(
    net: &Network,
    options: &ResilienceOptions,
    monitor: &dyn Monitor,
) -> Result<Resilience> {
    let base = distances(net, monitor)?;
    resilience_from(net, &base, options, monitor)
}

/// Resilience of `net` given its distances (as `analyze` has them already).
pub fn resilience_from(
    net: &Network,
    base: &Distances,
    options: &ResilienceOptions,
    monitor: &dyn Monitor,
) -> Result<Resilience> {
    check_options(options)?;
    if !base.connected {
        return Err(TopolabError::InvalidNetwork(format!(
            "resilience needs a connected network; this one has {} {}components",
            base.strong_components.unwrap_or(base.components),
            if net.directed() {
                "strongly connected "
            } else {
                ""
            }
        )));
    }
    let sampler = Sampler::new(net, base, options);
    let target = AtomicU64::new(options.round as u64);
    let done = AtomicU64::new(0);
    let report = || {
        monitor.progress(
            "resilience samples",
            done.load(Ordering::Relaxed),
            target.load(Ordering::Relaxed),
        )
    };
    report()?;
    let mut thresholds: Vec<[u32; 3]> = Vec::new();
    let converged = loop {
        let start = thresholds.len() as u64;
        let end = (start + options.round as u64).min(options.max_samples as u64);
        target.store(end, Ordering::Relaxed);
        let round: Vec<[u32; 3]> = (start..end)
            .into_par_iter()
            .map_init(SampleScratch::default, |scratch, index| {
                let ks = sampler.sample(index, scratch, &mut || report())?;
                done.fetch_add(1, Ordering::Relaxed);
                report()?;
                Ok(ks)
            })
            .collect::<Result<_>>()?;
        thresholds.extend(round);
        let narrow = (0..3).all(|c| {
            let t = summarize(&thresholds, c, options.steps);
            t.ci_high - t.ci_low <= options.ci_width
        });
        if narrow || thresholds.len() as u64 >= options.max_samples as u64 {
            break narrow;
        }
    };
    Ok(Resilience {
        seed: options.seed,
        cables: sampler.cables.len() as u64,
        step: 1.0 / options.steps as f64,
        samples: thresholds.len() as u32,
        converged,
        base_diameter: sampler.base_diameter,
        base_aspl: base.aspl.unwrap_or(0.0),
        disconnect: summarize(&thresholds, 0, options.steps),
        diameter_plus2: summarize(&thresholds, 1, options.steps),
        aspl_plus1: summarize(&thresholds, 2, options.steps),
    })
}

fn check_options(o: &ResilienceOptions) -> Result<()> {
    let bad = |param: &str, value: String, allowed: &str| {
        Err(TopolabError::invalid("resilience", param, value, allowed))
    };
    if !(1..=1000).contains(&o.steps) {
        return bad("steps", o.steps.to_string(), "1 to 1000");
    }
    if !(o.ci_width > 0.0 && o.ci_width <= 1.0) {
        return bad("ci_width", o.ci_width.to_string(), "a fraction in (0, 1]");
    }
    if o.round < 2 {
        return bad("round", o.round.to_string(), "at least 2 samples");
    }
    if o.max_samples < o.round {
        return bad(
            "max_samples",
            o.max_samples.to_string(),
            "at least one round of samples",
        );
    }
    Ok(())
}

/// Mean, interval and survival curve of criterion `c` from the per-sample step indices.
/// Sums are integers so that the figures are exact functions of the samples.
fn summarize(thresholds: &[[u32; 3]], c: usize, steps: u32) -> Threshold {
    let n = thresholds.len() as f64;
    let sum: u64 = thresholds.iter().map(|t| t[c] as u64).sum();
    let sum_sq: u128 = thresholds.iter().map(|t| (t[c] as u128).pow(2)).sum();
    let s = steps as f64;
    let mean = sum as f64 / n / s;
    let variance = if thresholds.len() > 1 {
        // (Σk² − (Σk)²/n) / (n − 1), in exact integers up to the final division.
        let n_int = thresholds.len() as u128;
        let centred = sum_sq * n_int - (sum as u128).pow(2);
        centred as f64 / (n * (n - 1.0)) / (s * s)
    } else {
        0.0
    };
    let std_dev = variance.sqrt();
    let half = Z95 * std_dev / n.sqrt();
    let survival = (0..=steps)
        .map(|k| thresholds.iter().filter(|t| t[c] >= k).count() as f64 / n)
        .collect();
    Threshold {
        mean,
        ci_low: mean - half,
        ci_high: mean + half,
        std_dev,
        survival,
    }
}

struct Sampler {
    links: usize,
    steps: u32,
    seed: u64,
    /// The link of every cable: link l appears width(l) times.
    cables: Vec<u32>,
    adjacency: Adjacency,
    base_diameter: u32,
    sum_limit: u128,
}

#[derive(Default)]
struct SampleScratch {
    order: Vec<u32>,
    keys: Vec<u32>,
    /// The rows of the links still alive at the step under evaluation.
    alive: Adjacency,
    mark: Vec<bool>,
    queue: Vec<u32>,
    apsp: ApspScratch,
    /// Per step: None (not evaluated) or (diameter criterion, ASPL criterion).
    evaluated: Vec<Option<(bool, bool)>>,
}

impl Sampler {
    fn new(net: &Network, base: &Distances, options: &ResilienceOptions) -> Self {
        let mut cables = Vec::with_capacity(net.num_links() as usize);
        for (i, l) in net.links().iter().enumerate() {
            cables.extend((0..l.width).map(|_| i as u32));
        }
        let n = net.num_routers() as u128;
        Sampler {
            links: net.links().len(),
            steps: options.steps,
            seed: options.seed,
            cables,
            adjacency: Adjacency::of(net),
            base_diameter: base.diameter.unwrap_or(0),
            sum_limit: base.distance_sum() + n * n.saturating_sub(1),
        }
    }

    /// Cables removed at step k: ⌊k·C/steps⌋.
    fn removed(&self, k: u32) -> u32 {
        (k as u64 * self.cables.len() as u64 / self.steps as u64) as u32
    }

    /// The sample's largest step index for each criterion (disconnect, diameter, ASPL).
    fn sample(
        &self,
        index: u64,
        s: &mut SampleScratch,
        check_in: &mut dyn FnMut() -> Result<()>,
    ) -> Result<[u32; 3]> {
        let mut rng = stream(self.seed, Stream::Failures, index);
        s.order.clear();
        s.order.extend_from_slice(&self.cables);
        s.order.shuffle(&mut rng);
        // A link is alive while one of its cables is: key = last position of its cables.
        s.keys.clear();
        s.keys.resize(self.links, 0);
        for (pos, &link) in s.order.iter().enumerate() {
            s.keys[link as usize] = pos as u32;
        }
        s.evaluated.clear();
        s.evaluated.resize(self.steps as usize + 1, None);

        let connected = largest_true(self.steps, |k| Ok(self.connected_at(k, s)))?;
        let diameter = largest_true(connected, |k| Ok(self.evaluate(k, s, check_in)?.0))?;
        let aspl = largest_true(connected, |k| Ok(self.evaluate(k, s, check_in)?.1))?;
        Ok([connected, diameter, aspl])
    }

    fn connected_at(&self, k: u32, s: &mut SampleScratch) -> bool {
        self.adjacency
            .filter_into(&s.keys, self.removed(k), &mut s.alive);
        strongly_connected(s.alive.graph(), &mut s.mark, &mut s.queue)
    }

    /// (diameter ≤ D₀ + 2, ASPL ≤ ASPL₀ + 1) at step k, which is known to be connected.
    fn evaluate(
        &self,
        k: u32,
        s: &mut SampleScratch,
        check_in: &mut dyn FnMut() -> Result<()>,
    ) -> Result<(bool, bool)> {
        if k == 0 {
            return Ok((true, true));
        }
        if let Some(done) = s.evaluated[k as usize] {
            return Ok(done);
        }
        self.adjacency
            .filter_into(&s.keys, self.removed(k), &mut s.alive);
        let stats = all_pairs_sequential(
            s.alive.graph(),
            &PairOptions::default(),
            &mut s.apsp,
            check_in,
        )?;
        let connected = stats.unreached_pairs == 0;
        let result = (
            connected && stats.max_distance() <= self.base_diameter + 2,
            connected && stats.distance_sum() <= self.sum_limit,
        );
        s.evaluated[k as usize] = Some(result);
        Ok(result)
    }
}

/// Largest k in 0..=hi with pred(k), for a predicate true at 0 and monotone (true, then false).
fn largest_true(hi: u32, mut pred: impl FnMut(u32) -> Result<bool>) -> Result<u32> {
    let (mut lo, mut hi) = (0, hi);
    while lo < hi {
        let mid = lo + (hi - lo).div_ceil(2);
        if pred(mid)? {
            lo = mid;
        } else {
            hi = mid - 1;
        }
    }
    Ok(lo)
}
