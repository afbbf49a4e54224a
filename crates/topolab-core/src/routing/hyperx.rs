//! Dimension-order routings of HyperX / FlatFly (Daryin & Korzh, JSFI 2014, §3.3), also for
//! hypercubes (§3.4: "as hypercube is a particular case of a FlatFly, we can apply the latter's DOR
//! and Mixed DOR"): one rule with three switches.
//!
//! - DOR: correct the dimensions in a fixed order, one hop each (a dimension is a complete
//!   graph). One VL: the channel dependencies follow the dimension order.
//! - ADOR (`adaptive`): on entering a dimension the packet may go to ANY switch of that
//!   dimension (the direct one is the minimal hop), then must take the direct hop; the first
//!   hop in a dimension uses VL 0, the second VL 1 (Daryin & Korzh, JSFI 2014, §3.3 rules 1-4). The
//!   simulator picks among the candidates by output queue (select=queue).
//! - Mixed (`mixed`): SL = d mod 4, d the destination host's index within its switch, selects
//!   one of the dimension orders (1,2,3,4), (2,4,1,3), (3,1,4,2), (4,3,2,1); each SL has its own
//!   VLs (VL = SL, or 2SL / 2SL + 1 with ADOR or Twisted).
//! - Twisted (`twisted`): at the source switch a first, obligatory hop in the last dimension
//!   to coordinate d mod K_last (none when the switch already has it), on VL 1, then (A)DOR on
//!   VL 0; Twisted ADOR allows no extra hop in the last dimension.
//!
//! Choices where Daryin & Korzh (JSFI 2014) are silent or unsafe (docs/routing.md, "HyperX /
//! FlatFly"):
//! - d is not known to a switch-level rule, so the source draws it uniformly among the
//!   destination switch's hosts (the start state); the path distribution is that of uniform
//!   traffic over the hosts.
//! - With N != 4 dimensions the orders are the paper's restricted to the dimensions that exist,
//!   dimensions beyond the fourth appended in increasing order.
//! - With Mixed, "the last dimension" of Twisted is the last one of the SL's order.
//! - Twisted ADOR: the hop that corrects the last dimension after the twist uses VL 0 (an
//!   input-VL rule, Daryin & Korzh, JSFI 2014, §3.1 modification 1). Taking VL 1 there, as the port
//!   rule "same dimension -> VL 1" of ADOR would, lets twist and correction hops of one dimension
//!   form a cycle on VL 1 (the tests show it with the CDG checker).

use super::catalog::{Definition, RoutingEntry, Rule, BOTH};
use super::coords::{GridCoords, NONE};
use super::rule::{Hop, HopRouting, RouteState, Select};
use crate::error::Result;
use crate::network::Network;
use crate::topology::{ParamDef, ParamKind};

/// Daryin & Korzh, JSFI 2014, §3.3 Mixed DOR orders (0-based): (1,2,3,4), (2,4,1,3), (3,1,4,2),
/// (4,3,2,1).
const MIXED_ORDERS: [[usize; 4]; 4] = [[0, 1, 2, 3], [1, 3, 0, 2], [2, 0, 3, 1], [3, 2, 1, 0]];

/// Phase bit: the packet made its extra (non-minimal) hop in the current dimension.
const EXTRA: u8 = 1;
/// Phase bit: the previous hop was the twist.
const TWISTED: u8 = 2;

#[derive(Debug, Clone)]
pub struct FlatFlyDor {
    grid: GridCoords,
    endpoints: Vec<u32>,
    adaptive: bool,
    mixed: bool,
    twisted: bool,
    /// Dimension orders, one per SL (one when not mixed).
    orders: Vec<Vec<usize>>,
    /// Wiring of the VLs under the paper's literal port rule (for the tests' unsafe variant).
    port_rule_vl: bool,
}

/// The Daryin & Korzh, JSFI 2014, §3.3 Mixed orders for `nd` dimensions (see the module comment for
/// nd != 4).
pub fn mixed_orders(nd: usize) -> Vec<Vec<usize>> {
    MIXED_ORDERS
        .iter()
        .map(|o| {
            let mut v: Vec<usize> = o.iter().copied().filter(|&d| d < nd).collect();
            v.extend(4..nd);
            v
        })
        .collect()
}

impl FlatFlyDor {
    pub fn new(net: &Network, adaptive: bool, mixed: bool, twisted: bool) -> Result<Self> {
        let name = if adaptive {
            "hyperx_ador"
        } else {
            "hyperx_dor"
        };
        // Hypercube coordinates are bits b0.. (a HyperX of 2s), the others d0..
        let bits = net.label_fields().first().is_some_and(|f| f == "b0");
        let grid = GridCoords::read(net, name, if bits { "b" } else { "d" })?;
        grid.require_complete(name)?;
        let nd = grid.num_dims();
        let orders = if mixed {
            mixed_orders(nd)
        } else {
            vec![(0..nd).collect()]
        };
        Ok(FlatFlyDor {
            grid,
            endpoints: net.endpoints().to_vec(),
            adaptive,
            mixed,
            twisted,
            orders,
            port_rule_vl: false,
        })
    }

    /// The paper's port rule read literally for Twisted ADOR: the last-dimension hop after the
    /// twist takes VL 1 (input and output port in the same dimension). Not deadlock-free;
    /// exists so that the tests can show why the default differs.
    pub fn with_port_rule_vl(mut self) -> Self {
        self.port_rule_vl = true;
        self
    }

    /// VLs per SL: 2 when hops of one dimension can follow each other (ADOR, Twisted).
    fn per_sl(&self) -> u32 {
        if self.adaptive || self.twisted {
            2
        } else {
            1
        }
    }

    fn last_dim(&self, sl: usize) -> usize {
        *self.orders[sl].last().expect("at least one dimension")
    }
}

fn pack(sl: usize, twist: u32) -> u32 {
    ((sl as u32) << 24) | twist
}

fn unpack(aux: u32) -> (usize, u32) {
    ((aux >> 24) as usize, aux & 0xff_ffff)
}

impl HopRouting for FlatFlyDor {
    fn name(&self) -> String {
        let base = if self.adaptive {
            "hyperx_ador"
        } else {
            "hyperx_dor"
        };
        let mut opts = Vec::new();
        if self.mixed {
            opts.push("mixed=true");
        }
        if self.twisted {
            opts.push("twisted=true");
        }
        if opts.is_empty() {
            base.into()
        } else {
            format!("{base}:{}", opts.join(","))
        }
    }
    fn vc_classes(&self) -> u32 {
        self.orders.len() as u32 * self.per_sl()
    }
    fn max_hops(&self) -> u32 {
        let nd = self.grid.num_dims() as u32;
        nd * if self.adaptive { 2 } else { 1 } + self.twisted as u32
    }
    fn default_select(&self) -> Select {
        if self.adaptive {
            Select::Queue
        } else {
            Select::Random
        }
    }
    fn start(&self, s: u32, t: u32, out: &mut Vec<(RouteState, f64)>) {
        // d: the destination host's index within its switch, uniform over the hosts.
        let hosts = self.endpoints[t as usize].max(1);
        let first = out.len();
        for d in 0..hosts {
            let st = self.host_start(s, t, d).expect("every host has a start");
            let w = 1.0 / hosts as f64;
            match out[first..].iter_mut().find(|(s, _)| *s == st) {
                Some(e) => e.1 += w,
                None => out.push((st, w)),
            }
        }
    }
    fn host_start(&self, _s: u32, _t: u32, d: u32) -> Option<RouteState> {
        let sl = if self.mixed {
            d as usize % self.orders.len()
        } else {
            0
        };
        let twist = if self.twisted {
            d % self.grid.dims[self.last_dim(sl)]
        } else {
            0
        };
        Some(RouteState::new(0, pack(sl, twist)))
    }
    fn next(&self, r: u32, t: u32, hop: u32, st: RouteState, out: &mut dyn FnMut(Hop)) {
        if r == t {
            return;
        }
        let (sl, twist) = unpack(st.aux);
        let base = sl as u32 * self.per_sl();
        let g = &self.grid;
        let last = self.last_dim(sl);
        if self.twisted && hop == 0 && g.coord(r, last) != twist {
            // Daryin & Korzh, JSFI 2014, §3.3 Twisted step 1, on VL 1 of the SL.
            out(Hop {
                detour: 0,
                nb: g.neighbor(r, last, twist),
                vc: (base + 1) as u8,
                state: RouteState::new(TWISTED, st.aux),
            });
            return;
        }
        let Some(&k) = self.orders[sl]
            .iter()
            .find(|&&k| g.coord(r, k) != g.coord(t, k))
        else {
            return;
        };
        let (cur, dst) = (g.coord(r, k), g.coord(t, k));
        let direct = g.neighbor(r, k, dst);
        debug_assert!(direct != NONE);
        let done = RouteState::new(0, st.aux);
        if st.phase & EXTRA != 0 {
            // Daryin & Korzh, JSFI 2014, §3.3 rule 4: after the extra hop, the direct one on VL 1.
            out(Hop {
                detour: 0,
                nb: direct,
                vc: (base + 1) as u8,
                state: done,
            });
            return;
        }
        let twisted_last = self.twisted && k == last;
        // After the twist the last dimension is corrected on VL 0 (see the module comment);
        // the literal port rule would use VL 1 when the twist was the previous hop.
        let after_twist = twisted_last && st.phase & TWISTED != 0;
        let vc = if self.port_rule_vl && after_twist && self.adaptive {
            base + 1
        } else {
            base
        };
        out(Hop {
            detour: 0,
            nb: direct,
            vc: vc as u8,
            state: done,
        });
        if self.adaptive && !twisted_last {
            for c in 0..g.dims[k] {
                if c != cur && c != dst {
                    out(Hop {
                        // Daryin & Korzh, JSFI 2014, §3.3: the direct hop is preferred; another
                        // switch of the dimension is the adaptive detour.
                        detour: 1,
                        nb: g.neighbor(r, k, c),
                        vc: base as u8,
                        state: RouteState::new(EXTRA, st.aux),
                    });
                }
            }
        }
    }
}

/// The catalog entry of `hyperx_ador` (`catalog::ROUTINGS`).
pub const HYPERX_ADOR: RoutingEntry = RoutingEntry {
    name: "hyperx_ador",
    params: &[
        ParamDef {
            name: "mixed",
            kind: ParamKind::Bool,
            default: Some("false"),
            help: "four dimension orders, chosen by SL = d mod 4",
        },
        ParamDef {
            name: "twisted",
            kind: ParamKind::Bool,
            default: Some("false"),
            help: "first hop to d mod K_last",
        },
    ],
    readers: BOTH,
    summary: "HyperX/FlatFly adaptive DOR: any switch of the current dimension, then the direct hop; VLs 0/1 (x4 SLs when mixed); select=queue",
    source: "Daryin & Korzh, JSFI 2014, §3.3",
    definition: Definition::Rule(|net, params, _| {
            let mixed = params.opt_bool("mixed")?.unwrap_or(false);
            let twisted = params.opt_bool("twisted")?.unwrap_or(false);
            Ok(Rule::from(super::hyperx::FlatFlyDor::new(net, true, mixed, twisted)?))
    }),
};

/// The catalog entry of `hyperx_dor` (`catalog::ROUTINGS`).
pub const HYPERX_DOR: RoutingEntry = RoutingEntry {
    name: "hyperx_dor",
    params: &[
        ParamDef {
            name: "mixed",
            kind: ParamKind::Bool,
            default: Some("false"),
            help: "four dimension orders, chosen by SL = d mod 4",
        },
        ParamDef {
            name: "twisted",
            kind: ParamKind::Bool,
            default: Some("false"),
            help: "first hop to d mod K_last",
        },
    ],
    readers: BOTH,
    summary: "HyperX/FlatFly (and hypercube) dimension-order routing; mixed=true: 4 orders by SL = d mod 4; twisted=true: first hop to d mod K_last",
    source: "Daryin & Korzh, JSFI 2014, §3.3, §3.4",
    definition: Definition::Rule(|net, params, _| {
            let mixed = params.opt_bool("mixed")?.unwrap_or(false);
            let twisted = params.opt_bool("twisted")?.unwrap_or(false);
            Ok(Rule::from(super::hyperx::FlatFlyDor::new(net, false, mixed, twisted)?))
    }),
};
