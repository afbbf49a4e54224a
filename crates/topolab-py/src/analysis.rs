//! analyze and moore_bound: argument conversion over topolab_core::metrics.

use crate::args::{args, Arg};
use crate::errors::to_py_err;
use crate::network::PyNetwork;
use pyo3::prelude::*;
use topolab_core::metrics::moore::moore_bound_checked;
use topolab_core::metrics::{
    analyze as core_analyze, AnalyzeOptions, BisectionOptions, ResilienceOptions,
};

/// Every metric of a network as a JSON document (see topolab.analysis for its fields). Runs
/// with the GIL released; Ctrl-C interrupts; `progress(stage, done, total)` is called as the work goes on.
#[pyfunction]
#[pyo3(signature = (net, *, paths=Arg::default(false), resilience=Arg::default(false),
    bisection=Arg::default(false), bisection_runs=Arg::default(5), spectrum=Arg::default(false),
    seed=Arg::default(0), progress=None))]
#[allow(clippy::too_many_arguments)]
fn analyze(
    py: Python<'_>,
    net: &Bound<'_, PyNetwork>,
    paths: Arg<bool>,
    resilience: Arg<bool>,
    bisection: Arg<bool>,
    bisection_runs: Arg<u32>,
    spectrum: Arg<bool>,
    seed: Arg<u64>,
    progress: Option<PyObject>,
) -> PyResult<String> {
    args!("analyze"; paths, resilience, bisection, bisection_runs, spectrum, seed);
    // a bad run count is an error of the call even when no bisection is asked for
    topolab_core::metrics::bisection::check_runs(bisection_runs).map_err(to_py_err)?;
    let options = AnalyzeOptions {
        paths,
        resilience: resilience.then(|| ResilienceOptions {
            seed,
            ..ResilienceOptions::default()
        }),
        bisection: bisection.then_some(BisectionOptions {
            runs: bisection_runs,
            seed,
        }),
        spectrum,
    };
    let network = &net.get().inner;
    let analysis = crate::monitor::run(py, progress, |monitor| {
        core_analyze(network, &options, monitor)
    })?;
    Ok(analysis.to_json())
}

/// The Moore bound for a degree and diameter (undirected 1 + d·Σ_{i<D}(d−1)^i, directed
/// Σ_{i≤D} d^i), exact.
#[pyfunction]
#[pyo3(signature = (degree, diameter, directed=Arg::default(false)))]
fn moore_bound(degree: Arg<u64>, diameter: Arg<u32>, directed: Arg<bool>) -> PyResult<u128> {
    args!("moore_bound"; degree, diameter, directed);
    moore_bound_checked(degree, diameter, directed).map_err(to_py_err)
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(analyze, m)?)?;
    m.add_function(wrap_pyfunction!(moore_bound, m)?)?;
    Ok(())
}
