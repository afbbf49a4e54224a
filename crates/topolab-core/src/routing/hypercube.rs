//! Adaptive turn-model routings of the hypercube (Daryin & Korzh, JSFI 2014, §3.4, after Glass & Ni
//! [10]), minimal and on one VL. A dimension is "negative" for a packet at router r when r's bit is
//! 1 and the destination's is 0 (the hop clears the bit), "positive" otherwise; dimension 1 of the
//! paper is label b0 here.
//!
//! - Negative First: any remaining negative dimension while there is one, then any remaining
//!   (positive) dimension.
//! - ABO ("all but one") Negative First: first the negative dimensions except dimension 1, then
//!   all other remaining dimensions (dimension 1 either way, the positive ones).
//! - ABO Positive Last: first the negative dimensions and dimension 1 (either way), then the
//!   remaining positive dimensions.
//!
//! Each dimension is corrected once, so a phase is a property of the remaining bits and needs
//! no state. Candidates are offered together; the simulator picks by output queue
//! (select=queue, "route adaptively").

use super::catalog::{Definition, RoutingEntry, Rule, BOTH};
use super::coords::GridCoords;
use super::rule::{Hop, HopRouting, RouteState, Select};
use crate::error::Result;
use crate::network::Network;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TurnModel {
    NegativeFirst,
    AboNegativeFirst,
    AboPositiveLast,
}

impl TurnModel {
    pub fn name(self) -> &'static str {
        match self {
            TurnModel::NegativeFirst => "hypercube_nf",
            TurnModel::AboNegativeFirst => "hypercube_abo_nf",
            TurnModel::AboPositiveLast => "hypercube_abo_pl",
        }
    }
}

#[derive(Debug, Clone)]
pub struct HypercubeTurn {
    grid: GridCoords,
    bits: Vec<u64>,
    model: TurnModel,
}

impl HypercubeTurn {
    pub fn new(net: &Network, model: TurnModel) -> Result<Self> {
        let grid = GridCoords::read(net, model.name(), "b")?;
        let nd = grid.num_dims();
        let bits = (0..net.num_routers() as u32)
            .map(|r| (0..nd).fold(0u64, |acc, i| acc | ((grid.coord(r, i) as u64) << i)))
            .collect();
        Ok(HypercubeTurn { grid, bits, model })
    }

    /// The dimensions (bit mask) the packet may take at r towards t.
    pub fn allowed(&self, r: u32, t: u32) -> u64 {
        let (a, b) = (self.bits[r as usize], self.bits[t as usize]);
        let diff = a ^ b;
        let negative = a & !b;
        let first = match self.model {
            TurnModel::NegativeFirst => negative,
            TurnModel::AboNegativeFirst => negative & !1,
            TurnModel::AboPositiveLast => negative | (diff & 1),
        };
        if first != 0 {
            first
        } else {
            diff
        }
    }
}

impl HopRouting for HypercubeTurn {
    fn name(&self) -> String {
        self.model.name().into()
    }
    fn vc_classes(&self) -> u32 {
        1
    }
    fn max_hops(&self) -> u32 {
        self.grid.num_dims() as u32
    }
    fn default_select(&self) -> Select {
        Select::Queue
    }
    fn start(&self, _s: u32, _t: u32, out: &mut Vec<(RouteState, f64)>) {
        out.push((RouteState::default(), 1.0));
    }
    fn next(&self, r: u32, t: u32, _hop: u32, st: RouteState, out: &mut dyn FnMut(Hop)) {
        let mut mask = self.allowed(r, t);
        let a = self.bits[r as usize];
        while mask != 0 {
            let i = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            out(Hop {
                detour: 0,
                nb: self.grid.neighbor(r, i, ((a >> i) & 1) as u32 ^ 1),
                vc: 0,
                state: st,
            });
        }
    }
}

/// The catalog entry of `hypercube_abo_nf` (`catalog::ROUTINGS`).
pub const HYPERCUBE_ABO_NF: RoutingEntry = RoutingEntry {
    name: "hypercube_abo_nf",
    params: &[],
    readers: BOTH,
    summary: "hypercube All-But-One Negative First: negative dimensions except dimension 1 first, then the rest, adaptively; one VL",
    source: "Daryin & Korzh, JSFI 2014, §3.4 (Glass & Ni turn model)",
    definition: Definition::Rule(|net, _, _| {
            Ok(Rule::from(super::hypercube::HypercubeTurn::new(net, super::hypercube::TurnModel::AboNegativeFirst)?))
    }),
};

/// The catalog entry of `hypercube_abo_pl` (`catalog::ROUTINGS`).
pub const HYPERCUBE_ABO_PL: RoutingEntry = RoutingEntry {
    name: "hypercube_abo_pl",
    params: &[],
    readers: BOTH,
    summary: "hypercube All-But-One Positive Last: negative dimensions and dimension 1 first, then the positive ones, adaptively; one VL",
    source: "Daryin & Korzh, JSFI 2014, §3.4 (Glass & Ni turn model)",
    definition: Definition::Rule(|net, _, _| {
            Ok(Rule::from(super::hypercube::HypercubeTurn::new(net, super::hypercube::TurnModel::AboPositiveLast)?))
    }),
};

/// The catalog entry of `hypercube_nf` (`catalog::ROUTINGS`).
pub const HYPERCUBE_NF: RoutingEntry = RoutingEntry {
    name: "hypercube_nf",
    params: &[],
    readers: BOTH,
    summary: "hypercube Negative First: negative (1 -> 0) dimensions first, then positive ones, adaptively; one VL",
    source: "Daryin & Korzh, JSFI 2014, §3.4 (Glass & Ni turn model)",
    definition: Definition::Rule(|net, _, _| {
            Ok(Rule::from(super::hypercube::HypercubeTurn::new(net, super::hypercube::TurnModel::NegativeFirst)?))
    }),
};
