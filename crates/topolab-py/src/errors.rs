//! The one mapping of core errors to the Python exception hierarchy.

use pyo3::create_exception;
use pyo3::exceptions::PyException;
use pyo3::prelude::*;
use topolab_core::TopolabError as CoreError;

create_exception!(
    topolab,
    TopolabError,
    PyException,
    "Base class of every topolab error."
);
create_exception!(
    topolab,
    ParameterError,
    TopolabError,
    "A topology spec or parameter is wrong: unknown family or parameter, value out of range, impossible construction."
);
create_exception!(
    topolab,
    FormatError,
    TopolabError,
    "A file or text in a format topolab reads has bad content."
);
create_exception!(
    topolab,
    NetworkError,
    TopolabError,
    "A network is not valid as a whole (dangling link, self-loop, duplicate link)."
);
create_exception!(
    topolab,
    FileError,
    TopolabError,
    "A file cannot be read or written."
);

create_exception!(
    topolab,
    SimulationError,
    TopolabError,
    "A simulation run failed (for instance a conservation check in debug mode)."
);
create_exception!(
    topolab,
    DeadlockError,
    SimulationError,
    "Flits stopped moving: the message names the blocked channels and the cycle of waiting VCs."
);

/// What a Python handler may want without parsing the message: the parameter at fault, the
/// value given and what is allowed, as exception attributes. Every parameter error has all
/// three: an unknown parameter's value is its name as written, a missing one's "(missing)", a
/// spec that does not parse names the spec and the reason.
fn details(err: &CoreError) -> Option<(String, String, String)> {
    match err {
        CoreError::InvalidParameter {
            param,
            value,
            allowed,
            ..
        } => Some((param.clone(), value.clone(), allowed.clone())),
        CoreError::UnknownParameter { param, valid, .. } => Some((
            param.clone(),
            topolab_core::error::quote(param),
            format!("one of the parameters {valid}"),
        )),
        CoreError::MissingParameter { param, help, .. } => {
            Some((param.clone(), "(missing)".into(), help.clone()))
        }
        CoreError::UnknownFamily { name, valid } => {
            Some(("family".into(), name.clone(), valid.clone()))
        }
        CoreError::SpecSyntax { spec, reason } => Some((
            "spec".into(),
            spec.clone(),
            format!("a spec name:key=value,... ({reason})"),
        )),
        CoreError::Format { .. }
        | CoreError::Io { .. }
        | CoreError::Interrupted
        | CoreError::InvalidNetwork(_) => None,
    }
}

/// The error for a bad argument of a binding: a core `InvalidParameter`, so that it reads and
/// carries its attributes like every other parameter error.
pub fn bad_argument(
    context: &str,
    param: &str,
    value: impl ToString,
    allowed: impl Into<String>,
) -> PyErr {
    to_py_err(CoreError::invalid(context, param, value, allowed))
}

pub fn to_py_err(err: CoreError) -> PyErr {
    let msg = err.to_string();
    let details = details(&err);
    let py_err = match err {
        CoreError::InvalidParameter { .. }
        | CoreError::UnknownParameter { .. }
        | CoreError::MissingParameter { .. }
        | CoreError::UnknownFamily { .. }
        | CoreError::SpecSyntax { .. } => ParameterError::new_err(msg),
        CoreError::Format { .. } => FormatError::new_err(msg),
        CoreError::InvalidNetwork(_) => NetworkError::new_err(msg),
        CoreError::Io { .. } => FileError::new_err(msg),
        CoreError::Interrupted => return pyo3::exceptions::PyKeyboardInterrupt::new_err(msg),
    };
    if let Some((parameter, value, allowed)) = details {
        Python::with_gil(|py| {
            let exc = py_err.value(py);
            // Setting attributes on a fresh exception instance cannot fail short of memory
            // exhaustion; the message says the same in words either way.
            let _ = exc.setattr("parameter", parameter);
            let _ = exc.setattr("value", value);
            let _ = exc.setattr("allowed", allowed);
        });
    }
    py_err
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("TopolabError", py.get_type::<TopolabError>())?;
    m.add("ParameterError", py.get_type::<ParameterError>())?;
    m.add("FormatError", py.get_type::<FormatError>())?;
    m.add("NetworkError", py.get_type::<NetworkError>())?;
    m.add("FileError", py.get_type::<FileError>())?;
    m.add("SimulationError", py.get_type::<SimulationError>())?;
    m.add("DeadlockError", py.get_type::<DeadlockError>())?;
    // Class-level defaults, so that every topolab error has the attributes; errors about one
    // parameter set them on the instance.
    let base = py.get_type::<TopolabError>();
    for name in ["parameter", "value", "allowed"] {
        base.setattr(name, py.None())?;
    }
    Ok(())
}
