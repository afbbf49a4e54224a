//! Nearest-common-ancestor routing of fat trees (Besta & Hoefler, SC14, §V uses the adaptive ANCA
//! of Gómez et al. [33] for FT-3; Kathareios et al., SC15, §2.2.1 two-level trees): up until a
//! router above the destination leaf, then the unique way down. Minimal: 2·(level of the nearest
//! common ancestor) hops; one VL (an up*/down* path never turns down-then-up, so the CDG is
//! acyclic).
//!
//! - NCA (deterministic): the up port at level l is (e / u_0 / ... / u_{l-1}) mod u_l, e the
//!   destination endpoint's id and u_l the up ports per router of level l ("d-mod-k", per
//!   endpoint as in [33]): the hosts of one leaf are reached through different roots. A rule
//!   sees the destination router only, so the source draws the destination host uniformly
//!   among the leaf's hosts (the start state; as Mixed DOR does for its SL). Keying on the
//!   leaf instead would send all traffic to a leaf down one link: with p hosts per leaf the
//!   uniform-traffic throughput bound drops to about 1/p (the tests show both).
//! - ANCA (adaptive): every up port is a candidate; the simulator draws two at random and
//!   takes the less occupied (select=two_choices, BookSim2's `anca_fattree`, the reading of
//!   Besta & Hoefler, SC14, §V's ANCA: docs/routing.md). The way down is unique either way. Taking the least occupied of all up
//!   ports (select=queue) herds: the packets routed at a router in one step see the same
//!   credits (a flit is counted only once it crosses the switch) and crowd onto the same few
//!   ports, which at k = 32-44 (16-22 up ports, as many packets per step) caps uniform traffic
//!   at 0.79-0.86 (docs/reproduce.md, Fig. 6).
//!
//! Which routers are above a leaf comes from the labels (level, pod, index): a level-1 router
//! of pod P covers the leaves of pod P (pod -1: a two-level spine, all leaves), level 2 (core)
//! covers every leaf.

use super::catalog::{Definition, RoutingEntry, Rule, BOTH};
use super::rule::{Hop, HopRouting, RouteState, Select};
use crate::error::Result;
use crate::network::{Network, TREE_LEVELS};

#[derive(Debug, Clone)]
pub struct FatTreeNca {
    adaptive: bool,
    level: Vec<u8>,
    pod: Vec<i64>,
    /// Up-neighbour positions of router r: up[up_off[r]..up_off[r + 1]], by router index.
    up_off: Vec<u32>,
    up: Vec<u32>,
    /// Up ports per router of levels 0 and 1 (the d-mod-k radices).
    radix: [u32; 2],
    csr: (Vec<u32>, Vec<u32>),
    levels: u8,
    /// First endpoint id and endpoint count per router.
    ep_first: Vec<u32>,
    endpoints: Vec<u32>,
    /// Key the up ports on the destination leaf instead of the host (tests only).
    per_leaf: bool,
}

impl FatTreeNca {
    pub fn new(net: &Network, adaptive: bool) -> Result<Self> {
        let name = if adaptive {
            "fattree_anca"
        } else {
            "fattree_nca"
        };
        net.require(&format!("routing {name} (a fat-tree routing)"), TREE_LEVELS)?;
        let n = net.num_routers();
        let level: Vec<u8> = (0..n).map(|r| net.label(r)[0] as u8).collect();
        let pod: Vec<i64> = (0..n).map(|r| net.label(r)[1]).collect();
        let mut up_off = vec![0u32];
        let mut up = Vec::new();
        let mut radix = [0u32; 2];
        for r in 0..n {
            let mut ups: Vec<(u32, u32)> = net
                .neighbors(r)
                .iter()
                .enumerate()
                .filter(|(_, &v)| level[v as usize] > level[r])
                .map(|(i, &v)| (v, i as u32))
                .collect();
            ups.sort_unstable();
            if (level[r] as usize) < 2 && radix[level[r] as usize] == 0 {
                radix[level[r] as usize] = ups.len() as u32;
            }
            up.extend(ups.iter().map(|x| x.1));
            up_off.push(up.len() as u32);
        }
        let (o, t) = net.csr();
        let endpoints = net.endpoints().to_vec();
        let mut ep_first = Vec::with_capacity(n);
        let mut acc = 0u64;
        for &e in &endpoints {
            ep_first.push(acc.min(u32::MAX as u64) as u32);
            acc += e as u64;
        }
        Ok(FatTreeNca {
            ep_first,
            endpoints,
            per_leaf: false,
            adaptive,
            levels: level.iter().copied().max().unwrap_or(0) + 1,
            level,
            pod,
            up_off,
            up,
            radix,
            csr: (o.to_vec(), t.to_vec()),
        })
    }

    /// d-mod-k keyed on the destination leaf's router index instead of the endpoint: the
    /// variant a per-switch table gives (for the tests' comparison).
    pub fn keyed_per_leaf(mut self) -> Self {
        self.per_leaf = true;
        self
    }

    /// Whether leaf t lies below router r.
    fn covers(&self, r: usize, t: usize) -> bool {
        match self.level[r] {
            0 => r == t,
            1 => self.pod[r] == -1 || self.pod[r] == self.pod[t],
            _ => true,
        }
    }
}

impl HopRouting for FatTreeNca {
    fn name(&self) -> String {
        if self.adaptive {
            "fattree_anca".into()
        } else {
            "fattree_nca".into()
        }
    }
    fn vc_classes(&self) -> u32 {
        1
    }
    fn max_hops(&self) -> u32 {
        2 * (self.levels as u32 - 1)
    }
    fn default_select(&self) -> Select {
        if self.adaptive {
            Select::TwoChoices
        } else {
            Select::Random
        }
    }
    fn start(&self, _s: u32, t: u32, out: &mut Vec<(RouteState, f64)>) {
        let t = t as usize;
        if self.adaptive || self.per_leaf {
            out.push((RouteState::new(0, t as u32), 1.0));
            return;
        }
        // The destination host, uniform among the leaf's hosts (see the module comment).
        let hosts = self.endpoints[t].max(1);
        for d in 0..hosts {
            let e = self.ep_first[t].saturating_add(d);
            out.push((RouteState::new(0, e), 1.0 / hosts as f64));
        }
    }
    fn next(&self, r: u32, t: u32, _hop: u32, st: RouteState, out: &mut dyn FnMut(Hop)) {
        let (r, t) = (r as usize, t as usize);
        if r == t {
            return;
        }
        if self.covers(r, t) {
            // Down: the one lower neighbour above (or equal to) t.
            let (o, nb) = &self.csr;
            let nbrs = &nb[o[r] as usize..o[r + 1] as usize];
            if let Some(i) = nbrs
                .iter()
                .position(|&v| self.level[v as usize] < self.level[r] && self.covers(v as usize, t))
            {
                out(Hop {
                    detour: 0,
                    nb: i as u32,
                    vc: 0,
                    state: st,
                });
            }
            return;
        }
        let ups = &self.up[self.up_off[r] as usize..self.up_off[r + 1] as usize];
        if ups.is_empty() {
            return;
        }
        if self.adaptive {
            for &i in ups {
                out(Hop {
                    detour: 0,
                    nb: i,
                    vc: 0,
                    state: st,
                });
            }
        } else {
            let e = st.aux as usize;
            let key = match self.level[r] {
                0 => e,
                _ => e / self.radix[0].max(1) as usize,
            };
            out(Hop {
                detour: 0,
                nb: ups[key % ups.len()],
                vc: 0,
                state: st,
            });
        }
    }
}

/// The catalog entry of `fattree_anca` (`catalog::ROUTINGS`).
pub const FATTREE_ANCA: RoutingEntry = RoutingEntry {
    name: "fattree_anca",
    params: &[],
    readers: BOTH,
    summary: "fat tree adaptive nearest common ancestor: the less occupied of two random up ports (select=two_choices, BookSim2 anca_fattree), then the unique way down; one VL",
    source: "Besta & Hoefler, SC14, §V (ANCA, Gómez et al. [33]); Kathareios et al., SC15, §2.2.1",
    definition: Definition::Rule(|net, _, _| Ok(Rule::from(super::fattree::FatTreeNca::new(net, true)?))),
};

/// The catalog entry of `fattree_nca` (`catalog::ROUTINGS`).
pub const FATTREE_NCA: RoutingEntry = RoutingEntry {
    name: "fattree_nca",
    params: &[],
    readers: BOTH,
    summary: "fat tree nearest common ancestor, up port by destination (d-mod-k), then the unique way down; one VL",
    source: "Besta & Hoefler, SC14, §V (ANCA, Gómez et al. [33]); Kathareios et al., SC15, §2.2.1",
    definition: Definition::Rule(|net, _, _| Ok(Rule::from(super::fattree::FatTreeNca::new(net, false)?))),
};
