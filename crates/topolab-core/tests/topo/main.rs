//! The topology families through the public API, all of them at once: every family's sample specs
//! (`Family::samples`) built against its closed-form sizes, and the mapping of imported networks
//! back to their families, and compare's design enumeration (`topo_design`). Each family's construction against its paper (sizes, degrees,
//! diameter, distances, symmetry) is a unit test in the family's own file
//! (`src/topology/<family>.rs`, `mod construction`: `cargo test -p topolab-core --lib topology::`).
//! proptest_families.rs stays a binary of its own: it sets TOPOLAB_MEMORY_LIMIT for its process.

mod topo_design;
mod topo_mapping;
mod topo_sizes;
