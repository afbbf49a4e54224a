//! Floors, catalogs, placement, cost and latency (topolab_core::physical). Results cross as
//! plain dicts built from the core's serde structs: the placement, cost and latency reports
//! become the classes python/topolab/_results.py writes from their Rust declarations
//! (`topolab_core::result_type!`), floors and catalogs the dataclasses of physical.py.

use crate::args::{args, Arg};
use crate::convert::to_py;
use crate::errors::{bad_argument, to_py_err};
use crate::network::PyNetwork;
use pyo3::prelude::*;
use std::path::{Path, PathBuf};
use topolab_core::physical::{
    self, load_placement, Catalog, CostOptions, Floor, LatencyModel, PlaceOptions, Placement,
    PlacementRule, Routing,
};
use topolab_core::Network;

/// What a floor or catalog argument takes.
const NAME_OR_TOML: &str = "a built-in name or the path of a TOML file (str or os.PathLike)";

/// A floor or catalog argument's text: a built-in name, a TOML path or `file.toml#name`.
fn name_of(path: PathBuf) -> String {
    path.to_string_lossy().into_owned()
}

/// A placement argument: "family", "sequential" or the path of a placement file.
const PLACEMENT_ALLOWED: &str =
    "'family', 'sequential' or the path of a placement file (str or os.PathLike)";

fn floor_of(floor: &str, max_electric_m: Option<f64>) -> PyResult<Floor> {
    let f = Floor::resolve(floor).map_err(to_py_err)?;
    match max_electric_m {
        Some(m) => f.with_max_electric(m).map_err(to_py_err),
        None => Ok(f),
    }
}

/// `placement` is "family", "sequential" or the path of a placement file; `cabinets` gives
/// the cabinet of every router instead.
fn placement_of(
    net: &Network,
    floor: &Floor,
    placement: Option<&str>,
    cabinets: Option<Vec<u32>>,
    per_cabinet: Option<u32>,
) -> PyResult<Placement> {
    let rule = match (placement, cabinets) {
        (Some(_), Some(_)) => {
            return Err(bad_argument(
                "placement",
                "placement",
                placement.unwrap_or_default(),
                "none when a list of cabinets is given: a rule, a file name or cabinets, not both",
            ))
        }
        (None, Some(c)) => PlacementRule::Given(c),
        (None | Some("family"), None) => PlacementRule::Family,
        (Some("sequential"), None) => PlacementRule::Sequential,
        (Some(path), None) => {
            let p = Path::new(path);
            if !p.is_file() {
                return Err(bad_argument(
                    "placement",
                    "placement",
                    format!("'{path}'"),
                    "'family', 'sequential' or the path of a placement file (router cabinet per line)",
                ));
            }
            PlacementRule::Given(load_placement(p, net.num_routers()).map_err(to_py_err)?)
        }
    };
    physical::place(net, floor, &PlaceOptions { rule, per_cabinet }).map_err(to_py_err)
}

/// The built-in floors as dicts.
#[pyfunction]
fn floors(py: Python<'_>) -> PyResult<Vec<Bound<'_, PyAny>>> {
    Floor::builtin_names()
        .iter()
        .map(|n| to_py(py, &Floor::builtin(n).map_err(to_py_err)?))
        .collect()
}

/// The built-in cost catalogs as dicts.
#[pyfunction]
fn catalogs(py: Python<'_>) -> PyResult<Vec<Bound<'_, PyAny>>> {
    Catalog::builtin_names()
        .iter()
        .map(|n| to_py(py, &Catalog::builtin(n).map_err(to_py_err)?))
        .collect()
}

/// One floor (built-in name, TOML file, or file#name) as a dict.
#[pyfunction]
fn floor<'py>(py: Python<'py>, name: Arg<PathBuf>) -> PyResult<Bound<'py, PyAny>> {
    args!("load_floor"; name as NAME_OR_TOML);
    to_py(py, &Floor::resolve(&name_of(name)).map_err(to_py_err)?)
}

/// One catalog (built-in name, TOML file, or file#name) as a dict.
#[pyfunction]
fn catalog<'py>(py: Python<'py>, name: Arg<PathBuf>) -> PyResult<Bound<'py, PyAny>> {
    args!("load_catalog"; name as NAME_OR_TOML);
    to_py(py, &Catalog::resolve(&name_of(name)).map_err(to_py_err)?)
}

#[pyfunction]
#[pyo3(signature = (net, floor=Arg::default("slimfly".into()), placement=None, cabinets=None, per_cabinet=None))]
fn place<'py>(
    py: Python<'py>,
    net: &PyNetwork,
    floor: Arg<PathBuf>,
    placement: Option<Arg<PathBuf>>,
    cabinets: Option<Vec<u32>>,
    per_cabinet: Option<Arg<u32>>,
) -> PyResult<Bound<'py, PyAny>> {
    args!("place"; floor as NAME_OR_TOML, placement as PLACEMENT_ALLOWED, per_cabinet);
    let f = floor_of(&name_of(floor), None)?;
    let placement = placement.map(name_of);
    let p = placement_of(&net.inner, &f, placement.as_deref(), cabinets, per_cabinet)?;
    to_py(py, &p)
}

#[pyfunction]
#[pyo3(signature = (net, catalog=Arg::default("fdr10".into()), floor=Arg::default("slimfly".into()),
    placement=None, cabinets=None, per_cabinet=None, max_electric_m=None, router_radix=None))]
#[allow(clippy::too_many_arguments)]
fn cost<'py>(
    py: Python<'py>,
    net: &PyNetwork,
    catalog: Arg<PathBuf>,
    floor: Arg<PathBuf>,
    placement: Option<Arg<PathBuf>>,
    cabinets: Option<Vec<u32>>,
    per_cabinet: Option<Arg<u32>>,
    max_electric_m: Option<Arg<f64>>,
    router_radix: Option<Arg<u32>>,
) -> PyResult<Bound<'py, PyAny>> {
    args!("cost";
        catalog as NAME_OR_TOML,
        floor as NAME_OR_TOML,
        placement as PLACEMENT_ALLOWED,
        per_cabinet,
        max_electric_m,
        router_radix,
    );
    let f = floor_of(&name_of(floor), max_electric_m)?;
    let cat = Catalog::resolve(&name_of(catalog)).map_err(to_py_err)?;
    let placement = placement.map(name_of);
    let p = placement_of(&net.inner, &f, placement.as_deref(), cabinets, per_cabinet)?;
    let options = CostOptions { router_radix };
    let report = py
        .allow_threads(|| physical::cost(&net.inner, &p, &f, &cat, &options))
        .map_err(to_py_err)?;
    to_py(py, &report)
}

/// Length in metres of one cable of each link, parallel to `net.links()` (a link of width w is
/// w cables of that length), for the network placed on `floor`.
#[pyfunction]
#[pyo3(signature = (net, floor=Arg::default("slimfly".into()), placement=None, cabinets=None, per_cabinet=None))]
fn cable_lengths(
    py: Python<'_>,
    net: &PyNetwork,
    floor: Arg<PathBuf>,
    placement: Option<Arg<PathBuf>>,
    cabinets: Option<Vec<u32>>,
    per_cabinet: Option<Arg<u32>>,
) -> PyResult<Vec<f64>> {
    args!("cable_lengths"; floor as NAME_OR_TOML, placement as PLACEMENT_ALLOWED, per_cabinet);
    let f = floor_of(&name_of(floor), None)?;
    let placement = placement.map(name_of);
    let p = placement_of(&net.inner, &f, placement.as_deref(), cabinets, per_cabinet)?;
    Ok(py.allow_threads(|| physical::link_lengths(&net.inner, &p, &f)))
}

#[pyfunction]
#[pyo3(signature = (net, routing=Arg::default("fastest".into()), switch_delay_ns=Arg::default(60.0),
    cable_ns_per_m=Arg::default(5.0), injection_ns=Arg::default(300.0),
    floor=Arg::default("slimfly".into()), placement=None, cabinets=None, per_cabinet=None,
    progress=None))]
#[allow(clippy::too_many_arguments)]
fn latency<'py>(
    py: Python<'py>,
    net: &PyNetwork,
    routing: Arg<String>,
    switch_delay_ns: Arg<f64>,
    cable_ns_per_m: Arg<f64>,
    injection_ns: Arg<f64>,
    floor: Arg<PathBuf>,
    placement: Option<Arg<PathBuf>>,
    cabinets: Option<Vec<u32>>,
    per_cabinet: Option<Arg<u32>>,
    progress: Option<PyObject>,
) -> PyResult<Bound<'py, PyAny>> {
    args!("latency";
        routing,
        switch_delay_ns,
        cable_ns_per_m,
        injection_ns,
        floor as NAME_OR_TOML,
        placement as PLACEMENT_ALLOWED,
        per_cabinet,
    );
    let routing = Routing::from_name(&routing).map_err(to_py_err)?;
    let f = floor_of(&name_of(floor), None)?;
    let placement = placement.map(name_of);
    let p = placement_of(&net.inner, &f, placement.as_deref(), cabinets, per_cabinet)?;
    let model = LatencyModel {
        switch_delay_ns,
        cable_ns_per_m,
        injection_ns,
    };
    let inner = &net.inner;
    let report = crate::monitor::run(py, progress, |monitor| {
        physical::latency(inner, &p, &f, &model, routing, monitor)
    })?;
    to_py(py, &report)
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(floors, m)?)?;
    m.add_function(wrap_pyfunction!(catalogs, m)?)?;
    m.add_function(wrap_pyfunction!(floor, m)?)?;
    m.add_function(wrap_pyfunction!(catalog, m)?)?;
    m.add_function(wrap_pyfunction!(place, m)?)?;
    m.add_function(wrap_pyfunction!(cost, m)?)?;
    m.add_function(wrap_pyfunction!(cable_lengths, m)?)?;
    m.add_function(wrap_pyfunction!(latency, m)?)?;
    Ok(())
}
