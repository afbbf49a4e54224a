//! Metrics computed from a network: exact all-pairs distances by a multi-source bitset search
//! (apsp), their summary (distance), the Moore bound (moore), shortest-path diversity (paths),
//! random-failure resilience (resilience), METIS bisection (bisection), the adjacency spectrum
//! (spectral) and `analyze`, which gathers them (summary).

pub mod adjacency;
pub mod apsp;
pub mod bisection;
pub mod distance;
pub mod moore;
pub mod paths;
pub mod resilience;
pub mod spectral;
pub mod summary;

pub use bisection::{bisection, Bisection};
pub use distance::{distances, Distances};
pub use moore::{moore_bound, moore_fraction, MooreFraction};
pub use paths::{path_diversity, PathDiversity};
pub use resilience::{resilience, Resilience, ResilienceOptions, Threshold};
pub use spectral::{spectrum, Spectrum};
pub use summary::{analyze, Analysis, AnalyzeOptions, BisectionOptions};
