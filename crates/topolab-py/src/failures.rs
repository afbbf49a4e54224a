//! Failure sets: apply_failures (the surviving network and the JSON of what was lost) and the
//! table of failure kinds (failure_kinds).

use crate::args::{args, Arg};
use crate::network::PyNetwork;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use topolab_core::failures::{apply, FAILURE_KINDS};

/// The network that survives `failures` on `net` and the JSON of `failures::Degraded`.
#[pyfunction]
fn apply_failures(
    py: Python<'_>,
    net: &PyNetwork,
    failures: Arg<String>,
) -> PyResult<(PyNetwork, String)> {
    args!("apply_failures"; failures as "a failure spec such as 'links:fraction=0.05,seed=1'");
    let inner = &net.inner;
    let degraded = crate::monitor::run(py, None, |_| apply(inner, &failures))?;
    let report = serde_json::to_string(&degraded).map_err(|e| {
        pyo3::exceptions::PyRuntimeError::new_err(format!("cannot convert result: {e}"))
    })?;
    Ok((
        PyNetwork {
            inner: degraded.network,
        },
        report,
    ))
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
