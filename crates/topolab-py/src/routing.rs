//! Static routing analysis: deadlock check, channel load, forwarding tables. Results cross as
//! JSON text and become dataclasses in python/topolab/routing.py.

use crate::network::PyNetwork;
use pyo3::prelude::*;
use topolab_core::routing::catalog::{build_static, RULE_ROUTINGS, STATIC_ROUTINGS};
use topolab_core::routing::{cdg, export, load};

fn json<T: serde::Serialize>(v: &T) -> PyResult<String> {
    serde_json::to_string(v).map_err(|e| pyo3::exceptions::PyRuntimeError::new_err(e.to_string()))
}

/// CDG deadlock check of `routing` on `net`: JSON of CdgReport.
#[pyfunction]
#[pyo3(signature = (net, routing, show_progress = false))]
fn routing_check(
    py: Python<'_>,
    net: &PyNetwork,
    routing: &str,
    show_progress: bool,
) -> PyResult<String> {
    let report = crate::monitor::run(py, show_progress, |m| {
        let r = build_static(&net.inner, routing, m)?;
        cdg::check(&net.inner, &*r, m)
    })?;
    json(&report)
}

/// Channel load under uniform traffic (or an endpoint permutation): JSON of ChannelLoad.
#[pyfunction]
#[pyo3(signature = (net, routing, permutation = None, show_progress = false))]
fn routing_load(
    py: Python<'_>,
    net: &PyNetwork,
    routing: &str,
    permutation: Option<Vec<u64>>,
    show_progress: bool,
) -> PyResult<String> {
    let res = crate::monitor::run(py, show_progress, |m| {
        let r = build_static(&net.inner, routing, m)?;
        let dem = match &permutation {
            Some(p) => load::Demands::permutation(&net.inner, p)?,
            None => load::Demands::uniform(&net.inner),
        };
        load::channel_load(&net.inner, &*r, &dem, m)
    })?;
    json(&res)
}

/// Forwarding tables in the text format of docs/routing.md.
#[pyfunction]
#[pyo3(signature = (net, routing, vl_budget = 8))]
fn routing_tables(
    py: Python<'_>,
    net: &PyNetwork,
    routing: &str,
    vl_budget: u32,
) -> PyResult<String> {
    let t = crate::monitor::run(py, false, |m| {
        let r = build_static(&net.inner, routing, m)?;
        export::forwarding_tables(&net.inner, &*r, vl_budget)
    })?;
    Ok(t.to_text())
}

/// (name, parameters, summary) of every static routing.
#[pyfunction]
fn static_routings() -> Vec<(String, Vec<String>, String)> {
    STATIC_ROUTINGS
        .iter()
        .map(|(n, k, s)| {
            (
                n.to_string(),
                k.iter().map(|x| x.to_string()).collect(),
                s.to_string(),
            )
        })
        .chain(RULE_ROUTINGS.iter().map(|r| {
            let mut keys: Vec<String> = r.params.iter().map(|x| x.to_string()).collect();
            keys.push("select".into());
            (r.name.to_string(), keys, r.summary.to_string())
        }))
        .collect()
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(routing_check, m)?)?;
    m.add_function(wrap_pyfunction!(routing_load, m)?)?;
    m.add_function(wrap_pyfunction!(routing_tables, m)?)?;
    m.add_function(wrap_pyfunction!(static_routings, m)?)?;
    Ok(())
}
