//! Results to Python objects: the one conversion every binding that returns a result uses.

use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyList};
use serde::Serialize;

/// A Python value from anything serde serialises (dicts, lists, numbers, strings, None; NaN
/// results, such as the latency of a run that measured no packet, become None).
pub fn to_py<'py>(py: Python<'py>, value: &impl Serialize) -> PyResult<Bound<'py, PyAny>> {
    let v = serde_json::to_value(value)
        .map_err(|e| PyRuntimeError::new_err(format!("result conversion: {e}")))?;
    json_to_py(py, &v)
}

/// A result that holds a network (`failures::Degraded`, `mapping::Mapped`): its JSON fields
/// and, under `network` (the field serde skips), the network `into_network` moves out of it
/// as a Python object.
pub fn to_py_with_network<'py, T: Serialize>(
    py: Python<'py>,
    value: T,
    into_network: fn(T) -> topolab_core::Network,
) -> PyResult<Bound<'py, PyAny>> {
    let d = to_py(py, &value)?;
    let inner = into_network(value);
    d.set_item("network", crate::network::PyNetwork { inner })?;
    Ok(d)
}

fn json_to_py<'py>(py: Python<'py>, v: &serde_json::Value) -> PyResult<Bound<'py, PyAny>> {
    use serde_json::Value;
    Ok(match v {
        Value::Null => py.None().into_bound(py),
        Value::Bool(b) => PyBool::new(py, *b).to_owned().into_any(),
        Value::Number(n) => {
            if let Some(i) = n.as_i64() {
                i.into_pyobject(py)?.into_any()
            } else if let Some(u) = n.as_u64() {
                u.into_pyobject(py)?.into_any()
            } else {
                n.as_f64().unwrap_or(f64::NAN).into_pyobject(py)?.into_any()
            }
        }
        Value::String(s) => s.into_pyobject(py)?.into_any(),
        Value::Array(a) => {
            let items = a
                .iter()
                .map(|x| json_to_py(py, x))
                .collect::<PyResult<Vec<_>>>()?;
            PyList::new(py, items)?.into_any()
        }
        Value::Object(o) => {
            let d = PyDict::new(py);
            for (k, x) in o {
                d.set_item(k, json_to_py(py, x)?)?;
            }
            d.into_any()
        }
    })
}
