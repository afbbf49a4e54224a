//! topolab's own JSON format: everything a `Network` holds, so that a round trip is exact.
//!
//! ```text
//! {"format": "topolab-network", "version": 1, "family": "...", "spec": "...",
//!  "directed": false, "endpoints": [e0, e1, ...], "label_fields": ["t", ...],
//!  "labels": [[...], ...], "link_classes": ["local", ...], "links": [[src, dst, width, class], ...]}
//! ```
//! The reader checks every field and names the offending one (`links[3][2]`) in its errors.

use std::collections::BTreeMap;
use std::fmt;

use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Number, Value};

use super::{check_endpoints_option, finish, resolve_directed, Format, LoadOptions};
use crate::error::{Result, TopolabError};
use crate::network::{Network, NetworkBuilder};

pub const FORMAT_NAME: &str = "topolab-network";
pub const VERSION: u64 = 1;

/// The fields of a file; all but `failures` (present when the network is the survivors of a
/// failure set, `failures::apply`) are required.
const FIELDS: [&str; 11] = [
    "format",
    "version",
    "family",
    "spec",
    "failures",
    "directed",
    "endpoints",
    "label_fields",
    "labels",
    "link_classes",
    "links",
];

fn quote(s: &str) -> String {
    Value::String(s.to_string()).to_string()
}

fn join<T: ToString>(items: impl IntoIterator<Item = T>) -> String {
    items
        .into_iter()
        .map(|x| x.to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

/// One router label and one link per line, so that files diff well and stay readable.
pub fn to_string(net: &Network) -> String {
    let mut out = String::new();
    out.push_str("{\n");
    out.push_str(&format!("  \"format\": {},\n", quote(FORMAT_NAME)));
    out.push_str(&format!("  \"version\": {VERSION},\n"));
    out.push_str(&format!("  \"family\": {},\n", quote(net.family())));
    out.push_str(&format!("  \"spec\": {},\n", quote(net.spec())));
    if let Some(failures) = net.failures() {
        out.push_str(&format!("  \"failures\": {},\n", quote(failures)));
    }
    out.push_str(&format!("  \"directed\": {},\n", net.directed()));
    out.push_str(&format!("  \"endpoints\": [{}],\n", join(net.endpoints())));
    out.push_str(&format!(
        "  \"label_fields\": [{}],\n",
        join(net.label_fields().iter().map(|f| quote(f)))
    ));
    let labels: Vec<String> = (0..net.num_routers())
        .map(|r| format!("    [{}]", join(net.label(r))))
        .collect();
    push_rows(&mut out, "labels", &labels, true);
    out.push_str(&format!(
        "  \"link_classes\": [{}],\n",
        join(net.link_classes().iter().map(|c| quote(c)))
    ));
    let links: Vec<String> = net
        .links()
        .iter()
        .map(|l| format!("    [{}, {}, {}, {}]", l.src, l.dst, l.width, l.class))
        .collect();
    push_rows(&mut out, "links", &links, false);
    out.push_str("}\n");
    out
}

fn push_rows(out: &mut String, key: &str, rows: &[String], comma: bool) {
    let end = if comma { "," } else { "" };
    if rows.is_empty() {
        out.push_str(&format!("  \"{key}\": []{end}\n"));
    } else {
        out.push_str(&format!("  \"{key}\": [\n{}\n  ]{end}\n", rows.join(",\n")));
    }
}

fn err(location: impl Into<String>, reason: impl Into<String>) -> TopolabError {
    TopolabError::format(Format::Json.title(), location, reason)
}

fn describe(v: &Value) -> String {
    let text = v.to_string();
    if text.len() > 40 {
        format!(
            "{}...",
            &text[..text.char_indices().nth(37).map_or(text.len(), |c| c.0)]
        )
    } else {
        text
    }
}

fn get<'a>(obj: &'a Map<String, Value>, key: &str) -> Result<&'a Value> {
    obj.get(key)
        .ok_or_else(|| err("", format!("missing field '{key}'")))
}

fn as_str<'a>(v: &'a Value, loc: &str) -> Result<&'a str> {
    v.as_str()
        .ok_or_else(|| err(loc, format!("expected a string, found {}", describe(v))))
}

fn as_array<'a>(v: &'a Value, loc: &str) -> Result<&'a Vec<Value>> {
    v.as_array()
        .ok_or_else(|| err(loc, format!("expected an array, found {}", describe(v))))
}

fn as_u64(v: &Value, loc: &str, max: u64) -> Result<u64> {
    match v.as_u64() {
        Some(x) if x <= max => Ok(x),
        _ => Err(err(
            loc,
            format!("expected an integer in 0..={max}, found {}", describe(v)),
        )),
    }
}

fn strings(v: &Value, loc: &str) -> Result<Vec<String>> {
    let items = as_array(v, loc)?;
    let mut out: Vec<String> = Vec::with_capacity(items.len());
    for (i, item) in items.iter().enumerate() {
        let at = format!("{loc}[{i}]");
        let s = as_str(item, &at)?;
        if out.iter().any(|o| o == s) {
            return Err(err(at, format!("duplicate name {}", quote(s))));
        }
        out.push(s.to_string());
    }
    Ok(out)
}

fn syntax_error(e: serde_json::Error) -> TopolabError {
    let full = e.to_string();
    // serde_json appends " at line L column C"; the location goes in its own slot instead.
    let reason = match full.rfind(" at line ") {
        Some(i) => full[..i].to_string(),
        None => full,
    };
    let reason = if e.is_eof() {
        format!("truncated document ({reason})")
    } else {
        reason
    };
    err(format!("line {}, column {}", e.line(), e.column()), reason)
}

/// A JSON value read with every object's keys distinct: serde_json's `Value` keeps the last of
/// a repeated key, so `{"endpoints": [1], "endpoints": [9]}` would load silently as 9.
struct Unique(Value);

impl<'de> Deserialize<'de> for Unique {
    fn deserialize<D: Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        d.deserialize_any(UniqueVisitor).map(Unique)
    }
}

struct UniqueVisitor;

impl<'de> Visitor<'de> for UniqueVisitor {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON value")
    }
    fn visit_bool<E: de::Error>(self, v: bool) -> std::result::Result<Value, E> {
        Ok(Value::Bool(v))
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> std::result::Result<Value, E> {
        Ok(Value::Number(v.into()))
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> std::result::Result<Value, E> {
        Ok(Value::Number(v.into()))
    }
    fn visit_f64<E: de::Error>(self, v: f64) -> std::result::Result<Value, E> {
        Ok(Number::from_f64(v).map_or(Value::Null, Value::Number))
    }
    fn visit_str<E: de::Error>(self, v: &str) -> std::result::Result<Value, E> {
        Ok(Value::String(v.to_owned()))
    }
    fn visit_string<E: de::Error>(self, v: String) -> std::result::Result<Value, E> {
        Ok(Value::String(v))
    }
    fn visit_unit<E: de::Error>(self) -> std::result::Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> std::result::Result<Value, A::Error> {
        let mut items = Vec::new();
        while let Some(Unique(item)) = seq.next_element()? {
            items.push(item);
        }
        Ok(Value::Array(items))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> std::result::Result<Value, A::Error> {
        let mut obj = Map::new();
        while let Some(key) = map.next_key::<String>()? {
            if obj.contains_key(&key) {
                return Err(de::Error::custom(format!(
                    "the key {} appears twice in one object",
                    crate::error::quote(&quote(&key))
                )));
            }
            let Unique(value) = map.next_value()?;
            obj.insert(key, value);
        }
        Ok(Value::Object(obj))
    }
}

pub fn from_str(text: &str, options: &LoadOptions) -> Result<Network> {
    let Unique(root) = serde_json::from_str(text).map_err(syntax_error)?;
    let obj = root.as_object().ok_or_else(|| {
        err(
            "",
            format!(
                "expected a JSON object at the top, found {}",
                describe(&root)
            ),
        )
    })?;
    if let Some(k) = obj.keys().find(|k| !FIELDS.contains(&k.as_str())) {
        return Err(err(
            "",
            format!("unknown field '{k}'; the fields are {}", FIELDS.join(", ")),
        ));
    }
    let format = as_str(get(obj, "format")?, "format")?;
    if format != FORMAT_NAME {
        return Err(err(
            "format",
            format!(
                "expected {}, found {}: not a topolab network file",
                quote(FORMAT_NAME),
                quote(format)
            ),
        ));
    }
    let version = get(obj, "version")?;
    if version.as_u64() != Some(VERSION) {
        return Err(err(
            "version",
            format!(
                "version {} is not supported; this topolab reads version {VERSION}",
                describe(version)
            ),
        ));
    }
    let family = as_str(get(obj, "family")?, "family")?;
    let spec = as_str(get(obj, "spec")?, "spec")?;
    let failures = match obj.get("failures") {
        None => None,
        Some(v) => Some(as_str(v, "failures")?),
    };
    let directed_v = get(obj, "directed")?;
    let directed = directed_v.as_bool().ok_or_else(|| {
        err(
            "directed",
            format!("expected true or false, found {}", describe(directed_v)),
        )
    })?;
    let directed = resolve_directed(Format::Json, Some(directed), options)?;

    let endpoints_v = as_array(get(obj, "endpoints")?, "endpoints")?;
    let mut endpoints = Vec::with_capacity(endpoints_v.len());
    for (r, v) in endpoints_v.iter().enumerate() {
        let loc = format!("endpoints[{r}]");
        let e = as_u64(v, &loc, u32::MAX as u64)? as u32;
        check_endpoints_option(Format::Json, loc, e, options)?;
        endpoints.push(e);
    }
    let routers = endpoints.len();

    let label_fields = strings(get(obj, "label_fields")?, "label_fields")?;
    let labels_v = as_array(get(obj, "labels")?, "labels")?;
    if labels_v.len() != routers {
        return Err(err(
            "labels",
            format!(
                "{} labels for {routers} routers (one label per entry of 'endpoints')",
                labels_v.len()
            ),
        ));
    }
    let mut labels = Vec::with_capacity(routers * label_fields.len());
    for (r, v) in labels_v.iter().enumerate() {
        let loc = format!("labels[{r}]");
        let items = as_array(v, &loc)?;
        if items.len() != label_fields.len() {
            return Err(err(
                loc,
                format!(
                    "{} values for {} label fields",
                    items.len(),
                    label_fields.len()
                ),
            ));
        }
        for (i, x) in items.iter().enumerate() {
            labels.push(x.as_i64().ok_or_else(|| {
                err(
                    format!("labels[{r}][{i}]"),
                    format!("expected a 64-bit integer, found {}", describe(x)),
                )
            })?);
        }
    }

    let classes = strings(get(obj, "link_classes")?, "link_classes")?;
    if classes.len() > u16::MAX as usize + 1 {
        return Err(err(
            "link_classes",
            format!(
                "{} classes; at most {} are allowed",
                classes.len(),
                u16::MAX as usize + 1
            ),
        ));
    }
    let links_v = as_array(get(obj, "links")?, "links")?;

    let mut b = NetworkBuilder::new(family, routers, directed);
    let field_refs: Vec<&str> = label_fields.iter().map(|s| s.as_str()).collect();
    b.label_fields(&field_refs);
    if !label_fields.is_empty() {
        for (r, label) in labels.chunks(label_fields.len()).enumerate() {
            b.set_label(r, label);
        }
    }
    for (r, &e) in endpoints.iter().enumerate() {
        b.set_endpoints(r, e);
    }
    for c in &classes {
        b.link_class(c);
    }
    let mut seen: BTreeMap<(usize, usize), usize> = BTreeMap::new();
    for (i, v) in links_v.iter().enumerate() {
        let loc = format!("links[{i}]");
        let items = as_array(v, &loc)?;
        if items.len() != 4 {
            return Err(err(
                loc,
                format!(
                    "expected [src, dst, width, class], found {} values",
                    items.len()
                ),
            ));
        }
        let router_max = routers.saturating_sub(1) as u64;
        let mut ends = [0usize; 2];
        for (k, end) in ends.iter_mut().enumerate() {
            if routers == 0 {
                return Err(err(loc, "a link in a network without routers"));
            }
            *end = as_u64(&items[k], &format!("links[{i}][{k}]"), router_max)? as usize;
        }
        if ends[0] == ends[1] {
            return Err(err(loc, format!("self-loop at router {}", ends[0])));
        }
        let width = as_u64(&items[2], &format!("links[{i}][2]"), u32::MAX as u64)? as u32;
        if width == 0 {
            return Err(err(format!("links[{i}][2]"), "width must be at least 1"));
        }
        if classes.is_empty() {
            return Err(err(loc, "a link but 'link_classes' is empty"));
        }
        let class = as_u64(
            &items[3],
            &format!("links[{i}][3]"),
            (classes.len() - 1) as u64,
        )? as u16;
        let pair = if directed || ends[0] < ends[1] {
            (ends[0], ends[1])
        } else {
            (ends[1], ends[0])
        };
        if let Some(first) = seen.insert(pair, i) {
            return Err(err(
                loc,
                format!(
                    "same router pair as links[{first}]; parallel links are one link with a larger width"
                ),
            ));
        }
        b.add_link(ends[0], ends[1], width, class);
    }
    let net = finish(b, Format::Json, family, spec)?;
    Ok(match failures {
        Some(f) => net.with_failures(f),
        None => net,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_repeated_key_is_refused_at_any_depth() {
        let net = crate::build_str("torus:dims=3").unwrap();
        let text = to_string(&net);
        assert!(from_str(&text, &LoadOptions::default()).is_ok());
        let top = text.replacen(
            "\"endpoints\":",
            "\"endpoints\": [0, 0, 0], \"endpoints\":",
            1,
        );
        let err = from_str(&top, &LoadOptions::default()).unwrap_err();
        assert!(
            err.to_string().contains("\"endpoints\" appears twice"),
            "{err}"
        );
        let nested = r#"{"format": "topolab-network", "x": {"a": 1, "a": 2}}"#;
        let err = from_str(nested, &LoadOptions::default()).unwrap_err();
        assert!(err.to_string().contains("appears twice"), "{err}");
    }
}
