//! Topology-agnostic routings for static analysis: minimal, Valiant (000 §IV-B, with the
//! restrictions of 000 §IV-B and 001 §3.2), UGAL's candidate union (000 §IV-C), up*/down*.
//!
//! VC rules (`VcRule`): one VC; hop-indexed (VC k on hop k, 000 §IV-D: 2 VCs for minimal and 4
//! for Valiant on diameter-2 networks); per phase (VC 0 towards the Valiant intermediate, VC 1
//! away from it: 001 §3.4's 2-VC scheme for MLFM and OFT).

use super::path::{walk, PathSet, RouteDef, Step};
use super::rule::{Hop, HopRouting, RouteState};
use super::shortest::{HopMatrix, NO_PATH};
use crate::error::{Result, TopolabError};
use crate::network::Network;
use std::sync::Arc;

/// How VCs are assigned along a path.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum VcRule {
    /// VC 0 everywhere.
    Single,
    /// VC k on hop k (000 §IV-D).
    Hop,
    /// VC 0 before the Valiant intermediate, VC 1 after (001 §3.4).
    Phase,
}

impl VcRule {
    pub fn parse(value: &str, allowed: &[VcRule], context: &str) -> Result<VcRule> {
        let rule = match value {
            "single" | "1" => VcRule::Single,
            "hop" => VcRule::Hop,
            "phase" => VcRule::Phase,
            _ => VcRule::Single,
        };
        let names: Vec<&str> = allowed.iter().map(|r| r.name()).collect();
        if !matches!(value, "single" | "1" | "hop" | "phase") || !allowed.contains(&rule) {
            return Err(TopolabError::InvalidParameter {
                context: context.to_string(),
                param: "vcs".into(),
                value: value.into(),
                allowed: names.join(", "),
            });
        }
        Ok(rule)
    }
    pub fn name(self) -> &'static str {
        match self {
            VcRule::Single => "single",
            VcRule::Hop => "hop",
            VcRule::Phase => "phase",
        }
    }
}

fn vc_of(rule: VcRule, hop: usize, phase: u8) -> u8 {
    match rule {
        VcRule::Single => 0,
        VcRule::Hop => hop as u8,
        VcRule::Phase => phase,
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

/// Minimal paths s -> t from the hop matrix into `out` (uniform next hop at every router),
/// hop indices starting at `hop0`, VC by `rule` in `phase`.
#[allow(clippy::too_many_arguments)]
fn minimal_walk(
    net: &Network,
    hops: &HopMatrix,
    s: usize,
    t: usize,
    hop0: usize,
    rule: VcRule,
    phase: u8,
    out: &mut PathSet,
) -> Result<()> {
    let max = hops.get(s, t) as usize + 1;
    walk(s, t, 0, max, out, &mut |r, _, hop, c: &mut Vec<Step>| {
        let nb = net.neighbors(r as usize);
        for i in hops.minimal_next_hops(net, r as usize, t) {
            c.push((nb[i], 0, vc_of(rule, hop0 + hop, phase)));
        }
    })
}

/// Minimal routing: at every router a uniformly random neighbour one hop closer to t.
pub struct Minimal<'a> {
    net: &'a Network,
    hops: Arc<HopMatrix>,
    rule: VcRule,
}

impl<'a> Minimal<'a> {
    pub fn new(net: &'a Network, hops: Arc<HopMatrix>, rule: VcRule) -> Result<Self> {
        require_connected(&hops, "minimal routing")?;
        if rule == VcRule::Phase {
            return Err(TopolabError::InvalidParameter {
                context: "min".into(),
                param: "vcs".into(),
                value: "phase".into(),
                allowed: "single, hop".into(),
            });
        }
        Ok(Minimal { net, hops, rule })
    }
}

impl RouteDef for Minimal<'_> {
    fn name(&self) -> String {
        format!("min:vcs={}", self.rule.name())
    }
    fn num_vcs(&self) -> u32 {
        match self.rule {
            VcRule::Hop => (self.hops.max_finite() as u32).max(1),
            _ => 1,
        }
    }
    fn paths(&self, s: usize, t: usize, out: &mut PathSet) -> Result<()> {
        out.clear();
        minimal_walk(self.net, &self.hops, s, t, 0, self.rule, 0, out)
    }
}

/// Valiant: a uniformly random intermediate router i ∉ {s, t}, then minimal s -> i -> t
/// (000 §IV-B). Options: intermediates only among routers with endpoints (001 §3.2's indirect
/// random routing for MLFM/OFT), and only intermediates with d(s,i) + d(i,t) <= max_hops
/// (000 §IV-B's "at most 3 hops").
pub struct Valiant<'a> {
    net: &'a Network,
    hops: Arc<HopMatrix>,
    rule: VcRule,
    endpoints_only: bool,
    max_hops: Option<u16>,
}

impl<'a> Valiant<'a> {
    pub fn new(
        net: &'a Network,
        hops: Arc<HopMatrix>,
        rule: VcRule,
        endpoints_only: bool,
        max_hops: Option<u16>,
    ) -> Result<Self> {
        require_connected(&hops, "Valiant routing")?;
        Ok(Valiant {
            net,
            hops,
            rule,
            endpoints_only,
            max_hops,
        })
    }

    fn intermediates(&self, s: usize, t: usize, out: &mut Vec<usize>) {
        out.clear();
        for i in 0..self.net.num_routers() {
            if i == s || i == t || (self.endpoints_only && self.net.endpoints()[i] == 0) {
                continue;
            }
            if let Some(m) = self.max_hops {
                if self.hops.get(s, i) + self.hops.get(i, t) > m {
                    continue;
                }
            }
            out.push(i);
        }
    }
}

impl RouteDef for Valiant<'_> {
    fn name(&self) -> String {
        let mut s = format!("valiant:vcs={}", self.rule.name());
        if self.endpoints_only {
            s.push_str(",endpoints_only=true");
        }
        if let Some(m) = self.max_hops {
            s.push_str(&format!(",max_hops={m}"));
        }
        s
    }
    fn num_vcs(&self) -> u32 {
        match self.rule {
            VcRule::Single => 1,
            VcRule::Phase => 2,
            VcRule::Hop => {
                let d = self.hops.max_finite() as u32;
                self.max_hops
                    .map_or(2 * d, |m| (m as u32).min(2 * d))
                    .max(1)
            }
        }
    }
    fn paths(&self, s: usize, t: usize, out: &mut PathSet) -> Result<()> {
        out.clear();
        let mut mids = Vec::new();
        self.intermediates(s, t, &mut mids);
        if mids.is_empty() {
            // No admissible intermediate (tiny network or tight max_hops): route minimally.
            return minimal_walk(self.net, &self.hops, s, t, 0, self.rule, 0, out);
        }
        let (mut a, mut b) = (PathSet::default(), PathSet::default());
        let w = 1.0 / mids.len() as f64;
        let mut rs = Vec::new();
        let mut vcs = Vec::new();
        for &i in &mids {
            a.clear();
            minimal_walk(self.net, &self.hops, s, i, 0, self.rule, 0, &mut a)?;
            let h1 = self.hops.get(s, i) as usize;
            b.clear();
            minimal_walk(self.net, &self.hops, i, t, h1, self.rule, 1, &mut b)?;
            for x in 0..a.len() {
                let (r1, v1, w1) = a.path(x);
                for y in 0..b.len() {
                    let (r2, v2, w2) = b.path(y);
                    rs.clear();
                    rs.extend_from_slice(r1);
                    rs.extend_from_slice(&r2[1..]);
                    vcs.clear();
                    vcs.extend_from_slice(v1);
                    vcs.extend_from_slice(v2);
                    out.push(&rs, &vcs, w * w1 * w2);
                }
            }
        }
        Ok(())
    }
}

/// The union of several routings' paths (an adaptive routing's candidates, e.g. UGAL =
/// minimal ∪ Valiant, 000 §IV-C); weights are averaged, so this is not a traffic split.
pub struct Union<'a> {
    pub name: String,
    pub parts: Vec<Box<dyn RouteDef + 'a>>,
}

impl RouteDef for Union<'_> {
    fn name(&self) -> String {
        self.name.clone()
    }
    fn num_vcs(&self) -> u32 {
        self.parts.iter().map(|p| p.num_vcs()).max().unwrap_or(1)
    }
    fn oblivious(&self) -> bool {
        false
    }
    fn paths(&self, s: usize, t: usize, out: &mut PathSet) -> Result<()> {
        out.clear();
        let mut tmp = PathSet::default();
        let k = self.parts.len() as f64;
        for p in &self.parts {
            p.paths(s, t, &mut tmp)?;
            for i in 0..tmp.len() {
                let (r, v, w) = tmp.path(i);
                out.push(r, v, w / k);
            }
        }
        Ok(())
    }
}

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
                    nb: i as u32,
                    vc: 0,
                    state: RouteState::new(nph as u8, 0),
                });
            }
        }
    }
}
