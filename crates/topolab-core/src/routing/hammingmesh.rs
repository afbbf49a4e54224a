//! `hammingmesh_min`: HammingMesh's minimal dimension-order routing (Hoefler et al., SC 2022,
//! as read here, docs/families/hammingmesh.md: a packet travels its row, then its column; in
//! each dimension through the board mesh and, when shorter, the dimension's fat tree, up then
//! down).
//!
//! A "line" is one dimension's slice of the network: for a row, its accelerators (x boards of
//! b, linked as paths on the boards) and its row tree's switches; for a column likewise. A
//! packet first walks its source row's line to the accelerator in the destination's column,
//! then that column's line to the destination, each time taking every neighbour in the line
//! that is one hop closer (distances by BFS inside the line). Because every row line is the
//! same graph (and every column line), dX + dY is the network distance between two
//! accelerators, so the paths are shortest (tested against BFS).
//!
//! Deadlock freedom, two VC classes: in each dimension hops are on VC 0 until the packet comes
//! down out of the tree onto a board, on VC 1 from then on. One VC is not enough once a board
//! is three wide (or tall): a chain tree -> west edge -> ... -> east edge -> tree of one row
//! closes a cycle (a packet entering a board from the tree continues along the mesh, where
//! same-board packets and packets leaving for the tree depend on the next channel, and a
//! same-board packet takes the tree as a shortcut from the east edge back to the west). With the split: VC 0 paths run (monotone mesh segment), up, down; VC 1 paths
//! (monotone mesh segment) after the tree; a minimal path never enters a tree twice, row hops
//! all precede column hops, and rows and columns share no channel, so the CDG is acyclic
//! (checked by `routing::cdg` in tests/routing/routing_hammingmesh.rs). On 2 x 2 boards no minimal
//! path joins a mesh hop and a tree in one dimension, and one VC is already acyclic.
//!
//! Switches carry no endpoints. Paths to or from a switch (which traffic never makes) are
//! still offered, outside the deadlock argument: a column-tree switch source first descends
//! its column to the destination's row, a switch destination is reached from the first
//! accelerator below it.

use super::catalog::{Definition, RoutingEntry, BOTH};
use super::rule::{Hop, HopRouting, RouteState};
use crate::error::{Result, TopolabError};
use crate::network::{Network, HAMMINGMESH_LAYOUT};
use std::collections::VecDeque;

// Phases: the row before its tree (VC 0), 1 after it (VC 1), the column likewise (2, 3); a
// phase's VC is its low bit, and `phase | 1` is the after-tree phase of its dimension.
const ROW_BEFORE_TREE: u8 = 0;
const COL_BEFORE_TREE: u8 = 2;
/// A column-tree switch source walking down its column to the destination's row (VC 0).
const DESCEND: u8 = 4;

const ACCELERATOR: u8 = 0;
const ROW_SWITCH: u8 = 1;
const COL_SWITCH: u8 = 2;
const NO_LINE: u32 = u32::MAX;

/// One dimension's lines: per line its routers' distances to its accelerators.
#[derive(Debug, Clone)]
struct Lines {
    /// Line of each router (NO_LINE when it is not in this dimension).
    line: Vec<u32>,
    /// Position of each router in its line.
    pos: Vec<u32>,
    /// Per line: members, accelerators along the line (by coordinate), distance rows.
    size: Vec<u32>,
    dist_off: Vec<usize>,
    /// dist[dist_off[l] + member_pos * accs + coord]
    dist: Vec<u16>,
    accs: usize,
    diameter: u32,
}

impl Lines {
    /// `line_of(r)` the line of router r in this dimension; `coord(r)` its coordinate along
    /// the line for an accelerator.
    fn new(
        net: &Network,
        kind: &[u8],
        line_of: impl Fn(usize) -> u32,
        coord: impl Fn(usize) -> u32,
        lines: usize,
        accs: usize,
    ) -> Result<Lines> {
        let n = net.num_routers();
        let line: Vec<u32> = (0..n).map(&line_of).collect();
        let mut members: Vec<Vec<u32>> = vec![Vec::new(); lines];
        let mut pos = vec![0u32; n];
        for r in 0..n {
            if line[r] != NO_LINE {
                let m = &mut members[line[r] as usize];
                pos[r] = m.len() as u32;
                m.push(r as u32);
            }
        }
        let mut dist_off = Vec::with_capacity(lines);
        let mut dist = Vec::new();
        let mut diameter = 0u32;
        let mut queue = VecDeque::new();
        for (l, ms) in members.iter().enumerate() {
            dist_off.push(dist.len());
            let base = dist.len();
            dist.resize(base + ms.len() * accs, u16::MAX);
            // BFS inside the line from each of its accelerators
            for &src in ms.iter().filter(|&&r| kind[r as usize] == ACCELERATOR) {
                let c = coord(src as usize) as usize;
                let at = |m: u32| base + m as usize * accs + c;
                dist[at(pos[src as usize])] = 0;
                queue.clear();
                queue.push_back(src);
                while let Some(u) = queue.pop_front() {
                    let du = dist[at(pos[u as usize])];
                    for &v in net.neighbors(u as usize) {
                        if line[v as usize] == l as u32 && dist[at(pos[v as usize])] == u16::MAX {
                            dist[at(pos[v as usize])] = du + 1;
                            diameter = diameter.max(du as u32 + 1);
                            queue.push_back(v);
                        }
                    }
                }
            }
            if dist[base..].contains(&u16::MAX) {
                return Err(TopolabError::InvalidNetwork(format!(
                    "routing hammingmesh_min: line {l} of the network is not connected inside itself (a HammingMesh row or column is)"
                )));
            }
        }
        Ok(Lines {
            line,
            pos,
            size: members.iter().map(|m| m.len() as u32).collect(),
            dist_off,
            dist,
            accs,
            diameter,
        })
    }

    /// Distance inside their line from router r to the line's accelerator at `coord`.
    fn to(&self, r: usize, coord: u32) -> u16 {
        let l = self.line[r] as usize;
        debug_assert!(self.pos[r] < self.size[l]);
        self.dist[self.dist_off[l] + self.pos[r] as usize * self.accs + coord as usize]
    }
}

#[derive(Debug, Clone)]
pub struct HammingMeshMin {
    kind: Vec<u8>,
    col: Vec<u32>,
    row: Vec<u32>,
    rows: Lines,
    cols: Lines,
    /// For a switch: the first accelerator of its tree below it and the leaf it reaches.
    anchor: Vec<(u32, u32)>,
    offsets: Vec<u32>,
    targets: Vec<u32>,
}

impl HammingMeshMin {
    pub fn new(net: &Network) -> Result<Self> {
        net.require("routing hammingmesh_min", HAMMINGMESH_LAYOUT)?;
        let n = net.num_routers();
        let (mut kind, mut col, mut row) = (vec![0u8; n], vec![0u32; n], vec![0u32; n]);
        let (mut width, mut height) = (0u32, 0u32);
        for r in 0..n {
            let l = net.label(r);
            let k = l[0];
            let ok = match k {
                0 => l[1] >= 0 && l[2] >= 0,
                1 => l[2] >= 0,
                2 => l[1] >= 0,
                _ => false,
            };
            if !ok || l[1] >= 1 << 24 || l[2] >= 1 << 24 {
                return Err(TopolabError::InvalidNetwork(format!(
                    "routing hammingmesh_min: router {r} has label ({}) (kind 0 accelerator with col, row; 1 row-tree switch with row; 2 column-tree switch with col)",
                    l.iter().map(|v| v.to_string()).collect::<Vec<_>>().join(", ")
                )));
            }
            kind[r] = k as u8;
            col[r] = l[1].max(0) as u32;
            row[r] = l[2].max(0) as u32;
            if k == 0 {
                width = width.max(col[r] + 1);
                height = height.max(row[r] + 1);
            }
        }
        let kinds = &kind;
        let rows = Lines::new(
            net,
            kinds,
            |r| match kinds[r] {
                COL_SWITCH => NO_LINE,
                _ => row[r],
            },
            |r| col[r],
            height as usize,
            width as usize,
        )?;
        let cols = Lines::new(
            net,
            kinds,
            |r| match kinds[r] {
                ROW_SWITCH => NO_LINE,
                _ => col[r],
            },
            |r| row[r],
            width as usize,
            height as usize,
        )?;
        // a switch's anchor: a leaf's first accelerator, a spine's first leaf's
        let first_acc = |r: usize| {
            net.neighbors(r)
                .iter()
                .copied()
                .find(|&v| kind[v as usize] == ACCELERATOR)
        };
        let mut anchor = vec![(0u32, 0u32); n];
        for r in (0..n).filter(|&r| kind[r] != ACCELERATOR) {
            let found = first_acc(r).map(|a| (a, r as u32)).or_else(|| {
                net.neighbors(r)
                    .iter()
                    .find_map(|&leaf| first_acc(leaf as usize).map(|a| (a, leaf)))
            });
            anchor[r] = found.ok_or_else(|| {
                TopolabError::InvalidNetwork(format!(
                    "routing hammingmesh_min: switch {r} is more than two levels above the accelerators"
                ))
            })?;
        }
        let (offsets, targets) = net.csr();
        Ok(HammingMeshMin {
            kind,
            col,
            row,
            rows,
            cols,
            anchor,
            offsets: offsets.to_vec(),
            targets: targets.to_vec(),
        })
    }

    fn neighbors(&self, r: usize) -> &[u32] {
        &self.targets[self.offsets[r] as usize..self.offsets[r + 1] as usize]
    }

    /// Every neighbour of r in r's line of `lines` one hop closer to the accelerator at `coord`;
    /// leaving a switch for an accelerator moves `phase` to its after-tree class.
    fn closer(&self, lines: &Lines, r: usize, coord: u32, phase: u8, out: &mut dyn FnMut(Hop)) {
        let here = lines.to(r, coord);
        let l = lines.line[r];
        for (nb, &v) in self.neighbors(r).iter().enumerate() {
            let v = v as usize;
            if lines.line[v] != l || lines.to(v, coord) + 1 != here {
                continue;
            }
            let after =
                if phase < DESCEND && self.kind[r] != ACCELERATOR && self.kind[v] == ACCELERATOR {
                    phase | 1
                } else {
                    phase
                };
            out(Hop {
                detour: 0,
                nb: nb as u32,
                vc: after & 1,
                state: RouteState::new(after, 0),
            });
        }
    }

    fn hop_to(&self, r: usize, v: u32, st: RouteState, out: &mut dyn FnMut(Hop)) {
        let nb = self.neighbors(r).binary_search(&v).expect("a neighbour") as u32;
        out(Hop {
            detour: 0,
            nb,
            vc: if st.phase < DESCEND { st.phase & 1 } else { 0 },
            state: st,
        });
    }
}

impl HopRouting for HammingMeshMin {
    fn name(&self) -> String {
        "hammingmesh_min".into()
    }
    fn vc_classes(&self) -> u32 {
        2
    }
    fn max_hops(&self) -> u32 {
        // a row, a column, and a descent plus a climb for switch sources and destinations
        2 * self.rows.diameter + 2 * self.cols.diameter + 4
    }
    fn start(&self, s: u32, _t: u32, out: &mut Vec<(RouteState, f64)>) {
        let phase = if self.kind[s as usize] == COL_SWITCH {
            DESCEND
        } else {
            ROW_BEFORE_TREE
        };
        out.push((RouteState::new(phase, 0), 1.0));
    }
    fn next(&self, r: u32, t: u32, _hop: u32, st: RouteState, out: &mut dyn FnMut(Hop)) {
        if r == t {
            return;
        }
        let (r, t) = (r as usize, t as usize);
        // the accelerator to reach: t itself, or the one below switch t
        let goal = if self.kind[t] == ACCELERATOR {
            t
        } else {
            if self.neighbors(r).binary_search(&(t as u32)).is_ok() {
                return self.hop_to(r, t as u32, st, out);
            }
            let (below, leaf) = self.anchor[t];
            if r == below as usize {
                return self.hop_to(r, leaf, st, out);
            }
            below as usize
        };
        let mut phase = st.phase;
        if phase == DESCEND {
            if self.kind[r] == ACCELERATOR && self.row[r] == self.row[goal] {
                phase = ROW_BEFORE_TREE;
            } else {
                return self.closer(&self.cols, r, self.row[goal], DESCEND, out);
            }
        }
        if phase < COL_BEFORE_TREE {
            if self.kind[r] == ACCELERATOR && self.col[r] == self.col[goal] {
                phase = COL_BEFORE_TREE;
            } else {
                return self.closer(&self.rows, r, self.col[goal], phase, out);
            }
        }
        self.closer(&self.cols, r, self.row[goal], phase, out)
    }
}

/// The catalog entry of `hammingmesh_min` (`catalog::ROUTINGS`).
pub const HAMMINGMESH_MIN: RoutingEntry = RoutingEntry {
    name: "hammingmesh_min",
    params: &[],
    readers: BOTH,
    summary: "HammingMesh minimal: the source row (board mesh and row fat tree, up then down), then the destination column; every shortest next hop; VC 1 after leaving a tree in each dimension; 2 VCs",
    source: "Hoefler et al., SC 2022 (HammingMesh routing)",
    definition: Definition::Rule(|net, _, _| Ok(super::hammingmesh::HammingMeshMin::new(net)?.into())),
};
