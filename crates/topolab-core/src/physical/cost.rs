//! The cost and power of a placed network (Besta & Hoefler, SC14, §VI-B, §VI-C):
//!
//! - cables: one per unit of link width plus one per endpoint, each priced by the catalog as
//!   `bandwidth × (a·length + b)` with (a, b) of its medium (electric up to the floor's
//!   threshold, optical beyond);
//! - routers: every router is a radix-k router priced `per_port·k + fixed` (Besta & Hoefler, SC14:
//!   350.4k − 892.3), k the network's radix (the busiest router's ports, links and endpoints)
//!   unless a larger router is asked for;
//! - power: all k ports of every router, `lanes_per_port × watts_per_lane` each (Besta & Hoefler,
//!   SC14: 4 × 0.7 W).
//!
//! Cable counts and lengths in the report are router-to-router cables (what Fujiwara et al., IPDPS
//! 2014, §III-B's totals and most of Besta & Hoefler, SC14, Table IV count); endpoint cables are
//! reported beside them and are included in the cost.

use super::cables::{link_lengths, tally, total, ClassCables};
use super::catalog::Catalog;
use super::floor::Floor;
use super::placement::Placement;
use crate::error::{Result, TopolabError};
use crate::network::Network;

#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct CostOptions {
    /// Radix of the routers bought; at least the network's radix (the default).
    pub router_radix: Option<u32>,
}

crate::result_type! {
    /// Cables, cost and power of a placed network (Besta & Hoefler, SC14, §VI-B, §VI-C).
    ///
    /// `electric_cables`, `optical_cables`, `total_cable_m` count router-to-router cables;
    /// endpoint cables are in `endpoint_cables` and in `by_class` (class `endpoint`), and in the
    /// cost. `cost_per_endpoint` and `power_per_endpoint_w` are None only for a network without
    /// endpoints; `max_electric_m` is None when every cable may be electric.
    pub struct CostReport {
        pub floor: String,
        pub catalog: String,
        pub placement: String,
        pub cabinets: usize,
        pub grid_rows: usize,
        pub grid_cols: usize,
        pub routers: usize,
        pub endpoints: u64,
        pub router_radix: u32,
        /// Longest electric cable allowed (m); None: every cable electric.
        #[unit = "m"]
        pub max_electric_m: Option<f64>,
        /// Router-to-router cables by medium, and their lengths.
        pub electric_cables: u64,
        pub optical_cables: u64,
        #[unit = "m"]
        pub total_cable_m: f64,
        #[unit = "m"]
        pub avg_cable_m: f64,
        /// Router-to-endpoint cables (one per endpoint) and their total length.
        pub endpoint_cables: u64,
        #[unit = "m"]
        pub endpoint_cable_m: f64,
        /// One entry per link class of the network, then one for the endpoint cables.
        pub by_class: Vec<ClassCables>,
        /// All cables, endpoint cables included.
        #[unit = "USD"]
        pub cable_cost: f64,
        #[unit = "USD"]
        pub router_cost: f64,
        #[unit = "USD"]
        pub total_cost: f64,
        /// None for a network without endpoints.
        #[unit = "USD/endpoint"]
        pub cost_per_endpoint: Option<f64>,
        #[unit = "W"]
        pub power_w: f64,
        #[unit = "W/endpoint"]
        pub power_per_endpoint_w: Option<f64>,
    }
}

/// Rejects a radix below the range of the catalog's router price regression: a line fitted to
/// real routers (Besta & Hoefler, SC14, §VI-B2: 350.4k − 892.3) is negative for radices no router
/// has, and a negative price would silently lower the total.
fn check_router_price(catalog: &Catalog, k: u32, given: bool) -> Result<()> {
    let price = catalog.router_price(k);
    if price > 0.0 {
        return Ok(());
    }
    let r = catalog.router;
    let valid_from = if r.per_port > 0.0 {
        format!(
            "a radix of at least {} (where the price is positive)",
            (-r.fixed / r.per_port).floor() as i64 + 1
        )
    } else {
        "a catalog whose router price is positive".to_string()
    };
    let source = if given {
        String::new()
    } else {
        " (the network's radix; pass a router radix to price larger routers)".to_string()
    };
    Err(TopolabError::invalid(
        "cost",
        "router_radix",
        format!("{k}{source}"),
        format!(
            "{valid_from}: catalog '{}' prices a router at {} × k {} {} = ${price:.1} for k = {k}",
            catalog.name,
            r.per_port,
            if r.fixed < 0.0 { '−' } else { '+' },
            r.fixed.abs()
        ),
    ))
}

/// Prices `net` placed by `placement` on `floor` with `catalog`.
pub fn cost(
    net: &Network,
    placement: &Placement,
    floor: &Floor,
    catalog: &Catalog,
    options: &CostOptions,
) -> Result<CostReport> {
    if placement.cabinet_of.len() != net.num_routers() {
        return Err(TopolabError::InvalidNetwork(format!(
            "placement has {} routers, the network {}",
            placement.cabinet_of.len(),
            net.num_routers()
        )));
    }
    let k = match options.router_radix {
        None => net.radix(),
        Some(k) if k >= net.radix() => k,
        Some(k) => {
            return Err(TopolabError::invalid(
                "cost",
                "router_radix",
                k,
                format!(
                    "at least the network's radix {} (links and endpoints of the busiest router)",
                    net.radix()
                ),
            ))
        }
    };
    check_router_price(catalog, k, options.router_radix.is_some())?;
    let lengths = link_lengths(net, placement, floor);
    let (classes, endpoints) = tally(net, &lengths, floor, |e, len| catalog.cable_price(e, len));
    let links = total("links", &classes);
    let routers = net.num_routers();
    let router_cost = routers as f64 * catalog.router_price(k);
    let cable_cost = links.cost + endpoints.cost;
    let total_cost = cable_cost + router_cost;
    let power_w = catalog.power().routers_w(routers, k);
    let n = net.num_endpoints();
    let per_endpoint = |x: f64| (n > 0).then(|| x / n as f64);
    let mut by_class = classes;
    let (endpoint_cables, endpoint_cable_m) = (endpoints.cables, endpoints.total_m);
    by_class.push(endpoints);
    Ok(CostReport {
        floor: floor.name.clone(),
        catalog: catalog.name.clone(),
        placement: placement.method.clone(),
        cabinets: placement.cabinets,
        grid_rows: placement.rows,
        grid_cols: placement.cols,
        routers,
        endpoints: n,
        router_radix: k,
        max_electric_m: floor
            .max_electric_m
            .is_finite()
            .then_some(floor.max_electric_m),
        electric_cables: links.electric,
        optical_cables: links.optical,
        total_cable_m: links.total_m,
        avg_cable_m: links.avg_m,
        endpoint_cables,
        endpoint_cable_m,
        by_class,
        cable_cost,
        router_cost,
        total_cost,
        cost_per_endpoint: per_endpoint(total_cost),
        power_w,
        power_per_endpoint_w: per_endpoint(power_w),
    })
}
