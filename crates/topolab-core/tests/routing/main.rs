//! The routings: tables, rules and their deadlock freedom (channel dependency graphs), path sets
//! and load, one file per routing or family; `routing_support` has the shared BFS and CDG helpers.
//! One test binary for all of them, so the core and METIS are linked once (a file per module).

mod routing_support;

mod routing_catalog;
mod routing_cdg;
mod routing_cdg_catalog;
mod routing_distance_based;
mod routing_dragonfly;
mod routing_dragonflyplus;
mod routing_export;
mod routing_fastest;
mod routing_fattree;
mod routing_generic;
mod routing_hammingmesh;
mod routing_hypercube;
mod routing_hyperx;
mod routing_imase;
mod routing_infiniband;
mod routing_load;
mod routing_polarfly;
mod routing_shortest;
mod routing_slimfly_algebraic;
mod routing_torus;
