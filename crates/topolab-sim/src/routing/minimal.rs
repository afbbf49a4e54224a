//! `min_static`: one fixed shortest path per (router, destination router), BookSim2 anynet's
//! (`NextHopTable`); of w parallel cables the one indexed by destination endpoint mod w.
//! VCs: any VC (BookSim2 anynet, the default) or hop-indexed classes (Besta & Hoefler, SC14,
//! §IV-D). Random minimal routing (`min`) is the core's rule (`topolab_core::routing::minimal`),
//! read through the `Rule` adapter; this table routing stays here because BookSim2 agreement needs
//! its exact port choice.

use super::{RouteChoice, RouteCtx, VcPolicy};
use crate::error::{Result, SimError};
use crate::flit::Flit;
use crate::topo::SimTopology;
use rand_chacha::ChaCha8Rng;
use std::sync::Arc;
use topolab_core::routing::shortest::NO_HOP;
use topolab_core::routing::NextHopTable;

#[derive(Debug, Clone)]
pub struct MinStatic {
    /// Per (router, destination router) the output port towards the fixed next hop (its first
    /// port when the link has several cables).
    pub fixed: Arc<Vec<u16>>,
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
    let wide = topo.nbr_ports.iter().any(|&(_, w)| w > 1);
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

impl MinStatic {
    pub fn new(fixed: (Vec<u16>, Option<Vec<u16>>), vcs: VcPolicy) -> Self {
        MinStatic {
            fixed: Arc::new(fixed.0),
            fixed_width: fixed.1.map(Arc::new),
            vcs,
        }
    }

    /// Where the entry of (router r, destination router t) is in the tables.
    #[inline]
    fn entry(topo: &SimTopology, r: usize, t: usize) -> usize {
        r * topo.num_routers as usize + t
    }

    /// Asks for the table entry of (router, t) (`Routing::read_ahead`).
    #[inline]
    pub fn read_ahead(&self, topo: &SimTopology, router: u32, t: u32) {
        let k = Self::entry(topo, router as usize, t as usize);
        if let Some(port) = self.fixed.get(k) {
            crate::read_ahead::prefetch(port);
        }
    }

    #[inline]
    pub fn route(&self, ctx: &RouteCtx, f: &mut Flit, _rng: &mut ChaCha8Rng) -> RouteChoice {
        let r = ctx.router as usize;
        let t = ctx.dest_router(f) as usize;
        if r == t {
            return ctx.eject(f);
        }
        let k = Self::entry(ctx.topo, r, t);
        let first = self.fixed[k] as u32;
        let port = match &self.fixed_width {
            Some(w) if w[k] > 1 => first + f.dest % w[k] as u32,
            _ => first,
        };
        let (vc_lo, vc_hi) = self.vcs.range(f.hops as u32, ctx.num_vcs);
        RouteChoice { port, vc_lo, vc_hi }
    }
}
