//! Result types declared once: `result_type!` declares a result struct and, from the same
//! tokens, the description of its fields (`ResultField`: name, Rust type, doc comment, unit)
//! that `topolab._core.result_types()` hands to Python. `scripts/result_types.py` writes the
//! Python classes (`python/topolab/_results.py`) from it, and a test checks that file is what
//! the script writes now, so a field added, renamed or documented in Rust reaches Python with
//! no hand-kept copy (the way rustworkx declares its result types in Rust only).

use serde::Serialize;

/// One field of a result type as Python sees it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct ResultField {
    pub name: &'static str,
    /// The Rust type as `stringify!` writes it (`f64`, `Option < [f64 ; 2] >`, ...):
    /// `scripts/result_types.py` maps it to a Python annotation.
    pub rust_type: &'static str,
    /// The field's doc comment, each line as written (with its leading space) and a newline.
    pub doc: &'static str,
    /// The unit of a measured figure ("cycles", "flits/active endpoint/cycle"); "" for counts
    /// and words.
    pub unit: &'static str,
    /// The field's serde attribute: "flatten" when the fields of its type (a result type) stand
    /// in its place, in the JSON and in the Python class; "skip" for a field Python does not
    /// see (a private one the Rust methods use), except a `Network`, which serde cannot write
    /// and the binding hands over as an object (topolab-py's `convert::to_py_with_network`);
    /// "" otherwise.
    pub serde: &'static str,
}

/// A result type: its name, doc comment and fields.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct ResultType {
    pub name: &'static str,
    /// The Python class's name when it differs ("" when it is `name`).
    pub python: &'static str,
    pub doc: &'static str,
    pub fields: &'static [ResultField],
}

/// Declares a result struct (`Debug, Clone, PartialEq, Serialize`) and its
/// `RESULT_TYPE` description. A field's unit is written `#[unit = "cycles"]` after its doc
/// comment, and the Python class's name, when it differs, `#[python = "SimResult"]` after the
/// struct's; the macro consumes both. A field marked `#[serde(flatten)]` (after the unit) is
/// flattened in the JSON, and the Python class holds its type's fields in its place; one
/// marked `#[serde(skip)]` (which need not be public) is left out of both.
#[macro_export]
macro_rules! result_type {
    (
        $(#[doc = $doc:literal])*
        $(#[python = $python:literal])?
        pub struct $name:ident {
            $(
                $(#[doc = $fdoc:literal])*
                $(#[unit = $unit:literal])?
                $(#[serde($serde:ident)])?
                $vis:vis $field:ident : $ty:ty
            ),* $(,)?
        }
    ) => {
        $(#[doc = $doc])*
        #[derive(Debug, Clone, PartialEq, serde::Serialize)]
        pub struct $name {
            $(
                $(#[doc = $fdoc])*
                $(#[serde($serde)])?
                $vis $field: $ty,
            )*
        }

        impl $name {
            /// This type's fields as Python sees them (`topolab_core::result_type`).
            pub const RESULT_TYPE: $crate::result_type::ResultType = $crate::result_type::ResultType {
                name: stringify!($name),
                python: concat!($($python)?),
                doc: concat!($($doc, "\n"),*),
                fields: &[
                    $(
                        $crate::result_type::ResultField {
                            name: stringify!($field),
                            rust_type: stringify!($ty),
                            doc: concat!($($fdoc, "\n"),*),
                            unit: concat!($($unit)?),
                            serde: concat!($(stringify!($serde))?),
                        },
                    )*
                ],
            };
        }
    };
}
