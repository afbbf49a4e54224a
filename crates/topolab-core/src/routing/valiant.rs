//! Valiant routing as a `HopRouting` rule (Besta & Hoefler, SC14, §IV-B, with the restrictions of
//! the same section and Kathareios et al., SC15, §3.2), its parameters and its catalog entry.

use super::catalog::{Definition, RoutingEntry, Rule, BOTH};
use super::minimal::MinimalTable;
use super::rule::{Hop, HopRouting, RouteState};
use super::vc_rule::{vc_rule, VcRule};
use crate::error::{Result, TopolabError};
use crate::network::Network;
use crate::spec::Params;
use crate::topology::{ParamDef, ParamKind};
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use std::sync::Arc;

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

    /// `sample_start`, inlined whole into UGAL's source decision, which draws n intermediates
    /// per packet; the listing after the rejection tries stays out of line.
    #[inline(always)]
    pub fn draw_start(&self, s: u32, t: u32, rng: &mut ChaCha8Rng) -> RouteState {
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
        // Drawn over a u32 range (routers are u32): rand samples a usize range below 2^32 as
        // this same u32 range, so the draws are the same, and the u32 sampler inlines here.
        let len = candidates.len() as u32;
        for _ in 0..tries {
            let i = candidates[rng.random_range(0..len) as usize];
            if self.admissible(s, t, i) {
                return RouteState::new(TO_INTERMEDIATE, i);
            }
        }
        self.sample_listed(s, t, rng)
    }

    /// The intermediate that `draw_start`'s first try for (s, t) would take from each of the next
    /// `words` draws of `rng`, in order, without drawing from `rng` itself (a clone draws). For
    /// a caller that asks for the intermediates' table entries ahead (UGAL's source decision):
    /// where in `rng`'s stream its n candidates draw depends on how many draws their first hops
    /// take, known only once those entries are read, so every position of a window is offered.
    pub fn speculative_intermediates(
        &self,
        s: u32,
        t: u32,
        rng: &ChaCha8Rng,
        words: u32,
        mut each: impl FnMut(u32),
    ) {
        if s == t {
            return;
        }
        let candidates = self.candidates(s, t);
        if candidates.is_empty() {
            return;
        }
        // Drawn as `draw_start` draws its first try, so that the same words give the same router.
        let len = candidates.len() as u32;
        let mut ahead = rng.clone();
        for _ in 0..words {
            each(candidates[ahead.random_range(0..len) as usize]);
        }
    }

    /// One admissible intermediate drawn from their list (the minimal state when there is none).
    #[cold]
    #[inline(never)]
    fn sample_listed(&self, s: u32, t: u32, rng: &mut ChaCha8Rng) -> RouteState {
        let mut all = Vec::new();
        self.start(s, t, &mut all);
        super::rule::sample_weighted(&all, rng)
    }

    #[inline(always)]
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
        self.draw_start(s, t, rng)
    }
    #[inline]
    fn table_entry(&self, r: u32, t: u32, st: RouteState) -> Option<&u8> {
        self.table
            .entry(r as usize, self.target(r, t, st).0 as usize)
    }
    fn next(&self, r: u32, t: u32, hop: u32, st: RouteState, out: &mut dyn FnMut(Hop)) {
        self.next_each(r, t, hop, st, out)
    }
    #[inline(always)]
    fn next_each<F: FnMut(Hop)>(&self, r: u32, t: u32, hop: u32, st: RouteState, mut out: F) {
        let (target, phase) = self.target(r, t, st);
        let vc = match self.vcs {
            VcRule::Single => 0,
            VcRule::Phase => phase,
            VcRule::Hop => hop.min(self.vc_classes() - 1) as u8,
        };
        let state = RouteState::new(phase, st.aux);
        // Inlined into the mask's loop with the caller's `out`: one call per candidate hop
        // otherwise.
        self.table.for_each_next(
            r as usize,
            target as usize,
            #[inline(always)]
            |nb| {
                out(Hop {
                    detour: 0,
                    nb,
                    vc,
                    state,
                })
            },
        );
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
