//! The Python extension `topolab._core`: argument conversion, wrappers and the one mapping of
//! core errors to Python exceptions. No logic lives here: each topic is a module with a
//! `register` function, called below.

mod analysis;
mod args;
mod convert;
mod design;
mod errors;
mod failures;
mod monitor;
mod network;
mod physical;
mod routing;
mod sim;

use pyo3::prelude::*;

#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    if let Some(note) = topolab_core::resources::start_thread_pool() {
        eprintln!("topolab: warning: {note}");
    }
    errors::register(m)?;
    network::register(m)?;
    failures::register(m)?;
    analysis::register(m)?;
    physical::register(m)?;
    sim::register(m)?;
    routing::register(m)?;
    design::register(m)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
