//! Route computation shared by analysis and simulation: all-pairs hop distances, the minimal next
//! hops they imply, and BookSim2's static shortest-path table. The routing issue extends this
//! module (VC assignment, channel-dependency checks); the simulator's routing functions read it.

pub mod catalog;
pub mod cdg;
pub mod coords;
pub mod degraded;
pub mod dfsssp;
pub mod dispatch;
pub mod distance_based;
pub mod dragonfly;
pub mod dragonfly_ugal;
pub mod dragonflyplus;
pub mod export;
pub mod fastest;
pub mod fattree;
pub mod hammingmesh;
pub mod hypercube;
pub mod hyperx;
pub mod imase;
pub mod infiniband;
pub mod load;
pub mod minimal;
pub mod path;
pub mod rule;
pub mod shortest;
pub mod slimfly_algebraic;
pub mod torus;
pub mod ugal;
pub mod ugal_candidates;
pub mod updown;
pub mod valiant;
pub mod vc_rule;

pub use catalog::Rule;
pub use rule::{Hop, HopRouting, Ports, Reading, RouteState, RuleRoute, Select, VcSplit};
pub use shortest::{HopMatrix, NextHopTable};
