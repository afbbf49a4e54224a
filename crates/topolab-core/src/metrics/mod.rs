//! Metrics computed from a network. This first version holds plain single-source BFS, enough to
//! validate constructions; the fast multi-source bitset kernels come with the analysis work.

pub mod bisection;
pub mod distance;
pub mod spectral;
