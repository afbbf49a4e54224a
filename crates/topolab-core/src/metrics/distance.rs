//! Hop distances between routers: the summary of the all-pairs kernel (diameter, average
//! shortest path length at router and endpoint level, histogram, eccentricities, connectivity)
//! and plain helpers for construction tests.

use super::adjacency::{strong_components, weak_components, Adjacency};
use super::apsp::{all_pairs, PairOptions, PairStats};
use crate::error::Result;
use crate::network::Network;
use crate::progress::{Monitor, Silent};

/// Marks a router that cannot be reached.
pub const UNREACHABLE: u32 = u32::MAX;

crate::result_type! {
    /// Distances between routers, exact. Everything that is not defined for the network (e.g. the
    /// diameter of a disconnected one) is None, never infinite.
    pub struct Distances {
        /// Every router reaches every other (for a directed network: strongly connected).
        pub connected: bool,
        /// Connected components; for a directed network the weakly connected ones (link direction
        /// ignored), see `strong_components`.
        pub components: usize,
        /// Strongly connected components (directed networks only).
        pub strong_components: Option<usize>,
        /// Largest router-to-router distance; None when not connected.
        #[unit = "router-to-router hops"]
        pub diameter: Option<u32>,
        /// Smallest eccentricity; None when not connected.
        #[unit = "hops"]
        pub radius: Option<u32>,
        /// Mean distance over the ordered pairs of distinct routers; None when not connected or
        /// with fewer than 2 routers.
        #[unit = "hops"]
        pub aspl: Option<f64>,
        /// Mean router-to-router hops over the ordered pairs of distinct endpoints, a pair on one
        /// router counting 0 (Besta & Hoefler, SC14, Fig. 1); None when some endpoint cannot reach
        /// another or the network has fewer than 2 endpoints.
        #[unit = "hops"]
        pub endpoint_aspl: Option<f64>,
        /// Largest distance between two routers that carry endpoints (the diameter of indirect
        /// networks); None when some endpoint cannot reach another or there are no endpoints.
        #[unit = "hops"]
        pub endpoint_diameter: Option<u32>,
        /// `histogram[d]`: ordered pairs of distinct routers at distance d (index 0 is 0);
        /// over the reachable pairs only.
        pub histogram: Vec<u64>,
        /// Ordered pairs (s, t), s ≠ t, where s does not reach t.
        pub unreachable_pairs: u64,
        /// Per router: the largest distance to any other router (out-distance when directed);
        /// None when not connected.
        pub eccentricities: Option<Vec<u32>>,
    }
}

/// Ordered pairs of distinct endpoints whose routers differ: Σ_{r≠r'} e_r·e_r' = N² − Σ e_r².
fn endpoint_pairs_between_routers(endpoints: &[u32]) -> u128 {
    let n: u128 = endpoints.iter().map(|&e| e as u128).sum();
    n * n
        - endpoints
            .iter()
            .map(|&e| (e as u128) * (e as u128))
            .sum::<u128>()
}

impl Distances {
    /// Summarises an all-pairs run over every router with endpoint weights.
    fn from_stats(net: &Network, stats: PairStats) -> Distances {
        let n = net.num_routers() as u64;
        let connected = stats.unreached_pairs == 0;
        let ordered_pairs = n * n.saturating_sub(1);
        let sum = stats.distance_sum();

        let endpoints = net.endpoints();
        let total_endpoints = net.num_endpoints() as u128;
        let between = endpoint_pairs_between_routers(endpoints);
        let reached_weight: u128 = stats.weighted_histogram.iter().sum();
        let endpoints_connected = reached_weight == between;
        let weighted_sum: u128 = stats
            .weighted_histogram
            .iter()
            .enumerate()
            .map(|(d, &w)| d as u128 * w)
            .sum();
        let endpoint_aspl = (endpoints_connected && total_endpoints >= 2)
            .then(|| weighted_sum as f64 / (total_endpoints * (total_endpoints - 1)) as f64);
        let endpoint_diameter = (endpoints_connected && total_endpoints > 0).then(|| {
            stats
                .weighted_histogram
                .iter()
                .rposition(|&w| w > 0)
                .unwrap_or(0) as u32
        });

        Distances {
            connected,
            components: weak_components(net),
            strong_components: net.directed().then(|| strong_components(net)),
            diameter: (connected && n > 0).then(|| stats.max_distance()),
            radius: (connected && n > 0)
                .then(|| stats.eccentricities.iter().copied().min().unwrap_or(0)),
            aspl: (connected && n >= 2).then(|| sum as f64 / ordered_pairs as f64),
            endpoint_aspl,
            endpoint_diameter,
            histogram: stats.histogram,
            unreachable_pairs: stats.unreached_pairs,
            eccentricities: connected.then_some(stats.eccentricities),
        }
    }

    /// Σ of the distances over the ordered pairs of distinct routers (reachable ones).
    pub fn distance_sum(&self) -> u128 {
        self.histogram
            .iter()
            .enumerate()
            .map(|(d, &c)| d as u128 * c as u128)
            .sum()
    }
}

/// All distances of `net`, computed by the parallel bitset kernel (see `apsp`).
pub fn distances(net: &Network, monitor: &dyn Monitor) -> Result<Distances> {
    let adjacency = Adjacency::of(net);
    let stats = all_pairs(
        adjacency.graph(),
        &PairOptions {
            weights: Some(net.endpoints()),
            ..PairOptions::default()
        },
        monitor,
    )?;
    Ok(Distances::from_stats(net, stats))
}

/// Hop distance from `src` to every router (out-links when directed); UNREACHABLE where none.
/// One source: a plain queue search is the fast way.
pub fn distances_from(net: &Network, src: usize) -> Vec<u32> {
    let (offsets, targets) = net.csr();
    let n = net.num_routers();
    let mut dist = vec![UNREACHABLE; n];
    let mut queue = Vec::with_capacity(n);
    dist[src] = 0;
    queue.push(src as u32);
    let mut head = 0;
    // Every reached router is queued, so a full queue means nothing is left to find: the search
    // stops there instead of scanning the last level's links: on a million-endpoint Slim Fly
    // (diameter 2) some 17.7 K links per source instead of all 2.1 M.
    while head < queue.len() && queue.len() < n {
        let u = queue[head] as usize;
        head += 1;
        let next = dist[u] + 1;
        for &v in &targets[offsets[u] as usize..offsets[u + 1] as usize] {
            if dist[v as usize] == UNREACHABLE {
                dist[v as usize] = next;
                queue.push(v);
            }
        }
    }
    dist
}

/// Largest hop distance between two distinct routers of `among`, or None when one cannot reach
/// another. Used for indirect networks whose diameter counts only endpoint routers.
pub fn diameter_among(net: &Network, among: &[usize]) -> Option<u32> {
    let mut sources: Vec<u32> = among.iter().map(|&r| r as u32).collect();
    sources.sort_unstable();
    sources.dedup();
    let mut weights = vec![0u32; net.num_routers()];
    for &s in &sources {
        weights[s as usize] = 1;
    }
    let adjacency = Adjacency::of(net);
    let stats = all_pairs(
        adjacency.graph(),
        &PairOptions {
            sources: Some(&sources),
            weights: Some(&weights),
            ..PairOptions::default()
        },
        &Silent,
    )
    .ok()?;
    let k = sources.len() as u128;
    let reached: u128 = stats.weighted_histogram.iter().sum();
    (reached == k * k.saturating_sub(1)).then(|| {
        stats
            .weighted_histogram
            .iter()
            .rposition(|&w| w > 0)
            .unwrap_or(0) as u32
    })
}

/// Diameter over all routers, or None when the network is not (strongly) connected.
pub fn diameter(net: &Network) -> Option<u32> {
    let adjacency = Adjacency::of(net);
    let stats = all_pairs(adjacency.graph(), &PairOptions::default(), &Silent).ok()?;
    (stats.unreached_pairs == 0).then(|| stats.max_distance())
}

/// Routers with at least one endpoint.
pub fn endpoint_routers(net: &Network) -> Vec<usize> {
    (0..net.num_routers())
        .filter(|&r| net.endpoints()[r] > 0)
        .collect()
}
