//! What is computed from a network: metrics (distances, bisection, spectra, paths, resilience,
//! Moore bounds), the physical layout, cost and latency, file formats (read, write, round trips),
//! traffic patterns and failure sets. `metrics_support` has the metrics tests' shared helpers.
//! One test binary for all of them, so the core and METIS are linked once (a file per module).

mod metrics_support;

mod failures;
mod io_anynet_reference;
mod io_ibnet;
mod io_interop;
mod io_malformed;
mod io_roundtrip;
mod metrics_bisection;
mod metrics_distance;
mod metrics_moore;
mod metrics_paths;
mod metrics_resilience;
mod metrics_spectral;
mod physical_cost;
mod physical_latency;
mod physical_layout;
mod traffic_adversarial;
mod traffic_exchange;
mod traffic_permutations;
mod traffic_specs;
