//! Failure sets: apply_failures (the surviving network and what was lost) and the
//! table of failure kinds (failure_kinds).

use crate::args::{args, Arg};
use crate::convert::to_py_with_network;
use crate::network::PyNetwork;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use topolab_core::failures::{apply, FAILURE_KINDS};

/// The network that survives `failures` on `net` and what was lost (`failures::Degraded`,
/// Python's `Failures`).
#[pyfunction]
fn apply_failures<'py>(
    py: Python<'py>,
    net: &PyNetwork,
    failures: Arg<String>,
) -> PyResult<Bound<'py, PyAny>> {
    args!("apply_failures"; failures as "a failure spec such as 'links:fraction=0.05,seed=1'");
    let inner = &net.inner;
    let degraded = crate::monitor::run(py, None, |_| apply(inner, &failures))?;
    to_py_with_network(py, degraded, |d| d.network)
}

/// Every kind of failure set with its declared parameters.
#[pyfunction]
fn failure_kinds(py: Python<'_>) -> PyResult<Vec<Bound<'_, PyDict>>> {
    FAILURE_KINDS
        .iter()
        .map(|k| {
            let d = PyDict::new(py);
            d.set_item("name", k.name)?;
            d.set_item("summary", k.summary)?;
            d.set_item("params", crate::network::param_dicts(py, k.params)?)?;
            Ok(d)
        })
        .collect()
}

/// The routings computed from the surviving graph alone, which run on a degraded network.
#[pyfunction]
fn degraded_routings() -> Vec<&'static str> {
    topolab_core::routing::degraded::ON_ANY_GRAPH.to_vec()
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(apply_failures, m)?)?;
    m.add_function(wrap_pyfunction!(degraded_routings, m)?)?;
    m.add_function(wrap_pyfunction!(failure_kinds, m)?)?;
    Ok(())
}
