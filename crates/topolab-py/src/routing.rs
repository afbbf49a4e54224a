//! Static routing analysis: deadlock check, channel load, forwarding tables. Results cross as
//! JSON text that the classes python/topolab/_results.py writes from their Rust declarations
//! (`topolab_core::result_type!`) read.

use crate::args::{args, Arg};
use crate::network::PyNetwork;
use pyo3::prelude::*;
use topolab_core::routing::catalog::{build_rule, build_static, Definition, ALIASES, ROUTINGS};
use topolab_core::routing::infiniband::{self, opensm};
use topolab_core::routing::{cdg, export, load, HopRouting};
use topolab_core::traffic::traffic_demands;

fn json<T: serde::Serialize>(v: &T) -> PyResult<String> {
    serde_json::to_string(v).map_err(|e| pyo3::exceptions::PyRuntimeError::new_err(e.to_string()))
}

/// CDG deadlock check of `routing` on `net`: JSON of CdgReport.
#[pyfunction]
#[pyo3(signature = (net, routing, progress=None))]
fn routing_check(
    py: Python<'_>,
    net: &PyNetwork,
    routing: Arg<String>,
    progress: Option<PyObject>,
) -> PyResult<String> {
    args!("routing.check"; routing);
    let report = crate::monitor::run(py, progress, |m| {
        let r = build_static(&net.inner, &routing, m)?;
        cdg::check(&net.inner, &*r, m)
    })?;
    json(&report)
}

/// Channel load under uniform traffic, an endpoint permutation or a simulator traffic spec
/// (`traffic`, e.g. "shift:k=3", "worst"): JSON of ChannelLoad. `max_pairs` and `max_paths`
/// bound the work (a traffic of more router pairs, a routing listing more paths over all
/// pairs, is a ParameterError naming the limit). `valiant_phases`: the traffic as Valiant
/// routing's two phases (`Demands::valiant_phases`), loaded on `routing`, which is then the
/// minimal routing Valiant's phases take.
#[pyfunction]
#[pyo3(signature = (net, routing, permutation = None, progress=None, traffic = None, max_pairs = None, max_paths = None, valiant_phases = Arg::default(false)))]
#[allow(clippy::too_many_arguments)]
fn routing_load(
    py: Python<'_>,
    net: &PyNetwork,
    routing: Arg<String>,
    permutation: Option<Arg<Vec<u64>>>,
    progress: Option<PyObject>,
    traffic: Option<Arg<String>>,
    max_pairs: Option<Arg<usize>>,
    max_paths: Option<Arg<u64>>,
    valiant_phases: Arg<bool>,
) -> PyResult<String> {
    args!("routing.channel_load"; routing, permutation, traffic, max_pairs, max_paths, valiant_phases);
    let routing = routing.as_str();
    if permutation.is_some() && traffic.is_some() {
        return Err(crate::errors::bad_argument(
            "routing_load",
            "traffic",
            traffic.as_deref().unwrap_or_default(),
            "none when a permutation is given: a permutation or a traffic spec, not both",
        ));
    }
    let res = crate::monitor::run(py, progress, |m| {
        let dem = match &traffic {
            Some(t) => Some(traffic_demands(&net.inner, t, routing, max_pairs)?),
            None => None,
        };
        let r = build_static(&net.inner, routing, m)?;
        let dem = match (&permutation, dem) {
            (_, Some(d)) => d,
            (Some(p), None) => load::Demands::permutation(&net.inner, p)?,
            (None, None) => load::Demands::uniform_within(&net.inner, max_pairs)?,
        };
        let dem = if valiant_phases {
            dem.valiant_phases(net.inner.num_routers(), max_pairs)?
        } else {
            dem
        };
        load::channel_load_within(&net.inner, &*r, &dem, max_paths, m)
    })?;
    json(&res)
}

/// Forwarding tables in the text format of docs/routing.md.
#[pyfunction]
#[pyo3(signature = (net, routing, vl_budget = Arg::default(8)))]
fn routing_tables(
    py: Python<'_>,
    net: &PyNetwork,
    routing: Arg<String>,
    vl_budget: Arg<u32>,
) -> PyResult<String> {
    args!("routing.forwarding_tables"; routing, vl_budget);
    let t = crate::monitor::run(py, None, |m| {
        let r = build_static(&net.inner, &routing, m)?;
        export::forwarding_tables(&net.inner, &*r, vl_budget)
    })?;
    Ok(t.to_text())
}

/// One route (routers from s to t) per ordered pair of routers with endpoints: the most probable
/// path of `routing`, the first among equals.
#[pyfunction]
fn routing_routes(
    py: Python<'_>,
    net: &PyNetwork,
    routing: Arg<String>,
) -> PyResult<Vec<(u32, u32, Vec<u32>)>> {
    args!("simgrid platform"; routing);
    crate::monitor::run(py, None, |m| {
        let r = build_static(&net.inner, &routing, m)?;
        topolab_core::routing::path::static_routes(&net.inner, &*r)
    })
}

fn hop_rule(
    net: &topolab_core::Network,
    routing: &str,
) -> topolab_core::Result<std::sync::Arc<dyn HopRouting>> {
    match build_rule(net, routing, &topolab_core::progress::Silent)? {
        Some(b) => Ok(b.rule),
        None => Err(topolab_core::TopolabError::invalid(
            "InfiniBand export",
            "routing",
            routing,
            format!(
                "a hop-by-hop routing, one of: {}",
                ROUTINGS
                    .iter()
                    .filter(|r| matches!(r.definition, Definition::Rule(_)))
                    .map(|r| r.name)
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        )),
    }
}

/// InfiniBand tables (Daryin & Korzh §3) as the texts of (opensm-lfts.dump,
/// opensm-sl2vl.dump, path-sl.txt).
#[pyfunction]
#[pyo3(signature = (net, routing, vl_budget = Arg::default(8)))]
fn infiniband_export(
    py: Python<'_>,
    net: &PyNetwork,
    routing: Arg<String>,
    vl_budget: Arg<u32>,
) -> PyResult<(String, String, String)> {
    args!("infiniband export"; routing, vl_budget);
    let t = crate::monitor::run(py, None, |_| {
        let rule = hop_rule(&net.inner, &routing)?;
        let tb = infiniband::build_tables(&net.inner, &*rule, vl_budget)?;
        Ok((
            opensm::write_lfts(&net.inner, &tb)?,
            opensm::write_sl2vl(&net.inner, &tb)?,
            opensm::write_path_sl(&tb),
        ))
    })?;
    Ok(t)
}

/// The LIDs of an ibnetdiscover report (`io::ibnet::addressing`): each switch's, in the order of
/// the network read from the same text, and each switch's hosts'.
#[pyfunction]
fn ibnet_addressing(text: &str) -> PyResult<(Vec<u16>, Vec<Vec<u16>>)> {
    let found = topolab_core::io::ibnet::addressing(text).map_err(crate::errors::to_py_err)?;
    Ok((found.switch_lid, found.host_lid))
}

/// Reads the three texts back and checks them against `routing`: JSON of IbCheck.
#[pyfunction]
fn infiniband_check(
    py: Python<'_>,
    net: &PyNetwork,
    routing: &str,
    lfts: &str,
    sl2vl: &str,
    path_sl: &str,
) -> PyResult<String> {
    let report = crate::monitor::run(py, None, |_| {
        let rule = hop_rule(&net.inner, routing)?;
        let tb = opensm::read_tables(&net.inner, lfts, sl2vl, path_sl)?;
        infiniband::check_tables(&net.inner, &*rule, &tb)
    })?;
    json(&report)
}

/// One row of the routing catalog (`topolab_core::routing::catalog`): a routing or an alias
/// (with the spec it stands for), and which readers take it.
#[derive(serde::Serialize)]
struct RoutingRow {
    name: String,
    params: Vec<String>,
    /// The routing's own declared parameters (name, kind, default, meaning); `params` also
    /// names the reader keys it takes.
    param_defs: Vec<ParamRow>,
    summary: String,
    source: String,
    simulator: bool,
    r#static: bool,
    alias_of: Option<String>,
}

/// Why `routing` is not deadlock-free, for the few catalog routings kept so on purpose; None
/// otherwise, and for anything that is not a routing name (the run refuses it).
#[pyfunction]
fn routing_deadlock_caution(routing: crate::args::Arg<String>) -> Option<&'static str> {
    use crate::args::Get;
    let routing: String = routing.get("routing", "routing", None).ok()?;
    topolab_core::routing::catalog::deadlock_caution(&routing)
}

/// One declared parameter (`topolab_core::ParamDef`).
#[derive(serde::Serialize)]
pub(crate) struct ParamRow {
    name: &'static str,
    kind: &'static str,
    default: Option<&'static str>,
    help: &'static str,
}

impl From<&topolab_core::ParamDef> for ParamRow {
    fn from(p: &topolab_core::ParamDef) -> ParamRow {
        ParamRow {
            name: p.name,
            kind: p.kind.name(),
            default: p.default,
            help: p.help,
        }
    }
}

/// Every routing and alias: name, parameters, summary, paper section, and which readers take it.
#[pyfunction]
fn routing_catalog() -> PyResult<String> {
    let mut rows: Vec<RoutingRow> = ROUTINGS
        .iter()
        .map(|r| RoutingRow {
            name: r.name.into(),
            params: r.keys().iter().map(|k| k.to_string()).collect(),
            param_defs: r.params.iter().map(ParamRow::from).collect(),
            summary: r.summary.into(),
            source: r.source.into(),
            simulator: r.readers.simulator,
            r#static: r.readers.static_analysis,
            alias_of: None,
        })
        .collect();
    for a in ALIASES {
        let target = topolab_core::TopologySpec::parse(a.spec)
            .map_err(|e| pyo3::exceptions::PyValueError::new_err(e.to_string()))?;
        let entry = topolab_core::routing::catalog::find(&target.family)
            .map_err(|e| pyo3::exceptions::PyValueError::new_err(e.to_string()))?;
        rows.push(RoutingRow {
            name: a.name.into(),
            params: Vec::new(),
            param_defs: Vec::new(),
            summary: format!("{} (alias of {})", a.summary, a.spec),
            source: entry.source.into(),
            simulator: entry.readers.simulator,
            r#static: entry.readers.static_analysis,
            alias_of: Some(a.spec.into()),
        });
    }
    rows.sort_by(|a, b| a.name.cmp(&b.name));
    serde_json::to_string(&rows).map_err(|e| pyo3::exceptions::PyValueError::new_err(e.to_string()))
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(routing_check, m)?)?;
    m.add_function(wrap_pyfunction!(routing_load, m)?)?;
    m.add_function(wrap_pyfunction!(routing_tables, m)?)?;
    m.add_function(wrap_pyfunction!(infiniband_export, m)?)?;
    m.add_function(wrap_pyfunction!(ibnet_addressing, m)?)?;
    m.add_function(wrap_pyfunction!(routing_routes, m)?)?;
    m.add_function(wrap_pyfunction!(infiniband_check, m)?)?;
    m.add(
        "INFINIBAND_FILES",
        (opensm::LFTS_FILE, opensm::SL2VL_FILE, opensm::PATH_SL_FILE),
    )?;
    m.add_function(wrap_pyfunction!(routing_catalog, m)?)?;
    m.add_function(wrap_pyfunction!(routing_deadlock_caution, m)?)?;
    Ok(())
}
