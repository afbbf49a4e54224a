//! Which routings run on a degraded network (`failures::apply`): those computed from the graph
//! itself (distance tables, a BFS spanning tree, layered shortest paths) are recomputed on the
//! survivors like on any other network. The routings built from a family's structure (dimension
//! order, a Dragonfly's gateways, a fat tree's levels, GF(q) arithmetic) assume links that may
//! be gone; topolab has none of their fault-tolerant variants, so they refuse a degraded network
//! with an error naming the routings that work, instead of routing onto a dead link.

use crate::error::{Result, TopolabError};
use crate::network::Network;
use crate::spec::TopologySpec;

/// The catalog routings computed from the surviving graph alone (`ugal*` with
/// `paths=shortest`, their default).
pub const ON_ANY_GRAPH: &[&str] = &[
    "deflection",
    "dfsssp",
    "distance_based",
    "fastest",
    "min",
    "min_static",
    "ugal",
    "ugal_g",
    "ugal_l",
    "updown",
    "valiant",
];

/// Ok unless `net` is degraded and the routing `spec` (aliases resolved) is built from the
/// family's structure.
pub fn check(net: &Network, spec: &TopologySpec) -> Result<()> {
    let Some(failures) = net.failures() else {
        return Ok(());
    };
    let structured_paths = spec.family.starts_with("ugal")
        && spec
            .params
            .get("paths")
            .is_some_and(|p| p.to_string().trim().eq_ignore_ascii_case("dragonfly"));
    if ON_ANY_GRAPH.contains(&spec.family.as_str()) && !structured_paths {
        return Ok(());
    }
    Err(TopolabError::invalid(
        "routing",
        "routing",
        spec.to_string(),
        format!(
            "a routing computed from the surviving graph on this degraded network (failures '{failures}'): {} \
             (updown is deadlock-free with one VC; min and valiant with vcs=hop); '{}' follows the intact \
             network's structure and has no fault-tolerant variant here",
            ON_ANY_GRAPH.join(", "),
            spec.family
        ),
    ))
}
