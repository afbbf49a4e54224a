//! Topology-agnostic routings as `HopRouting` rules (simulator and static analysis): Valiant
//! (Besta & Hoefler, SC14, §IV-B, with the restrictions of the same section and Kathareios et al.,
//! SC15, §3.2), UGAL's candidates (Besta & Hoefler, SC14, §IV-C), up*/down*; minimal routing is in
//! `minimal.rs`.
//!
//! VC rules (`VcRule`): one VC; hop-indexed (VC k on hop k, Besta & Hoefler, SC14, §IV-D: 2 VCs for
//! minimal and 4 for Valiant on diameter-2 networks); per phase (VC 0 towards the Valiant
//! intermediate, VC 1 away from it: Kathareios et al., SC15, §3.4's 2-VC scheme for MLFM and OFT).

use super::catalog::{Definition, RoutingEntry, Rule, BOTH};
pub use super::minimal::Minimal;
use super::minimal::MinimalTable;
use super::rule::{Hop, HopRouting, RouteState};
use super::shortest::{HopMatrix, NO_PATH};
use crate::error::{Result, TopolabError};
use crate::network::Network;
use crate::spec::Params;
use crate::topology::{ParamDef, ParamKind};
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use std::sync::Arc;

/// How VCs are assigned along a path.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum VcRule {
    /// VC class 0 everywhere (`single`, or `any`: the simulator then lets a packet take any
    /// of its VCs).
    Single,
    /// VC k on hop k (Besta & Hoefler, SC14, §IV-D).
    Hop,
    /// VC 0 before the Valiant intermediate, VC 1 after (Kathareios et al., SC15, §3.4).
    Phase,
}

impl VcRule {
    pub fn parse(value: &str, allowed: &[VcRule], context: &str) -> Result<VcRule> {
        let rule = match value {
            "single" | "1" | "any" => VcRule::Single,
            "hop" => VcRule::Hop,
            "phase" => VcRule::Phase,
            _ => VcRule::Single,
        };
        let names: Vec<&str> = allowed.iter().map(|r| r.name()).collect();
        if !matches!(value, "single" | "1" | "any" | "hop" | "phase") || !allowed.contains(&rule) {
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

/// Requires a strongly connected network (every pair routable).
pub fn require_connected(hops: &HopMatrix, what: &str) -> Result<()> {
    if !hops.connected() {
        return Err(TopolabError::InvalidNetwork(format!(
            "{what} needs a connected network; some router pair has no path"
        )));
    }
    Ok(())
}

/// Valiant routing (Besta & Hoefler, SC14, §IV-B): a random intermediate router R_i other than the
/// source's and the destination's, minimal to R_i, then minimal to the destination (2 to 2·D hops).
/// Options: intermediates only among routers with endpoints (Kathareios et al., SC15, §3.2's
/// indirect random routing for MLFM/OFT: 4-hop paths instead of 2, 4 or 6), and only intermediates
/// with d(s,i) + d(i,t) <= max_hops (Besta & Hoefler, SC14, §IV-B's "at most 3 hops"), and
/// `near_source`: when the destination is not adjacent to the source, only the source's neighbours
/// (PolarFly's UGAL_PF, Lakhotia et al., SC22: on a diameter-2 graph the non-minimal path is then
/// at most 3 hops, not 4; a destination next to the source keeps every intermediate, as the
/// authors' SST Merlin `topo_polarfly` and BookSim2 `ugall4_pf` do). A pair without an admissible
/// intermediate (source and destination on one router, tiny networks, tight max_hops) is
/// routed minimally. State: phase 0 towards the intermediate `aux`, phase 1 towards the
/// destination. VCs: hop-indexed (2·D classes, Besta & Hoefler, SC14, §IV-D), per phase (Kathareios
/// et al., SC15, §3.4) or single.
pub struct Valiant {
    pub table: Arc<MinimalTable>,
    pub vcs: VcRule,
    pub endpoints_only: bool,
    pub max_hops: Option<u32>,
    /// Each router's neighbours, when intermediates are restricted to them (`near_source`).
    near_source: Option<Vec<Vec<u32>>>,
    /// Routers eligible as intermediates before the per-pair conditions.
    pool: Vec<u32>,
    /// Longest path: 2·D (D between endpoint routers when intermediates have endpoints).
    longest: u32,
}

const TO_INTERMEDIATE: u8 = 0;
const TO_DESTINATION: u8 = 1;
/// Tries of rejection sampling before the admissible intermediates are listed.
const REJECTION_TRIES: u32 = 32;

impl Valiant {
    pub fn new(
        net: &Network,
        table: Arc<MinimalTable>,
        vcs: VcRule,
        endpoints_only: bool,
        max_hops: Option<u32>,
    ) -> Result<Self> {
        let longest = if endpoints_only {
            2 * table.endpoint_diameter
        } else {
            match table.diameter {
                Some(d) => 2 * d.max(1),
                None => {
                    return Err(TopolabError::InvalidNetwork(
                        "Valiant routing needs every router to reach every router (or endpoints_only=true)".into(),
                    ))
                }
            }
        };
        let pool = if endpoints_only {
            super::minimal::endpoint_routers(net)
        } else {
            (0..net.num_routers() as u32).collect()
        };
        Ok(Valiant {
            table,
            vcs,
            endpoints_only,
            max_hops,
            near_source: None,
            pool,
            longest,
        })
    }

    /// Restricts the intermediates of every pair (s, t) with t not adjacent to s to the
    /// neighbours of s (PolarFly's UGAL_PF; see the type's comment).
    pub fn near_source(mut self, net: &Network) -> Self {
        let neighbours = (0..net.num_routers())
            .map(|r| net.neighbors(r).to_vec())
            .collect();
        self.near_source = Some(neighbours);
        self
    }

    /// The source's neighbours when `near_source` restricts the pair (s, t), else None.
    #[inline]
    fn restricted(&self, s: u32, t: u32) -> Option<&[u32]> {
        let neighbours = self.near_source.as_ref()?;
        (self.table.dist(s as usize, t as usize) > 1).then(|| neighbours[s as usize].as_slice())
    }

    /// The routers to draw intermediates from for (s, t), before `admissible`.
    #[inline]
    fn candidates(&self, s: u32, t: u32) -> &[u32] {
        self.restricted(s, t).unwrap_or(&self.pool)
    }

    /// The router a packet in state `st` at r heads for, and its phase.
    #[inline]
    fn target(&self, r: u32, t: u32, st: RouteState) -> (u32, u8) {
        if st.phase == TO_INTERMEDIATE && r != st.aux {
            (st.aux, TO_INTERMEDIATE)
        } else {
            (t, TO_DESTINATION)
        }
    }

    #[inline]
    fn admissible(&self, s: u32, t: u32, i: u32) -> bool {
        if i == s || i == t {
            return false;
        }
        // Drawn from the source's neighbours rather than the pool: check both.
        if self.restricted(s, t).is_some()
            && (self.table.dist(s as usize, i as usize) != 1
                || (self.endpoints_only && self.pool.binary_search(&i).is_err()))
        {
            return false;
        }
        match self.max_hops {
            Some(m) => {
                let (s, t, i) = (s as usize, t as usize, i as usize);
                self.table.dist(s, i) as u32 + self.table.dist(i, t) as u32 <= m
            }
            None => true,
        }
    }
}

impl HopRouting for Valiant {
    fn name(&self) -> String {
        let mut s = format!("valiant:vcs={}", self.vcs.name());
        if self.endpoints_only {
            s.push_str(",endpoints_only=true");
        }
        if let Some(m) = self.max_hops {
            s.push_str(&format!(",max_hops={m}"));
        }
        if self.near_source.is_some() {
            s.push_str(",near_source=true");
        }
        s
    }
    fn vc_classes(&self) -> u32 {
        match self.vcs {
            VcRule::Single => 1,
            VcRule::Phase => 2,
            VcRule::Hop => self
                .max_hops
                .map_or(self.longest, |m| m.min(self.longest))
                .max(1),
        }
    }
    fn max_hops(&self) -> u32 {
        2 * self
            .table
            .diameter
            .unwrap_or(self.table.endpoint_diameter)
            .max(1)
    }
    fn start(&self, s: u32, t: u32, out: &mut Vec<(RouteState, f64)>) {
        let first = out.len();
        if s != t {
            for &i in self.candidates(s, t) {
                if self.admissible(s, t, i) {
                    out.push((RouteState::new(TO_INTERMEDIATE, i), 1.0));
                }
            }
        }
        let k = out.len() - first;
        if k == 0 {
            out.push((RouteState::new(TO_DESTINATION, 0), 1.0));
        } else {
            for x in &mut out[first..] {
                x.1 = 1.0 / k as f64;
            }
        }
    }
    fn sample_start(&self, s: u32, t: u32, rng: &mut ChaCha8Rng) -> RouteState {
        if s == t {
            return RouteState::new(TO_DESTINATION, 0);
        }
        // Rejection sampling is uniform over the admissible intermediates; after a few misses
        // (a tight max_hops) they are listed, which is uniform too.
        let candidates = self.candidates(s, t);
        let tries = if candidates.is_empty() {
            0
        } else {
            REJECTION_TRIES
        };
        for _ in 0..tries {
            let i = candidates[rng.random_range(0..candidates.len())];
            if self.admissible(s, t, i) {
                return RouteState::new(TO_INTERMEDIATE, i);
            }
        }
        let mut all = Vec::new();
        self.start(s, t, &mut all);
        super::rule::sample_weighted(&all, rng)
    }
    #[inline]
    fn table_entry(&self, r: u32, t: u32, st: RouteState) -> Option<&u8> {
        self.table
            .entry(r as usize, self.target(r, t, st).0 as usize)
    }
    #[inline]
    fn next(&self, r: u32, t: u32, hop: u32, st: RouteState, out: &mut dyn FnMut(Hop)) {
        let (target, phase) = self.target(r, t, st);
        let vc = match self.vcs {
            VcRule::Single => 0,
            VcRule::Phase => phase,
            VcRule::Hop => hop.min(self.vc_classes() - 1) as u8,
        };
        let state = RouteState::new(phase, st.aux);
        self.table.for_each_next(r as usize, target as usize, |nb| {
            out(Hop {
                detour: 0,
                nb,
                vc,
                state,
            })
        });
    }
}

/// UGAL's candidates (Besta & Hoefler, SC14, §IV-C, Kathareios et al., SC15, §3.3): the minimal
/// path (state phase `UGAL_MINIMAL`) or a Valiant path. Static analysis sees the union (each half
/// weighted 1/2: a weighting, not a traffic split); the simulator decides per packet at the source
/// router by queue state (topolab-sim `routing::ugal`) and the packet then follows the chosen part.
pub struct Ugal {
    pub min: Minimal,
    pub val: Valiant,
}

/// State phase of a packet that UGAL sent minimally.
pub const UGAL_MINIMAL: u8 = 2;

impl Ugal {
    /// The minimal part uses VC class 0 under the per-phase scheme (Kathareios et al., SC15, §3.4:
    /// minimal paths on MLFM/OFT are deadlock-free on one VC, shared with the first Valiant phase).
    pub fn new(table: Arc<MinimalTable>, val: Valiant) -> Result<Ugal> {
        let rule = if val.vcs == VcRule::Phase {
            VcRule::Single
        } else {
            val.vcs
        };
        Ok(Ugal {
            min: Minimal::new(table, rule)?,
            val,
        })
    }
}

impl HopRouting for Ugal {
    fn name(&self) -> String {
        format!("ugal({})", self.val.name())
    }
    fn vc_classes(&self) -> u32 {
        self.min.vc_classes().max(self.val.vc_classes())
    }
    fn max_hops(&self) -> u32 {
        self.min.max_hops().max(self.val.max_hops())
    }
    fn oblivious(&self) -> bool {
        false
    }
    fn start(&self, s: u32, t: u32, out: &mut Vec<(RouteState, f64)>) {
        out.push((RouteState::new(UGAL_MINIMAL, 0), 0.5));
        let first = out.len();
        self.val.start(s, t, out);
        for x in &mut out[first..] {
            x.1 *= 0.5;
        }
    }
    #[inline]
    fn table_entry(&self, r: u32, t: u32, st: RouteState) -> Option<&u8> {
        if st.phase == UGAL_MINIMAL {
            self.min.table_entry(r, t, st)
        } else {
            self.val.table_entry(r, t, st)
        }
    }
    fn next(&self, r: u32, t: u32, hop: u32, st: RouteState, out: &mut dyn FnMut(Hop)) {
        if st.phase == UGAL_MINIMAL {
            self.min.next(r, t, hop, st, out)
        } else {
            self.val.next(r, t, hop, st, out)
        }
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
                    detour: 0,
                    nb: i as u32,
                    vc: 0,
                    state: RouteState::new(nph as u8, 0),
                });
            }
        }
    }
}

/// UGAL's candidates, as `paths=` chooses them: shortest paths and Valiant over the hop matrix
/// (`Ugal`, the default) or BookSim2 dragonflynew's Dragonfly paths (`DragonflyUgal`). The
/// simulator's source decision (topolab-sim `routing::ugal`) reads either through this enum.
// Built once per run and matched in place: boxing the larger variant would add a load.
#[allow(clippy::large_enum_variant)]
pub enum UgalCandidates {
    Shortest(Ugal),
    Dragonfly(super::dragonfly_ugal::DragonflyUgal),
}

impl UgalCandidates {
    /// The minimal candidate's starting state.
    #[inline]
    pub fn minimal_start(&self, s: u32, t: u32) -> RouteState {
        match self {
            UgalCandidates::Shortest(_) => RouteState::new(UGAL_MINIMAL, 0),
            UgalCandidates::Dragonfly(d) => d.minimal_start(s, t),
        }
    }
    /// One non-minimal candidate's starting state, drawn.
    #[inline]
    pub fn sample_nonminimal(&self, s: u32, t: u32, rng: &mut ChaCha8Rng) -> RouteState {
        match self {
            UgalCandidates::Shortest(u) => u.val.sample_start(s, t, rng),
            UgalCandidates::Dragonfly(d) => d.sample_nonminimal(s, t, rng),
        }
    }
    /// Whether `st` is the minimal candidate's state.
    #[inline]
    pub fn is_minimal(&self, st: RouteState) -> bool {
        match self {
            UgalCandidates::Shortest(_) => st.phase == UGAL_MINIMAL,
            UgalCandidates::Dragonfly(d) => d.is_minimal(st),
        }
    }
    /// Hops of the candidate path from r to t starting in `st`.
    #[inline]
    pub fn length(&self, r: u32, t: u32, st: RouteState) -> u32 {
        match self {
            UgalCandidates::Shortest(u) => {
                let table = &u.min.table;
                let (r, t) = (r as usize, t as usize);
                if st.phase == UGAL_MINIMAL || st.aux as usize == r {
                    return table.dist(r, t) as u32;
                }
                // Valiant: phase 0 via the intermediate `aux`; phase 1 (no admissible
                // intermediate) minimal.
                if st.phase == 0 {
                    let i = st.aux as usize;
                    table.dist(r, i) as u32 + table.dist(i, t) as u32
                } else {
                    table.dist(r, t) as u32
                }
            }
            UgalCandidates::Dragonfly(d) => d.length(r, t, st),
        }
    }
    fn rule(&self) -> &dyn HopRouting {
        match self {
            UgalCandidates::Shortest(u) => u,
            UgalCandidates::Dragonfly(d) => d,
        }
    }
}

impl HopRouting for UgalCandidates {
    fn name(&self) -> String {
        self.rule().name()
    }
    fn vc_classes(&self) -> u32 {
        self.rule().vc_classes()
    }
    fn max_hops(&self) -> u32 {
        self.rule().max_hops()
    }
    fn oblivious(&self) -> bool {
        false
    }
    // Read at every ejection under `booksim_compat`: matched, not through `rule()`'s vtable.
    #[inline]
    fn state_vc(&self, st: RouteState) -> u8 {
        match self {
            UgalCandidates::Shortest(u) => u.state_vc(st),
            UgalCandidates::Dragonfly(d) => d.state_vc(st),
        }
    }
    fn start(&self, s: u32, t: u32, out: &mut Vec<(RouteState, f64)>) {
        self.rule().start(s, t, out)
    }
    #[inline]
    fn next(&self, r: u32, t: u32, hop: u32, st: RouteState, out: &mut dyn FnMut(Hop)) {
        match self {
            UgalCandidates::Shortest(u) => u.next(r, t, hop, st, out),
            UgalCandidates::Dragonfly(d) => d.next(r, t, hop, st, out),
        }
    }
    #[inline]
    fn table_entry(&self, r: u32, t: u32, st: RouteState) -> Option<&u8> {
        match self {
            UgalCandidates::Shortest(u) => u.table_entry(r, t, st),
            UgalCandidates::Dragonfly(d) => d.table_entry(r, t, st),
        }
    }
    #[inline(always)]
    fn next_each<F: FnMut(Hop)>(&self, r: u32, t: u32, hop: u32, st: RouteState, out: F) {
        match self {
            UgalCandidates::Shortest(u) => u.next_each(r, t, hop, st, out),
            UgalCandidates::Dragonfly(d) => d.next_each(r, t, hop, st, out),
        }
    }
    #[inline(always)]
    fn draw_next(
        &self,
        r: u32,
        t: u32,
        hop: u32,
        st: RouteState,
        rng: &mut ChaCha8Rng,
    ) -> Option<Hop> {
        match self {
            UgalCandidates::Shortest(u) => u.draw_next(r, t, hop, st, rng),
            UgalCandidates::Dragonfly(d) => d.draw_next(r, t, hop, st, rng),
        }
    }
}

/// The Valiant parameters, each declared once: `valiant` lists them, and so do the UGAL
/// variants (routing/ugal.rs) for their Valiant candidates.
pub(crate) const VALIANT_VCS: ParamDef = ParamDef {
    name: "vcs",
    kind: ParamKind::Text,
    default: Some("hop"),
    help: "hop (VC class = hop), phase (class = Valiant phase) or single",
};
pub(crate) const ENDPOINTS_ONLY: ParamDef = ParamDef {
    name: "endpoints_only",
    kind: ParamKind::Bool,
    default: Some("false"),
    help: "intermediate routers only among those with endpoints",
};
pub(crate) const MAX_HOPS: ParamDef = ParamDef {
    name: "max_hops",
    kind: ParamKind::Int,
    default: Some("none"),
    help: "longest Valiant path taken (hops)",
};
pub(crate) const NEAR_SOURCE: ParamDef = ParamDef {
    name: "near_source",
    kind: ParamKind::Bool,
    default: Some("false"),
    help: "intermediates among the source's neighbours unless the destination is one",
};

/// Parameters of `valiant`.
pub const VALIANT_PARAMS: &[ParamDef] = &[VALIANT_VCS, ENDPOINTS_ONLY, MAX_HOPS, NEAR_SOURCE];

pub(crate) fn vc_rule(params: &Params, allowed: &[VcRule]) -> Result<VcRule> {
    match params.opt_text("vcs")? {
        Some(v) => VcRule::parse(&v.to_ascii_lowercase(), allowed, params.family()),
        None => Ok(VcRule::Hop),
    }
}

/// `valiant` from its parameters (vcs, endpoints_only, max_hops, near_source).
pub fn valiant_from_params(
    net: &Network,
    table: Arc<MinimalTable>,
    params: &Params,
) -> Result<Valiant> {
    let endpoints_only = params.opt_bool("endpoints_only")?.unwrap_or(false);
    let max_hops = params.opt_u32("max_hops", 1, 1000)?;
    let near_source = params.opt_bool("near_source")?.unwrap_or(false);
    let vcs = vc_rule(params, &[VcRule::Hop, VcRule::Phase, VcRule::Single])?;
    let valiant = Valiant::new(net, table, vcs, endpoints_only, max_hops)?;
    Ok(if near_source {
        valiant.near_source(net)
    } else {
        valiant
    })
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

/// The catalog entry of `valiant` (`catalog::ROUTINGS`).
pub const VALIANT: RoutingEntry = RoutingEntry {
    name: "valiant",
    params: VALIANT_PARAMS,
    readers: BOTH,
    summary: "Valiant: minimal to a random intermediate router, then to the destination; endpoints_only (intermediates with endpoints), max_hops, near_source (the source's neighbours unless the destination is one); vcs=hop (default), phase or single",
    source: "Besta & Hoefler, SC14, §IV-B, Kathareios et al., SC15, §3.2, §3.4",
    definition: Definition::Rule(|net, params, monitor| {
            let table = Arc::new(MinimalTable::build(net, monitor)?);
            Ok(Rule::from(valiant_from_params(net, table, params)?))
    }),
};
