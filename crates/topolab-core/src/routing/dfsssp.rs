//! DFSSSP-style deadlock-free shortest paths (Domke, Hoefler & Nagel, IPDPS 2011; Besta & Hoefler,
//! SC14, §IV-D): one shortest path per router pair, then virtual layers: all paths start in layer
//! 0; while the layer's channel dependency graph has a cycle, the paths through the cycle's weakest
//! dependency (fewest paths) move to the next layer. The number of layers is the number of VLs
//! the routing needs (Besta & Hoefler, SC14, §IV-D: OFED's DFSSSP needed 3 on every Slim Fly, 8-15
//! on random DLN).
//!
//! Simplification (say so when comparing): the paths are BookSim2/anynet's table paths
//! (`NextHopTable`: lowest-id predecessor), not OFED's link-weight balanced SSSP; the layering is
//! OFED's "move the paths of the weakest edge of a found cycle".

use super::catalog::{Definition, RoutingEntry, STATIC};
use super::cdg::traffic_routers;
use super::path::{arc, PathSet, RouteDef};
use super::shortest::{HopMatrix, NextHopTable, NO_HOP};
use crate::error::{Result, TopolabError};
use crate::network::Network;
use crate::progress::Monitor;
use crate::topology::{ParamDef, ParamKind};

pub struct Dfsssp<'a> {
    net: &'a Network,
    table: NextHopTable,
    /// Layer (VL) of the path of pair (s, t) at s · n + t.
    layer: Vec<u8>,
    num_layers: u32,
}

impl<'a> Dfsssp<'a> {
    /// `max_layers`: stop with an error when more layers would be needed (at most 255).
    pub fn new(
        net: &'a Network,
        hops: &HopMatrix,
        max_layers: u32,
        monitor: &dyn Monitor,
    ) -> Result<Self> {
        super::shortest::require_connected(hops, "DFSSSP")?;
        let table = NextHopTable::build(net, hops, monitor)?;
        let n = net.num_routers();
        let terms = traffic_routers(net);
        // Paths as arc sequences, flat.
        let mut arcs: Vec<u32> = Vec::new();
        let mut starts = vec![0usize];
        let mut pairs = Vec::new();
        for &s in &terms {
            for &t in &terms {
                if s == t {
                    continue;
                }
                let mut r = s;
                while r != t {
                    let v = table.get(r, t);
                    if v == NO_HOP {
                        return Err(TopolabError::InvalidNetwork(format!(
                            "no path from router {s} to router {t}"
                        )));
                    }
                    arcs.push(arc(net, r, v as usize).expect("table hop is a link") as u32);
                    r = v as usize;
                }
                starts.push(arcs.len());
                pairs.push((s, t));
            }
            monitor.progress("dfsssp paths", s as u64, n as u64)?;
        }
        let np = pairs.len();
        let mut path_layer = vec![0u8; np];
        let mut current: Vec<u32> = (0..np as u32).collect();
        let mut layer = 0u32;
        while !current.is_empty() {
            if layer >= max_layers.min(255) {
                return Err(TopolabError::InvalidParameter {
                    context: "dfsssp".into(),
                    param: "max_vls".into(),
                    value: max_layers.to_string(),
                    allowed:
                        "enough virtual layers for an acyclic assignment; this network needs more"
                            .into(),
                });
            }
            break_cycles(
                &arcs,
                &starts,
                &current,
                &mut path_layer,
                layer as u8,
                monitor,
            )?;
            current.retain(|&p| path_layer[p as usize] > layer as u8);
            layer += 1;
        }
        let mut lay = vec![0u8; n * n];
        for (p, &(s, t)) in pairs.iter().enumerate() {
            lay[s * n + t] = path_layer[p];
        }
        Ok(Dfsssp {
            net,
            table,
            layer: lay,
            num_layers: layer.max(1),
        })
    }

    /// Virtual layers (VLs) the assignment needs.
    pub fn vls_needed(&self) -> u32 {
        self.num_layers
    }
}

/// Moves paths of `members` (all in layer `layer`) to layer + 1 until the layer's CDG is acyclic.
fn break_cycles(
    arcs: &[u32],
    starts: &[usize],
    members: &[u32],
    path_layer: &mut [u8],
    layer: u8,
    monitor: &dyn Monitor,
) -> Result<()> {
    // Dependencies (a1 << 32 | a2, path), sorted: edges grouped by key, CSR by a1.
    let mut trip: Vec<(u64, u32)> = Vec::new();
    for &p in members {
        let a = &arcs[starts[p as usize]..starts[p as usize + 1]];
        for w in a.windows(2) {
            trip.push((((w[0] as u64) << 32) | w[1] as u64, p));
        }
    }
    trip.sort_unstable();
    let mut keys: Vec<u64> = Vec::new();
    let mut eoff: Vec<usize> = Vec::new();
    for (i, &(k, _)) in trip.iter().enumerate() {
        if keys.last() != Some(&k) {
            keys.push(k);
            eoff.push(i);
        }
    }
    eoff.push(trip.len());
    let mut count: Vec<u32> = (0..keys.len())
        .map(|e| (eoff[e + 1] - eoff[e]) as u32)
        .collect();
    let na = arcs.iter().copied().max().map_or(0, |m| m as usize + 1);
    let mut voff = vec![0usize; na + 1];
    for &k in &keys {
        voff[(k >> 32) as usize + 1] += 1;
    }
    for i in 0..na {
        voff[i + 1] += voff[i];
    }
    // Black vertices stay valid while edges are only removed.
    let mut color = vec![0u8; na];
    let mut stack: Vec<(u32, usize)> = Vec::new();
    let mut rounds = 0u64;
    loop {
        let cycle = dfs_cycle(&keys, &voff, &count, &mut color, &mut stack);
        let Some(cycle) = cycle else { return Ok(()) };
        rounds += 1;
        if rounds.is_multiple_of(64) {
            monitor.progress("dfsssp layers", rounds, 0)?;
        }
        let weakest = *cycle.iter().min_by_key(|&&e| (count[e], e)).unwrap();
        for &(_, p) in &trip[eoff[weakest]..eoff[weakest + 1]] {
            let p = p as usize;
            if path_layer[p] != layer {
                continue;
            }
            path_layer[p] = layer + 1;
            let a = &arcs[starts[p]..starts[p + 1]];
            for w in a.windows(2) {
                let k = ((w[0] as u64) << 32) | w[1] as u64;
                let e = keys.binary_search(&k).unwrap();
                count[e] -= 1;
            }
        }
        for c in color.iter_mut() {
            if *c == 1 {
                *c = 0;
            }
        }
    }
}

/// Iterative DFS over live edges (count > 0); returns the edge indices of one cycle.
fn dfs_cycle(
    keys: &[u64],
    voff: &[usize],
    count: &[u32],
    color: &mut [u8],
    stack: &mut Vec<(u32, usize)>,
) -> Option<Vec<usize>> {
    for root in 0..color.len() {
        if color[root] != 0 {
            continue;
        }
        stack.clear();
        color[root] = 1;
        stack.push((root as u32, voff[root]));
        while let Some(&mut (v, ref mut e)) = stack.last_mut() {
            if *e < voff[v as usize + 1] {
                let edge = *e;
                *e += 1;
                if count[edge] == 0 {
                    continue;
                }
                let w = keys[edge] as u32 as usize;
                match color[w] {
                    0 => {
                        color[w] = 1;
                        stack.push((w as u32, voff[w]));
                    }
                    1 => {
                        let start = stack.iter().position(|&(x, _)| x as usize == w).unwrap();
                        return Some(stack[start..].iter().map(|&(_, e)| e - 1).collect());
                    }
                    _ => {}
                }
            } else {
                color[v as usize] = 2;
                stack.pop();
            }
        }
    }
    None
}

impl RouteDef for Dfsssp<'_> {
    fn name(&self) -> String {
        "dfsssp".into()
    }
    fn num_vcs(&self) -> u32 {
        self.num_layers
    }
    fn paths(&self, s: usize, t: usize, out: &mut PathSet) -> Result<()> {
        out.clear();
        let n = self.net.num_routers();
        let mut rs = vec![s as u32];
        let mut r = s;
        while r != t {
            let v = self.table.get(r, t);
            if v == NO_HOP {
                return Err(TopolabError::InvalidNetwork(format!(
                    "no path from router {s} to router {t}"
                )));
            }
            rs.push(v);
            r = v as usize;
        }
        let vcs = vec![self.layer[s * n + t]; rs.len() - 1];
        out.push(&rs, &vcs, 1.0);
        Ok(())
    }
}

/// The catalog entry of `dfsssp` (`catalog::ROUTINGS`).
pub const DFSSSP: RoutingEntry = RoutingEntry {
    name: "dfsssp",
    params: &[ParamDef {
        name: "max_vls",
        kind: ParamKind::Int,
        default: Some("16"),
        help: "most virtual layers DFSSSP may use",
    }],
    readers: STATIC,
    summary: "shortest paths with DFSSSP virtual layers",
    source: "Besta & Hoefler, SC14, §IV-D",
    definition: Definition::Paths(|net, params, monitor| {
        let max = params.opt_u32("max_vls", 1, 255)?.unwrap_or(16);
        let hops = HopMatrix::build(net, monitor)?;
        Ok(Box::new(Dfsssp::new(net, &hops, max, monitor)?))
    }),
};
