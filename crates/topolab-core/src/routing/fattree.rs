//! Nearest-common-ancestor routing of fat trees (000 §V uses the adaptive ANCA of Gómez et al.
//! [33] for FT-3; 001 §2.2.1 two-level trees): up until a router above the destination leaf,
//! then the unique way down. Minimal: 2·(level of the nearest common ancestor) hops; one VL
//! (an up*/down* path never turns down-then-up, so the CDG is acyclic).
//!
//! - NCA (deterministic): the up port at level l is (t / u_0 / ... / u_{l-1}) mod u_l, t the
//!   destination leaf's router index and u_l the up ports per router of level l ("d-mod-k"):
//!   destinations sharing the path up spread over all roots. 000 / [33] route per endpoint;
//!   a rule sees the destination router, so the spreading here is per destination leaf.
//! - ANCA (adaptive): every up port is a candidate; the simulator takes the least occupied
//!   (select=queue). The way down is unique either way.
//!
//! Which routers are above a leaf comes from the labels (level, pod, index): a level-1 router
//! of pod P covers the leaves of pod P (pod -1: a two-level spine, all leaves), level 2 (core)
//! covers every leaf.

use super::rule::{Hop, HopRouting, RouteState, Select};
use crate::error::{Result, TopolabError};
use crate::network::Network;

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
}

impl FatTreeNca {
    pub fn new(net: &Network, adaptive: bool) -> Result<Self> {
        let name = if adaptive {
            "fattree_anca"
        } else {
            "fattree_nca"
        };
        if net.family() != "fattree" || net.label_fields() != ["level", "pod", "index"] {
            return Err(TopolabError::InvalidNetwork(format!(
                "routing {name} needs a fattree network labelled (level, pod, index); this network is '{}'",
                net.family()
            )));
        }
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
        Ok(FatTreeNca {
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
            Select::Queue
        } else {
            Select::Random
        }
    }
    fn start(&self, _s: u32, _t: u32, out: &mut Vec<(RouteState, f64)>) {
        out.push((RouteState::default(), 1.0));
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
                    nb: i,
                    vc: 0,
                    state: st,
                });
            }
        } else {
            let key = match self.level[r] {
                0 => t,
                _ => t / self.radix[0].max(1) as usize,
            };
            out(Hop {
                nb: ups[key % ups.len()],
                vc: 0,
                state: st,
            });
        }
    }
}
