//! Power model of Besta & Hoefler, SC14, §VI-C (after [2]): every router port has `lanes_per_port`
//! lanes with one SerDes each, consuming `watts_per_lane` (4 lanes × ≈ 0.7 W). Power is counted
//! over all ports of every router, used or not: a radix-k router draws k ports' worth whatever its
//! neighbours, which is how Besta & Hoefler's (SC14) Table IV figures come out (e.g. T3D: 7 ports ×
//! 2.8 W = 19.6 W per node).

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct PowerModel {
    pub lanes_per_port: u32,
    pub watts_per_lane: f64,
}

impl PowerModel {
    /// Watts drawn by one port.
    pub fn port_w(&self) -> f64 {
        self.lanes_per_port as f64 * self.watts_per_lane
    }

    /// Watts drawn by `routers` routers of radix `k`.
    pub fn routers_w(&self, routers: usize, k: u32) -> f64 {
        routers as f64 * k as f64 * self.port_w()
    }
}
