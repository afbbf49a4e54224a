//! The simulator: the engine against closed forms and BookSim2's numbers, routings, traffic,
//! workloads, failures, sweeps, confidence intervals and the golden results. `common` has the
//! helpers they share (the BookSim2 reference data, short configurations). One test binary for
//! all of them, so the simulator, the core and METIS are linked once. fuzz_corpus.rs stays a
//! binary of its own: the fuzz entry points set TOPOLAB_MEMORY_LIMIT for their process.

mod common;

mod sim_batch;
mod sim_booksim_agreement;
mod sim_confidence;
mod sim_deflect;
mod sim_dynamic_failure;
mod sim_early_verdict;
mod sim_engine;
mod sim_exchange_order;
mod sim_failure_conservation;
mod sim_floor_latency;
mod sim_generic_routing;
mod sim_golden;
mod sim_hotpotato;
mod sim_hotpotato_policies;
mod sim_injection_on_off;
mod sim_measurement_edges;
mod sim_precision;
mod sim_request_reply;
mod sim_routing_catalog;
mod sim_rule_routing;
mod sim_rule_routing_agnostic;
mod sim_rule_routing_structured;
mod sim_speedup_params;
mod sim_static_bound;
mod sim_sweep;
mod sim_traffic_load;
mod sim_warm_start;
mod sim_workload;
