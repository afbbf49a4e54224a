//! The physical side of a network: where switches stand on the machine-room floor, how long
//! the cables between them are, what the network costs, how much power it draws and how long
//! its paths take. Layout-aware constructions (Skywalk, Dragonfly(z, c, d), HyperX(z, c, d))
//! place switches on the cabinet grid (`crate::floor_grid`, below both topology and physical)
//! while they build; the models below read the same grid afterwards. Floors and catalogs are data (crates/topolab-core/data/*.toml).
//!
//! ```text
//! floor + network --place--> placement --cables--> lengths --cost--> CostReport (cost, power)
//!                                                         \--latency--> LatencyReport
//! ```

pub mod cables;
pub mod catalog;
pub mod cost;
mod data;
pub mod floor;
pub mod latency;
pub mod placement;
pub mod power;

pub use cables::{link_lengths, CableRule, ClassCables};
pub use catalog::Catalog;
pub use cost::{cost, CostOptions, CostReport};
pub use floor::Floor;
pub use latency::{latency, LatencyGraph, LatencyModel, LatencyReport, Routing};
pub use placement::{
    load_placement, place, read_placement, PlaceOptions, Placement, PlacementRule,
};
pub use power::PowerModel;
