//! Named models kept as TOML data: the built-in floors and catalogs ship inside the library
//! (`include_str!` of crates/topolab-core/data/*.toml) and users pass their own files with the
//! same layout. A file is a table of named entries; `resolve` takes either a built-in name or a
//! path, `path#name` picking one entry of a file that holds several.

use crate::error::{Result, TopolabError};
use serde::de::DeserializeOwned;
use std::collections::BTreeMap;
use std::path::Path;

/// A model that can be read from a named TOML table and checked afterwards.
pub trait Named: DeserializeOwned {
    /// "floor", "catalog": used in messages and as the parameter name.
    const KIND: &'static str;
    /// The built-in TOML text.
    const BUILTIN: &'static str;
    fn set_name(&mut self, name: String);
    fn name(&self) -> &str;
    /// Rejects values the model cannot use, naming the key.
    fn validate(&self) -> Result<()>;
}

/// Every entry of a TOML text, in the file's name order (BTreeMap: sorted, deterministic).
/// Where a TOML syntax error is, as "origin, line L, column C". toml's own message also
/// quotes the line, which for a file that is not TOML (`floor = "/etc/passwd"`) would print
/// and store that file's content.
fn toml_location(text: &str, origin: &str, e: &toml::de::Error) -> String {
    match e.span() {
        Some(span) => {
            let before = text.get(..span.start).unwrap_or(text);
            let line = before.matches('\n').count() + 1;
            let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
            format!("{origin}, line {line}, column {column}")
        }
        None => origin.to_string(),
    }
}

pub fn parse_all<T: Named>(text: &str, origin: &str) -> Result<Vec<T>> {
    let table: BTreeMap<String, toml::Value> = toml::from_str(text).map_err(|e| {
        TopolabError::format(
            &format!("{} TOML", T::KIND),
            toml_location(text, origin, &e),
            e.message().to_string(),
        )
    })?;
    let mut out = Vec::with_capacity(table.len());
    for (name, value) in table {
        let mut entry: T = value.try_into().map_err(|e: toml::de::Error| {
            TopolabError::format(
                &format!("{} TOML", T::KIND),
                format!("{origin}, [{name}]"),
                e.to_string(),
            )
        })?;
        entry.set_name(name.clone());
        entry.validate().map_err(|e| match e {
            TopolabError::InvalidParameter {
                param,
                value,
                allowed,
                ..
            } => TopolabError::invalid(
                format!("{} '{name}' ({origin})", T::KIND),
                param,
                value,
                allowed,
            ),
            other => other,
        })?;
        out.push(entry);
    }
    Ok(out)
}

/// Names of the built-in entries.
pub fn builtin_names<T: Named>() -> Vec<String> {
    builtin_all::<T>()
        .iter()
        .map(|t| t.name().to_string())
        .collect()
}

fn builtin_all<T: Named>() -> Vec<T> {
    parse_all(T::BUILTIN, "built-in").expect("built-in data files are valid")
}

/// A built-in entry by name (case-insensitive).
pub fn builtin<T: Named>(name: &str) -> Result<T> {
    let all: Vec<T> = builtin_all();
    let names: Vec<String> = all.iter().map(|t| t.name().to_string()).collect();
    all.into_iter()
        .find(|t| t.name().eq_ignore_ascii_case(name))
        .ok_or_else(|| {
            TopolabError::invalid(
                T::KIND,
                T::KIND,
                format!("'{name}'"),
                format!(
                    "a built-in {} ({}) or the path of a TOML file",
                    T::KIND,
                    names.join(", ")
                ),
            )
        })
}

/// A built-in name, a TOML file with one entry, or `file#name`.
pub fn resolve<T: Named>(spec: &str) -> Result<T> {
    let (path_text, entry) = match spec.rsplit_once('#') {
        Some((p, e)) => (p, Some(e)),
        None => (spec, None),
    };
    let path = Path::new(path_text);
    if !path.is_file() {
        if entry.is_none() && !spec.contains(['/', '\\', '.']) {
            return builtin(spec);
        }
        return Err(TopolabError::Io {
            path: path_text.to_string(),
            reason: format!("no such {} file", T::KIND),
        });
    }
    let text = crate::io::read_input(path)?;
    let mut all: Vec<T> = parse_all(&text, path_text)?;
    let names = || {
        all.iter()
            .map(|t| t.name().to_string())
            .collect::<Vec<_>>()
            .join(", ")
    };
    match entry {
        Some(want) => match all.iter().position(|t| t.name() == want) {
            Some(i) => Ok(all.swap_remove(i)),
            None => Err(TopolabError::invalid(
                T::KIND,
                T::KIND,
                format!("'{spec}'"),
                format!("an entry of {path_text}: {}", names()),
            )),
        },
        None if all.len() == 1 => Ok(all.pop().expect("one entry")),
        None => Err(TopolabError::invalid(
            T::KIND,
            T::KIND,
            format!("'{spec}'"),
            format!(
                "{path_text} holds {} entries ({}): pick one with {path_text}#NAME",
                all.len(),
                names()
            ),
        )),
    }
}

/// Checks a length or price field: finite (or +inf when `allow_inf`) and at least `min`.
pub fn check_number(name: &str, value: f64, min: f64, allow_inf: bool) -> Result<()> {
    let ok = !value.is_nan() && value >= min && (value.is_finite() || allow_inf && value > 0.0);
    if ok {
        Ok(())
    } else {
        let allowed = if allow_inf {
            format!("a number >= {min} (inf allowed)")
        } else {
            format!("a finite number >= {min}")
        };
        Err(TopolabError::invalid("model", name, value, allowed))
    }
}
