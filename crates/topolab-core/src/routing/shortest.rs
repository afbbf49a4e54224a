//! All-pairs hop distances and shortest-path next hops.
//!
//! `HopMatrix` holds the hop distance of every ordered router pair (out-links when the network is
//! directed), one BFS per source run in parallel with the plain kernel of `metrics::distance`.
//! From it, the minimal next hops of router r towards t are the neighbours n with
//! d(n, t) = d(r, t) - 1 (`HopMatrix::minimal_next_hops`).
//!
//! `NextHopTable` fixes one shortest path per (router, destination) the way BookSim2's `anynet`
//! does (AnyNet::route): Dijkstra from every source with unit weights, routers settled in order
//! of distance and, at equal distance, lowest id first; a router's predecessor is the first
//! settled router that reaches it (relaxation only on a strictly shorter distance). With unit
//! weights that predecessor is the lowest-id in-neighbour one hop closer to the source, and the
//! first hop towards t is found by walking predecessors back from t. BookSim weighs links by
//! their latency; topolab's networks carry no latency, so hop counts are used (the same thing for
//! BookSim's reference inputs, whose links all have latency 1).
//!
//! Memory: n² distances of one byte (two on networks of diameter 255 or more, `HopCounts`) plus
//! n² u32 next hops; 2,738 routers (Slim Fly q = 37) take 37 MB.

use crate::error::{Result, TopolabError};
use crate::metrics::distance::{distances_from, UNREACHABLE};
use crate::network::Network;
use crate::progress::{Counter, Monitor};
use rayon::prelude::*;

/// Marks an unreachable pair in a `HopMatrix`.
pub const NO_PATH: u16 = u16::MAX;

/// Marks "no next hop" (the router itself, or an unreachable destination) in a `NextHopTable`.
pub const NO_HOP: u32 = u32::MAX;

/// Largest router count for which the all-pairs tables are built (n² entries).
pub const MAX_ROUTERS: usize = 60_000;

/// `entry_bytes`: the size of one of the n² entries. The rows are computed apart and then
/// copied into one array, so twice the table is held at the peak.
fn check_size(net: &Network, what: &str, entry_bytes: u128) -> Result<usize> {
    let n = net.num_routers();
    if n > MAX_ROUTERS {
        return Err(TopolabError::InvalidNetwork(format!(
            "{what} needs n² entries and supports at most {MAX_ROUTERS} routers; this network has {n}"
        )));
    }
    crate::resources::ensure_memory(
        what,
        "network",
        format!("{n} routers"),
        "n² table",
        2 * (n as u128) * (n as u128) * entry_bytes,
    )?;
    Ok(n)
}

/// Hop distance between every ordered pair of routers.
#[derive(Debug, Clone, PartialEq)]
pub struct HopMatrix {
    n: usize,
    dist: HopCounts,
}

/// Hop counts of router pairs, one byte each when every finite count is below 255 (a network
/// of diameter up to 254: all but the longest rings and chains), two otherwise. The simulator
/// reads these tables per packet (UGAL's candidate lengths) on networks of thousands of routers,
/// where half the bytes means more of the table in the caches: a Dragonfly of 1,008 routers
/// (2 MB of two-byte counts) took 5% less CPU time under UGAL-L with one byte.
#[derive(Debug, Clone, PartialEq)]
pub enum HopCounts {
    /// `u8::MAX` marks an unreachable pair.
    Narrow(Vec<u8>),
    /// `NO_PATH` marks an unreachable pair.
    Wide(Vec<u16>),
}

/// Marks an unreachable pair in `HopCounts::Narrow`.
const NARROW_NO_PATH: u8 = u8::MAX;

impl HopCounts {
    /// The counts of `rows` (each a full row, `NO_PATH` for unreachable), narrow when they fit.
    pub fn from_rows(rows: Vec<Vec<u16>>) -> HopCounts {
        let fits = rows
            .iter()
            .flatten()
            .all(|&d| d == NO_PATH || d < NARROW_NO_PATH as u16);
        let len = rows.iter().map(Vec::len).sum();
        if fits {
            let mut narrow = Vec::with_capacity(len);
            for row in rows {
                narrow.extend(row.iter().map(|&d| {
                    if d == NO_PATH {
                        NARROW_NO_PATH
                    } else {
                        d as u8
                    }
                }));
            }
            HopCounts::Narrow(narrow)
        } else {
            let mut wide = Vec::with_capacity(len);
            for row in rows {
                wide.extend_from_slice(&row);
            }
            HopCounts::Wide(wide)
        }
    }

    /// Count `i`, `NO_PATH` when unreachable.
    #[inline]
    pub fn get(&self, i: usize) -> u16 {
        match self {
            HopCounts::Narrow(v) => match v[i] {
                NARROW_NO_PATH => NO_PATH,
                d => d as u16,
            },
            HopCounts::Wide(v) => v[i],
        }
    }

    /// Where count `i` is stored, for a caller that asks for its line ahead (a prefetch);
    /// None past the end.
    #[inline]
    pub fn address(&self, i: usize) -> Option<*const u8> {
        match self {
            HopCounts::Narrow(v) => v.get(i).map(|d| d as *const u8),
            HopCounts::Wide(v) => v.get(i).map(|d| (d as *const u16).cast()),
        }
    }

    /// Bytes per count.
    pub fn entry_bytes(&self) -> usize {
        match self {
            HopCounts::Narrow(_) => 1,
            HopCounts::Wide(_) => 2,
        }
    }

    pub fn len(&self) -> usize {
        match self {
            HopCounts::Narrow(v) => v.len(),
            HopCounts::Wide(v) => v.len(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Every count in order, `NO_PATH` for unreachable.
    pub fn iter(&self) -> impl Iterator<Item = u16> + '_ {
        (0..self.len()).map(|i| self.get(i))
    }
}

impl HopMatrix {
    /// One BFS per source, in parallel; `monitor` sees one unit per source.
    pub fn build(net: &Network, monitor: &dyn Monitor) -> Result<HopMatrix> {
        let n = check_size(net, "the all-pairs hop matrix", 2)?;
        let counter = Counter::new(monitor, "hop distances", n as u64);
        let rows: Vec<Vec<u16>> = (0..n)
            .into_par_iter()
            .map(|s| {
                let row = distances_from(net, s)
                    .into_iter()
                    .map(|d| {
                        if d == UNREACHABLE {
                            NO_PATH
                        } else {
                            d.min(NO_PATH as u32 - 1) as u16
                        }
                    })
                    .collect();
                counter.add(1)?;
                Ok(row)
            })
            .collect::<Result<_>>()?;
        Ok(HopMatrix {
            n,
            dist: HopCounts::from_rows(rows),
        })
    }

    pub fn num_routers(&self) -> usize {
        self.n
    }

    /// Hops from `s` to `t`, `NO_PATH` when `t` cannot be reached.
    #[inline]
    pub fn get(&self, s: usize, t: usize) -> u16 {
        self.dist.get(s * self.n + t)
    }

    /// Where `get(s, t)` reads, for a caller that asks for the line ahead (a prefetch).
    #[inline]
    pub fn address(&self, s: usize, t: usize) -> Option<*const u8> {
        self.dist.address(s * self.n + t)
    }

    /// Bytes per pair: 1, or 2 for a network of diameter 255 or more.
    pub fn entry_bytes(&self) -> usize {
        self.dist.entry_bytes()
    }

    /// Largest finite distance (the diameter when the network is strongly connected).
    pub fn max_finite(&self) -> u16 {
        self.dist
            .iter()
            .filter(|&d| d != NO_PATH)
            .max()
            .unwrap_or(0)
    }

    /// True when every router reaches every router.
    pub fn connected(&self) -> bool {
        !self.dist.iter().any(|d| d == NO_PATH)
    }

    /// Positions in `net.neighbors(r)` of the neighbours one hop closer to `t` (empty when
    /// r == t or `t` is unreachable).
    pub fn minimal_next_hops<'a>(
        &'a self,
        net: &'a Network,
        r: usize,
        t: usize,
    ) -> impl Iterator<Item = usize> + 'a {
        let d = self.get(r, t);
        let want = if d == 0 || d == NO_PATH {
            NO_PATH
        } else {
            d - 1
        };
        net.neighbors(r)
            .iter()
            .enumerate()
            .filter(move |&(_, &v)| want != NO_PATH && self.get(v as usize, t) == want)
            .map(|(i, _)| i)
    }
}

/// One fixed next-hop router per (router, destination router): BookSim2 anynet's paths.
#[derive(Debug, Clone, PartialEq)]
pub struct NextHopTable {
    n: usize,
    hop: Vec<u32>,
}

impl NextHopTable {
    pub fn build(net: &Network, hops: &HopMatrix, monitor: &dyn Monitor) -> Result<NextHopTable> {
        let n = check_size(net, "the next-hop table", 4)?;
        if hops.num_routers() != n {
            return Err(TopolabError::InvalidNetwork(format!(
                "hop matrix for {} routers given for a network of {n}",
                hops.num_routers()
            )));
        }
        // In-neighbours, ascending (equal to neighbours when undirected).
        let in_nbrs: Vec<Vec<u32>> = if net.directed() {
            let mut v = vec![Vec::new(); n];
            for u in 0..n {
                for &w in net.neighbors(u) {
                    v[w as usize].push(u as u32);
                }
            }
            v
        } else {
            (0..n).map(|u| net.neighbors(u).to_vec()).collect()
        };
        let counter = Counter::new(monitor, "next hops", n as u64);
        let rows: Vec<Vec<u32>> = (0..n)
            .into_par_iter()
            .map(|s| {
                // Routers by (distance from s, id): the order Dijkstra settles them in.
                let mut order: Vec<u32> = (0..n as u32)
                    .filter(|&v| hops.get(s, v as usize) != NO_PATH)
                    .collect();
                order.sort_unstable_by_key(|&v| (hops.get(s, v as usize), v));
                let mut first = vec![NO_HOP; n];
                for &v in &order {
                    let v = v as usize;
                    let d = hops.get(s, v);
                    if d == 0 {
                        continue;
                    }
                    // Lowest-id predecessor one hop closer to s.
                    let prev = in_nbrs[v]
                        .iter()
                        .copied()
                        .find(|&u| hops.get(s, u as usize) == d - 1)
                        .expect("a router at distance d has a neighbour at distance d - 1")
                        as usize;
                    first[v] = if prev == s { v as u32 } else { first[prev] };
                }
                counter.add(1)?;
                Ok(first)
            })
            .collect::<Result<_>>()?;
        let mut hop = Vec::with_capacity(n * n);
        for row in rows {
            hop.extend_from_slice(&row);
        }
        Ok(NextHopTable { n, hop })
    }

    /// The neighbour of `r` on the fixed path to `t`, `NO_HOP` when r == t or unreachable.
    #[inline]
    pub fn get(&self, r: usize, t: usize) -> u32 {
        self.hop[r * self.n + t]
    }
}

/// Requires a strongly connected network (every pair routable).
pub fn require_connected(hops: &HopMatrix, what: &str) -> Result<()> {
    if !hops.connected() {
        return Err(TopolabError::InvalidNetwork(format!(
            "{what} needs a connected network; some router pair has no path"
        )));
    }
    Ok(())
}
