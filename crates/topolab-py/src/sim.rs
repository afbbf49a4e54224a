//! The simulator's entry points: simulate, sweep_load, run_exchange, run_workload, the parameter table and
//! BookSim2 configuration files. Arguments are converted here, the work runs in topolab-sim
//! with the GIL released (crate::monitor::run: progress to a Python callable, Ctrl-C honoured), results
//! come back as plain dicts (crate::convert) that the classes of python/topolab/_results.py read.

use crate::args::{args, Arg};
use crate::convert::to_py;
use crate::errors::{bad_argument, to_py_err, DeadlockError, SimulationError};
use crate::network::PyNetwork;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict};
use topolab_sim::traffic::{Exchange, MessageOrder, Traffic};
use topolab_sim::{BoundWorkload, Prepared, SimConfig, SimError};

/// The one mapping of simulator errors to Python exceptions.
pub fn sim_err_to_py(err: SimError) -> PyErr {
    match err {
        SimError::Core(e) => to_py_err(e),
        e @ SimError::Deadlock { .. } => DeadlockError::new_err(e.to_string()),
        e @ SimError::Conservation { .. } => SimulationError::new_err(e.to_string()),
        e @ SimError::Livelock { .. } => SimulationError::new_err(e.to_string()),
    }
}

/// Simulation parameters from Python keywords (values given as bool, int, float or str).
fn config_from(params: Option<&Bound<'_, PyDict>>, seed: Option<u64>) -> PyResult<SimConfig> {
    let mut cfg = SimConfig::default();
    if let Some(seed) = seed {
        cfg.seed = seed;
    }
    if let Some(params) = params {
        for (k, v) in params.iter() {
            let key: String = k.extract()?;
            let text = if v.is_instance_of::<PyBool>() {
                if v.extract::<bool>()? {
                    "true"
                } else {
                    "false"
                }
                .to_string()
            } else if v.is_none() {
                return Err(bad_argument(
                    "simulation",
                    &key,
                    "None",
                    "a value (leave the parameter out for its default)",
                ));
            } else {
                v.str()?.to_string()
            };
            cfg.set(&key, &text).map_err(sim_err_to_py)?;
        }
    }
    cfg.validate().map_err(sim_err_to_py)?;
    Ok(cfg)
}

/// One run measured the BookSim2 way; returns the result as a dict.
#[pyfunction]
#[pyo3(signature = (net, routing, traffic, load, seed=None, params=None, progress=None))]
#[allow(clippy::too_many_arguments)]
fn simulate<'py>(
    py: Python<'py>,
    net: &PyNetwork,
    routing: Arg<String>,
    traffic: Arg<String>,
    load: Arg<f64>,
    seed: Option<Arg<u64>>,
    params: Option<&Bound<'py, PyDict>>,
    progress: Option<PyObject>,
) -> PyResult<Bound<'py, PyAny>> {
    args!("simulate"; routing, traffic, load, seed);
    let cfg = config_from(params, seed)?;
    let result = crate::monitor::run(py, progress, |monitor| {
        Ok(topolab_sim::simulate(
            &net.inner, &routing, &traffic, load, &cfg, monitor,
        ))
    })?
    .map_err(sim_err_to_py)?;
    to_py(py, &result)
}

/// A run from an empty network cut into windows of `window` cycles, through the cables
/// `params["dynamic_failures"]` fails at `failure_cycle` (topolab_sim::failure).
#[pyfunction]
/// `cycles` None: `failure::default_timeline_cycles`.
#[pyo3(signature = (net, routing, traffic, load, window, cycles=None, seed=None, params=None, progress=None))]
#[allow(clippy::too_many_arguments)]
fn sim_timeline<'py>(
    py: Python<'py>,
    net: &PyNetwork,
    routing: Arg<String>,
    traffic: Arg<String>,
    load: Arg<f64>,
    window: Arg<u64>,
    cycles: Option<Arg<u64>>,
    seed: Option<Arg<u64>>,
    params: Option<&Bound<'py, PyDict>>,
    progress: Option<PyObject>,
) -> PyResult<Bound<'py, PyAny>> {
    use topolab_sim::failure::{check_timeline, default_timeline_cycles, run_timeline};
    args!("timeline"; routing, traffic, load, window, cycles, seed);
    let cfg = config_from(params, seed)?;
    let cycles = cycles.unwrap_or_else(|| default_timeline_cycles(&cfg));
    check_timeline(load, window, cycles).map_err(sim_err_to_py)?;
    let result = crate::monitor::run(py, progress, |monitor| {
        Ok(
            topolab_sim::Prepared::new(&net.inner, &routing, &cfg, monitor)
                .and_then(|prep| run_timeline(&prep, &traffic, load, window, cycles, monitor)),
        )
    })?
    .map_err(sim_err_to_py)?;
    to_py(py, &result)
}

/// The runs of a saturation search on one network, routing and traffic pattern, wired once;
/// with `warm_starts`, each run starts from the network the highest carried run below its load
/// left (topolab_sim::session, docs/simulator.md "Warm starts").
#[pyclass(name = "SearchSession", module = "topolab._core")]
struct PySearchSession {
    inner: topolab_sim::SearchSession,
}

#[pymethods]
impl PySearchSession {
    #[new]
    #[pyo3(signature = (net, routing, traffic, seed=None, params=None, warm_starts=Arg::default(false)))]
    fn new(
        py: Python<'_>,
        net: &PyNetwork,
        routing: Arg<String>,
        traffic: Arg<String>,
        seed: Option<Arg<u64>>,
        params: Option<&Bound<'_, PyDict>>,
        warm_starts: Arg<bool>,
    ) -> PyResult<Self> {
        args!("saturation"; routing, traffic, seed, warm_starts);
        let cfg = config_from(params, seed)?;
        let inner = crate::monitor::run(py, None, |monitor| {
            Ok(topolab_sim::SearchSession::new(
                &net.inner,
                &routing,
                &traffic,
                &cfg,
                warm_starts,
                monitor,
            ))
        })?
        .map_err(sim_err_to_py)?;
        Ok(PySearchSession { inner })
    }

    /// One run at `load`; returns the result as a dict (as `simulate`).
    #[pyo3(signature = (load, progress=None))]
    fn run<'py>(
        &mut self,
        py: Python<'py>,
        load: f64,
        progress: Option<PyObject>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let session = &mut self.inner;
        let result = crate::monitor::run(py, progress, |monitor| Ok(session.run(load, monitor)))?
            .map_err(sim_err_to_py)?;
        to_py(py, &result)
    }

    /// The load of the run whose network the next run above it starts from (None: empty).
    fn warm_load(&self) -> Option<f64> {
        self.inner.warm_load()
    }
}

/// The saturation search (topolab_sim::saturation) with `run(load)` a Python function whose
/// result has `saturated` and `accepted_throughput`; returns (saturation_load, saturated_load).
#[pyfunction]
#[pyo3(signature = (run, start, tolerance, shortfall=Arg::default(0.0)))]
fn saturation_search(
    run: &Bound<'_, PyAny>,
    start: Option<Arg<f64>>,
    tolerance: Arg<f64>,
    shortfall: Arg<f64>,
) -> PyResult<(f64, Option<f64>)> {
    use topolab_sim::saturation::{Search, Verdict};
    args!("saturation"; start, tolerance, shortfall);
    let mut search = Search::new(tolerance, shortfall).map_err(sim_err_to_py)?;
    search.run_from(start, &mut |load| {
        let r = run.call1((load,))?;
        Ok::<_, PyErr>(Verdict {
            saturated: r.getattr("saturated")?.is_truthy()?,
            accepted_throughput: r.getattr("accepted_throughput")?.extract()?,
        })
    })?;
    Ok((search.saturation_load(), search.saturated_load()))
}

/// Latency-load curve and saturation point; returns {points, saturation_load,
/// saturation_throughput}. `every_load`: run the loads above the first saturated one too.
#[pyfunction]
#[pyo3(signature = (net, routing, traffic, loads=None, load_resolution=Arg::default(0.01), every_load=Arg::default(false), seed=None, params=None, progress=None))]
#[allow(clippy::too_many_arguments)]
fn sweep_load<'py>(
    py: Python<'py>,
    net: &PyNetwork,
    routing: Arg<String>,
    traffic: Arg<String>,
    loads: Option<Arg<Vec<f64>>>,
    load_resolution: Arg<f64>,
    every_load: Arg<bool>,
    seed: Option<Arg<u64>>,
    params: Option<&Bound<'py, PyDict>>,
    progress: Option<PyObject>,
) -> PyResult<Bound<'py, PyAny>> {
    args!("sweep_load"; routing, traffic, loads, load_resolution, every_load, seed);
    let cfg = config_from(params, seed)?;
    let result = crate::monitor::run(py, progress, |monitor| {
        Ok(topolab_sim::sweep_load(
            &net.inner,
            &routing,
            &traffic,
            loads.as_deref(),
            load_resolution,
            every_load,
            &cfg,
            monitor,
        ))
    })?
    .map_err(sim_err_to_py)?;
    to_py(py, &result)
}

/// What `run_exchange` takes as its messages.
const EXCHANGE_ALLOWED: &str =
    "a list per source endpoint of (destination endpoint, packets) pairs, or an exchange spec";

/// Runs a fixed exchange to completion: an exchange spec (`spec`, docs/traffic.md "Exchanges"),
/// or messages listed per source endpoint ([(destination, packets), ...]), each whole in turn or,
/// with `interleave`, one packet of each in turn.
#[pyfunction]
#[pyo3(signature = (net, routing, per_source=None, spec=None, name=Arg::default("exchange".into()), interleave=Arg::default(false), seed=None, params=None, progress=None))]
#[allow(clippy::too_many_arguments)]
fn run_exchange<'py>(
    py: Python<'py>,
    net: &PyNetwork,
    routing: Arg<String>,
    per_source: Option<Arg<MessagesBySource>>,
    spec: Option<Arg<String>>,
    name: Arg<String>,
    interleave: Arg<bool>,
    seed: Option<Arg<u64>>,
    params: Option<&Bound<'py, PyDict>>,
    progress: Option<PyObject>,
) -> PyResult<Bound<'py, PyAny>> {
    args!("run_exchange"; routing, name, interleave, seed);
    let cfg = config_from(params, seed)?;
    let exchange = match (per_source, spec) {
        (Some(per_source), None) => {
            args!("run_exchange"; per_source as EXCHANGE_ALLOWED);
            let mut exchange = Exchange::listed(&name, per_source, net.inner.num_endpoints())
                .map_err(to_py_err)?;
            if interleave {
                exchange.order = MessageOrder::Interleaved;
            }
            exchange
        }
        (None, Some(spec)) => {
            args!("run_exchange"; spec as EXCHANGE_ALLOWED);
            Exchange::parse(&spec, &net.inner).map_err(to_py_err)?
        }
        _ => {
            return Err(bad_argument(
                "run_exchange",
                "per_source",
                "both or neither of the message lists and an exchange spec",
                EXCHANGE_ALLOWED,
            ))
        }
    };
    let result = crate::monitor::run(py, progress, |monitor| {
        Ok(Prepared::new(&net.inner, &routing, &cfg, monitor)
            .and_then(|prep| topolab_sim::run_exchange(&prep, &exchange, monitor)))
    })?
    .map_err(sim_err_to_py)?;
    to_py(py, &result)
}

/// Runs message-level workloads (`allreduce:bytes=1MiB`, ..., docs/workloads.md), one job per
/// spec placed in order on the free endpoints, until every message has arrived; with `alone`,
/// only that job runs, its ranks where the mix placed them; with `background` (a traffic
/// pattern), the endpoints no job uses send it at `background_load` flits per cycle.
#[pyfunction]
#[pyo3(signature = (net, routing, jobs, packet_bytes=Arg::default(256), alone=None, background=None, background_load=Arg::default(0.0), seed=None, params=None, progress=None))]
#[allow(clippy::too_many_arguments)]
fn run_workload<'py>(
    py: Python<'py>,
    net: &PyNetwork,
    routing: Arg<String>,
    jobs: Arg<Vec<String>>,
    packet_bytes: Arg<u64>,
    alone: Option<Arg<usize>>,
    background: Option<Arg<String>>,
    background_load: Arg<f64>,
    seed: Option<Arg<u64>>,
    params: Option<&Bound<'py, PyDict>>,
    progress: Option<PyObject>,
) -> PyResult<Bound<'py, PyAny>> {
    args!("run_workload"; routing, jobs, packet_bytes, alone, background, background_load, seed);
    topolab_sim::check_load("background_load", background_load).map_err(sim_err_to_py)?;
    let cfg = config_from(params, seed)?;
    let specs: Vec<&str> = jobs.iter().map(String::as_str).collect();
    let result = crate::monitor::run(py, progress, |monitor| {
        Ok(BoundWorkload::parse(&net.inner, &specs, packet_bytes)
            .and_then(|w| match &background {
                // the load in flits per endpoint per cycle, as for simulate; the process counts
                // packets
                Some(spec) => w.with_background(
                    Traffic::parse(spec, &net.inner)?,
                    background_load / cfg.packet_size as f64,
                ),
                None => Ok(w),
            })
            .and_then(|w| match alone {
                Some(j) => w.only(j),
                None => Ok(w),
            })
            .and_then(|w| {
                Prepared::new(&net.inner, &routing, &cfg, monitor)
                    .and_then(|prep| topolab_sim::run_workload(&prep, &w, monitor))
            }))
    })?
    .map_err(sim_err_to_py)?;
    to_py(py, &result)
}

/// The messages of the jobs `jobs` on `net`, per job: (canonical spec, operation, ranks,
/// endpoint of each rank, messages as (src rank, dst rank, bytes, delay, phase, iteration,
/// dependencies), phase names).
#[pyfunction]
fn workload_messages(net: &PyNetwork, jobs: Vec<String>) -> PyResult<Vec<WorkloadTuple>> {
    let specs: Vec<&str> = jobs.iter().map(String::as_str).collect();
    let parsed = topolab_core::workload::parse_jobs(&net.inner, &specs).map_err(to_py_err)?;
    Ok(parsed
        .into_iter()
        .map(|(w, endpoints)| workload_tuple(&w, endpoints))
        .collect())
}

/// The messages of workload `spec` over `ranks` ranks, without a network (what a trace's
/// collective expands into): as `workload_messages` gives one job, its endpoints 0 .. ranks.
#[pyfunction]
fn collective_messages(spec: &str, ranks: u32) -> PyResult<WorkloadTuple> {
    let w = topolab_core::workload::Workload::parse_for_ranks(spec, ranks).map_err(to_py_err)?;
    Ok(workload_tuple(&w, (0..w.ranks).collect()))
}

fn workload_tuple(w: &topolab_core::workload::Workload, endpoints: Vec<u32>) -> WorkloadTuple {
    let messages = w
        .messages
        .iter()
        .enumerate()
        .map(|(i, m)| {
            (
                m.src,
                m.dst,
                m.bytes,
                m.delay,
                m.phase,
                m.iteration,
                w.deps(i).to_vec(),
            )
        })
        .collect();
    (
        w.name.clone(),
        w.operation,
        w.ranks,
        endpoints,
        messages,
        w.phases.clone(),
    )
}

/// One message as `workload_messages` returns it.
type MessageTuple = (u32, u32, u64, u32, u16, u32, Vec<u32>);
type WorkloadTuple = (
    String,
    &'static str,
    u32,
    Vec<u32>,
    Vec<MessageTuple>,
    Vec<String>,
);

/// Every built-in workload: (name, aliases, declared parameters, the common ones included).
#[pyfunction]
fn workload_patterns() -> Vec<(&'static str, Vec<&'static str>, Vec<ParamTuple>)> {
    topolab_core::workload::WORKLOADS
        .iter()
        .map(|w| {
            let params: Vec<topolab_core::ParamDef> = w
                .params
                .iter()
                .chain(topolab_core::workload::COMMON)
                .copied()
                .collect();
            (w.name, w.aliases.to_vec(), param_tuples(&params))
        })
        .collect()
}

/// Per source endpoint, its messages as (destination endpoint, packets).
type MessagesBySource = Vec<Vec<(u32, u32)>>;

/// The messages of an exchange spec (`alltoall[:...]`, `nn3d[:...]`, docs/traffic.md) on `net`:
/// (canonical name with every parameter resolved, messages by source endpoint).
#[pyfunction]
fn exchange_messages(
    net: &PyNetwork,
    per_source: Arg<String>,
) -> PyResult<(String, MessagesBySource)> {
    args!("run_exchange"; per_source as EXCHANGE_ALLOWED);
    let exchange = Exchange::parse(&per_source, &net.inner).map_err(to_py_err)?;
    Ok((exchange.name, exchange.per_source))
}

/// Checks simulation parameters (BookSim2 names) and, when given, the load of a run, the seed,
/// the packet bytes of a workload and the tolerance of a saturation search, without running
/// anything: what an experiment's points are checked with before any runs.
#[pyfunction]
#[pyo3(signature = (params=None, load=None, seed=None, packet_bytes=None, tolerance=None))]
fn check_sim_params(
    params: Option<&Bound<'_, PyDict>>,
    load: Option<Arg<f64>>,
    seed: Option<Arg<u64>>,
    packet_bytes: Option<Arg<u64>>,
    tolerance: Option<Arg<f64>>,
) -> PyResult<()> {
    args!("simulation"; load, seed, packet_bytes, tolerance);
    if let Some(load) = load {
        topolab_sim::check_load("load", load).map_err(sim_err_to_py)?;
    }
    if let Some(packet_bytes) = packet_bytes {
        topolab_sim::workload::check_packet_bytes(packet_bytes).map_err(sim_err_to_py)?;
    }
    let cfg = config_from(params, seed)?;
    if let Some(tolerance) = tolerance {
        topolab_sim::saturation::Search::new(tolerance, cfg.saturation_tolerance)
            .map_err(sim_err_to_py)?;
    }
    Ok(())
}

/// The result types as `topolab_core::result_type!` declares them, each after the types its
/// fields hold (scripts/result_types.py writes python/topolab/_results.py from them).
#[pyfunction]
fn result_types(py: Python<'_>) -> PyResult<Bound<'_, PyAny>> {
    use topolab_core::{metrics, physical};
    use topolab_sim::{
        ExchangeResult, JobResult, PhaseTime, RunResult, SweepResult, WorkloadResult,
    };
    to_py(
        py,
        &[
            RunResult::RESULT_TYPE,
            SweepResult::RESULT_TYPE,
            ExchangeResult::RESULT_TYPE,
            PhaseTime::RESULT_TYPE,
            JobResult::RESULT_TYPE,
            WorkloadResult::RESULT_TYPE,
            topolab_core::routing::cdg::CdgReport::RESULT_TYPE,
            topolab_core::routing::load::ChannelLoad::RESULT_TYPE,
            metrics::Distances::RESULT_TYPE,
            metrics::PathDiversity::RESULT_TYPE,
            metrics::Threshold::RESULT_TYPE,
            metrics::Resilience::RESULT_TYPE,
            metrics::Bisection::RESULT_TYPE,
            metrics::Spectrum::RESULT_TYPE,
            metrics::Analysis::RESULT_TYPE,
            physical::Placement::RESULT_TYPE,
            physical::ClassCables::RESULT_TYPE,
            physical::CostReport::RESULT_TYPE,
            physical::LatencyReport::RESULT_TYPE,
            topolab_core::routing::infiniband::IbCheck::RESULT_TYPE,
            topolab_sim::failure::TimelineWindow::RESULT_TYPE,
            topolab_sim::failure::Timeline::RESULT_TYPE,
            topolab_core::failures::Degraded::RESULT_TYPE,
            topolab_core::topology::mapping::MappingReport::RESULT_TYPE,
            topolab_core::topology::mapping::Mapped::RESULT_TYPE,
            topolab_core::topology::Sizes::RESULT_TYPE,
            topolab_core::topology::design::Design::RESULT_TYPE,
        ],
    )
}

/// Every simulation parameter: name, kind, default and meaning.
#[pyfunction]
fn sim_params(py: Python<'_>) -> PyResult<Bound<'_, PyAny>> {
    to_py(py, &topolab_sim::PARAMS)
}

/// Reads a BookSim2 configuration: (network, routing, traffic, load, params dict).
#[pyfunction]
fn read_booksim_config<'py>(
    py: Python<'py>,
    path: Arg<std::path::PathBuf>,
) -> PyResult<(PyNetwork, String, String, f64, Bound<'py, PyAny>, String)> {
    args!("from_booksim"; path);
    let setup = py
        .allow_threads(|| topolab_sim::booksim::read_config(&path))
        .map_err(sim_err_to_py)?;
    let params = to_py(py, &setup.config)?;
    Ok((
        PyNetwork {
            inner: setup.network,
        },
        setup.routing,
        setup.traffic,
        setup.load,
        params,
        setup.network_spec,
    ))
}

/// A declared parameter as (name, kind, default, meaning).
type ParamTuple = (
    &'static str,
    &'static str,
    Option<&'static str>,
    &'static str,
);

fn param_tuples(params: &[topolab_core::ParamDef]) -> Vec<ParamTuple> {
    params
        .iter()
        .map(|p| (p.name, p.kind.name(), p.default, p.help))
        .collect()
}

/// Every traffic pattern the simulator takes: (name, aliases, declared parameters).
#[pyfunction]
fn traffic_patterns() -> Vec<(&'static str, Vec<&'static str>, Vec<ParamTuple>)> {
    topolab_core::traffic::catalog()
        .iter()
        .map(|d| (d.name, d.aliases.to_vec(), param_tuples(d.params)))
        .collect()
}

/// Every exchange: (name, aliases, declared parameters).
#[pyfunction]
fn exchange_patterns() -> Vec<(&'static str, Vec<&'static str>, Vec<ParamTuple>)> {
    topolab_core::traffic::EXCHANGES
        .iter()
        .map(|&(name, aliases, params)| (name, aliases.to_vec(), param_tuples(params)))
        .collect()
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(simulate, m)?)?;
    m.add_function(wrap_pyfunction!(sweep_load, m)?)?;
    m.add_function(wrap_pyfunction!(sim_timeline, m)?)?;
    m.add_function(wrap_pyfunction!(run_exchange, m)?)?;
    m.add_function(wrap_pyfunction!(exchange_messages, m)?)?;
    m.add_function(wrap_pyfunction!(run_workload, m)?)?;
    m.add_function(wrap_pyfunction!(workload_messages, m)?)?;
    m.add_function(wrap_pyfunction!(collective_messages, m)?)?;
    m.add_function(wrap_pyfunction!(workload_patterns, m)?)?;
    m.add_function(wrap_pyfunction!(sim_params, m)?)?;
    m.add_function(wrap_pyfunction!(result_types, m)?)?;
    m.add_function(wrap_pyfunction!(saturation_search, m)?)?;
    m.add_function(wrap_pyfunction!(traffic_patterns, m)?)?;
    m.add_function(wrap_pyfunction!(exchange_patterns, m)?)?;
    m.add_function(wrap_pyfunction!(check_sim_params, m)?)?;
    m.add_function(wrap_pyfunction!(read_booksim_config, m)?)?;
    m.add_class::<PySearchSession>()?;
    Ok(())
}
