//! The families' design spaces (topolab_core::topology::design): the designs that answer the
//! comparison's question, twins of random graphs included, and the smaller members that stand
//! in for a design in simulation.

use crate::errors::{bad_argument, to_py_err};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyString};
use topolab_core::topology::design::{self, Window};

/// A numeric argument as `T` (an integer for i64, a real number for f64; a bool is neither);
/// an error quoting its repr otherwise.
fn numeric<'py, T: FromPyObject<'py>>(
    context: &str,
    name: &str,
    value: &Bound<'py, PyAny>,
    allowed: &str,
) -> PyResult<T> {
    let extracted = if value.is_instance_of::<PyBool>() {
        None
    } else {
        value.extract::<T>().ok()
    };
    extracted.ok_or_else(|| bad_argument(context, name, repr(value), allowed))
}

fn repr(value: &Bound<'_, PyAny>) -> String {
    value
        .repr()
        .map(|r| r.to_string())
        .unwrap_or_else(|_| format!("<{}>", value.get_type()))
}

/// Family names from a comma-separated string or an iterable of names (None: every family).
fn family_names(context: &str, value: Option<&Bound<'_, PyAny>>) -> PyResult<Option<Vec<String>>> {
    let Some(value) = value else {
        return Ok(None);
    };
    if let Ok(text) = value.downcast::<PyString>() {
        return Ok(Some(
            text.to_cow()?.split(',').map(str::to_string).collect(),
        ));
    }
    let not_names = || {
        bad_argument(
            context,
            "families",
            repr(value),
            "family names: a list of them or one comma-separated string",
        )
    };
    let mut names = Vec::new();
    for item in value.try_iter().map_err(|_| not_names())? {
        names.push(item?.str()?.to_string());
    }
    Ok(Some(names))
}

/// Every design of the selected families (default: all) with routers of at most `radix`
/// ports and `endpoints` endpoints give or take `endpoint_tolerance` of them, within the
/// subscription limits: twins included, one per spec, in the registry's family order
/// (`topology::design::designs`), each a `Design`. `context` names the caller in errors.
#[pyfunction]
#[pyo3(signature = (context, radix, endpoints, endpoint_tolerance, families, oversubscription, undersubscription))]
#[allow(clippy::too_many_arguments)]
fn enumerate_designs<'py>(
    py: Python<'py>,
    context: &str,
    radix: &Bound<'py, PyAny>,
    endpoints: &Bound<'py, PyAny>,
    endpoint_tolerance: &Bound<'py, PyAny>,
    families: Option<&Bound<'py, PyAny>>,
    oversubscription: &Bound<'py, PyAny>,
    undersubscription: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyAny>> {
    let window = Window::around(
        context,
        numeric::<i64>(context, "radix", radix, design::RADIX_ALLOWED)?,
        numeric::<i64>(context, "endpoints", endpoints, design::ENDPOINTS_ALLOWED)?,
        numeric::<f64>(
            context,
            "endpoint_tolerance",
            endpoint_tolerance,
            design::ENDPOINT_TOLERANCE_ALLOWED,
        )?,
        numeric::<f64>(
            context,
            "oversubscription",
            oversubscription,
            design::OVERSUBSCRIPTION_ALLOWED,
        )?,
        numeric::<f64>(
            context,
            "undersubscription",
            undersubscription,
            design::UNDERSUBSCRIPTION_ALLOWED,
        )?,
    )
    .map_err(to_py_err)?;
    let names = family_names(context, families)?;
    let selected = design::select_families(context, names.as_deref()).map_err(to_py_err)?;
    let found = py.allow_threads(|| {
        design::designs(&window, &selected)
            .iter()
            .map(|c| design::Design::of(c, window.target))
            .collect::<Vec<_>>()
    });
    crate::convert::to_py(py, &found)
}

/// The smaller members of `spec`'s family that may stand in for it in simulation, about
/// increasing in size (some may not build); None when the family declares no such rule.
#[pyfunction]
fn smaller_members(spec: &str) -> PyResult<Option<Vec<String>>> {
    design::smaller_members(spec).map_err(to_py_err)
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(enumerate_designs, m)?)?;
    m.add_function(wrap_pyfunction!(smaller_members, m)?)?;
    Ok(())
}
