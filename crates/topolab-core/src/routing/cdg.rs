//! Channel dependency graph (Dally & Seitz): vertices are channels (directed link, VC); an edge
//! c1 -> c2 exists when some path of the routing uses c2 right after c1. A routing whose CDG is
//! acyclic cannot deadlock (wormhole/virtual cut-through with per-VC buffers). The checker
//! reports "acyclic" or one concrete cycle of channels.
//!
//! Memory: edges are u64 pairs (c1 << 32 | c2), sorted and deduplicated per source router in
//! parallel, merged, then turned into CSR; the cycle search is an iterative DFS (no recursion).

use super::path::{arc, num_arcs, PathSet, RouteDef};
use crate::error::{Result, TopolabError};
use crate::network::Network;
use crate::progress::{Counter, Monitor};
use rayon::prelude::*;
use serde::Serialize;

/// One channel: the directed link from -> to and the VC on it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Channel {
    pub from: u32,
    pub to: u32,
    pub vc: u32,
}

/// The dependency graph in CSR form over channel ids (arc · num_vcs + vc).
#[derive(Debug, Clone)]
pub struct Cdg {
    pub num_vcs: u32,
    /// Per channel id, the (from, to) routers of its arc.
    arcs: Vec<(u32, u32)>,
    offsets: Vec<u64>,
    targets: Vec<u32>,
    /// Largest hop count of any path.
    pub max_hops: u32,
    /// Highest VC used on any hop, plus one (0 when no hop was taken).
    pub vcs_used: u32,
    /// Paths enumerated.
    pub num_paths: u64,
}

crate::result_type! {
    /// The deadlock check of a routing: its channel dependency graph (the routing is
    /// deadlock-free when the graph has no cycle, Dally & Seitz) and, when it has one, a cycle.
    #[python = "DeadlockReport"]
    pub struct CdgReport {
        pub routing: String,
        /// Channels (directed link x VC) and dependencies between them.
        pub num_channels: u64,
        pub num_dependencies: u64,
        /// Paths enumerated over every pair of routers with endpoints.
        pub num_paths: u64,
        /// Highest VC used on any hop, plus one.
        pub vcs_used: u32,
        /// Largest hop count of any path.
        pub max_hops: u32,
        pub acyclic: bool,
        /// A cycle c0 -> c1 -> ... -> c0 of channels (from router, to router, VC) when not
        /// acyclic (the last depends on the first).
        pub cycle: Option<Vec<(u32, u32, u32)>>,
    }
}

impl Cdg {
    /// Builds the CDG of `routing` over all ordered pairs s != t of routers with endpoints
    /// (`traffic_routers`): routers without endpoints (fat-tree spines, MLFM global routers)
    /// only forward.
    pub fn build(net: &Network, routing: &dyn RouteDef, monitor: &dyn Monitor) -> Result<Cdg> {
        let n = net.num_routers();
        let num_vcs = routing.num_vcs().max(1);
        let na = num_arcs(net);
        if (na as u64) * (num_vcs as u64) >= u32::MAX as u64 {
            return Err(TopolabError::InvalidNetwork(format!(
                "{na} directed links x {num_vcs} VCs exceed the 2^32 channels the CDG supports"
            )));
        }
        let terminals = traffic_routers(net);
        let counter = Counter::new(monitor, "channel dependencies", terminals.len() as u64);
        let parts: Vec<(Vec<u64>, u32, u32, u64)> = terminals
            .par_iter()
            .map(|&s| {
                let mut ps = PathSet::default();
                let mut edges = Vec::new();
                let (mut max_hops, mut vcs_used, mut num_paths) = (0u32, 0u32, 0u64);
                for &t in &terminals {
                    if t == s {
                        continue;
                    }
                    ps.clear();
                    routing.paths(s, t, &mut ps)?;
                    for i in 0..ps.len() {
                        let (rs, vcs, _) = ps.path(i);
                        num_paths += 1;
                        max_hops = max_hops.max(vcs.len() as u32);
                        let mut prev: Option<u32> = None;
                        for (j, &vc) in vcs.iter().enumerate() {
                            if vc as u32 >= num_vcs {
                                return Err(TopolabError::InvalidNetwork(format!(
                                    "routing {} uses VC {vc} but declares {num_vcs} VCs",
                                    routing.name()
                                )));
                            }
                            vcs_used = vcs_used.max(vc as u32 + 1);
                            let a =
                                arc(net, rs[j] as usize, rs[j + 1] as usize).ok_or_else(|| {
                                    TopolabError::InvalidNetwork(format!(
                                        "routing {} steps from router {} to {} without a link",
                                        routing.name(),
                                        rs[j],
                                        rs[j + 1]
                                    ))
                                })?;
                            let c = a as u32 * num_vcs + vc as u32;
                            if let Some(p) = prev {
                                edges.push(((p as u64) << 32) | c as u64);
                            }
                            prev = Some(c);
                        }
                    }
                    if edges.len() > 1 << 22 {
                        edges.sort_unstable();
                        edges.dedup();
                    }
                }
                edges.sort_unstable();
                edges.dedup();
                counter.add(1)?;
                Ok((edges, max_hops, vcs_used, num_paths))
            })
            .collect::<Result<_>>()?;
        let (mut max_hops, mut vcs_used, mut num_paths) = (0, 0, 0);
        let mut all: Vec<u64> = Vec::with_capacity(parts.iter().map(|p| p.0.len()).sum());
        for (e, h, v, p) in parts {
            all.extend_from_slice(&e);
            max_hops = max_hops.max(h);
            vcs_used = vcs_used.max(v);
            num_paths += p;
        }
        all.par_sort_unstable();
        all.dedup();
        let nc = na * num_vcs as usize;
        let mut offsets = vec![0u64; nc + 1];
        for &e in &all {
            offsets[(e >> 32) as usize + 1] += 1;
        }
        for i in 0..nc {
            offsets[i + 1] += offsets[i];
        }
        let targets = all.iter().map(|&e| e as u32).collect();
        let (offs, tg) = net.csr();
        let mut arcs = Vec::with_capacity(na);
        for u in 0..n {
            for &v in &tg[offs[u] as usize..offs[u + 1] as usize] {
                arcs.push((u as u32, v));
            }
        }
        Ok(Cdg {
            num_vcs,
            arcs,
            offsets,
            targets,
            max_hops,
            vcs_used,
            num_paths,
        })
    }

    pub fn num_channels(&self) -> usize {
        self.offsets.len() - 1
    }

    pub fn num_dependencies(&self) -> usize {
        self.targets.len()
    }

    /// Channels that depend on channel id c.
    pub fn successors(&self, c: u32) -> &[u32] {
        &self.targets[self.offsets[c as usize] as usize..self.offsets[c as usize + 1] as usize]
    }

    /// The channel behind an id.
    pub fn channel(&self, c: u32) -> Channel {
        let (from, to) = self.arcs[(c / self.num_vcs) as usize];
        Channel {
            from,
            to,
            vc: c % self.num_vcs,
        }
    }

    /// Channel id of (from, to, vc), if that link exists.
    pub fn channel_id(&self, net: &Network, ch: Channel) -> Option<u32> {
        arc(net, ch.from as usize, ch.to as usize).map(|a| a as u32 * self.num_vcs + ch.vc)
    }

    /// One cycle as channel ids, or None when the graph is acyclic (iterative three-colour DFS).
    pub fn find_cycle(&self) -> Option<Vec<u32>> {
        find_cycle_csr(self.num_channels(), |c| self.successors(c))
    }

    pub fn report(&self, routing: &str) -> CdgReport {
        let cycle = self.find_cycle().map(|c| {
            c.into_iter()
                .map(|id| {
                    let ch = self.channel(id);
                    (ch.from, ch.to, ch.vc)
                })
                .collect()
        });
        CdgReport {
            routing: routing.to_string(),
            num_channels: self.num_channels() as u64,
            num_dependencies: self.num_dependencies() as u64,
            num_paths: self.num_paths,
            vcs_used: self.vcs_used,
            max_hops: self.max_hops,
            acyclic: cycle.is_none(),
            cycle,
        }
    }
}

/// Iterative DFS over vertices 0..n with successor lists; returns the vertices of one cycle in
/// order (the last has an edge to the first) or None.
pub fn find_cycle_csr<'a>(n: usize, succ: impl Fn(u32) -> &'a [u32]) -> Option<Vec<u32>> {
    const WHITE: u8 = 0;
    const GRAY: u8 = 1;
    const BLACK: u8 = 2;
    let mut color = vec![WHITE; n];
    let mut stack: Vec<(u32, usize)> = Vec::new();
    for root in 0..n as u32 {
        if color[root as usize] != WHITE {
            continue;
        }
        color[root as usize] = GRAY;
        stack.push((root, 0));
        while let Some(&mut (v, ref mut i)) = stack.last_mut() {
            let s = succ(v);
            if *i < s.len() {
                let w = s[*i];
                *i += 1;
                match color[w as usize] {
                    WHITE => {
                        color[w as usize] = GRAY;
                        stack.push((w, 0));
                    }
                    GRAY => {
                        let start = stack.iter().position(|&(x, _)| x == w).unwrap();
                        return Some(stack[start..].iter().map(|&(x, _)| x).collect());
                    }
                    _ => {}
                }
            } else {
                color[v as usize] = BLACK;
                stack.pop();
            }
        }
    }
    None
}

/// Routers that source and sink traffic: those with endpoints, or every router when the
/// network has no endpoints at all (a bare graph).
pub fn traffic_routers(net: &Network) -> Vec<usize> {
    let n = net.num_routers();
    let with: Vec<usize> = (0..n).filter(|&r| net.endpoints()[r] > 0).collect();
    if with.is_empty() {
        (0..n).collect()
    } else {
        with
    }
}

/// Builds the CDG and checks it: the one-call deadlock check.
pub fn check(net: &Network, routing: &dyn RouteDef, monitor: &dyn Monitor) -> Result<CdgReport> {
    Ok(Cdg::build(net, routing, monitor)?.report(&routing.name()))
}
