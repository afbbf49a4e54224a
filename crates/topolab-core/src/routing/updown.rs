//! up*/down* routing (Autonet: Schroeder et al., IEEE JSAC 1991) as a `HopRouting` rule, and its
//! catalog entry.

use super::catalog::{Definition, RoutingEntry, Rule, BOTH};
use super::rule::{Hop, HopRouting, RouteState};
use super::shortest::NO_PATH;
use crate::error::{Result, TopolabError};
use crate::network::Network;
use crate::topology::{ParamDef, ParamKind};
use std::sync::Arc;

/// up*/down* (Autonet): BFS levels from a root; a link is "up" towards the lower (level, id).
/// A legal path takes zero or more up links then zero or more down links; among legal paths
/// the shortest are used, uniformly at each router. One VC; deadlock-free because no
/// down -> up turn exists. State phase: 0 = may still go up, 1 = down only.
pub struct UpDown {
    root: usize,
    csr: Arc<(Vec<u32>, Vec<u32>)>,
    rank: Vec<(u32, u32)>,
    /// dist[t][2 v + phase]: legal hops from v in phase.
    dist: Vec<Vec<u16>>,
    longest: u32,
}

impl UpDown {
    pub fn new(net: &Network, root: usize) -> Result<Self> {
        let n = net.num_routers();
        if root >= n {
            return Err(TopolabError::InvalidParameter {
                context: "updown".into(),
                param: "root".into(),
                value: root.to_string(),
                allowed: format!("a router index below {n}"),
            });
        }
        if net.directed() {
            return Err(TopolabError::InvalidNetwork(
                "up*/down* needs an undirected network".into(),
            ));
        }
        let lv = crate::metrics::distance::distances_from(net, root);
        if lv.contains(&crate::metrics::distance::UNREACHABLE) {
            return Err(TopolabError::InvalidNetwork(
                "up*/down* needs a connected network".into(),
            ));
        }
        let rank: Vec<(u32, u32)> = (0..n).map(|v| (lv[v], v as u32)).collect();
        use rayon::prelude::*;
        let dist: Vec<Vec<u16>> = (0..n)
            .into_par_iter()
            .map(|t| updown_dist_to(net, &rank, t))
            .collect();
        let longest = dist
            .iter()
            .flat_map(|d| d.iter().step_by(2))
            .copied()
            .max()
            .unwrap_or(0) as u32;
        let (offsets, targets) = net.csr();
        Ok(UpDown {
            root,
            csr: Arc::new((offsets.to_vec(), targets.to_vec())),
            rank,
            dist,
            longest,
        })
    }

    fn is_up(&self, u: usize, v: usize) -> bool {
        self.rank[v] < self.rank[u]
    }
}

/// Backward BFS from t over (router, phase) states.
fn updown_dist_to(net: &Network, rank: &[(u32, u32)], t: usize) -> Vec<u16> {
    let n = net.num_routers();
    let mut d = vec![NO_PATH; 2 * n];
    let mut q = std::collections::VecDeque::new();
    for ph in 0..2 {
        d[2 * t + ph] = 0;
        q.push_back(2 * t + ph);
    }
    while let Some(x) = q.pop_front() {
        let (v, ph) = (x / 2, x % 2);
        // Predecessors (u, phu) with a legal step u -> v leading to phase ph.
        for &u in net.neighbors(v) {
            let u = u as usize;
            let up = rank[v] < rank[u];
            let preds: &[usize] = match (up, ph) {
                (true, 0) => &[0],     // up step keeps phase 0
                (false, 1) => &[0, 1], // down step from either phase enters phase 1
                _ => &[],
            };
            for &pu in preds {
                let y = 2 * u + pu;
                if d[y] == NO_PATH {
                    d[y] = d[x] + 1;
                    q.push_back(y);
                }
            }
        }
    }
    d
}

impl HopRouting for UpDown {
    fn name(&self) -> String {
        format!("updown:root={}", self.root)
    }
    fn vc_classes(&self) -> u32 {
        1
    }
    fn max_hops(&self) -> u32 {
        self.longest.max(1)
    }
    fn start(&self, _s: u32, _t: u32, out: &mut Vec<(RouteState, f64)>) {
        out.push((RouteState::new(0, 0), 1.0));
    }
    fn next(&self, r: u32, t: u32, _hop: u32, st: RouteState, out: &mut dyn FnMut(Hop)) {
        let (r, ph) = (r as usize, st.phase as usize);
        let dist = &self.dist[t as usize];
        let here = dist[2 * r + ph];
        if here == 0 {
            return; // at t
        }
        let (offsets, targets) = &*self.csr;
        let nbrs = &targets[offsets[r] as usize..offsets[r + 1] as usize];
        for (i, &v) in nbrs.iter().enumerate() {
            let up = self.is_up(r, v as usize);
            if up && ph == 1 {
                continue;
            }
            let nph = if up { 0 } else { 1 };
            if dist[2 * v as usize + nph] == here - 1 {
                out(Hop {
                    detour: 0,
                    nb: i as u32,
                    vc: 0,
                    state: RouteState::new(nph as u8, 0),
                });
            }
        }
    }
}

/// The catalog entry of `updown` (`catalog::ROUTINGS`).
pub const UPDOWN: RoutingEntry = RoutingEntry {
    name: "updown",
    params: &[ParamDef {
        name: "root",
        kind: ParamKind::Int,
        default: Some("0"),
        help: "the root router of the BFS tree",
    }],
    readers: BOTH,
    summary: "up*/down* shortest legal paths from a BFS root; one VC",
    source: "Autonet (Schroeder et al. 1991); topology-agnostic",
    definition: Definition::Rule(|net, params, _| {
        let n = net.num_routers() as u32;
        let root = params.opt_u32("root", 0, n.saturating_sub(1))?.unwrap_or(0);
        Ok(Rule::from(UpDown::new(net, root as usize)?))
    }),
};
