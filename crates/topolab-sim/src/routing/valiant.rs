//! Valiant routing (000 §IV-B): the source router picks an intermediate router R_r uniformly
//! among the routers other than the source's R_s and the destination's R_d; the packet travels
//! minimally to R_r, then minimally to R_d (2 to 2·D hops). Packets whose source and destination
//! share a router are delivered directly. VCs: hop-indexed over the whole path (000 §IV-D: 2·D
//! classes, 4 on a diameter-2 Slim Fly), or any VC with vcs=any.

use super::minimal::random_minimal_port;
use super::{RouteChoice, RouteCtx, Tables, VcPolicy};
use crate::flit::Flit;
use rand::Rng;
use rand_chacha::ChaCha8Rng;

/// Phases kept in `Flit::phase`.
const UNDECIDED: u8 = 0;
const TO_INTERMEDIATE: u8 = 1;
const TO_DESTINATION: u8 = 2;

#[derive(Debug, Clone)]
pub struct Valiant {
    pub tables: Tables,
    pub vcs: VcPolicy,
}

impl Valiant {
    pub fn new(tables: Tables, vcs: VcPolicy) -> Self {
        Valiant { tables, vcs }
    }

    #[inline]
    pub fn route(&self, ctx: &RouteCtx, f: &mut Flit, rng: &mut ChaCha8Rng) -> RouteChoice {
        let r = ctx.router;
        let d = ctx.dest_router(f);
        if f.phase == UNDECIDED {
            let n = ctx.topo.num_routers;
            if r == d || n < 3 {
                f.phase = TO_DESTINATION;
            } else {
                // Uniform over the n - 2 routers other than r and d.
                let (lo, hi) = (r.min(d), r.max(d));
                let mut k = rng.random_range(0..n - 2);
                if k >= lo {
                    k += 1;
                }
                if k >= hi {
                    k += 1;
                }
                f.intermediate = k;
                f.phase = TO_INTERMEDIATE;
            }
        }
        if f.phase == TO_INTERMEDIATE && r == f.intermediate {
            f.phase = TO_DESTINATION;
        }
        let target = if f.phase == TO_INTERMEDIATE {
            f.intermediate
        } else {
            d
        };
        if target == r {
            return ctx.eject(f);
        }
        let port = random_minimal_port(ctx, &self.tables, r as usize, target as usize, rng);
        let (vc_lo, vc_hi) = self.vcs.range(f.hops as u32, ctx.num_vcs);
        RouteChoice { port, vc_lo, vc_hi }
    }
}
