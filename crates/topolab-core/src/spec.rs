//! Topology specs: a family name plus named parameters.
//!
//! The same spec comes from a string (`slimfly:q=19,p=15`, nested specs in parentheses:
//! `product:a=(slimfly:q=4),b=(hyperx:dims=8x8)`), from Python keyword arguments or from a
//! JSON object. Values stay untyped here; each family's parameter table (see
//! `topology::ParamDef`) says how to read them, so one table drives parsing, validation,
//! defaults and `topolab list`.

use crate::error::{quote, Result, TopolabError};
use std::collections::BTreeMap;
use std::fmt;

#[derive(Debug, Clone, PartialEq)]
pub enum ParamValue {
    Int(i64),
    Float(f64),
    Bool(bool),
    /// Unparsed text from a spec string or a Python string.
    Text(String),
    List(Vec<i64>),
    Spec(Box<TopologySpec>),
}

impl fmt::Display for ParamValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParamValue::Int(v) => write!(f, "{v}"),
            ParamValue::Float(v) => write!(f, "{v}"),
            ParamValue::Bool(v) => write!(f, "{v}"),
            ParamValue::Text(s) => write!(f, "{s}"),
            ParamValue::List(v) => {
                let parts: Vec<String> = v.iter().map(|x| x.to_string()).collect();
                write!(f, "{}", parts.join("x"))
            }
            ParamValue::Spec(s) => write!(f, "({s})"),
        }
    }
}

/// How a name (family, routing, traffic pattern, workload) is written when it is read: case
/// and '-' against '_' do not matter, so `slimfly_worst`, `Dragonfly_Min` and `slimfly_worst`
/// are the names `slimfly_worst` and `dragonfly_min`. topolab itself writes names in
/// snake_case; the other spelling is accepted as an alias here, in this one place.
pub fn canonical_name(written: &str) -> String {
    written
        .chars()
        .map(|c| {
            if c == '-' {
                '_'
            } else {
                c.to_ascii_lowercase()
            }
        })
        .collect()
}

/// A family name and its parameters, as given (defaults are applied by the family).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct TopologySpec {
    pub family: String,
    pub params: BTreeMap<String, ParamValue>,
}

impl fmt::Display for TopologySpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.family)?;
        for (i, (k, v)) in self.params.iter().enumerate() {
            write!(f, "{}{k}={v}", if i == 0 { ':' } else { ',' })?;
        }
        Ok(())
    }
}

impl TopologySpec {
    pub fn new(family: &str) -> Self {
        TopologySpec {
            family: family.to_string(),
            params: BTreeMap::new(),
        }
    }

    pub fn with(mut self, key: &str, value: ParamValue) -> Self {
        self.params.insert(key.to_string(), value);
        self
    }

    /// Parses `family[:key=value[,key=value]...]`; a value in parentheses is a nested spec.
    pub fn parse(text: &str) -> Result<TopologySpec> {
        let err = |reason: String| TopolabError::SpecSyntax {
            spec: quote(text),
            reason,
        };
        let depth = nesting_depth(text);
        if depth > MAX_SPEC_DEPTH {
            return Err(err(format!(
                "specs nest {depth} levels deep; at most {MAX_SPEC_DEPTH} are allowed"
            )));
        }
        let nested = text.matches('(').count();
        if nested > MAX_NESTED_SPECS {
            return Err(err(format!(
                "{nested} nested specs; at most {MAX_NESTED_SPECS} are allowed"
            )));
        }
        let text_trim = text.trim();
        let (family, rest) = match text_trim.find(':') {
            Some(i) => (&text_trim[..i], Some(&text_trim[i + 1..])),
            None => (text_trim, None),
        };
        let family = family.trim();
        if family.is_empty()
            || !family
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
        {
            return Err(err(format!(
                // The same syntax names families, routings and traffic patterns.
                "'{}' is not a name (a spec begins with letters, digits, '_' and '-')",
                quote(family)
            )));
        }
        let mut spec = TopologySpec::new(&family.to_ascii_lowercase());
        let Some(rest) = rest else {
            return Ok(spec);
        };
        for item in split_top_level(rest).map_err(err)? {
            let item = item.trim();
            if item.is_empty() {
                continue;
            }
            let Some(eq) = item.find('=') else {
                return Err(err(format!(
                    "'{}' is not of the form key=value",
                    quote(item)
                )));
            };
            let key = item[..eq].trim().to_ascii_lowercase();
            let value = item[eq + 1..].trim();
            if key.is_empty() {
                return Err(err(format!("'{}' has no parameter name", quote(item))));
            }
            let value = if let Some(inner) = value.strip_prefix('(') {
                let inner = inner
                    .strip_suffix(')')
                    .ok_or_else(|| err(format!("unbalanced parentheses in '{}'", quote(value))))?;
                ParamValue::Spec(Box::new(TopologySpec::parse(inner)?))
            } else if value.is_empty() {
                return Err(err(format!("parameter '{}' has no value", quote(&key))));
            } else {
                ParamValue::Text(value.to_string())
            };
            if spec.params.insert(key.clone(), value).is_some() {
                return Err(err(format!("parameter '{}' is given twice", quote(&key))));
            }
        }
        Ok(spec)
    }
}

/// Deepest nesting a spec may have: a product of products is 2 levels, and Daryin & Korzh's (JSFI
/// 2014) deepest construction (SF x FF-2) needs 2; each level is a recursive parse and build.
pub const MAX_SPEC_DEPTH: usize = 16;
/// Most nested specs in one spec: a product of this many factors is far beyond any design,
/// and each is built (a tree of 2^16 one-router factors would take minutes).
pub const MAX_NESTED_SPECS: usize = 64;

/// How deeply the parentheses of `text` nest (unbalanced ones are reported by the parser).
fn nesting_depth(text: &str) -> usize {
    let (mut depth, mut deepest) = (0usize, 0usize);
    for c in text.chars() {
        match c {
            '(' => {
                depth += 1;
                deepest = deepest.max(depth);
            }
            ')' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    deepest
}

fn split_top_level(s: &str) -> std::result::Result<Vec<&str>, String> {
    let mut parts = Vec::new();
    let mut depth = 0i32;
    let mut start = 0;
    for (i, c) in s.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => {
                depth -= 1;
                if depth < 0 {
                    return Err("unbalanced ')'".to_string());
                }
            }
            ',' if depth == 0 => {
                parts.push(&s[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    if depth != 0 {
        return Err("unbalanced '('".to_string());
    }
    parts.push(&s[start..]);
    Ok(parts)
}

/// Typed, validated access to a spec's parameters inside one family's builder.
#[derive(Debug, Clone)]
pub struct Params<'a> {
    family: &'a str,
    values: &'a BTreeMap<String, ParamValue>,
}

impl<'a> Params<'a> {
    pub fn new(family: &'a str, values: &'a BTreeMap<String, ParamValue>) -> Self {
        Params { family, values }
    }

    pub fn family(&self) -> &str {
        self.family
    }

    pub fn has(&self, name: &str) -> bool {
        self.values.contains_key(name)
    }

    /// An error for parameter `name` with value `value`, in this family's context.
    pub fn invalid(&self, name: &str, value: impl ToString, allowed: &str) -> TopolabError {
        TopolabError::invalid(self.family, name, value, allowed)
    }

    fn missing(&self, name: &str, help: &str) -> TopolabError {
        TopolabError::MissingParameter {
            context: self.family.to_string(),
            param: name.to_string(),
            help: help.to_string(),
        }
    }

    fn int_of(&self, name: &str, v: &ParamValue) -> Result<i64> {
        match v {
            ParamValue::Int(i) => Ok(*i),
            ParamValue::Float(f) if f.fract() == 0.0 && f.abs() < 9e15 => Ok(*f as i64),
            ParamValue::Text(s) => s
                .trim()
                .parse::<i64>()
                .map_err(|_| self.invalid(name, format!("'{s}'"), "an integer")),
            other => Err(self.invalid(name, other, "an integer")),
        }
    }

    /// Optional integer in `[min, max]`.
    pub fn opt_int(&self, name: &str, min: i64, max: i64) -> Result<Option<i64>> {
        let Some(v) = self.values.get(name) else {
            return Ok(None);
        };
        let i = self.int_of(name, v)?;
        if i < min || i > max {
            let allowed = if max == i64::MAX {
                format!("an integer >= {min}")
            } else {
                format!("an integer from {min} to {max}")
            };
            return Err(self.invalid(name, i, &allowed));
        }
        Ok(Some(i))
    }

    /// Required integer in `[min, max]`; `help` says what the parameter means.
    pub fn int(&self, name: &str, min: i64, max: i64, help: &str) -> Result<i64> {
        self.opt_int(name, min, max)?
            .ok_or_else(|| self.missing(name, help))
    }

    pub fn opt_u32(&self, name: &str, min: u32, max: u32) -> Result<Option<u32>> {
        Ok(self
            .opt_int(name, min as i64, max as i64)?
            .map(|v| v as u32))
    }

    pub fn u32(&self, name: &str, min: u32, max: u32, help: &str) -> Result<u32> {
        Ok(self.int(name, min as i64, max as i64, help)? as u32)
    }

    pub fn opt_u64(&self, name: &str) -> Result<Option<u64>> {
        Ok(self.opt_int(name, 0, i64::MAX)?.map(|v| v as u64))
    }

    /// The construction seed (default 0).
    pub fn seed(&self) -> Result<u64> {
        Ok(self.opt_u64("seed")?.unwrap_or(0))
    }

    pub fn opt_float(&self, name: &str, min: f64, max: f64) -> Result<Option<f64>> {
        let Some(v) = self.values.get(name) else {
            return Ok(None);
        };
        let f = match v {
            ParamValue::Int(i) => *i as f64,
            ParamValue::Float(f) => *f,
            ParamValue::Text(s) => s
                .trim()
                .parse::<f64>()
                .map_err(|_| self.invalid(name, format!("'{s}'"), "a number"))?,
            other => return Err(self.invalid(name, other, "a number")),
        };
        if !f.is_finite() || f < min || f > max {
            return Err(self.invalid(name, f, &format!("a number from {min} to {max}")));
        }
        Ok(Some(f))
    }

    pub fn opt_bool(&self, name: &str) -> Result<Option<bool>> {
        let Some(v) = self.values.get(name) else {
            return Ok(None);
        };
        match v {
            ParamValue::Bool(b) => Ok(Some(*b)),
            ParamValue::Int(0) => Ok(Some(false)),
            ParamValue::Int(1) => Ok(Some(true)),
            ParamValue::Text(s) => match s.trim().to_ascii_lowercase().as_str() {
                "true" | "yes" | "1" | "on" => Ok(Some(true)),
                "false" | "no" | "0" | "off" => Ok(Some(false)),
                _ => Err(self.invalid(name, format!("'{s}'"), "true or false")),
            },
            other => Err(self.invalid(name, other, "true or false")),
        }
    }

    /// A list of integers, written `4x8x8` in spec strings (a single integer is a 1-list).
    /// Every element must lie in `[min, max]`.
    pub fn opt_list(&self, name: &str, min: i64, max: i64) -> Result<Option<Vec<i64>>> {
        let Some(v) = self.values.get(name) else {
            return Ok(None);
        };
        let list = match v {
            ParamValue::Int(i) => vec![*i],
            ParamValue::List(l) => l.clone(),
            ParamValue::Text(s) => s
                .split(['x', 'X', '*'])
                .map(|p| p.trim().parse::<i64>())
                .collect::<std::result::Result<Vec<_>, _>>()
                .map_err(|_| {
                    self.invalid(
                        name,
                        format!("'{s}'"),
                        "integers separated by 'x', e.g. 4x8x8",
                    )
                })?,
            other => {
                return Err(self.invalid(name, other, "integers separated by 'x', e.g. 4x8x8"))
            }
        };
        if list.is_empty() {
            return Err(self.invalid(name, "an empty list", "at least one integer"));
        }
        if let Some(bad) = list.iter().find(|&&x| x < min || x > max) {
            return Err(self.invalid(
                name,
                v,
                &format!("every entry an integer from {min} to {max} (found {bad})"),
            ));
        }
        Ok(Some(list))
    }

    pub fn list(&self, name: &str, min: i64, max: i64, help: &str) -> Result<Vec<i64>> {
        self.opt_list(name, min, max)?
            .ok_or_else(|| self.missing(name, help))
    }

    /// Optional text (a name or a file path), e.g. a routing's VC scheme or a floor.
    pub fn opt_text(&self, name: &str) -> Result<Option<String>> {
        match self.values.get(name) {
            None => Ok(None),
            Some(ParamValue::Text(t)) => Ok(Some(t.trim().to_string())),
            Some(ParamValue::Int(i)) => Ok(Some(i.to_string())),
            Some(ParamValue::Bool(b)) => Ok(Some(b.to_string())),
            Some(other) => Err(self.invalid(name, other, "a name")),
        }
    }

    pub fn spec(&self, name: &str, help: &str) -> Result<TopologySpec> {
        match self.values.get(name) {
            None => Err(self.missing(name, help)),
            Some(ParamValue::Spec(s)) => Ok((**s).clone()),
            Some(ParamValue::Text(t)) => TopologySpec::parse(t),
            Some(other) => Err(self.invalid(
                name,
                other,
                "a topology spec, e.g. (slimfly:q=5) in a spec string",
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_catalog_name_is_written_in_snake_case() {
        let mut names: Vec<&str> = Vec::new();
        for f in crate::topology::families() {
            names.push(f.name);
            names.extend(f.aliases);
        }
        names.extend(crate::routing::catalog::ROUTINGS.iter().map(|r| r.name));
        names.extend(crate::routing::catalog::ALIASES.iter().map(|a| a.name));
        for t in crate::traffic::PATTERNS {
            names.push(t.name);
            names.extend(t.aliases);
        }
        for (name, aliases, _) in crate::traffic::EXCHANGES {
            names.push(name);
            names.extend(*aliases);
        }
        for w in crate::workload::WORKLOADS {
            names.push(w.name);
            names.extend(w.aliases);
        }
        assert!(names.len() > 100, "{} names", names.len());
        for name in names {
            assert_eq!(
                canonical_name(name),
                name,
                "a catalog name must be snake_case"
            );
        }
    }

    #[test]
    fn a_name_reads_alike_in_either_spelling_and_any_case() {
        assert_eq!(canonical_name("Slimfly-Worst"), "slimfly_worst");
        assert_eq!(canonical_name("dragonfly_min"), "dragonfly_min");
        assert_eq!(
            crate::topology::find_family("Multi-Layer-Full-Mesh")
                .unwrap()
                .name,
            "mlfm"
        );
        assert_eq!(
            crate::routing::catalog::find("dragonfly-static")
                .unwrap()
                .name,
            "dragonfly_static"
        );
        assert_eq!(
            crate::routing::catalog::resolve_alias("dragonfly-min", false).unwrap(),
            crate::routing::catalog::resolve_alias("dragonfly_min", false).unwrap()
        );
    }

    #[test]
    fn parses_flat_and_nested_specs() {
        let s = TopologySpec::parse("SlimFly:q=19, p=15").unwrap();
        assert_eq!(s.family, "slimfly");
        assert_eq!(s.params["q"], ParamValue::Text("19".into()));
        assert_eq!(s.to_string(), "slimfly:p=15,q=19");
        let n = TopologySpec::parse("product:a=(slimfly:q=4,p=2),b=(hyperx:dims=8x8)").unwrap();
        match &n.params["a"] {
            ParamValue::Spec(inner) => assert_eq!(inner.params.len(), 2),
            other => panic!("expected nested spec, got {other:?}"),
        }
        assert_eq!(TopologySpec::parse(&n.to_string()).unwrap(), n);
    }

    #[test]
    fn rejects_malformed_specs() {
        for bad in [
            "",
            ":q=3",
            "slimfly:q",
            "slimfly:q=",
            "slimfly:q=3,q=4",
            "product:a=(x",
        ] {
            assert!(TopologySpec::parse(bad).is_err(), "{bad} should fail");
        }
    }

    #[test]
    fn typed_access_names_parameter_and_range() {
        let s = TopologySpec::parse("x:q=abc,n=7,dims=4x8").unwrap();
        let p = Params::new("x", &s.params);
        let e = p.opt_int("q", 0, 10).unwrap_err().to_string();
        assert!(
            e.contains("'q'") && e.contains("abc") && e.contains("integer"),
            "{e}"
        );
        let e = p.opt_int("n", 0, 5).unwrap_err().to_string();
        assert!(
            e.contains("'n'") && e.contains('7') && e.contains("0 to 5"),
            "{e}"
        );
        assert_eq!(p.opt_list("dims", 1, 100).unwrap(), Some(vec![4, 8]));
        assert!(p.int("missing", 0, 1, "help text").is_err());
    }
}
