//! topolab-sim: the cycle-accurate, flit-level network simulator (issue 5).
//!
//! ```no_run
//! use topolab_core::{build_str, progress::Silent};
//! use topolab_sim::{simulate, SimConfig};
//! let net = build_str("slimfly:q=5,p=4").unwrap();
//! let r = simulate(&net, "min", "uniform", 0.3, &SimConfig::default(), &Silent).unwrap();
//! println!("{} cycles, latency {:.1}", r.cycles, r.avg_latency);
//! ```
//!
//! Layout: config (parameters), topo (ports and channels), flit (flits and channel delay
//! lines), routing/ (one file per routing family), router/ (router models and endpoints),
//! allocator/ (separable round-robin allocation), injection (sources), engine (cycle loop),
//! measure (BookSim2's measurement method), sweep (latency-load curve, saturation), session
//! (a saturation search's runs, warm-started), watchdog
//! (deadlock diagnosis, conservation checks), workload (message-level workloads), booksim (BookSim2 configuration files). The traffic
//! patterns and exchanges are the core's (`topolab_core::traffic`, re-exported as `traffic`).

// A router's state is a few dozen small vectors. mimalloc keeps allocations of one size class
// together on their own pages where glibc's malloc interleaves them with everything else, so
// that a network whose state outgrows the caches touches fewer lines and pages per router:
// 8-15% less CPU on compare's full-size designs, nothing where the state fits in the caches;
// memory -12% to +23% (benches/results/simulator-speed.csv). Every binary linking the
// simulator, the Python extension included, uses it; the fuzz targets opt out
// (default-features = false).
#[cfg(feature = "mimalloc")]
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

pub mod allocator;
pub mod booksim;
pub mod config;
mod delivery;
pub mod engine;
pub mod error;
pub mod failure;
pub mod flit;
#[doc(hidden)]
pub mod fuzz_entry;
pub mod injection;
pub mod measure;
pub mod memory;
mod read_ahead;
pub mod router;
pub mod routing;
pub mod saturation;
pub mod session;
pub mod stats;
pub mod sweep;
pub mod topo;
mod unchecked;
/// The traffic patterns and exchanges live in the core (static analysis reads them too).
pub use topolab_core::traffic;
pub mod watchdog;
pub mod workload;

pub use config::{FlowControl, ParamDoc, RouterModel, SimConfig, PARAMS};
pub use engine::Prepared;
pub use error::{Result, SimError};
pub use measure::{check_load, run, run_exchange, run_from, ExchangeResult, RunResult};
pub use routing::simulator_routings;
pub use session::SearchSession;
pub use sweep::{sweep, SweepResult};
pub use workload::{run_workload, BoundWorkload, Job, JobResult, PhaseTime, WorkloadResult};

use topolab_core::progress::Monitor;
use topolab_core::Network;

/// One run of `traffic` at `load` flits per endpoint per cycle, measured the BookSim2 way.
pub fn simulate(
    net: &Network,
    routing: &str,
    traffic: &str,
    load: f64,
    cfg: &SimConfig,
    monitor: &dyn Monitor,
) -> Result<RunResult> {
    check_load("load", load)?;
    let prep = Prepared::new(net, routing, cfg, monitor)?;
    run(&prep, traffic, load, monitor)
}

/// The latency-load curve and the saturation point (see `sweep`).
#[allow(clippy::too_many_arguments)]
pub fn sweep_load(
    net: &Network,
    routing: &str,
    traffic: &str,
    loads: Option<&[f64]>,
    load_resolution: f64,
    every_load: bool,
    cfg: &SimConfig,
    monitor: &dyn Monitor,
) -> Result<SweepResult> {
    sweep::check_arguments(loads, load_resolution)?;
    let prep = Prepared::new(net, routing, cfg, monitor)?;
    sweep(&prep, traffic, loads, load_resolution, every_load, monitor)
}
