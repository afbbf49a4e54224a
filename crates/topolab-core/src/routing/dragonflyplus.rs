//! Dragonfly+ routings (Shpiner et al., HiPINEB 2017, routing and deadlock-avoidance sections;
//! Flajslik, Borch & Parker, ISC 2018, Megafly routing): up*/down* inside the leaf-spine groups,
//! one or two global hops between them.
//!
//! - `dragonflyplus_min`: leaf -> a spine holding a global link to the destination group
//!   (a "gateway"; every gateway is a candidate) -> global hop -> down to the destination leaf;
//!   inside a group, up to any spine and down. One VL: every path is up (leaf -> spine), global,
//!   down (spine -> leaf) in that order, so the CDG is acyclic (Shpiner et al.: "a packet that
//!   traverses the minimal route does not change its VL").
//! - `dragonflyplus_valiant`: as minimal to a random intermediate group I (not the source's or
//!   the destination's), then minimal to the destination. In I the packet either leaves from the
//!   spine it arrived at when that spine is a gateway to the destination group (the
//!   "intermediate spine" route) or goes down to a leaf of I and up to a gateway (the
//!   "intermediate leaf" route); the hop out of that intermediate spine or leaf and every later
//!   hop use VL 1 (Shpiner et al.'s rule: the VL changes in the intermediate spine or leaf).
//!   VL 0 paths are up, global, down; VL 1 paths are up, global, down; the only dependencies
//!   from VL 0 to VL 1 go down-to-up or global-to-global, and none goes back, so two VLs keep
//!   the CDG acyclic (Flajslik et al.: Megafly needs half the Dragonfly's VCs, two for
//!   non-minimal routing).
//! - `dragonflyplus_adaptive`: progressive adaptive choice in the spirit of Shpiner et al.'s
//!   FPAR, decided by queue occupancy: at the source leaf every spine (gateways minimal, the
//!   others a detour), at a source-group spine its global link to the destination group
//!   (minimal) or to any other group, which then is the intermediate group of the Valiant route
//!   above, with its VLs. FPAR's remote congestion notifications (ARN) are not modelled. The
//!   simulator compares a random minimal candidate with one random candidate of any kind
//!   (select=two_choices): the least occupied of all (select=queue) sends the packets routed
//!   at a leaf in one step to the same spine, which with 16 spines caps uniform traffic at
//!   0.88 where two choices carry 0.95 (docs/routing.md, "Dragonfly+").
//!
//! Structure comes from the labels (group, index) (`ROUTER_GROUPS`) and the links: in every
//! group the leaves (lower indices) and spines (higher) form a complete bipartite graph, leaves
//! have no global links. Spines carry no endpoints, so packets start at leaves; a packet to or
//! from a spine (which traffic never makes) takes one extra down-up turn on the same VL and is
//! outside the deadlock argument.

use super::catalog::{Definition, RoutingEntry, BOTH};
use super::rule::{Hop, HopRouting, RouteState, Select};
use crate::error::{Result, TopolabError};
use crate::network::{Network, ROUTER_GROUPS};
use rand::Rng;
use rand_chacha::ChaCha8Rng;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    Minimal,
    Valiant,
    Adaptive,
}

impl Mode {
    pub fn name(self) -> &'static str {
        match self {
            Mode::Minimal => "dragonflyplus_min",
            Mode::Valiant => "dragonflyplus_valiant",
            Mode::Adaptive => "dragonflyplus_adaptive",
        }
    }
}

/// Heading straight for the destination group, on VL 0.
const DIRECT: u8 = 0;
/// Heading for the intermediate group `aux`, on VL 0.
const TO_INTERMEDIATE: u8 = 1;
/// In or past the intermediate group: VL 1 from the intermediate spine or leaf on.
const PAST_INTERMEDIATE: u8 = 2;
/// Adaptive, still in the source group: minimal or not is decided at each hop.
const UNDECIDED: u8 = 3;

#[derive(Debug, Clone)]
pub struct DragonflyPlus {
    mode: Mode,
    group: Vec<u32>,
    spine: Vec<bool>,
    groups: usize,
    /// Neighbours of each router (CSR), to find a neighbour's position.
    offsets: Vec<u32>,
    targets: Vec<u32>,
    /// Per router: (other group, neighbour position) of its global links, sorted.
    global_off: Vec<u32>,
    global: Vec<(u32, u32)>,
    /// Spines of group G with a global link to group T: gw[gw_off[G * groups + T]..].
    gw_off: Vec<u32>,
    gw: Vec<u32>,
}

fn structure_error(mode: Mode, what: String) -> TopolabError {
    TopolabError::InvalidNetwork(format!(
        "routing {} needs Dragonfly+ groups (leaves then spines, joined as a complete bipartite graph, global links on spines only): {what}",
        mode.name()
    ))
}

impl DragonflyPlus {
    pub fn new(net: &Network, mode: Mode) -> Result<Self> {
        let name = mode.name();
        net.require(
            &format!("routing {name} (a Dragonfly+ routing)"),
            ROUTER_GROUPS,
        )?;
        let n = net.num_routers();
        let group: Vec<u32> = (0..n).map(|r| net.label(r)[0] as u32).collect();
        let index: Vec<i64> = (0..n).map(|r| net.label(r)[1]).collect();
        let groups = group.iter().max().map_or(0, |&g| g as usize + 1);
        let (offsets, targets) = net.csr();
        let (offsets, targets) = (offsets.to_vec(), targets.to_vec());
        // A router whose in-group neighbours all have higher indices is a leaf, lower a spine.
        let mut spine = vec![false; n];
        let mut members = vec![(0u32, 0u32); groups]; // (leaves, spines)
        for r in 0..n {
            let inner: Vec<usize> = net
                .neighbors(r)
                .iter()
                .map(|&v| v as usize)
                .filter(|&v| group[v] == group[r])
                .collect();
            let above = inner.iter().filter(|&&v| index[v] > index[r]).count();
            if inner.is_empty() || (above != 0 && above != inner.len()) {
                return Err(structure_error(
                    mode,
                    format!(
                        "router {r} is neither a leaf nor a spine of group {}",
                        group[r]
                    ),
                ));
            }
            spine[r] = above == 0;
            let m = &mut members[group[r] as usize];
            if spine[r] {
                m.1 += 1;
            } else {
                m.0 += 1;
            }
        }
        let mut global_off = vec![0u32];
        let mut global = Vec::new();
        let mut pairs: Vec<(u32, u32, u32)> = Vec::new(); // (G, T, gateway spine)
        for r in 0..n {
            let (leaves, spines) = members[group[r] as usize];
            let mut inner = 0u32;
            let mut gl: Vec<(u32, u32)> = Vec::new();
            for (pos, &v) in net.neighbors(r).iter().enumerate() {
                let v = v as usize;
                if group[v] == group[r] {
                    inner += 1;
                    if spine[v] == spine[r] {
                        return Err(structure_error(
                            mode,
                            format!("routers {r} and {v} of one level are linked"),
                        ));
                    }
                } else {
                    if !spine[r] || !spine[v] {
                        return Err(structure_error(
                            mode,
                            format!("global link {r} - {v} not between spines"),
                        ));
                    }
                    gl.push((group[v], pos as u32));
                    pairs.push((group[r], group[v], r as u32));
                }
            }
            let wanted = if spine[r] { leaves } else { spines };
            if inner != wanted {
                return Err(structure_error(
                    mode,
                    format!("router {r} has {inner} links in its group, not {wanted}"),
                ));
            }
            gl.sort_unstable();
            global.extend(gl);
            global_off.push(global.len() as u32);
        }
        let (gw_off, gw) = super::dragonfly::gateway_table(pairs, groups, name)?;
        Ok(DragonflyPlus {
            mode,
            group,
            spine,
            groups,
            offsets,
            targets,
            global_off,
            global,
            gw_off,
            gw,
        })
    }

    fn neighbors(&self, r: usize) -> &[u32] {
        &self.targets[self.offsets[r] as usize..self.offsets[r + 1] as usize]
    }

    /// Position of neighbour `v` among `r`'s neighbours.
    fn pos(&self, r: usize, v: u32) -> u32 {
        self.neighbors(r)
            .binary_search(&v)
            .expect("checked: leaves and spines of a group are all linked") as u32
    }

    fn globals(&self, r: usize) -> &[(u32, u32)] {
        &self.global[self.global_off[r] as usize..self.global_off[r + 1] as usize]
    }

    fn gateways(&self, g: u32, t: u32) -> &[u32] {
        let i = g as usize * self.groups + t as usize;
        &self.gw[self.gw_off[i] as usize..self.gw_off[i + 1] as usize]
    }

    fn is_gateway(&self, r: usize, t_group: u32) -> bool {
        self.globals(r).iter().any(|&(g, _)| g == t_group)
    }

    /// The VL of the hops of a packet in state `st` (Shpiner et al.'s change after the
    /// intermediate spine or leaf).
    fn vl(st: RouteState) -> u8 {
        (st.phase == PAST_INTERMEDIATE) as u8
    }
}

fn hop(nb: u32, vc: u8, state: RouteState, detour: u8) -> Hop {
    Hop {
        detour,
        nb,
        vc,
        state,
    }
}

impl HopRouting for DragonflyPlus {
    fn name(&self) -> String {
        self.mode.name().into()
    }
    fn vc_classes(&self) -> u32 {
        match self.mode {
            Mode::Minimal => 1,
            Mode::Valiant | Mode::Adaptive => 2,
        }
    }
    fn max_hops(&self) -> u32 {
        // up, global, down (twice when non-minimal), and one down-up turn each at a spine
        // source and a spine destination
        match self.mode {
            Mode::Minimal => 5,
            Mode::Valiant | Mode::Adaptive => 8,
        }
    }
    fn default_select(&self) -> Select {
        match self.mode {
            // The less occupied of two random candidates: the least occupied of all herds
            // at a leaf with many gateway spines (docs/routing.md, "Dragonfly+").
            Mode::Adaptive => Select::TwoChoices,
            _ => Select::Random,
        }
    }
    fn oblivious(&self) -> bool {
        self.mode != Mode::Adaptive
    }
    fn start(&self, s: u32, t: u32, out: &mut Vec<(RouteState, f64)>) {
        let (gs, gt) = (self.group[s as usize], self.group[t as usize]);
        match self.mode {
            Mode::Valiant if gs != gt && self.groups > 2 => {
                let w = 1.0 / (self.groups - 2) as f64;
                for i in (0..self.groups as u32).filter(|&i| i != gs && i != gt) {
                    out.push((RouteState::new(TO_INTERMEDIATE, i), w));
                }
            }
            Mode::Adaptive if gs != gt => out.push((RouteState::new(UNDECIDED, 0), 1.0)),
            _ => out.push((RouteState::new(DIRECT, 0), 1.0)),
        }
    }
    fn sample_start(&self, s: u32, t: u32, rng: &mut ChaCha8Rng) -> RouteState {
        let (gs, gt) = (self.group[s as usize], self.group[t as usize]);
        if self.mode != Mode::Valiant || gs == gt || self.groups <= 2 {
            let mut all = Vec::new();
            self.start(s, t, &mut all);
            return all[0].0;
        }
        // the (groups - 2) groups other than gs and gt, uniformly
        let (lo, hi) = (gs.min(gt), gs.max(gt));
        let mut i = rng.random_range(0..self.groups as u32 - 2);
        if i >= lo {
            i += 1;
        }
        if i >= hi {
            i += 1;
        }
        RouteState::new(TO_INTERMEDIATE, i)
    }
    fn next(&self, r: u32, t: u32, _hop: u32, st: RouteState, out: &mut dyn FnMut(Hop)) {
        if r == t {
            return;
        }
        let (ru, tu) = (r as usize, t as usize);
        let (gr, gt) = (self.group[ru], self.group[tu]);
        let vl = Self::vl(st);
        if gr == gt {
            // up*/down* inside the destination group
            if self.spine[ru] {
                if self.spine[tu] {
                    for &v in self.neighbors(ru) {
                        if self.group[v as usize] == gr {
                            out(hop(self.pos(ru, v), vl, st, 0));
                        }
                    }
                } else {
                    out(hop(self.pos(ru, t), vl, st, 0));
                }
            } else if self.spine[tu] {
                out(hop(self.pos(ru, t), vl, st, 0));
            } else {
                for &v in self.neighbors(ru) {
                    out(hop(self.pos(ru, v), vl, st, 0));
                }
            }
            return;
        }
        let past = RouteState::new(PAST_INTERMEDIATE, 0);
        match st.phase {
            UNDECIDED if self.spine[ru] => {
                let mut offered = false;
                for &(g, pos) in self.globals(ru) {
                    if g == gt {
                        out(hop(pos, 0, RouteState::new(DIRECT, 0), 0));
                        offered = true;
                    } else if g != gr {
                        out(hop(pos, 0, past, 1));
                        offered = true;
                    }
                }
                if !offered {
                    // a spine source without global links: down, then decide at the leaf
                    self.down_all(ru, 0, st, out);
                }
            }
            UNDECIDED => {
                for &sp in self.gateways(gr, gt) {
                    out(hop(self.pos(ru, sp), 0, st, 0));
                }
                for &v in self.neighbors(ru) {
                    let other = self
                        .globals(v as usize)
                        .iter()
                        .any(|&(g, _)| g != gt && g != gr);
                    if other && !self.is_gateway(v as usize, gt) {
                        out(hop(self.pos(ru, v), 0, st, 1));
                    }
                }
            }
            _ => {
                // DIRECT, TO_INTERMEDIATE or PAST_INTERMEDIATE: the next group to reach
                let aim = if st.phase == TO_INTERMEDIATE {
                    st.aux
                } else {
                    gt
                };
                let after = if st.phase == TO_INTERMEDIATE {
                    past
                } else {
                    st
                };
                if self.spine[ru] {
                    if self.is_gateway(ru, aim) {
                        for &(g, pos) in self.globals(ru) {
                            if g == aim {
                                out(hop(pos, vl, after, 0));
                            }
                        }
                    } else {
                        // intermediate leaf route (and spine sources): down on VL 0
                        self.down_all(ru, 0, st, out);
                    }
                } else {
                    for &sp in self.gateways(gr, aim) {
                        out(hop(self.pos(ru, sp), vl, st, 0));
                    }
                }
            }
        }
    }
}

impl DragonflyPlus {
    fn down_all(&self, r: usize, vc: u8, st: RouteState, out: &mut dyn FnMut(Hop)) {
        for &v in self.neighbors(r) {
            if self.group[v as usize] == self.group[r] {
                out(hop(self.pos(r, v), vc, st, 0));
            }
        }
    }
}

/// The catalog entry of `dragonflyplus_adaptive` (`catalog::ROUTINGS`).
pub const DRAGONFLYPLUS_ADAPTIVE: RoutingEntry = RoutingEntry {
    name: "dragonflyplus_adaptive",
    params: &[],
    readers: BOTH,
    summary: "Dragonfly+ progressive adaptive: at the source leaf any spine, at a source spine the global link to the destination group or to an intermediate group, the less occupied of a random minimal and a random other candidate (select=two_choices); up*/down* in groups; 2 VLs",
    source: "Shpiner et al., HiPINEB 2017 (FPAR, deadlock avoidance); Flajslik, Borch & Parker, ISC 2018",
    definition: Definition::Rule(|net, _, _| {
        use super::dragonflyplus::{DragonflyPlus, Mode};
        Ok(DragonflyPlus::new(net, Mode::Adaptive)?.into())
    }),
};

/// The catalog entry of `dragonflyplus_min` (`catalog::ROUTINGS`).
pub const DRAGONFLYPLUS_MIN: RoutingEntry = RoutingEntry {
    name: "dragonflyplus_min",
    params: &[],
    readers: BOTH,
    summary: "Dragonfly+ minimal: leaf, spine with a link to the destination group, global, spine, leaf; up*/down* in groups; 1 VL",
    source: "Shpiner et al., HiPINEB 2017 (routing, deadlock avoidance)",
    definition: Definition::Rule(|net, _, _| {
        use super::dragonflyplus::{DragonflyPlus, Mode};
        Ok(DragonflyPlus::new(net, Mode::Minimal)?.into())
    }),
};

/// The catalog entry of `dragonflyplus_valiant` (`catalog::ROUTINGS`).
pub const DRAGONFLYPLUS_VALIANT: RoutingEntry = RoutingEntry {
    name: "dragonflyplus_valiant",
    params: &[],
    readers: BOTH,
    summary: "Dragonfly+ non-minimal: minimal to a random intermediate group, then to the destination (intermediate spine or leaf route); VL 1 from the intermediate router on; 2 VLs",
    source: "Shpiner et al., HiPINEB 2017 (routing, deadlock avoidance); Flajslik, Borch & Parker, ISC 2018",
    definition: Definition::Rule(|net, _, _| {
        use super::dragonflyplus::{DragonflyPlus, Mode};
        Ok(DragonflyPlus::new(net, Mode::Valiant)?.into())
    }),
};
