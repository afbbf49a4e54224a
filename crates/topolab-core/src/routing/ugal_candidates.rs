//! UGAL's candidate paths as `HopRouting` rules (Besta & Hoefler, SC14, §IV-C, Kathareios et
//! al., SC15, §3.3): the minimal path or a Valiant path, over shortest paths (`Ugal`) or BookSim2
//! dragonflynew's Dragonfly paths. The catalog entries are in `ugal.rs`; the simulator's source
//! decision is topolab-sim's `routing/ugal.rs`.

pub use super::minimal::Minimal;
use super::minimal::MinimalTable;
use super::rule::{Hop, HopRouting, RouteState};
use super::valiant::Valiant;
use super::vc_rule::VcRule;
use crate::error::Result;
use rand_chacha::ChaCha8Rng;
use std::sync::Arc;

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
        self.next_each(r, t, hop, st, out)
    }
    #[inline(always)]
    fn next_each<F: FnMut(Hop)>(&self, r: u32, t: u32, hop: u32, st: RouteState, out: F) {
        if st.phase == UGAL_MINIMAL {
            self.min.next_each(r, t, hop, st, out)
        } else {
            self.val.next_each(r, t, hop, st, out)
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

/// What UGAL's source decision (topolab-sim `routing::ugal`) reads of one candidates type. Each
/// type implements it and the decision is compiled once per type: a packet's 1 + n candidates
/// are drawn, measured and costed without a match on `UgalCandidates` per candidate, and each
/// step inlines into the decision's loop.
pub trait UgalSource: HopRouting + Sized {
    /// The minimal candidate's starting state.
    fn minimal_start(&self, s: u32, t: u32) -> RouteState;
    /// One non-minimal candidate's starting state, drawn.
    fn sample_nonminimal(&self, s: u32, t: u32, rng: &mut ChaCha8Rng) -> RouteState;
    /// Whether `st` is the minimal candidate's state.
    fn is_minimal(&self, st: RouteState) -> bool;
    /// Hops of the candidate path from r to t starting in `st`.
    fn length(&self, r: u32, t: u32, st: RouteState) -> u32;
    /// Calls `visit` with the address of each table entry that the non-minimal candidates of
    /// (s, t) would read first (their lengths and first hops) if their intermediates came from
    /// the next `words` draws of `rng`, for a prefetch; nothing is drawn from `rng`. By
    /// default nothing: the candidates' tables are small enough to stay in the caches.
    #[inline]
    fn speculative_reads(
        &self,
        _s: u32,
        _t: u32,
        _rng: &ChaCha8Rng,
        _words: u32,
        _visit: impl FnMut(*const u8),
    ) {
    }
}

impl UgalSource for Ugal {
    #[inline]
    fn minimal_start(&self, _s: u32, _t: u32) -> RouteState {
        RouteState::new(UGAL_MINIMAL, 0)
    }
    #[inline]
    fn sample_nonminimal(&self, s: u32, t: u32, rng: &mut ChaCha8Rng) -> RouteState {
        self.val.draw_start(s, t, rng)
    }
    #[inline]
    fn is_minimal(&self, st: RouteState) -> bool {
        st.phase == UGAL_MINIMAL
    }
    #[inline]
    fn length(&self, r: u32, t: u32, st: RouteState) -> u32 {
        let table = &self.min.table;
        let (r, t) = (r as usize, t as usize);
        if st.phase == UGAL_MINIMAL || st.aux as usize == r {
            return table.dist(r, t) as u32;
        }
        // Valiant: phase 0 via the intermediate `aux`; phase 1 (no admissible intermediate)
        // minimal.
        if st.phase == 0 {
            let i = st.aux as usize;
            table.dist(r, i) as u32 + table.dist(i, t) as u32
        } else {
            table.dist(r, t) as u32
        }
    }
    /// A Valiant candidate's length reads d(s, i) and d(i, t), its first hop the minimal
    /// next hops from s to i.
    #[inline]
    fn speculative_reads(
        &self,
        s: u32,
        t: u32,
        rng: &ChaCha8Rng,
        words: u32,
        mut visit: impl FnMut(*const u8),
    ) {
        let (lengths, hops) = (&self.min.table, &self.val.table);
        self.val.speculative_intermediates(s, t, rng, words, |i| {
            let (s, t, i) = (s as usize, t as usize, i as usize);
            for entry in [lengths.dist_address(s, i), lengths.dist_address(i, t)]
                .into_iter()
                .flatten()
            {
                visit(entry);
            }
            if let Some(entry) = hops.entry(s, i) {
                visit(entry);
            }
        });
    }
}

impl UgalSource for super::dragonfly_ugal::DragonflyUgal {
    #[inline]
    fn minimal_start(&self, s: u32, t: u32) -> RouteState {
        self.minimal_start(s, t)
    }
    #[inline]
    fn sample_nonminimal(&self, s: u32, t: u32, rng: &mut ChaCha8Rng) -> RouteState {
        self.sample_nonminimal(s, t, rng)
    }
    #[inline]
    fn is_minimal(&self, st: RouteState) -> bool {
        self.is_minimal(st)
    }
    #[inline]
    fn length(&self, r: u32, t: u32, st: RouteState) -> u32 {
        self.length(r, t, st)
    }
}

impl UgalCandidates {
    /// The minimal candidate's starting state.
    #[inline]
    pub fn minimal_start(&self, s: u32, t: u32) -> RouteState {
        match self {
            UgalCandidates::Shortest(u) => u.minimal_start(s, t),
            UgalCandidates::Dragonfly(d) => d.minimal_start(s, t),
        }
    }
    /// One non-minimal candidate's starting state, drawn.
    #[inline]
    pub fn sample_nonminimal(&self, s: u32, t: u32, rng: &mut ChaCha8Rng) -> RouteState {
        match self {
            UgalCandidates::Shortest(u) => u.sample_nonminimal(s, t, rng),
            UgalCandidates::Dragonfly(d) => d.sample_nonminimal(s, t, rng),
        }
    }
    /// Whether `st` is the minimal candidate's state.
    #[inline]
    pub fn is_minimal(&self, st: RouteState) -> bool {
        match self {
            UgalCandidates::Shortest(u) => UgalSource::is_minimal(u, st),
            UgalCandidates::Dragonfly(d) => d.is_minimal(st),
        }
    }
    /// Hops of the candidate path from r to t starting in `st`.
    #[inline]
    pub fn length(&self, r: u32, t: u32, st: RouteState) -> u32 {
        match self {
            UgalCandidates::Shortest(u) => UgalSource::length(u, r, t, st),
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
