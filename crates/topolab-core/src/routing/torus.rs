//! Dimension-order routing on tori with one dateline per ring (Daryin & Korzh, JSFI 2014, §3.2),
//! and on meshes.
//!
//! Dimensions are corrected in increasing order. Entering a ring the packet takes the shorter
//! way round and keeps that direction; when both ways are equally long (distance K/2 on an
//! even ring) both are offered, so the simulator draws one uniformly, as BookSim2's
//! `dim_order_torus` does, and static analysis counts each with probability 1/2.
//!
//! Two VL classes per ring (Daryin & Korzh, JSFI 2014, §3.2: "one for packets crossing a dateline
//! in that dimension, another for all other packets"), assigned one of two ways:
//! - `dateline` (default, the textbook rule): class 0 until the wrap-around link
//!   (K-1 -> 0 going up, 0 -> K-1 going down), class 1 on it and for the rest of the ring;
//! - `booksim`: the class is fixed when the packet enters the ring, class 1 iff cur > dst
//!   (BookSim2 `dor_next_torus`, whose two direction cases reduce to that). Also acyclic.
//!
//! Daryin & Korzh, JSFI 2014, §3.2 adds that under InfiniBand the crossing must be decided at the
//! source and carried in the SL; the `booksim` rule is of that kind (the class follows from the
//! coordinates at ring entry), the `dateline` rule switches on the wrap link instead. Meshes have
//! no wrap link and need one class.

use super::catalog::{Definition, RoutingEntry, Rule, BOTH};
use super::coords::{GridCoords, NONE};
use super::rule::{Hop, HopRouting, RouteState};
use crate::error::{Result, TopolabError};
use crate::network::Network;
use crate::topology::{ParamDef, ParamKind};
use rand_chacha::ChaCha8Rng;

// RouteState::phase bits: 0 = VL class, 1 = direction (1 = down), 2.. = dimension + 1.
const CLASS: u8 = 1;
const DOWN: u8 = 2;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dateline {
    /// Class 1 from the wrap-around link on.
    Dateline,
    /// Class fixed at ring entry, 1 iff cur > dst (BookSim2).
    Booksim,
}

impl Dateline {
    pub fn parse(value: &str) -> Result<Dateline> {
        match value.trim().to_ascii_lowercase().as_str() {
            "dateline" => Ok(Dateline::Dateline),
            "booksim" => Ok(Dateline::Booksim),
            other => Err(TopolabError::invalid(
                "torus_dor",
                "vcs",
                other,
                "dateline (class 1 from the wrap-around link on) or booksim (class fixed at ring entry, BookSim2)",
            )),
        }
    }
}

#[derive(Debug, Clone)]
pub struct TorusDor {
    grid: GridCoords,
    wrap: bool,
    rule: Dateline,
    /// Per router and dimension (`r * dims + n`): the positions among r's neighbours of the
    /// next router up and down the ring (NONE at a mesh's edge), so that a hop is one load
    /// rather than a next coordinate and a neighbour lookup.
    steps: Vec<[u32; 2]>,
}

impl TorusDor {
    pub fn new(net: &Network, rule: Dateline) -> Result<Self> {
        crate::topology::require_declared(net, "torus_dor")?;
        let grid = GridCoords::read(net, "torus_dor", "d")?;
        let wrap = grid.wraps();
        let routers = net.num_routers() as u32;
        let mut steps = Vec::with_capacity(routers as usize * grid.num_dims());
        for r in 0..routers {
            for (n, &k) in grid.dims.iter().enumerate() {
                let c = grid.coord(r, n);
                let up = if c + 1 < k {
                    Some(c + 1)
                } else {
                    wrap.then_some(0)
                };
                let down = if c > 0 {
                    Some(c - 1)
                } else {
                    wrap.then_some(k - 1)
                };
                for v in [up, down].into_iter().flatten() {
                    if k > 1 && grid.neighbor(r, n, v) == NONE {
                        return Err(TopolabError::InvalidNetwork(format!(
                            "torus_dor: router {r} has no link to coordinate {v} of dimension {n}"
                        )));
                    }
                }
                let step = |c: Option<u32>| c.map_or(NONE, |c| grid.neighbor(r, n, c));
                steps.push([step(up), step(down)]);
            }
        }
        Ok(TorusDor {
            grid,
            wrap,
            rule,
            steps,
        })
    }
}

impl HopRouting for TorusDor {
    fn name(&self) -> String {
        match self.rule {
            Dateline::Dateline => "torus_dor".into(),
            Dateline::Booksim => "torus_dor:vcs=booksim".into(),
        }
    }
    fn vc_classes(&self) -> u32 {
        if self.wrap {
            2
        } else {
            1
        }
    }
    fn max_hops(&self) -> u32 {
        self.grid
            .dims
            .iter()
            .map(|&k| if self.wrap { k / 2 } else { k - 1 })
            .sum::<u32>()
            .max(1)
    }
    fn start(&self, _s: u32, _t: u32, out: &mut Vec<(RouteState, f64)>) {
        out.push((RouteState::default(), 1.0));
    }
    fn sample_start(&self, _s: u32, _t: u32, _rng: &mut ChaCha8Rng) -> RouteState {
        RouteState::default()
    }
    fn next(&self, r: u32, t: u32, hop: u32, st: RouteState, out: &mut dyn FnMut(Hop)) {
        self.next_each(r, t, hop, st, out)
    }
    #[inline]
    fn next_each<F: FnMut(Hop)>(&self, r: u32, t: u32, _hop: u32, st: RouteState, mut out: F) {
        let g = &self.grid;
        let (here, there) = (g.coords_of(r), g.coords_of(t));
        // The state names the dimension being travelled, every lower one already corrected:
        // while it is not done, it is the first that differs, found without a search.
        let travelled = (st.phase >> 2) as usize;
        let n = match travelled.checked_sub(1) {
            Some(m) if m < here.len() && here[m] != there[m] => m,
            _ => match here.iter().zip(there).position(|(a, b)| a != b) {
                Some(n) => n,
                None => return,
            },
        };
        let (cur, dst, k) = (here[n], there[n], g.dims[n]);
        let tag = ((n + 1) as u8) << 2;
        let entering = st.phase & !(CLASS | DOWN) != tag;
        // The direction, whether the other one is offered as well (a tie on an even ring:
        // up first, then down), and the class so far.
        let (down, tie, class) = if entering {
            let (down, tie) = if !self.wrap {
                (dst < cur, false)
            } else {
                // Ring distance going up, without a division by the runtime k.
                let up_dist = if dst >= cur { dst - cur } else { dst + k - cur };
                match (2 * up_dist).cmp(&k) {
                    std::cmp::Ordering::Less => (false, false),
                    std::cmp::Ordering::Greater => (true, false),
                    std::cmp::Ordering::Equal => (false, true),
                }
            };
            (
                down,
                tie,
                self.wrap && self.rule == Dateline::Booksim && cur > dst,
            )
        } else {
            (st.phase & DOWN != 0, false, st.phase & CLASS != 0)
        };
        let steps = self.steps[r as usize * here.len() + n];
        let hop = |down: bool| {
            let crossing = if down { cur == 0 } else { cur == k - 1 };
            let class = class || (self.wrap && self.rule == Dateline::Dateline && crossing);
            Hop {
                detour: 0,
                nb: steps[down as usize],
                vc: class as u8,
                state: RouteState::new(tag | if down { DOWN } else { 0 } | class as u8, 0),
            }
        };
        out(hop(down));
        if tie {
            out(hop(true));
        }
    }
}

/// The catalog entry of `torus_dor` (`catalog::ROUTINGS`).
pub const TORUS_DOR: RoutingEntry = RoutingEntry {
    name: "torus_dor",
    params: &[
        ParamDef {
            name: "vcs",
            kind: ParamKind::Text,
            default: Some("dateline"),
            help: "dateline (class 1 from the wrap link on) or booksim (class fixed at ring entry)",
        },
    ],
    readers: BOTH,
    summary: "torus/mesh dimension-order routing, shorter way round (ties: either); vcs=dateline (class 1 from the wrap link on, default) or booksim (class fixed at ring entry)",
    source: "Daryin & Korzh, JSFI 2014, §3.2; BookSim2 dim_order_torus",
    definition: Definition::Rule(|net, params, _| {
            let rule = match params.opt_text("vcs")? {
                Some(v) => super::torus::Dateline::parse(&v)?,
                None => super::torus::Dateline::Dateline,
            };
            Ok(Rule::from(super::torus::TorusDor::new(net, rule)?))
    }),
};
