//! topolab-core: the network model and everything computed from it. Pure Rust, no Python.

pub mod error;
pub mod failures;
pub mod field;
pub mod floor_grid;
pub mod io;
pub mod metrics;
pub mod network;
pub mod physical;
pub mod progress;
pub mod resources;
pub mod result_type;
pub mod rng;
pub mod routing;
pub mod spec;
pub mod topology;
pub mod traffic;
pub mod union_find;
pub mod workload;

pub use error::{Result, TopolabError};
pub use network::{Capability, Link, Network, NetworkBuilder};
pub use spec::{ParamValue, Params, TopologySpec};
pub use topology::{
    build, build_str, families, find_family, sizes, sizes_str, Family, ParamDef, ParamKind, Sizes,
};
