//! Cable lengths and the electric/optical split.
//!
//! A link between routers in cabinets a and b is one cable per unit of width, of length
//! `floor.cable_rule().length(grid, a, b)`: the intra-cabinet length when a = b, else the
//! Manhattan floor distance plus the overhead (Besta & Hoefler, SC14, §VI-B, Fujiwara et al., IPDPS
//! 2014, §III-A). Each router also has one cable per endpoint, of the floor's endpoint-cable
//! length. Cables up to the floor's `max_electric_m` are electric, longer ones optical (Besta &
//! Hoefler, SC14, §VI-B: intra-rack electric, inter-rack optical; §VI-B3c: shorter than 20 m
//! electric).
//!
//! Cable length (Fujiwara et al., IPDPS 2014, §III-A): a cable inside one cabinet is 2 m; a cable
//! between cabinets is the floor distance plus 4 m of overhead (2 m at each end). `CableRule` holds
//! those two numbers so that a cost model can use other values for the same layout.

use super::floor::Floor;
use super::placement::Placement;
use crate::floor_grid::CabinetGrid;
use crate::network::Network;

/// The link-class name under which endpoint cables are reported.
pub const ENDPOINT_CLASS: &str = "endpoint";

/// How long a cable is, given where its ends stand (Fujiwara et al., IPDPS 2014, §III-A).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CableRule {
    /// Length of any cable whose ends are in the same cabinet (Fujiwara et al., IPDPS 2014: 2 m).
    pub intra_cabinet: f64,
    /// Added to the floor distance for a cable between cabinets (Fujiwara et al., IPDPS 2014: 4 m,
    /// 2 m at each end).
    pub inter_cabinet_overhead: f64,
}

impl Default for CableRule {
    fn default() -> Self {
        CableRule {
            intra_cabinet: 2.0,
            inter_cabinet_overhead: 4.0,
        }
    }
}

impl CableRule {
    /// Length in metres of a cable between cabinets `a` and `b` of `grid`.
    pub fn length(&self, grid: &CabinetGrid, a: usize, b: usize) -> f64 {
        if a == b {
            self.intra_cabinet
        } else {
            grid.distance(a, b) + self.inter_cabinet_overhead
        }
    }
}

/// Length in metres of one cable of each link of `net` (parallel to `net.links()`).
pub fn link_lengths(net: &Network, placement: &Placement, floor: &Floor) -> Vec<f64> {
    let rule = floor.cable_rule();
    let grid = placement.grid();
    net.links()
        .iter()
        .map(|l| {
            rule.length(
                grid,
                placement.cabinet(l.src as usize),
                placement.cabinet(l.dst as usize),
            )
        })
        .collect()
}

crate::result_type! {
    /// Cables of one link class (or `endpoint`, the endpoints' cables) by medium, length and
    /// price.
    pub struct ClassCables {
        pub link_class: String,
        pub cables: u64,
        pub electric: u64,
        pub optical: u64,
        pub total_m: f64,
        pub avg_m: f64,
        pub electric_m: f64,
        pub optical_m: f64,
        /// Price of these cables under the catalog used (0 when only counting).
        pub cost: f64,
    }
}

impl ClassCables {
    pub fn new(name: &str) -> Self {
        ClassCables {
            link_class: name.to_string(),
            cables: 0,
            electric: 0,
            optical: 0,
            total_m: 0.0,
            avg_m: 0.0,
            electric_m: 0.0,
            optical_m: 0.0,
            cost: 0.0,
        }
    }

    /// Adds `count` cables of `length` metres on `medium` costing `price` each.
    pub fn add(&mut self, count: u64, length: f64, electric: bool, price: f64) {
        let metres = count as f64 * length;
        self.cables += count;
        self.total_m += metres;
        if electric {
            self.electric += count;
            self.electric_m += metres;
        } else {
            self.optical += count;
            self.optical_m += metres;
        }
        self.cost += count as f64 * price;
        self.update_avg();
    }

    fn update_avg(&mut self) {
        self.avg_m = if self.cables == 0 {
            0.0
        } else {
            self.total_m / self.cables as f64
        };
    }

    fn absorb(&mut self, other: &ClassCables) {
        self.cables += other.cables;
        self.electric += other.electric;
        self.optical += other.optical;
        self.total_m += other.total_m;
        self.electric_m += other.electric_m;
        self.optical_m += other.optical_m;
        self.cost += other.cost;
        self.update_avg();
    }
}

/// Tallies the router-to-router cables of `net` per link class, then the endpoint cables;
/// `price(electric, length)` prices one cable.
pub fn tally(
    net: &Network,
    lengths: &[f64],
    floor: &Floor,
    price: impl Fn(bool, f64) -> f64,
) -> (Vec<ClassCables>, ClassCables) {
    let mut classes: Vec<ClassCables> = net
        .link_classes()
        .iter()
        .map(|c| ClassCables::new(c))
        .collect();
    for (l, &len) in net.links().iter().zip(lengths) {
        let electric = floor.is_electric(len);
        classes[l.class as usize].add(l.width as u64, len, electric, price(electric, len));
    }
    let mut endpoints = ClassCables::new(ENDPOINT_CLASS);
    let len = floor.endpoint_cable_m;
    let electric = floor.is_electric(len);
    endpoints.add(net.num_endpoints(), len, electric, price(electric, len));
    (classes, endpoints)
}

/// The sum of several classes.
pub fn total(name: &str, classes: &[ClassCables]) -> ClassCables {
    let mut sum = ClassCables::new(name);
    for c in classes {
        sum.absorb(c);
    }
    sum
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cable_lengths_in_metres() {
        let g = CabinetGrid::new(256).unwrap();
        let rule = CableRule::default();
        let at = |r, k| g.cabinet_at(r, k).unwrap();
        assert_eq!(rule.length(&g, 7, 7), 2.0);
        // (0, 0) to (1, 1): one row (2.1 m) and one column (0.6 m) plus 4 m.
        assert!((rule.length(&g, at(0, 0), at(1, 1)) - 6.7).abs() < 1e-12);
    }
}
