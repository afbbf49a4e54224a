//! The Network class and the functions that make one: build, load, loads, from_parts; the
//! family table (families) and a family's closed-form sizes (family_sizes).

use crate::args::{args, Arg};
use crate::errors::{bad_argument, to_py_err, NetworkError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyFloat, PyInt, PyList, PyString, PyTuple};
use topolab_core::io::{self, Format, LoadOptions};
use topolab_core::{Network, NetworkBuilder, ParamValue, TopologySpec};

/// A network of routers, links and endpoints; immutable.
#[pyclass(name = "Network", module = "topolab._core", frozen)]
pub struct PyNetwork {
    pub inner: Network,
}

#[pymethods]
impl PyNetwork {
    #[getter]
    fn family(&self) -> &str {
        self.inner.family()
    }
    #[getter]
    fn spec(&self) -> &str {
        self.inner.spec()
    }
    /// The failure spec this network survived, None when intact.
    #[getter]
    fn failures(&self) -> Option<&str> {
        self.inner.failures()
    }
    #[getter]
    fn directed(&self) -> bool {
        self.inner.directed()
    }
    #[getter]
    fn num_routers(&self) -> usize {
        self.inner.num_routers()
    }
    #[getter]
    fn num_endpoints(&self) -> u64 {
        self.inner.num_endpoints()
    }
    #[getter]
    fn num_links(&self) -> u64 {
        self.inner.num_links()
    }
    #[getter]
    fn network_radix(&self) -> u32 {
        self.inner.network_radix()
    }
    #[getter]
    fn radix(&self) -> u32 {
        self.inner.radix()
    }
    #[getter]
    fn endpoints(&self) -> Vec<u32> {
        self.inner.endpoints().to_vec()
    }
    #[getter]
    fn label_fields(&self) -> Vec<String> {
        self.inner.label_fields().to_vec()
    }
    #[getter]
    fn link_classes(&self) -> Vec<String> {
        self.inner.link_classes().to_vec()
    }
    /// One tuple of label values per router.
    #[getter]
    fn labels<'py>(&self, py: Python<'py>) -> PyResult<Vec<Bound<'py, PyTuple>>> {
        (0..self.inner.num_routers())
            .map(|r| PyTuple::new(py, self.inner.label(r)))
            .collect()
    }
    /// Cables (widths summed) of each link class, in `link_classes` order: what `info` needs,
    /// without a Python tuple per link.
    #[getter]
    fn link_class_cables(&self) -> Vec<u64> {
        let mut cables = vec![0u64; self.inner.link_classes().len()];
        for l in self.inner.links() {
            cables[l.class as usize] += l.width as u64;
        }
        cables
    }
    /// Links as (src, dst, width, class index) tuples.
    #[getter]
    fn links(&self) -> Vec<(u32, u32, u32, u16)> {
        self.inner
            .links()
            .iter()
            .map(|l| (l.src, l.dst, l.width, l.class))
            .collect()
    }
    fn degree(&self, router: Arg<usize>) -> PyResult<u32> {
        let router = self.check_router(router)?;
        Ok(self.inner.degree(router))
    }
    fn neighbors(&self, router: Arg<usize>) -> PyResult<Vec<u32>> {
        let router = self.check_router(router)?;
        Ok(self.inner.neighbors(router).to_vec())
    }
    /// The network in `format` ("json", "edgelist", "graphml", "anynet", "ibnet") as text.
    fn dumps(&self, format: Arg<String>) -> PyResult<String> {
        args!("dumps"; format as &format_allowed());
        let format = Format::from_name(&format).map_err(to_py_err)?;
        io::to_string(&self.inner, format).map_err(to_py_err)
    }
    #[pyo3(signature = (path, format=None))]
    fn save(
        &self,
        py: Python<'_>,
        path: Arg<std::path::PathBuf>,
        format: Option<Arg<String>>,
    ) -> PyResult<()> {
        args!("save"; path, format as &format_allowed());
        let format = resolve_format(&path, format.as_deref())?;
        py.allow_threads(|| io::save(&self.inner, &path, format))
            .map_err(to_py_err)
    }
    fn __eq__(&self, other: &Self) -> bool {
        self.inner == other.inner
    }
    fn __repr__(&self) -> String {
        format!(
            "<topolab._core.Network {} routers={} endpoints={} links={}>",
            if self.inner.spec().is_empty() {
                self.inner.family()
            } else {
                self.inner.spec()
            },
            self.inner.num_routers(),
            self.inner.num_endpoints(),
            self.inner.num_links()
        )
    }
}

impl PyNetwork {
    /// `router` as a router id of this network.
    fn check_router(&self, router: Arg<usize>) -> PyResult<usize> {
        args!("network"; router);
        if router >= self.inner.num_routers() {
            return Err(bad_argument(
                "network",
                "router",
                router,
                format!(
                    "a router id from 0 to {}",
                    self.inner.num_routers().saturating_sub(1)
                ),
            ));
        }
        Ok(router)
    }
}

/// What a format argument takes, for a caller who gave no string.
fn format_allowed() -> String {
    let names: Vec<&str> = Format::ALL.iter().map(|f| f.name()).collect();
    format!("a format name: one of {}", names.join(", "))
}

fn resolve_format(path: &std::path::Path, format: Option<&str>) -> PyResult<Format> {
    match format {
        Some(name) => Format::from_name(name),
        None => Format::from_path(path),
    }
    .map_err(to_py_err)
}

fn param_value(key: &str, value: &Bound<'_, PyAny>) -> PyResult<ParamValue> {
    // bool before int: Python's bool is a subclass of int.
    if value.is_instance_of::<PyBool>() {
        return Ok(ParamValue::Bool(value.extract()?));
    }
    if value.is_instance_of::<PyInt>() {
        return value
            .extract::<i64>()
            .map(ParamValue::Int)
            .map_err(|_| bad_argument("build", key, value, "an integer that fits in 64 bits"));
    }
    if value.is_instance_of::<PyFloat>() {
        return Ok(ParamValue::Float(value.extract()?));
    }
    if value.is_instance_of::<PyString>() {
        return Ok(ParamValue::Text(value.extract()?));
    }
    if let Ok(net) = value.downcast::<PyNetwork>() {
        let spec = net.get().inner.spec().to_string();
        if spec.is_empty() {
            return Err(bad_argument(
                "build",
                key,
                net.get().__repr__(),
                "a spec string or a network built from a spec (a network loaded from a file has none)",
            ));
        }
        return Ok(ParamValue::Spec(Box::new(
            TopologySpec::parse(&spec).map_err(to_py_err)?,
        )));
    }
    if value.is_instance_of::<PyList>() || value.is_instance_of::<PyTuple>() {
        if let Ok(list) = value.extract::<Vec<i64>>() {
            return Ok(ParamValue::List(list));
        }
    }
    Err(bad_argument(
        "build",
        key,
        format!("{value} (of type {})", value.get_type().name()?),
        "int, float, bool, str or a list of ints",
    ))
}

/// Builds a network from a family name or spec string plus keyword parameters.
#[pyfunction]
#[pyo3(signature = (spec, params=None))]
fn build(
    py: Python<'_>,
    spec: Arg<String>,
    params: Option<&Bound<'_, PyDict>>,
) -> PyResult<PyNetwork> {
    args!("build"; spec as "a spec string such as 'slimfly:q=19'");
    let mut parsed = TopologySpec::parse(&spec).map_err(to_py_err)?;
    if let Some(params) = params {
        for (k, v) in params.iter() {
            let key: String = k.extract()?;
            let key = key.to_ascii_lowercase();
            let value = param_value(&key, &v)?;
            if parsed.params.insert(key.clone(), value).is_some() {
                return Err(bad_argument(
                    "build",
                    &key,
                    &spec,
                    "a parameter given once: in the spec string or as a keyword, not both",
                ));
            }
        }
    }
    // Building has no progress stages, but a large random network can take seconds: keep
    // Ctrl-C working.
    let net = crate::monitor::run(py, None, |_| topolab_core::build(&parsed))?;
    Ok(PyNetwork { inner: net })
}

fn load_options(directed: Option<bool>, endpoints_per_router: Option<u32>) -> LoadOptions {
    LoadOptions {
        directed,
        endpoints_per_router,
    }
}

#[pyfunction]
#[pyo3(signature = (path, format=None, directed=None, endpoints_per_router=None))]
fn load(
    py: Python<'_>,
    path: Arg<std::path::PathBuf>,
    format: Option<Arg<String>>,
    directed: Option<Arg<bool>>,
    endpoints_per_router: Option<Arg<u32>>,
) -> PyResult<PyNetwork> {
    args!("load"; path, format as &format_allowed(), directed, endpoints_per_router);
    let format = resolve_format(&path, format.as_deref())?;
    let options = load_options(directed, endpoints_per_router);
    let net = py
        .allow_threads(|| io::load(&path, format, &options))
        .map_err(to_py_err)?;
    Ok(PyNetwork { inner: net })
}

#[pyfunction]
#[pyo3(signature = (text, format, directed=None, endpoints_per_router=None))]
fn loads(
    text: Arg<String>,
    format: Arg<String>,
    directed: Option<Arg<bool>>,
    endpoints_per_router: Option<Arg<u32>>,
) -> PyResult<PyNetwork> {
    args!("loads";
        text as "the text of a network file (a str)",
        format as &format_allowed(),
        directed,
        endpoints_per_router,
    );
    let format = Format::from_name(&format).map_err(to_py_err)?;
    let options = load_options(directed, endpoints_per_router);
    let net = io::from_str(&text, format, &options).map_err(to_py_err)?;
    Ok(PyNetwork { inner: net })
}

/// A network from explicit parts (used by `topolab.from_networkx`).
#[pyfunction]
#[pyo3(signature = (num_routers, links, directed, endpoints, label_fields, labels, link_classes, family=Arg::default("imported".into())))]
#[allow(clippy::too_many_arguments)]
fn from_parts(
    num_routers: usize,
    links: Vec<(usize, usize, u32, u16)>,
    directed: bool,
    endpoints: Vec<u32>,
    label_fields: Vec<String>,
    labels: Vec<Vec<i64>>,
    link_classes: Vec<String>,
    family: Arg<String>,
) -> PyResult<PyNetwork> {
    args!("from_networkx"; family);
    let family = family.as_str();
    let err = |m: String| NetworkError::new_err(m);
    if endpoints.len() != num_routers {
        return Err(err(format!(
            "endpoints has {} entries for {num_routers} routers",
            endpoints.len()
        )));
    }
    let mut b = NetworkBuilder::new(family, num_routers, directed);
    if !label_fields.is_empty() {
        let fields: Vec<&str> = label_fields.iter().map(String::as_str).collect();
        b.label_fields(&fields);
        if labels.len() != num_routers {
            return Err(err(format!(
                "labels has {} entries for {num_routers} routers",
                labels.len()
            )));
        }
        for (r, label) in labels.iter().enumerate() {
            if label.len() != fields.len() {
                return Err(err(format!(
                    "label of router {r} has {} values for {} fields",
                    label.len(),
                    fields.len()
                )));
            }
            b.set_label(r, label);
        }
    }
    for name in &link_classes {
        b.link_class(name);
    }
    for (r, &e) in endpoints.iter().enumerate() {
        b.set_endpoints(r, e);
    }
    for &(u, v, w, class) in &links {
        if class as usize >= link_classes.len().max(1) {
            return Err(err(format!(
                "link {u}-{v} has class {class} but only {} classes are named",
                link_classes.len()
            )));
        }
        if link_classes.is_empty() {
            let c = b.link_class("link");
            b.add_link(u, v, w, c);
        } else {
            b.add_link(u, v, w, class);
        }
    }
    let net = b.build().map_err(to_py_err)?;
    Ok(PyNetwork {
        inner: net.with_spec(family, ""),
    })
}

/// A family, routing or traffic name as topolab reads it (`topolab_core::spec::canonical_name`:
/// snake_case, lower case), for the Python code that matches names.
#[pyfunction]
fn canonical_name(name: &str) -> String {
    topolab_core::spec::canonical_name(name)
}

/// Every topology family with its parameters, as plain dicts.
#[pyfunction]
fn families(py: Python<'_>) -> PyResult<Vec<Bound<'_, PyDict>>> {
    topolab_core::families()
        .iter()
        .map(|f| {
            let d = PyDict::new(py);
            d.set_item("name", f.name)?;
            d.set_item("aliases", f.aliases.to_vec())?;
            d.set_item("summary", f.summary)?;
            d.set_item("source", f.source)?;
            d.set_item("directed", f.directed)?;
            d.set_item("example", f.example)?;
            d.set_item("params", param_dicts(py, f.params)?)?;
            d.set_item("display_name", f.display_name)?;
            d.set_item("routings", f.routing.specific.to_vec())?;
            let simulation = match f.routing.simulation {
                None => None,
                Some(s) => {
                    let sd = PyDict::new(py);
                    sd.set_item("uniform_routing", s.uniform_routing)?;
                    sd.set_item("worst_traffic", s.worst_traffic)?;
                    sd.set_item("worst_routing", s.worst_routing)?;
                    sd.set_item("note", s.note)?;
                    Some(sd)
                }
            };
            d.set_item("simulation", simulation)?;
            let design = match f.design {
                None => None,
                Some(space) => {
                    let dd = PyDict::new(py);
                    dd.set_item("stand_ins", space.smaller_members.is_some())?;
                    dd.set_item("twinned", space.twin.is_some())?;
                    Some(dd)
                }
            };
            d.set_item("design", design)?;
            Ok(d)
        })
        .collect()
}

/// Declared parameters as dicts (name, kind, default, help): a family's, a failure kind's.
pub fn param_dicts<'py>(
    py: Python<'py>,
    params: &[topolab_core::ParamDef],
) -> PyResult<Vec<Bound<'py, PyDict>>> {
    params
        .iter()
        .map(|p| {
            let pd = PyDict::new(py);
            pd.set_item("name", p.name)?;
            pd.set_item("kind", p.kind.name())?;
            pd.set_item("default", p.default)?;
            pd.set_item("help", p.help)?;
            Ok(pd)
        })
        .collect()
}

/// Daryin & Korzh, JSFI 2014, §2 mapping: the labelled network and what the mapping found
/// (`mapping::Mapped`, Python's `MappedNetwork`).
#[pyfunction]
#[pyo3(signature = (net, family, max_missing = Arg::default(0)))]
fn map_network<'py>(
    py: Python<'py>,
    net: &PyNetwork,
    family: Arg<String>,
    max_missing: Arg<u64>,
) -> PyResult<Bound<'py, PyAny>> {
    args!("map_network"; family as "a family name: hyperx or dragonfly", max_missing);
    let mapped = py
        .allow_threads(|| {
            topolab_core::topology::mapping::map_network(&net.inner, &family, max_missing)
        })
        .map_err(to_py_err)?;
    crate::convert::to_py_with_network(py, mapped, |m| m.network)
}

/// Routers, endpoints, radix and balance of the network `spec` describes, from the family's
/// closed-form rule (`topology::Sizes`, Python's `FamilySizes`): nothing is built, and bad
/// parameters fail as `build` fails.
#[pyfunction]
fn family_sizes<'py>(py: Python<'py>, spec: Arg<String>) -> PyResult<Bound<'py, PyAny>> {
    args!("family_sizes"; spec as "a topology spec such as 'slimfly:q=19'");
    let sizes = topolab_core::sizes_str(&spec).map_err(to_py_err)?;
    crate::convert::to_py(py, &sizes)
}

/// The memory a request may use, in bytes, and where that figure comes from
/// (topolab_core::resources); None when nothing bounds it.
#[pyfunction]
fn memory_limit() -> PyResult<Option<(u64, String)>> {
    topolab_core::resources::memory_limit().map_err(to_py_err)
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyNetwork>()?;
    m.add_function(wrap_pyfunction!(map_network, m)?)?;
    m.add_function(wrap_pyfunction!(memory_limit, m)?)?;
    m.add_function(wrap_pyfunction!(build, m)?)?;
    m.add_function(wrap_pyfunction!(canonical_name, m)?)?;
    m.add_function(wrap_pyfunction!(load, m)?)?;
    m.add_function(wrap_pyfunction!(loads, m)?)?;
    m.add_function(wrap_pyfunction!(from_parts, m)?)?;
    m.add_function(wrap_pyfunction!(families, m)?)?;
    m.add_function(wrap_pyfunction!(family_sizes, m)?)?;
    Ok(())
}
