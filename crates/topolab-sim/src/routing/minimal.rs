//! Minimal routing from shortest-path tables, for any topology.
//!
//! `min`: at every router a minimal next hop chosen uniformly at random among all ports to
//! neighbours one hop closer to the destination (parallel links count once per cable).
//! `min_static`: one fixed shortest path per (router, destination router), BookSim2 anynet's
//! (`NextHopTable`); of w parallel cables the one indexed by destination endpoint mod w.
//! VCs: hop-indexed classes (000 §IV-D: VC k on hop k, deadlock-free on any topology with as
//! many classes as the diameter) or any VC (BookSim2 anynet).

use super::{RouteChoice, RouteCtx, Tables, VcPolicy};
use crate::error::{Result, SimError};
use crate::flit::Flit;
use crate::topo::SimTopology;
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use std::sync::Arc;
use topolab_core::routing::shortest::NO_HOP;
use topolab_core::routing::NextHopTable;

#[derive(Debug, Clone)]
pub struct Minimal {
    pub tables: Tables,
    /// Static paths: per (router, destination router) the output port towards the fixed next
    /// hop (its first port when the link has several cables).
    pub fixed: Option<Arc<Vec<u16>>>,
    /// Link width per (router, destination router) entry, only when some link has width > 1.
    pub fixed_width: Option<Arc<Vec<u16>>>,
    pub vcs: VcPolicy,
}

/// The static next hops as output ports (and link widths, when any exceeds 1).
pub fn port_table(
    topo: &SimTopology,
    table: &NextHopTable,
) -> Result<(Vec<u16>, Option<Vec<u16>>)> {
    let n = topo.num_routers as usize;
    let mut ports = vec![u16::MAX; n * n];
    let wide = topo.nbr_width.iter().any(|&w| w > 1);
    let mut widths = if wide { vec![1u16; n * n] } else { Vec::new() };
    for r in 0..n {
        if topo.num_out(r) > u16::MAX as u32 {
            return Err(SimError::param(
                "routing",
                "'min_static'",
                format!(
                    "routers with fewer than 65536 ports (router {r} has {})",
                    topo.num_out(r)
                ),
            ));
        }
        for t in 0..n {
            let next = table.get(r, t);
            if next == NO_HOP {
                continue;
            }
            let pos = topo.neighbor_pos(r, next).expect("next hop is a neighbour");
            let (first, width) = topo.nbr_port(r, pos);
            ports[r * n + t] = first as u16;
            if wide {
                widths[r * n + t] = width.min(u16::MAX as u32) as u16;
            }
        }
    }
    Ok((ports, wide.then_some(widths)))
}

impl Minimal {
    pub fn new(tables: Tables, fixed: Option<(Vec<u16>, Option<Vec<u16>>)>, vcs: VcPolicy) -> Self {
        let (fixed, fixed_width) = match fixed {
            Some((p, w)) => (Some(Arc::new(p)), w.map(Arc::new)),
            None => (None, None),
        };
        Minimal {
            tables,
            fixed,
            fixed_width,
            vcs,
        }
    }

    #[inline]
    pub fn route(&self, ctx: &RouteCtx, f: &mut Flit, rng: &mut ChaCha8Rng) -> RouteChoice {
        let r = ctx.router as usize;
        let t = ctx.dest_router(f) as usize;
        if r == t {
            return ctx.eject(f);
        }
        let port = match &self.fixed {
            Some(table) => {
                let k = r * ctx.topo.num_routers as usize + t;
                let first = table[k] as u32;
                match &self.fixed_width {
                    Some(w) if w[k] > 1 => first + f.dest % w[k] as u32,
                    _ => first,
                }
            }
            None => random_minimal_port(ctx, &self.tables, r, t, rng),
        };
        let (vc_lo, vc_hi) = self.vcs.range(f.hops as u32, ctx.num_vcs);
        RouteChoice { port, vc_lo, vc_hi }
    }
}

/// A port to a neighbour one hop closer to `t`, uniformly over all such ports.
#[inline]
pub fn random_minimal_port(
    ctx: &RouteCtx,
    tables: &Tables,
    r: usize,
    t: usize,
    rng: &mut ChaCha8Rng,
) -> u32 {
    if let Some(masks) = &tables.min_mask {
        let mut m = masks[r * ctx.topo.num_routers as usize + t];
        debug_assert!(m != 0, "no minimal next hop from {r} to {t}");
        let base = ctx.topo.csr_offset[r] as usize;
        let wide = ctx.topo.nbr_width[base..base + ctx.topo.neighbors(r).len()]
            .iter()
            .any(|&w| w > 1);
        if !wide {
            // Uniform over the set bits.
            let count = m.count_ones();
            let mut k = if count > 1 {
                rng.random_range(0..count)
            } else {
                0
            };
            while k > 0 {
                m &= m - 1;
                k -= 1;
            }
            return ctx.topo.nbr_port(r, m.trailing_zeros() as usize).0;
        }
    }
    let want = tables.dist_to(r, t) - 1;
    let nbrs = ctx.topo.neighbors(r);
    let mut total = 0u32;
    for (pos, &v) in nbrs.iter().enumerate() {
        if tables.dist_to(v as usize, t) == want {
            total += ctx.topo.nbr_port(r, pos).1;
        }
    }
    debug_assert!(total > 0, "no minimal next hop from {r} to {t}");
    let mut pick = if total > 1 {
        rng.random_range(0..total)
    } else {
        0
    };
    for (pos, &v) in nbrs.iter().enumerate() {
        if tables.dist_to(v as usize, t) == want {
            let (first, width) = ctx.topo.nbr_port(r, pos);
            if pick < width {
                return first + pick;
            }
            pick -= width;
        }
    }
    unreachable!("minimal port index within the counted total")
}
