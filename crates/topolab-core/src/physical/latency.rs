//! End-to-end latency of a placed network under Nearest and Fastest Routing (Fujiwara et al., IPDPS
//! 2014, §II-E, §III-A).
//!
//! A path of h router-to-router hops crosses h + 1 switches and h cables, so its latency is
//!
//!   injection/ejection + (h + 1)·switch_delay + cable_delay·(total cable length)
//!
//! with Fujiwara et al.'s (IPDPS 2014) values 300 ns (150 ns at each end), 60 ns and 5 ns/m as
//! defaults. Links between switches and compute nodes are not counted (Fujiwara et al., IPDPS 2014,
//! Fig. 1), the injection/ejection term covers them.
//!
//! - Nearest Routing (NR): fewest hops; among those, lowest latency (a BFS whose layers carry
//!   the best latency so far).
//! - Fastest Routing (FR): lowest latency (Dijkstra); among those, fewest hops. FR is never
//!   slower than NR and may take more hops.
//!
//! FR's Dijkstra runs on a bucket queue when it can: with buckets as wide as the lightest arc
//! (switch delay + shortest cable), no router can improve another of its own bucket, so every
//! router of the current bucket is final (Dial's algorithm with width w_min; the same argument
//! makes Δ-stepping exact for Δ <= w_min). Arc weights span a small range (70 to ~700 ns on
//! Fujiwara et al.'s (IPDPS 2014) floors), so a few dozen circular buckets replace the heap's log
//! factor. Zero-weight arcs or a very wide weight range fall back to a binary heap; both give the
//! exact lexicographic minimum (latency, hops), so the results are identical.
//!
//! Both are run from every source router to every other router; the report gives the maximum
//! and average latency and the hop counts of the chosen paths. Sources and destinations are
//! the routers with endpoints (all routers when none has any), so indirect networks (fat trees)
//! measure endpoint-to-endpoint paths. Latencies are summed in integer picoseconds: sums are
//! exact, ties are exact and the result does not depend on how rayon splits the sources.

use super::cables::link_lengths;
use super::floor::Floor;
use super::placement::Placement;
use crate::error::{Result, TopolabError};
use crate::network::Network;
use crate::progress::{Counter, Monitor};
use rayon::prelude::*;
use serde::Serialize;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// Marks a router a search did not reach.
pub const UNREACHED: u64 = u64::MAX;

#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct LatencyModel {
    pub switch_delay_ns: f64,
    pub cable_ns_per_m: f64,
    pub injection_ns: f64,
}

impl Default for LatencyModel {
    /// Fujiwara et al., IPDPS 2014, §III-A/B: 60 ns switches, 5 ns/m cables, 300 ns injection and
    /// ejection.
    fn default() -> Self {
        LatencyModel {
            switch_delay_ns: 60.0,
            cable_ns_per_m: 5.0,
            injection_ns: 300.0,
        }
    }
}

impl LatencyModel {
    fn validate(&self) -> Result<()> {
        // Bounds far above any hardware; they keep one hop's delay within u32 picoseconds.
        for (name, v, max) in [
            ("switch_delay_ns", self.switch_delay_ns, 1e6),
            ("cable_ns_per_m", self.cable_ns_per_m, 1e3),
            ("injection_ns", self.injection_ns, 1e9),
        ] {
            if !v.is_finite() || !(0.0..=max).contains(&v) {
                return Err(TopolabError::invalid(
                    "latency",
                    name,
                    v,
                    format!("a finite number from 0 to {max:e}"),
                ));
            }
        }
        Ok(())
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Routing {
    Nearest,
    Fastest,
}

impl Routing {
    pub fn from_name(name: &str) -> Result<Routing> {
        match name.to_ascii_lowercase().as_str() {
            "nearest" | "nr" => Ok(Routing::Nearest),
            "fastest" | "fr" => Ok(Routing::Fastest),
            _ => Err(TopolabError::invalid(
                "latency",
                "routing",
                format!("'{name}'"),
                "nearest (fewest hops) or fastest (lowest latency)",
            )),
        }
    }
}

fn ps(ns: f64) -> u64 {
    (ns * 1000.0).round() as u64
}

/// The network as a weighted graph: per arc of the CSR adjacency, switch delay plus cable
/// delay in picoseconds.
pub struct LatencyGraph<'a> {
    net: &'a Network,
    /// u32 (up to 4.29 ms per arc) halves the memory the inner loops stream through.
    arc_ps: Vec<u32>,
    /// Injection/ejection plus the first switch, added to every path.
    base_ps: u64,
    /// Bucket width (the lightest arc) and circular bucket count; 0 buckets: use the heap.
    bucket_ps: u64,
    num_buckets: usize,
}

/// Above this many circular buckets the heap is used instead.
const MAX_BUCKETS: u64 = 1 << 12;

/// Per-thread buffers for one single-source search.
pub struct Scratch {
    pub latency_ps: Vec<u64>,
    pub hops: Vec<u32>,
    queue: Vec<u32>,
    heap: BinaryHeap<Reverse<(u64, u32, u32)>>,
    buckets: Vec<Vec<u32>>,
    settled: Vec<bool>,
}

impl Scratch {
    pub fn new(n: usize) -> Self {
        Scratch {
            latency_ps: vec![UNREACHED; n],
            hops: vec![u32::MAX; n],
            queue: Vec::with_capacity(n),
            heap: BinaryHeap::new(),
            buckets: Vec::new(),
            settled: vec![false; n],
        }
    }
}

impl<'a> LatencyGraph<'a> {
    /// `lengths` is the cable length of each link (`cables::link_lengths`).
    pub fn new(net: &'a Network, lengths: &[f64], model: &LatencyModel) -> Result<Self> {
        model.validate()?;
        if lengths.len() != net.links().len() {
            return Err(TopolabError::InvalidNetwork(format!(
                "{} cable lengths for {} links",
                lengths.len(),
                net.links().len()
            )));
        }
        let mut link_ps: Vec<u32> = Vec::with_capacity(lengths.len());
        for &len in lengths {
            let w = ps(model.switch_delay_ns + model.cable_ns_per_m * len);
            let w = u32::try_from(w).map_err(|_| {
                TopolabError::invalid(
                    "latency",
                    "cable_ns_per_m",
                    model.cable_ns_per_m,
                    format!(
                        "a model whose hop delay stays below 4.29 ms (a {len} m cable gives {} ns)",
                        w / 1000
                    ),
                )
            })?;
            link_ps.push(w);
        }
        let n = net.num_routers();
        let mut arc_ps = Vec::with_capacity(net.csr().1.len());
        for r in 0..n {
            arc_ps.extend(net.neighbor_links(r).iter().map(|&l| link_ps[l as usize]));
        }
        let w_min = arc_ps.iter().copied().min().unwrap_or(0) as u64;
        let w_max = arc_ps.iter().copied().max().unwrap_or(0) as u64;
        // Tentative latencies lie within [i·w_min, (i+1)·w_min + w_max) while bucket i is
        // processed, so w_max/w_min + 2 circular buckets never wrap onto a live one.
        let num_buckets = match w_max.checked_div(w_min) {
            Some(ratio) if ratio + 2 <= MAX_BUCKETS => (ratio + 2) as usize,
            _ => 0,
        };
        Ok(LatencyGraph {
            net,
            arc_ps,
            base_ps: ps(model.injection_ns + model.switch_delay_ns),
            bucket_ps: w_min,
            num_buckets,
        })
    }

    /// Delay of each arc of the CSR adjacency in ps (switch delay plus cable delay), parallel
    /// to `net.csr().1`: what a routing that follows the fastest paths steps along.
    pub fn arc_ps(&self) -> &[u32] {
        &self.arc_ps
    }

    /// Latency in ps (path weight plus injection and first switch) and hops of the chosen path
    /// from `src` to every router, in `scratch`; `UNREACHED` where there is none.
    pub fn search(&self, src: usize, routing: Routing, scratch: &mut Scratch) {
        match routing {
            Routing::Nearest => self.nearest(src, scratch),
            Routing::Fastest if self.num_buckets > 0 => self.fastest_buckets(src, scratch),
            Routing::Fastest => self.fastest_heap(src, scratch),
        }
        for l in scratch.latency_ps.iter_mut() {
            if *l != UNREACHED {
                *l += self.base_ps;
            }
        }
    }

    fn nearest(&self, src: usize, s: &mut Scratch) {
        let (offsets, targets) = self.net.csr();
        s.latency_ps.fill(UNREACHED);
        s.hops.fill(u32::MAX);
        s.queue.clear();
        s.latency_ps[src] = 0;
        s.hops[src] = 0;
        s.queue.push(src as u32);
        let mut head = 0;
        // BFS layer by layer: when u is dequeued, every router of the layer before has been
        // expanded, so latency_ps[u] is the best over all shortest-hop paths.
        while head < s.queue.len() {
            let u = s.queue[head] as usize;
            head += 1;
            let (next_hops, lat_u) = (s.hops[u] + 1, s.latency_ps[u]);
            let arcs = offsets[u] as usize..offsets[u + 1] as usize;
            for (&v, &w) in targets[arcs.clone()].iter().zip(&self.arc_ps[arcs]) {
                let v = v as usize;
                let lat = lat_u + w as u64;
                if s.hops[v] == u32::MAX {
                    s.hops[v] = next_hops;
                    s.latency_ps[v] = lat;
                    s.queue.push(v as u32);
                } else if s.hops[v] == next_hops && lat < s.latency_ps[v] {
                    s.latency_ps[v] = lat;
                }
            }
        }
    }

    /// Dijkstra on circular buckets of width `bucket_ps` (see the module comment).
    fn fastest_buckets(&self, src: usize, s: &mut Scratch) {
        let (offsets, targets) = self.net.csr();
        let (width, count) = (self.bucket_ps, self.num_buckets);
        s.latency_ps.fill(UNREACHED);
        s.hops.fill(u32::MAX);
        s.settled.fill(false);
        s.buckets.resize_with(count, Vec::new);
        s.buckets.iter_mut().for_each(Vec::clear);
        s.latency_ps[src] = 0;
        s.hops[src] = 0;
        s.buckets[0].push(src as u32);
        let mut pending = 1usize;
        let mut bucket = 0usize;
        while pending > 0 {
            let slot = bucket % count;
            // Relaxations from this bucket land in later buckets only (arcs >= width), so the
            // list can be taken out while others grow.
            let list = std::mem::take(&mut s.buckets[slot]);
            pending -= list.len();
            for &u in &list {
                let u = u as usize;
                if s.settled[u] {
                    continue; // an older entry of a router improved since
                }
                s.settled[u] = true;
                let (d, h) = (s.latency_ps[u], s.hops[u]);
                let arcs = offsets[u] as usize..offsets[u + 1] as usize;
                for (&v, &w) in targets[arcs.clone()].iter().zip(&self.arc_ps[arcs]) {
                    let v = v as usize;
                    let key = (d + w as u64, h + 1);
                    if key < (s.latency_ps[v], s.hops[v]) {
                        s.latency_ps[v] = key.0;
                        s.hops[v] = key.1;
                        s.buckets[(key.0 / width) as usize % count].push(v as u32);
                        pending += 1;
                    }
                }
            }
            let mut list = list;
            list.clear();
            s.buckets[slot] = list;
            bucket += 1;
        }
    }

    /// Dijkstra with a binary heap, for zero-weight arcs or very uneven weights.
    fn fastest_heap(&self, src: usize, s: &mut Scratch) {
        let (offsets, targets) = self.net.csr();
        s.latency_ps.fill(UNREACHED);
        s.hops.fill(u32::MAX);
        s.heap.clear();
        s.latency_ps[src] = 0;
        s.hops[src] = 0;
        s.heap.push(Reverse((0, 0, src as u32)));
        // Keys (latency, hops) compared lexicographically: Dijkstra stays exact because every
        // arc adds (w >= 0, 1) > (0, 0).
        while let Some(Reverse((d, h, u))) = s.heap.pop() {
            let u = u as usize;
            if (d, h) != (s.latency_ps[u], s.hops[u]) {
                continue;
            }
            let arcs = offsets[u] as usize..offsets[u + 1] as usize;
            for (&v, &w) in targets[arcs.clone()].iter().zip(&self.arc_ps[arcs]) {
                let v = v as usize;
                let key = (d + w as u64, h + 1);
                if key < (s.latency_ps[v], s.hops[v]) {
                    s.latency_ps[v] = key.0;
                    s.hops[v] = key.1;
                    s.heap.push(Reverse((key.0, key.1, v as u32)));
                }
            }
        }
    }
}

crate::result_type! {
    /// All-pairs latency under Nearest or Fastest Routing (Fujiwara et al., IPDPS 2014, §II-E,
    /// §III-A).
    pub struct LatencyReport {
        pub routing: Routing,
        #[unit = "ns"]
        pub switch_delay_ns: f64,
        #[unit = "ns/m"]
        pub cable_ns_per_m: f64,
        #[unit = "ns"]
        pub injection_ns: f64,
        pub floor: String,
        pub placement: String,
        pub cabinets: usize,
        /// Routers between which paths are measured (those with endpoints, or all).
        pub routers: usize,
        /// Ordered pairs of distinct such routers.
        pub pairs: u64,
        #[unit = "ns"]
        pub max_latency_ns: f64,
        #[unit = "ns"]
        pub avg_latency_ns: f64,
        #[unit = "ns"]
        pub min_latency_ns: f64,
        /// Hop counts of the chosen paths.
        #[unit = "router-to-router hops"]
        pub avg_hops: f64,
        #[unit = "router-to-router hops"]
        pub max_hops: u32,
    }
}

#[derive(Debug, Clone, Copy)]
struct Stats {
    pairs: u64,
    sum_ps: u128,
    max_ps: u64,
    min_ps: u64,
    sum_hops: u64,
    max_hops: u32,
}

impl Stats {
    const EMPTY: Stats = Stats {
        pairs: 0,
        sum_ps: 0,
        max_ps: 0,
        min_ps: u64::MAX,
        sum_hops: 0,
        max_hops: 0,
    };

    fn merge(self, o: Stats) -> Stats {
        Stats {
            pairs: self.pairs + o.pairs,
            sum_ps: self.sum_ps + o.sum_ps,
            max_ps: self.max_ps.max(o.max_ps),
            min_ps: self.min_ps.min(o.min_ps),
            sum_hops: self.sum_hops + o.sum_hops,
            max_hops: self.max_hops.max(o.max_hops),
        }
    }
}

/// Sources handed to one rayon task between two progress reports.
const CHUNK: usize = 32;

/// Latency over all pairs of endpoint routers of `net` placed by `placement` on `floor`.
pub fn latency(
    net: &Network,
    placement: &Placement,
    floor: &Floor,
    model: &LatencyModel,
    routing: Routing,
    monitor: &dyn Monitor,
) -> Result<LatencyReport> {
    let lengths = link_lengths(net, placement, floor);
    let graph = LatencyGraph::new(net, &lengths, model)?;
    let n = net.num_routers();
    let mut among: Vec<usize> = (0..n).filter(|&r| net.endpoints()[r] > 0).collect();
    if among.is_empty() {
        among = (0..n).collect();
    }
    let counter = Counter::new(monitor, "latency", among.len() as u64);
    let per_chunk: Vec<Stats> = among
        .par_chunks(CHUNK)
        .map_init(
            || Scratch::new(n),
            |scratch, chunk| -> Result<Stats> {
                let mut st = Stats::EMPTY;
                for &src in chunk {
                    graph.search(src, routing, scratch);
                    for &dst in &among {
                        if dst == src {
                            continue;
                        }
                        let lat = scratch.latency_ps[dst];
                        if lat == UNREACHED {
                            return Err(TopolabError::InvalidNetwork(format!(
                                "router {dst} cannot be reached from router {src}: latency is \
                                 defined for connected networks only"
                            )));
                        }
                        let hops = scratch.hops[dst];
                        st.pairs += 1;
                        st.sum_ps += lat as u128;
                        st.max_ps = st.max_ps.max(lat);
                        st.min_ps = st.min_ps.min(lat);
                        st.sum_hops += hops as u64;
                        st.max_hops = st.max_hops.max(hops);
                    }
                }
                counter.add(chunk.len() as u64)?;
                Ok(st)
            },
        )
        .collect::<Result<Vec<Stats>>>()?;
    let st = per_chunk.into_iter().fold(Stats::EMPTY, Stats::merge);
    let ns = |p: f64| p / 1000.0;
    let (avg_ps, avg_hops, min_ps) = if st.pairs == 0 {
        (0.0, 0.0, 0.0)
    } else {
        (
            st.sum_ps as f64 / st.pairs as f64,
            st.sum_hops as f64 / st.pairs as f64,
            st.min_ps as f64,
        )
    };
    Ok(LatencyReport {
        routing,
        switch_delay_ns: model.switch_delay_ns,
        cable_ns_per_m: model.cable_ns_per_m,
        injection_ns: model.injection_ns,
        floor: floor.name.clone(),
        placement: placement.method.clone(),
        cabinets: placement.cabinets,
        routers: among.len(),
        pairs: st.pairs,
        max_latency_ns: ns(st.max_ps as f64),
        avg_latency_ns: ns(avg_ps),
        min_latency_ns: ns(min_ps),
        avg_hops,
        max_hops: st.max_hops,
    })
}
