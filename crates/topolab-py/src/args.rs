//! Python arguments into their Rust types, the one way every binding takes them. PyO3's own
//! extraction raises a TypeError that says neither what is allowed nor carries the
//! `parameter`, `value` and `allowed` attributes; a binding instead declares the argument as
//! `Arg<T>` (or `Option<Arg<T>>` for one that may be None), which PyO3 always extracts, and
//! converts it with `args!(context; name, ...)`: a Python value of the wrong type raises the
//! ParameterError every other bad argument raises, naming the parameter after the Rust
//! argument. Ranges and meanings are not checked here but by the Rust type or function that
//! owns the value (SimConfig, the spec parsers, the physical tables), once for every caller.

use crate::errors::bad_argument;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyBytes, PyString};
use std::path::PathBuf;

/// A Python argument of a binding, to be converted to `T` with `args!`; `Arg::default(value)`
/// is a signature's default (`#[pyo3(signature = (x=Arg::default(0.01)))]`).
pub struct Arg<'py, T>(Given<'py, T>);

enum Given<'py, T> {
    Python(Bound<'py, PyAny>),
    Default(T),
}

impl<'py, T> Arg<'py, T> {
    pub fn default(value: T) -> Self {
        Arg(Given::Default(value))
    }
}

impl<'py, T> FromPyObject<'py> for Arg<'py, T> {
    fn extract_bound(obj: &Bound<'py, PyAny>) -> PyResult<Self> {
        Ok(Arg(Given::Python(obj.clone())))
    }
}

/// A Rust type an argument converts to, with what a Python caller may pass for it.
pub trait ArgType<'py>: Sized {
    /// The Python values taken, in words ("an integer from 0 to 4294967295").
    fn allowed() -> String;
    /// The value, None when `obj` is not of a type taken.
    fn convert(obj: &Bound<'py, PyAny>) -> Option<Self>;
}

/// `repr(obj)` for a message (the core cuts it to its quoting length), or its type's name
/// when the repr itself fails.
fn repr(obj: &Bound<'_, PyAny>) -> String {
    match obj.repr() {
        Ok(text) => text.to_string(),
        Err(_) => format!(
            "<{}>",
            obj.get_type()
                .name()
                .map_or_else(|_| "object".to_string(), |n| n.to_string())
        ),
    }
}

/// Converting an `Arg` or an `Option<Arg>` (None stays None); `allowed` says what is taken
/// where the type's own words (`ArgType::allowed`) say less.
pub trait Get<T> {
    fn get(self, context: &str, name: &str, allowed: Option<&str>) -> PyResult<T>;
}

impl<'py, T: ArgType<'py>> Get<T> for Arg<'py, T> {
    fn get(self, context: &str, name: &str, allowed: Option<&str>) -> PyResult<T> {
        match self.0 {
            Given::Default(value) => Ok(value),
            Given::Python(obj) => T::convert(&obj).ok_or_else(|| {
                let allowed = allowed.map_or_else(T::allowed, str::to_string);
                bad_argument(context, name, repr(&obj), allowed)
            }),
        }
    }
}

impl<'py, T: ArgType<'py>> Get<Option<T>> for Option<Arg<'py, T>> {
    fn get(self, context: &str, name: &str, allowed: Option<&str>) -> PyResult<Option<T>> {
        self.map(|arg| arg.get(context, name, allowed)).transpose()
    }
}

/// Converts each named argument of a binding in place: `args!("simulate"; load, seed);` makes
/// `load` an `f64` from its `Arg<f64>`; a wrong Python type returns the ParameterError naming
/// it, in the context (the Python function's name) given. `name as "words"` says what is
/// allowed in words of its own.
macro_rules! args {
    ($context:expr; $($name:ident $(as $allowed:expr)?),+ $(,)?) => {
        $(let $name = $crate::args::Get::get(
            $name, $context, stringify!($name), None$(.or(Some($allowed)))?
        )?;)+
    };
}
pub(crate) use args;

/// Python's bool is an int; a flag given for a number is a mistake, not a 0 or 1.
fn number<'py, T: FromPyObject<'py>>(obj: &Bound<'py, PyAny>) -> Option<T> {
    if obj.is_instance_of::<PyBool>() {
        return None;
    }
    obj.extract().ok()
}

impl ArgType<'_> for f64 {
    fn allowed() -> String {
        "a number".into()
    }
    fn convert(obj: &Bound<'_, PyAny>) -> Option<Self> {
        // PyO3 takes a str for no number; Python's float() would, and "nan" from a caller is
        // a mistake to report.
        number(obj)
    }
}

macro_rules! integer_arg {
    ($($t:ty),+) => {$(
        impl ArgType<'_> for $t {
            fn allowed() -> String {
                format!("an integer from {} to {}", <$t>::MIN, <$t>::MAX)
            }
            fn convert(obj: &Bound<'_, PyAny>) -> Option<Self> {
                number(obj)
            }
        }
    )+};
}
integer_arg!(u16, u32, u64, usize, i64);

impl ArgType<'_> for bool {
    fn allowed() -> String {
        "True or False".into()
    }
    fn convert(obj: &Bound<'_, PyAny>) -> Option<Self> {
        obj.extract().ok()
    }
}

impl ArgType<'_> for String {
    fn allowed() -> String {
        "a string".into()
    }
    fn convert(obj: &Bound<'_, PyAny>) -> Option<Self> {
        // A lone surrogate has no UTF-8 form: PyO3 refuses it, so does this.
        obj.extract().ok()
    }
}

impl ArgType<'_> for PathBuf {
    fn allowed() -> String {
        "a file path (str or os.PathLike)".into()
    }
    fn convert(obj: &Bound<'_, PyAny>) -> Option<Self> {
        // os.fspath's rule; bytes paths are refused, the core reads UTF-8 names.
        let path = if obj.is_instance_of::<PyString>() {
            obj.clone()
        } else {
            obj.call_method0("__fspath__").ok()?
        };
        let text: String = path.extract().ok()?;
        (!text.is_empty() && !text.contains('\0')).then(|| PathBuf::from(text))
    }
}

impl<'py, T: ArgType<'py>> ArgType<'py> for Vec<T> {
    fn allowed() -> String {
        format!("a list, each item {}", T::allowed())
    }
    fn convert(obj: &Bound<'py, PyAny>) -> Option<Self> {
        if obj.is_instance_of::<PyString>() || obj.is_instance_of::<PyBytes>() {
            return None;
        }
        let items: Vec<Bound<'py, PyAny>> = obj.extract().ok()?;
        items.iter().map(T::convert).collect()
    }
}

impl<'py, A: ArgType<'py>, B: ArgType<'py>> ArgType<'py> for (A, B) {
    fn allowed() -> String {
        format!("a pair ({}, {})", A::allowed(), B::allowed())
    }
    fn convert(obj: &Bound<'py, PyAny>) -> Option<Self> {
        if obj.is_instance_of::<PyString>() || obj.is_instance_of::<PyBytes>() {
            return None;
        }
        // a tuple or a list of two, as a Python caller writes pairs either way
        match obj.extract::<Vec<Bound<'py, PyAny>>>().ok()?.as_slice() {
            [a, b] => Some((A::convert(a)?, B::convert(b)?)),
            _ => None,
        }
    }
}
