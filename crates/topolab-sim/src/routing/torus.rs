//! Dimension-order routing on tori and meshes (003 §1.1 networks; BookSim2 `dim_order_torus`).
//!
//! The first dimension whose coordinate differs is corrected first. Entering a dimension, the
//! packet takes the shorter way around the ring (a random one when both are equal, as BookSim2
//! does) and keeps that direction until the coordinate matches.
//!
//! Datelines, one per ring: the VCs are split in two halves (classes 0 and 1). topolab's rule is
//! the textbook one: a packet travels a ring in class 0 and switches to class 1 on the
//! wrap-around link (k-1 -> 0 going up, 0 -> k-1 going down) and for the rest of that ring, so
//! neither class has a cyclic channel dependency. BookSim2 instead fixes the class when the packet
//! enters the ring: class 1 when it will cross the wrap-around link going up, or when it will not
//! cross it going down (`dor_next_torus`, partition rule for the down direction as written there);
//! `booksim_compat = true` uses that rule and BookSim2's VC ranges ([0, V-1-V/2] and [V/2, V-1]).
//! Meshes have no wrap-around and use every VC. At the destination router every VC may be used
//! to eject.

use super::{RouteChoice, RouteCtx};
use crate::error::{Result, SimError};
use crate::flit::Flit;
use crate::topo::{SimTopology, NONE};
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use topolab_core::{Network, TopolabError};

#[derive(Debug, Clone)]
pub struct TorusDor {
    pub dims: Vec<u32>,
    pub strides: Vec<u32>,
    pub wrap: bool,
    /// Per (router, dimension): first output port going up / down, and the link width.
    up: Vec<(u32, u32)>,
    down: Vec<(u32, u32)>,
}

// Flit::phase bits: 0 = VC class, 1 = direction (1 = down), 2.. = dimension + 1 being travelled.
const CLASS: u8 = 1;
const DOWN: u8 = 2;

impl TorusDor {
    pub fn new(net: &Network, topo: &SimTopology, num_vcs: u32) -> Result<TorusDor> {
        let wrap = match net.family() {
            "torus" => true,
            "mesh" => false,
            other => {
                return Err(SimError::param(
                    "routing",
                    "'dor'",
                    format!("a routing this network supports: dor needs a torus or mesh, this network is '{other}' (use min, min_static or valiant)"),
                ))
            }
        };
        let fields = net.label_fields();
        let nd = fields.len();
        if nd == 0
            || nd > 62
            || fields
                .iter()
                .enumerate()
                .any(|(i, f)| *f != format!("d{i}"))
        {
            return Err(SimError::Core(TopolabError::InvalidNetwork(format!(
                "dor needs coordinate labels d0, d1, ...; found {}",
                fields.join(", ")
            ))));
        }
        let n = net.num_routers();
        let mut dims = vec![1u32; nd];
        for r in 0..n {
            for (k, &c) in net.label(r).iter().enumerate() {
                dims[k] = dims[k].max(c as u32 + 1);
            }
        }
        let mut strides = vec![1u32; nd];
        for k in 1..nd {
            strides[k] = strides[k - 1] * dims[k - 1];
        }
        let coord = |r: usize, k: usize| (r as u32 / strides[k]) % dims[k];
        for r in 0..n {
            for k in 0..nd {
                if net.label(r)[k] as u32 != coord(r, k) {
                    return Err(SimError::Core(TopolabError::InvalidNetwork(format!(
                        "router {r} is labelled {:?}, not at its index's coordinates; dor needs topolab's torus numbering",
                        net.label(r)
                    ))));
                }
            }
        }
        if wrap && num_vcs < 2 {
            return Err(SimError::param(
                "num_vcs",
                num_vcs,
                "at least 2 for dor on a torus (two dateline classes)",
            ));
        }
        let mut up = vec![(NONE, 0); n * nd];
        let mut down = vec![(NONE, 0); n * nd];
        for r in 0..n {
            for k in 0..nd {
                let (c, kk, s) = (coord(r, k), dims[k], strides[k]);
                if kk == 1 {
                    continue;
                }
                let up_to = if c + 1 < kk {
                    Some(r as u32 + s)
                } else if wrap {
                    Some(r as u32 - c * s)
                } else {
                    None
                };
                let down_to = if c > 0 {
                    Some(r as u32 - s)
                } else if wrap {
                    Some(r as u32 + (kk - 1) * s)
                } else {
                    None
                };
                let port_to = |v: u32| -> Result<(u32, u32)> {
                    let pos = topo.neighbor_pos(r, v).ok_or_else(|| {
                        SimError::Core(TopolabError::InvalidNetwork(format!(
                            "router {r} has no link to its dimension-{k} neighbour {v}"
                        )))
                    })?;
                    Ok(topo.nbr_port(r, pos))
                };
                if let Some(v) = up_to {
                    up[r * nd + k] = port_to(v)?;
                }
                if let Some(v) = down_to {
                    down[r * nd + k] = port_to(v)?;
                }
            }
        }
        Ok(TorusDor {
            dims,
            strides,
            wrap,
            up,
            down,
        })
    }

    #[inline]
    pub fn route(&self, ctx: &RouteCtx, f: &mut Flit, rng: &mut ChaCha8Rng) -> RouteChoice {
        let r = ctx.router;
        let t = ctx.dest_router(f);
        if r == t {
            return ctx.eject(f);
        }
        let nd = self.dims.len();
        let mut k = 0;
        let (mut cur, mut dst) = (0, 0);
        while k < nd {
            cur = (r / self.strides[k]) % self.dims[k];
            dst = (t / self.strides[k]) % self.dims[k];
            if cur != dst {
                break;
            }
            k += 1;
        }
        let kk = self.dims[k];
        let entering = (f.phase >> 2) as usize != k + 1;
        if entering {
            let down = if self.wrap {
                let dist2 = kk as i64 - 2 * (((dst + kk - cur) % kk) as i64);
                dist2 < 0 || (dist2 == 0 && rng.random_range(0..2u32) == 0)
            } else {
                dst < cur
            };
            let class = if ctx.booksim && self.wrap {
                // BookSim2 dor_next_torus: ((dir == 0) && (cur > dest)) || ((dir == 1) && (dest < cur)),
                // which is cur > dest whatever the direction.
                cur > dst
            } else {
                false
            };
            f.phase = (((k + 1) as u8) << 2) | if down { DOWN } else { 0 } | class as u8;
        }
        let down = f.phase & DOWN != 0;
        if self.wrap && !ctx.booksim {
            let crossing = if down { cur == 0 } else { cur == kk - 1 };
            if crossing {
                f.phase |= CLASS;
            }
        }
        let (first, width) = if down {
            self.down[r as usize * nd + k]
        } else {
            self.up[r as usize * nd + k]
        };
        debug_assert!(first != NONE);
        let port = first + f.dest % width;
        let v = ctx.num_vcs;
        let (vc_lo, vc_hi) = if !self.wrap {
            (0, v - 1)
        } else {
            let half = v / 2;
            let class1 = f.phase & CLASS != 0;
            match (ctx.booksim, class1) {
                (true, false) => (0, v - 1 - half),
                (true, true) => (half, v - 1),
                (false, false) => (0, half - 1),
                (false, true) => (half, v - 1),
            }
        };
        RouteChoice {
            port,
            vc_lo: vc_lo as u8,
            vc_hi: vc_hi as u8,
        }
    }
}
