//! Distance Based routing with E extra hops, with or without deflection (Daryin & Korzh, JSFI 2014,
//! §3.7): a topology-agnostic adaptive routing whose only per-packet state is the virtual lane,
//! used as a hop budget ("VL hopping").
//!
//! With D the distance from the source to the destination router and d > 0 the distance left
//! at the current router (Daryin & Korzh, JSFI 2014, §3.7):
//! 1. the source assigns VL = D + E (mod 8);
//! 2. every hop decrements the VL (mod 8);
//! 3. towards each neighbour p at distance d_p from the destination:
//!    (a) d_p < d: allowed (shortest path, high priority);
//!    (b) d_p = d <= VL_out: allowed (sideways, medium priority);
//!    (c) d < d_p <= VL_out and deflection is on: allowed (deflection, low priority).
//!
//! VL_out is the VL after the decrement, i.e. the hops left after this one, so (b) and (c) keep
//! the invariant d <= VL: the packet can always still arrive, paths have at most D + E hops,
//! and the link VLs D + E - 1, D + E - 2, ... strictly decrease along a path. When
//! diameter + E <= 8 no VL wraps and the channel dependency graph is acyclic (Daryin & Korzh, JSFI
//! 2014, §3.7: "no credit loops are possible if VLs are used in strictly increasing order"; here
//! decreasing, the same argument).
//!
//! Choices where Daryin & Korzh (JSFI 2014) are silent (docs/routing.md): the budget compared in
//! (b)/(c) is the true D + E - hops, not its residue mod 8 (the two differ only when D + E > 8,
//! where Daryin & Korzh (JSFI 2014) do not use the scheme; with the residue, a wrapped VL would
//! re-grant extra hops and paths would not be bounded); the VL count `vls` defaults to 8 and the
//! check reports a cycle when the VLs wrap. The three priorities of Daryin & Korzh's (JSFI 2014)
//! selection function are the hops' detour levels 0, 1, 2; the simulator selects the least occupied
//! candidate output by default (`select=queue`), charging one VC buffer per level, so at low load
//! the minimal hops are taken. Queue selection does not herd here (docs/routing.md, "Queue
//! selection and herding").

use super::catalog::{Definition, RoutingEntry, BOTH};
use super::rule::{Hop, HopRouting, RouteState, Select};
use super::shortest::HopMatrix;
use crate::error::{Result, TopolabError};
use crate::network::Network;
use crate::progress::Monitor;
use crate::spec::Params;
use crate::topology::{ParamDef, ParamKind};
use std::sync::Arc;

/// `distance_based:e=E,vls=V` (catalog entry): E default 0, V default 8.
pub fn from_params(net: &Network, params: &Params, monitor: &dyn Monitor) -> Result<DistanceBased> {
    build(net, params, monitor, false)
}

/// `deflection:e=E,vls=V` (catalog entry): E default 2, V default 8.
pub fn deflection_from_params(
    net: &Network,
    params: &Params,
    monitor: &dyn Monitor,
) -> Result<DistanceBased> {
    build(net, params, monitor, true)
}

fn build(
    net: &Network,
    params: &Params,
    monitor: &dyn Monitor,
    deflection: bool,
) -> Result<DistanceBased> {
    let default_e = if deflection { 2 } else { 0 };
    let e = params.opt_u32("e", 0, 64)?.unwrap_or(default_e);
    let vls = params.opt_u32("vls", 1, 64)?.unwrap_or(DEFAULT_VLS);
    let hops = Arc::new(HopMatrix::build(net, monitor)?);
    DistanceBased::new(net, hops, e, deflection, vls)
}

/// Distance Based + E (deflection off) or Deflection + E (on), Daryin & Korzh, JSFI 2014, §3.7.
pub struct DistanceBased {
    hops: Arc<HopMatrix>,
    offsets: Vec<u32>,
    targets: Vec<u32>,
    extra: u32,
    deflection: bool,
    vls: u32,
    diameter: u32,
}

/// Daryin & Korzh, JSFI 2014, §3: "a common value for modern hardware is 8 VLs"; the VL arithmetic
/// is mod 8.
pub const DEFAULT_VLS: u32 = 8;

impl DistanceBased {
    /// `extra` = E, `deflection` = F, `vls` the number of VLs the VL arithmetic wraps at.
    pub fn new(
        net: &Network,
        hops: Arc<HopMatrix>,
        extra: u32,
        deflection: bool,
        vls: u32,
    ) -> Result<Self> {
        let ctx = if deflection {
            "deflection"
        } else {
            "distance_based"
        };
        if deflection && extra < 2 {
            return Err(TopolabError::invalid(
                ctx,
                "e",
                extra,
                "at least 2 with deflection (Daryin & Korzh, JSFI 2014, §3.7: otherwise deflection makes no sense)",
            ));
        }
        if !(1..=64).contains(&vls) {
            return Err(TopolabError::invalid(ctx, "vls", vls, "1 to 64"));
        }
        if !hops.connected() {
            return Err(TopolabError::InvalidNetwork(format!(
                "{ctx} routing needs a strongly connected network; some router pair has no path"
            )));
        }
        let (offsets, targets) = net.csr();
        Ok(DistanceBased {
            diameter: hops.max_finite() as u32,
            hops,
            offsets: offsets.to_vec(),
            targets: targets.to_vec(),
            extra,
            deflection,
            vls,
        })
    }

    /// VLs the scheme needs without wrapping: the longest path, diameter + E.
    pub fn vls_needed(&self) -> u32 {
        self.diameter + self.extra
    }
}

impl HopRouting for DistanceBased {
    fn name(&self) -> String {
        let base = if self.deflection {
            "deflection"
        } else {
            "distance_based"
        };
        format!("{base}:e={},vls={}", self.extra, self.vls)
    }
    fn vc_classes(&self) -> u32 {
        self.vls.min(self.vls_needed()).max(1)
    }
    fn max_hops(&self) -> u32 {
        self.vls_needed().max(1)
    }
    fn default_select(&self) -> Select {
        Select::Queue
    }
    fn start(&self, s: u32, t: u32, out: &mut Vec<(RouteState, f64)>) {
        // The budget D + E rides in `aux`; the hops left are aux - hop.
        let d = self.hops.get(s as usize, t as usize) as u32;
        out.push((RouteState::new(0, d + self.extra), 1.0));
    }
    fn next(&self, r: u32, t: u32, hop: u32, st: RouteState, out: &mut dyn FnMut(Hop)) {
        let (r, t) = (r as usize, t as usize);
        let d = self.hops.get(r, t) as u32;
        if d == 0 {
            return;
        }
        // Hops left after this one: VL_out before the mod.
        let left = st.aux.saturating_sub(hop + 1);
        let vc = (left % self.vls) as u8;
        let nbrs = &self.targets[self.offsets[r] as usize..self.offsets[r + 1] as usize];
        for (i, &p) in nbrs.iter().enumerate() {
            let dp = self.hops.get(p as usize, t) as u32;
            let allowed = dp < d || (dp == d && dp <= left) || (self.deflection && dp <= left);
            if allowed {
                out(Hop {
                    // Daryin & Korzh, JSFI 2014, §3.7: minimal (high priority), sideways (medium),
                    // deflection (low).
                    detour: match dp.cmp(&d) {
                        std::cmp::Ordering::Less => 0,
                        std::cmp::Ordering::Equal => 1,
                        std::cmp::Ordering::Greater => 2,
                    },
                    nb: i as u32,
                    vc,
                    state: st,
                });
            }
        }
    }
}

/// The catalog entry of `deflection` (`catalog::ROUTINGS`).
pub const DEFLECTION: RoutingEntry = RoutingEntry {
    name: "deflection",
    params: &[
        ParamDef {
            name: "e",
            kind: ParamKind::Int,
            default: Some("2"),
            help: "extra hops allowed beyond the distance (at least 2)",
        },
        ParamDef {
            name: "vls",
            kind: ParamKind::Int,
            default: Some("8"),
            help: "virtual lanes, hopped modulo this count",
        },
    ],
    readers: BOTH,
    summary: "Deflection + E: Distance Based + E that may also step away from the destination; e >= 2 (default 2), VL hopping mod vls (default 8)",
    source: "Daryin & Korzh, JSFI 2014, §3.7",
    definition: Definition::Rule(|net, p, m| Ok(super::distance_based::deflection_from_params(net, p, m)?.into())),
};

/// The catalog entry of `distance_based` (`catalog::ROUTINGS`).
pub const DISTANCE_BASED: RoutingEntry = RoutingEntry {
    name: "distance_based",
    params: &[
        ParamDef {
            name: "e",
            kind: ParamKind::Int,
            default: Some("0"),
            help: "extra hops allowed beyond the distance",
        },
        ParamDef {
            name: "vls",
            kind: ParamKind::Int,
            default: Some("8"),
            help: "virtual lanes, hopped modulo this count",
        },
    ],
    readers: BOTH,
    summary: "Distance Based + E: adaptive, minimal or sideways hops within a budget of D + E hops (e default 0), VL hopping mod vls (default 8)",
    source: "Daryin & Korzh, JSFI 2014, §3.7",
    definition: Definition::Rule(|net, p, m| Ok(super::distance_based::from_params(net, p, m)?.into())),
};
