//! The topology families: each family's construction against its paper (sizes, degrees, diameter,
//! distances, symmetry), one file per family; `topo_sizes` holds a sample spec of every family.
//! One test binary for all of them, so the core and METIS are linked once (a file per module).
//! proptest_families.rs stays a binary of its own: it sets TOPOLAB_MEMORY_LIMIT for its process.

// topo_dragonflyplus checks its distances with the routing tests' BFS.
#[path = "../routing/routing_support/mod.rs"]
mod routing_support;

mod topo_bdf;
mod topo_bundlefly;
mod topo_delorme;
mod topo_design;
mod topo_dln;
mod topo_dragonfly;
mod topo_dragonflyplus;
mod topo_fattree;
mod topo_hammingmesh;
mod topo_hypercube;
mod topo_hyperx;
mod topo_imase;
mod topo_jellyfish;
mod topo_kautz;
mod topo_longhop;
mod topo_mapping;
mod topo_mddp;
mod topo_mlfm;
mod topo_oft;
mod topo_polarfly;
mod topo_polarstar;
mod topo_product;
mod topo_random_directed;
mod topo_sizes;
mod topo_skywalk;
mod topo_slimfly;
mod topo_spectralfly;
mod topo_sspt;
mod topo_torus;
mod topo_xpander;
