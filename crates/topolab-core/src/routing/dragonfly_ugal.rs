//! UGAL's candidates on a Dragonfly as BookSim2's dragonflynew `ugal` takes them
//! (`ugal_l:paths=dragonfly`; the simulator's `dragonfly_ugal` alias adds BookSim2's decision
//! constants). Kim et al., ISCA 2008, §4.2; generalised from BookSim's a = 2p, h = p to any
//! network with router groups.
//!
//! Minimal candidate: the Dragonfly path of `dragonfly_static:vcs=booksim` (local hop to the
//! gateway, global hop, local hop). Non-minimal candidate: the router of a uniformly drawn
//! endpoint as intermediate (BookSim draws an endpoint, so a router is weighted by its
//! endpoints); the same path to it, then the same path to the destination. An intermediate in
//! the source group, or a destination in it, gives the minimal path.
//!
//! State phase, BookSim2's numbering: 0 towards the intermediate, 1 minimal before the global
//! hop (and from the intermediate on), 2 from the global hop on and for a destination in the
//! source group; a fourth phase marks a packet towards the intermediate that has taken its
//! global hop. The phase turns 1 on arriving at the intermediate, so a packet ejected there is in
//! phase 1 as in BookSim2.
//!
//! VCs (`vcs`): `booksim` (the default) is BookSim2 dragonflynew's VC = phase (the fourth phase
//! on VC 0). It is not deadlock-free: VC 0 carries a local, a global and a local hop towards the
//! intermediate, so one packet's last local hop can wait on another's first (a cycle of three
//! packets in three groups; `topolab routing check` shows it), and it is kept only to agree with
//! BookSim2. `group` orders the VCs along every path, local then global then local hops
//! (Kim et al., ISCA 2008, §4.2: the VC changes at every global hop; here also at the
//! intermediate router, where a packet takes a second local hop in the same group):
//! VC 0 before the first global hop, 1 from it to the intermediate, 2 from the intermediate
//! (and a minimal packet's source group), 3 from the last global hop on. Every hop's VC is at
//! least its predecessor's and each VC's channels carry at most a local then a global hop, so
//! the channel dependency graph is acyclic on a Dragonfly with fully connected groups.

use super::dragonfly::DragonflyGsid;
use super::rule::{Hop, HopRouting, RouteState};
use crate::error::{Result, TopolabError};
use crate::network::Network;
use rand::Rng;
use rand_chacha::ChaCha8Rng;

const TO_INTERMEDIATE: u8 = 0;
const BEFORE_GLOBAL: u8 = 1;
const AFTER_GLOBAL: u8 = 2;
const INTERMEDIATE_GROUP: u8 = 3;

/// VC assignment of the Dragonfly UGAL paths (the module's doc says why there are two).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DragonflyUgalVcs {
    /// BookSim2 dragonflynew: VC = phase; not deadlock-free.
    Booksim,
    /// VCs ordered along every path (4 VCs): deadlock-free.
    Group,
}

impl DragonflyUgalVcs {
    /// VC of each phase (indexed by TO_INTERMEDIATE, BEFORE_GLOBAL, AFTER_GLOBAL,
    /// INTERMEDIATE_GROUP).
    fn vc_of_phase(self) -> [u8; 4] {
        match self {
            DragonflyUgalVcs::Booksim => [0, 1, 2, 0],
            DragonflyUgalVcs::Group => [0, 2, 3, 1],
        }
    }
}

pub struct DragonflyUgal {
    paths: DragonflyGsid,
    vcs: DragonflyUgalVcs,
    vc_of_phase: [u8; 4],
    group: Vec<u32>,
    /// Router of every endpoint (endpoints numbered router by router).
    endpoint_router: Vec<u32>,
    /// The network's router-to-router adjacency, to name a hop's next router: router r's
    /// neighbours are neighbors[neighbor_off[r]..neighbor_off[r + 1]].
    neighbor_off: Vec<usize>,
    neighbors: Vec<u32>,
}

impl DragonflyUgal {
    pub fn new(net: &Network, vcs: DragonflyUgalVcs) -> Result<Self> {
        let paths = DragonflyGsid::booksim(net)?;
        let total = net.num_endpoints();
        if total == 0 || total > u32::MAX as u64 {
            return Err(TopolabError::InvalidNetwork(format!(
                "ugal_l:paths=dragonfly draws an intermediate endpoint: needs 1 to {} endpoints, this network has {total}",
                u32::MAX
            )));
        }
        let mut neighbor_off = vec![0usize];
        let mut neighbors = Vec::new();
        for r in 0..net.num_routers() {
            neighbors.extend_from_slice(net.neighbors(r));
            neighbor_off.push(neighbors.len());
        }
        let endpoint_router = net
            .endpoints()
            .iter()
            .enumerate()
            .flat_map(|(r, &e)| std::iter::repeat_n(r as u32, e as usize))
            .collect();
        Ok(DragonflyUgal {
            paths,
            vcs,
            vc_of_phase: vcs.vc_of_phase(),
            group: (0..net.num_routers())
                .map(|r| net.label(r)[0] as u32)
                .collect(),
            endpoint_router,
            neighbor_off,
            neighbors,
        })
    }

    /// The minimal candidate's starting state.
    #[inline]
    pub fn minimal_start(&self, s: u32, t: u32) -> RouteState {
        let phase = if self.group[s as usize] == self.group[t as usize] {
            AFTER_GLOBAL
        } else {
            BEFORE_GLOBAL
        };
        RouteState::new(phase, 0)
    }

    /// Whether `st` is a minimal path's state.
    #[inline]
    pub fn is_minimal(&self, st: RouteState) -> bool {
        st.phase != TO_INTERMEDIATE && st.phase != INTERMEDIATE_GROUP
    }

    /// The non-minimal candidate: an intermediate endpoint drawn uniformly (one draw, none
    /// when the destination is in the source group); the minimal state when its router is in
    /// the source group.
    #[inline]
    pub fn sample_nonminimal(&self, s: u32, t: u32, rng: &mut ChaCha8Rng) -> RouteState {
        if self.group[s as usize] == self.group[t as usize] {
            return self.minimal_start(s, t);
        }
        let e = rng.random_range(0..self.endpoint_router.len() as u32);
        let i = self.endpoint_router[e as usize];
        self.via_intermediate(s, t, i)
    }

    #[inline]
    fn via_intermediate(&self, s: u32, t: u32, i: u32) -> RouteState {
        if self.group[i as usize] == self.group[s as usize] {
            self.minimal_start(s, t)
        } else {
            RouteState::new(TO_INTERMEDIATE, i)
        }
    }

    /// Hops of the path from r to t in state `st`.
    pub fn length(&self, r: u32, t: u32, st: RouteState) -> u32 {
        let (mut r, mut st, mut hops) = (r, st, 0);
        while let Some(h) = self.one_hop(r, t, st) {
            r = self.neighbor(r, h.nb);
            st = h.state;
            hops += 1;
        }
        hops
    }

    /// Router r's neighbour at position `nb`.
    #[inline(always)]
    fn neighbor(&self, r: u32, nb: u32) -> u32 {
        self.neighbors[self.neighbor_off[r as usize] + nb as usize]
    }

    #[inline(always)]
    fn one_hop(&self, r: u32, t: u32, st: RouteState) -> Option<Hop> {
        let (phase, i) = (st.phase, st.aux);
        let towards_intermediate = phase == TO_INTERMEDIATE || phase == INTERMEDIATE_GROUP;
        let target = if towards_intermediate { i } else { t };
        if r == target {
            return None;
        }
        let (nb, global) = self.paths.booksim_hop(r, target);
        let phase = match phase {
            BEFORE_GLOBAL if global => AFTER_GLOBAL,
            TO_INTERMEDIATE if global => INTERMEDIATE_GROUP,
            _ => phase,
        };
        let next = self.neighbor(r, nb);
        let after = if towards_intermediate && next == i {
            BEFORE_GLOBAL
        } else {
            phase
        };
        Some(Hop {
            detour: 0,
            nb,
            vc: self.vc_of_phase[phase as usize],
            state: RouteState::new(after, i),
        })
    }
}

impl HopRouting for DragonflyUgal {
    fn name(&self) -> String {
        match self.vcs {
            DragonflyUgalVcs::Booksim => "ugal:paths=dragonfly".into(),
            DragonflyUgalVcs::Group => "ugal:paths=dragonfly,vcs=group".into(),
        }
    }
    fn vc_classes(&self) -> u32 {
        match self.vcs {
            DragonflyUgalVcs::Booksim => 3,
            DragonflyUgalVcs::Group => 4,
        }
    }
    fn max_hops(&self) -> u32 {
        6
    }
    fn oblivious(&self) -> bool {
        false
    }
    #[inline]
    fn state_vc(&self, st: RouteState) -> u8 {
        self.vc_of_phase[st.phase as usize]
    }
    /// Static analysis: the minimal path and the non-minimal one weighted 1/2 each (the
    /// candidates' union, as `ugal`), the intermediate weighted by its router's endpoints.
    fn start(&self, s: u32, t: u32, out: &mut Vec<(RouteState, f64)>) {
        if self.group[s as usize] == self.group[t as usize] {
            out.push((self.minimal_start(s, t), 1.0));
            return;
        }
        out.push((self.minimal_start(s, t), 0.5));
        let w = 0.5 / self.endpoint_router.len() as f64;
        let mut run: Option<(u32, f64)> = None;
        for &i in &self.endpoint_router {
            match &mut run {
                Some((r, x)) if *r == i => *x += w,
                _ => {
                    if let Some((r, x)) = run.take() {
                        out.push((self.via_intermediate(s, t, r), x));
                    }
                    run = Some((i, w));
                }
            }
        }
        if let Some((r, x)) = run {
            out.push((self.via_intermediate(s, t, r), x));
        }
    }
    fn next(&self, r: u32, t: u32, _hop: u32, st: RouteState, out: &mut dyn FnMut(Hop)) {
        if let Some(h) = self.one_hop(r, t, st) {
            out(h);
        }
    }
    #[inline(always)]
    fn next_each<F: FnMut(Hop)>(&self, r: u32, t: u32, _hop: u32, st: RouteState, mut out: F) {
        if let Some(h) = self.one_hop(r, t, st) {
            out(h);
        }
    }
}
