//! All-pairs hop distances by multi-source bitset breadth-first search.
//!
//! One search runs `LANES` sources at once: every router holds a `LANES`-bit set of the sources
//! that have reached it (one 64-byte cache line). A level is one pass over the routers that
//! pulls the sets of their in-neighbours:
//!
//! ```text
//! visited'[v] = visited[v] | OR { visited[u] : u -> v }      new[v] = visited'[v] & !visited[v]
//! ```
//!
//! Pulling whole visited sets instead of frontiers is exact: if source s had reached u two or
//! more levels ago, it reached v (a neighbour of u) by the previous level, so its bit is already
//! masked off. That saves the third (frontier) array. A router whose set is full is skipped.
//! While the frontier is small (the first levels: 512 sources, then their neighbours) a level
//! pushes instead: only the routers that gained bits in the previous level OR their sets into
//! their out-neighbours, which costs their degrees instead of every link.
//!
//! Per level, the new bits give the distance histogram (popcount), the eccentricity of every
//! source (the last level at which its lane found something) and, with router weights (their
//! endpoints), the weighted histogram: Σ w_s·w_t over the new pairs, computed per router as
//! w_t · Σ_planes mult·popcount(new & plane) where the planes split the batch's source weights
//! (one plane when they are equal, else one per binary digit). All sums are integers, so the
//! result does not depend on the order in which batches finish.
//!
//! Memory is two arrays of `routers` cache lines per worker thread, never routers².

use super::adjacency::Graph;
use crate::error::{Result, TopolabError};
use crate::progress::{Counter, Monitor};
use rayon::prelude::*;

/// Sources searched together: one cache line of bits per router.
pub const LANES: usize = 512;
const WORDS: usize = LANES / 64;

/// The set of a batch's sources that have reached one router.
#[derive(Clone, Copy, PartialEq, Eq)]
#[repr(C, align(64))]
struct Lanes([u64; WORDS]);

impl Lanes {
    const ZERO: Lanes = Lanes([0; WORDS]);
    const FULL: Lanes = Lanes([!0; WORDS]);

    #[inline(always)]
    fn or_assign(&mut self, other: &Lanes) {
        for (a, b) in self.0.iter_mut().zip(&other.0) {
            *a |= *b;
        }
    }

    #[inline(always)]
    fn and_not(&self, other: &Lanes) -> Lanes {
        let mut out = *self;
        for (a, b) in out.0.iter_mut().zip(&other.0) {
            *a &= !*b;
        }
        out
    }

    #[inline(always)]
    fn and_count(&self, other: &Lanes) -> u64 {
        self.0
            .iter()
            .zip(&other.0)
            .map(|(a, b)| (a & b).count_ones() as u64)
            .sum()
    }

    #[inline(always)]
    fn count(&self) -> u64 {
        self.0.iter().map(|a| a.count_ones() as u64).sum()
    }

    fn set(&mut self, lane: usize) {
        self.0[lane / 64] |= 1 << (lane % 64);
    }

    /// All lanes from `used` on: the unused lanes of a short batch, treated as done.
    fn from_lane(used: usize) -> Lanes {
        let mut out = Lanes::ZERO;
        for lane in used..LANES {
            out.set(lane);
        }
        out
    }

    fn for_each_lane(&self, mut f: impl FnMut(usize)) {
        for (w, &word) in self.0.iter().enumerate() {
            let mut bits = word;
            while bits != 0 {
                f(w * 64 + bits.trailing_zeros() as usize);
                bits &= bits - 1;
            }
        }
    }
}

/// What an all-pairs run should compute.
#[derive(Debug, Clone, Copy)]
pub struct PairOptions<'a> {
    /// Sources of the searches; every router when None.
    pub sources: Option<&'a [u32]>,
    /// A weight per router (e.g. its endpoints); fills `PairStats::weighted_histogram`.
    pub weights: Option<&'a [u32]>,
    /// Levels searched; pairs farther apart count as unreached.
    pub max_depth: u32,
}

impl Default for PairOptions<'_> {
    fn default() -> Self {
        PairOptions {
            sources: None,
            weights: None,
            max_depth: u32::MAX,
        }
    }
}

/// Distances from the sources to every router, reduced.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct PairStats {
    /// `histogram[d]`: ordered pairs (s, t), s a source and t ≠ s, at distance d (index 0 is 0).
    pub histogram: Vec<u64>,
    /// `weighted_histogram[d]` = Σ w_s·w_t over the same pairs (empty without weights).
    pub weighted_histogram: Vec<u128>,
    /// Per source (in order): the largest distance to a router it reaches.
    pub eccentricities: Vec<u32>,
    /// Ordered pairs (s, t), t ≠ s, where s does not reach t (within `max_depth`).
    pub unreached_pairs: u64,
}

impl PairStats {
    fn empty(options: &PairOptions<'_>) -> PairStats {
        PairStats {
            histogram: vec![0],
            weighted_histogram: if options.weights.is_some() {
                vec![0]
            } else {
                Vec::new()
            },
            ..PairStats::default()
        }
    }

    /// Σ d over the reached pairs.
    pub fn distance_sum(&self) -> u128 {
        self.histogram
            .iter()
            .enumerate()
            .map(|(d, &c)| d as u128 * c as u128)
            .sum()
    }

    /// The largest distance of a reached pair (0 when none).
    pub fn max_distance(&self) -> u32 {
        self.histogram.iter().rposition(|&c| c > 0).unwrap_or(0) as u32
    }

    fn merge(&mut self, batch: BatchStats) {
        add_into(&mut self.histogram, &batch.histogram);
        add_into(&mut self.weighted_histogram, &batch.weighted);
        self.eccentricities.extend_from_slice(&batch.eccentricities);
        self.unreached_pairs += batch.unreached;
    }
}

fn add_into<T: Copy + Default + std::ops::AddAssign>(into: &mut Vec<T>, from: &[T]) {
    if into.len() < from.len() {
        into.resize(from.len(), T::default());
    }
    for (a, &b) in into.iter_mut().zip(from) {
        *a += b;
    }
}

/// Per-thread buffers of the search, reused across batches.
#[derive(Default)]
pub struct Scratch {
    prev: Vec<Lanes>,
    cur: Vec<Lanes>,
    planes: Vec<(Lanes, u64)>,
    /// Routers that gained bits in the last level.
    active: Vec<u32>,
}

impl Scratch {
    pub fn new() -> Self {
        Scratch::default()
    }
}

#[derive(Default)]
struct BatchStats {
    histogram: Vec<u64>,
    weighted: Vec<u128>,
    eccentricities: Vec<u32>,
    unreached: u64,
}

/// All pairs, batches spread over the current rayon pool. Progress is reported per finished batch as
/// stage "distances" in sources; `Err(Interrupted)` from the monitor stops the run.
pub fn all_pairs(
    graph: Graph<'_>,
    options: &PairOptions<'_>,
    monitor: &dyn Monitor,
) -> Result<PairStats> {
    let all: Vec<u32>;
    let sources = match options.sources {
        Some(s) => s,
        None => {
            all = (0..graph.num_routers() as u32).collect();
            &all
        }
    };
    check(graph, sources, options.weights)?;
    let counter = Counter::new(monitor, "distances", sources.len() as u64);
    counter.add(0)?;
    let batches: Vec<BatchStats> = sources
        .par_chunks(LANES)
        .map_init(Scratch::new, |scratch, batch| {
            let stats = search_batch(graph, batch, options, scratch);
            counter.add(batch.len() as u64)?;
            Ok(stats)
        })
        .collect::<Result<_>>()?;
    let mut out = PairStats::empty(options);
    for batch in batches {
        out.merge(batch);
    }
    Ok(out)
}

/// All pairs on the calling thread (for work that is already parallel at a coarser grain, such
/// as resilience samples). `check_in` is called before every batch; an error stops the run.
pub fn all_pairs_sequential(
    graph: Graph<'_>,
    options: &PairOptions<'_>,
    scratch: &mut Scratch,
    check_in: &mut dyn FnMut() -> Result<()>,
) -> Result<PairStats> {
    let all: Vec<u32>;
    let sources = match options.sources {
        Some(s) => s,
        None => {
            all = (0..graph.num_routers() as u32).collect();
            &all
        }
    };
    check(graph, sources, options.weights)?;
    let mut out = PairStats::empty(options);
    for batch in sources.chunks(LANES) {
        check_in()?;
        out.merge(search_batch(graph, batch, options, scratch));
    }
    Ok(out)
}

fn check(graph: Graph<'_>, sources: &[u32], weights: Option<&[u32]>) -> Result<()> {
    let n = graph.num_routers();
    if let Some(&bad) = sources.iter().find(|&&s| s as usize >= n) {
        return Err(TopolabError::invalid(
            "all-pairs distances",
            "sources",
            bad,
            format!("router indices below {n}"),
        ));
    }
    if let Some(w) = weights {
        if w.len() != n {
            return Err(TopolabError::invalid(
                "all-pairs distances",
                "weights",
                format!("{} values", w.len()),
                format!("one weight per router ({n})"),
            ));
        }
    }
    Ok(())
}

/// Splits the batch's source weights into (lane mask, multiplier) planes such that
/// Σ_planes mult·[lane in mask] is the weight of each lane.
fn weight_planes(batch: &[u32], weights: &[u32], planes: &mut Vec<(Lanes, u64)>) {
    planes.clear();
    let mut nonzero = Lanes::ZERO;
    let mut common = None;
    let mut uniform = true;
    for (lane, &s) in batch.iter().enumerate() {
        let w = weights[s as usize];
        if w == 0 {
            continue;
        }
        nonzero.set(lane);
        match common {
            None => common = Some(w),
            Some(c) if c != w => uniform = false,
            _ => {}
        }
    }
    match common {
        None => {}
        Some(c) if uniform => planes.push((nonzero, c as u64)),
        Some(_) => {
            for bit in 0..32 {
                let mut mask = Lanes::ZERO;
                for (lane, &s) in batch.iter().enumerate() {
                    if weights[s as usize] >> bit & 1 == 1 {
                        mask.set(lane);
                    }
                }
                if mask != Lanes::ZERO {
                    planes.push((mask, 1u64 << bit));
                }
            }
        }
    }
}

fn search_batch(
    graph: Graph<'_>,
    batch: &[u32],
    options: &PairOptions<'_>,
    scratch: &mut Scratch,
) -> BatchStats {
    let n = graph.num_routers();
    let (outgoing, incoming) = (graph.outgoing, graph.incoming);
    let out_degree =
        |v: u32| (outgoing.offsets[v as usize + 1] - outgoing.offsets[v as usize]) as u64;
    let Scratch {
        prev,
        cur,
        planes,
        active,
    } = scratch;
    let unused = Lanes::from_lane(batch.len());
    prev.clear();
    prev.resize(n, unused);
    cur.resize(n, Lanes::ZERO);
    active.clear();
    let mut active_degree = 0u64;
    for (lane, &s) in batch.iter().enumerate() {
        prev[s as usize].set(lane);
        active.push(s);
        active_degree += out_degree(s);
    }
    match options.weights {
        Some(w) => weight_planes(batch, w, planes),
        None => planes.clear(),
    }
    let weights = options.weights.unwrap_or(&[]);

    let mut stats = BatchStats {
        histogram: vec![0],
        weighted: if options.weights.is_some() {
            vec![0]
        } else {
            Vec::new()
        },
        eccentricities: vec![0; batch.len()],
        unreached: 0,
    };
    let mut remaining = (batch.len() as u64) * (n as u64).saturating_sub(1);
    let mut level = 0u32;
    let arcs = graph.num_arcs() as u64;
    while remaining > 0 && level < options.max_depth {
        level += 1;
        // Cost in cache lines: a pull reads a line per arc and per router; a push copies and
        // rescans the routers and updates a line per arc leaving the active routers.
        let push = 3 * n as u64 + 2 * active_degree < arcs + n as u64;
        if push {
            cur.copy_from_slice(prev);
            for &u in active.iter() {
                let from = prev[u as usize];
                for &v in outgoing.row(u as usize) {
                    cur[v as usize].or_assign(&from);
                }
            }
        }
        active.clear();
        active_degree = 0;
        let mut found = Lanes::ZERO;
        let mut new_pairs = 0u64;
        let mut new_weight = 0u128;
        for v in 0..n {
            let old = prev[v];
            let now = if push {
                cur[v]
            } else if old == Lanes::FULL {
                cur[v] = old;
                continue;
            } else {
                let mut acc = old;
                for &u in incoming.row(v) {
                    acc.or_assign(&prev[u as usize]);
                }
                cur[v] = acc;
                acc
            };
            let new = now.and_not(&old);
            if new == Lanes::ZERO {
                continue;
            }
            active.push(v as u32);
            active_degree += out_degree(v as u32);
            new_pairs += new.count();
            found.or_assign(&new);
            if !planes.is_empty() && weights[v] != 0 {
                let lanes_weight: u64 = planes
                    .iter()
                    .map(|(mask, mult)| mult * new.and_count(mask))
                    .sum();
                new_weight += weights[v] as u128 * lanes_weight as u128;
            }
        }
        if new_pairs == 0 {
            break;
        }
        std::mem::swap(prev, cur);
        remaining -= new_pairs;
        stats.histogram.push(new_pairs);
        if options.weights.is_some() {
            stats.weighted.push(new_weight);
        }
        found.for_each_lane(|lane| stats.eccentricities[lane] = level);
    }
    stats.unreached = remaining;
    stats
}
