//! The families' design spaces (topolab_core::topology::design): enumerated candidates, twins
//! of random graphs and the smaller members that stand in for a design in simulation.

use crate::errors::to_py_err;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};
use topolab_core::topology::design::{self, Candidate, TwinOrigin, Value, Window};

fn candidate_dict<'py>(py: Python<'py>, c: &Candidate) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("family", c.family)?;
    let params = PyDict::new(py);
    for (k, v) in &c.params {
        match v {
            Value::Int(x) => params.set_item(*k, *x)?,
            Value::Dims(xs) => params.set_item(*k, PyTuple::new(py, xs)?)?,
            Value::Spec(_) => params.set_item(*k, v.to_string())?,
        }
    }
    d.set_item("params", params)?;
    d.set_item("spec", c.spec())?;
    d.set_item("routers", c.sizes.routers)?;
    d.set_item("endpoints", c.sizes.endpoints)?;
    d.set_item("radix", c.sizes.radix)?;
    d.set_item("network_radix", c.sizes.network_radix)?;
    d.set_item("concentration", c.sizes.concentration)?;
    d.set_item("balanced_concentration", c.sizes.balanced_concentration)?;
    d.set_item("load", c.sizes.load)?;
    d.set_item("radix_is_bound", c.sizes.radix_is_bound)?;
    d.set_item("source", c.source)?;
    d.set_item("tags", c.tags.clone())?;
    d.set_item("exempt", c.exempt)?;
    Ok(d)
}

fn window(radix: u32, lo: u64, hi: u64, target: u64, over: f64, under: f64) -> Window {
    Window {
        radix,
        lo,
        hi,
        target,
        oversubscription: over,
        undersubscription: under,
    }
}

/// The designs `family` declares for radix `radix`, endpoints `lo..=hi` around `target` and
/// the subscription limits, in the order of its rule.
#[pyfunction]
#[allow(clippy::too_many_arguments)]
fn design_candidates<'py>(
    py: Python<'py>,
    family: &str,
    radix: u32,
    lo: u64,
    hi: u64,
    target: u64,
    oversubscription: f64,
    undersubscription: f64,
) -> PyResult<Vec<Bound<'py, PyDict>>> {
    let w = window(radix, lo, hi, target, oversubscription, undersubscription);
    let found = py
        .allow_threads(|| design::enumerate(family, &w))
        .map_err(to_py_err)?;
    found.iter().map(|c| candidate_dict(py, c)).collect()
}

/// Twins of the random family `family` with the equipment of each (routers, degree, p, spec),
/// those within the same window as `design_candidates`.
#[pyfunction]
#[allow(clippy::too_many_arguments)]
fn design_twins<'py>(
    py: Python<'py>,
    family: &str,
    origins: Vec<TwinOrigin>,
    radix: u32,
    lo: u64,
    hi: u64,
    target: u64,
    oversubscription: f64,
    undersubscription: f64,
) -> PyResult<Vec<Bound<'py, PyDict>>> {
    let family = topolab_core::topology::find_family(family).map_err(to_py_err)?;
    let w = window(radix, lo, hi, target, oversubscription, undersubscription);
    design::twins(family.name, &origins, &w)
        .iter()
        .map(|c| candidate_dict(py, c))
        .collect()
}

/// The smaller members of `spec`'s family that may stand in for it in simulation, about
/// increasing in size (some may not build); None when the family declares no such rule.
#[pyfunction]
fn smaller_members(spec: &str) -> PyResult<Option<Vec<String>>> {
    design::smaller_members(spec).map_err(to_py_err)
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(design_candidates, m)?)?;
    m.add_function(wrap_pyfunction!(design_twins, m)?)?;
    m.add_function(wrap_pyfunction!(smaller_members, m)?)?;
    Ok(())
}
