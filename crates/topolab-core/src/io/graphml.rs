//! GraphML (http://graphml.graphdrawing.org/), as written by topolab and by networkx.
//!
//! Nodes are routers in document order whatever their ids; node attribute `endpoints`, edge
//! attributes `width` and `class`. topolab adds graph attributes `family`, `spec`,
//! `label_fields` and `link_classes` (the last two JSON arrays of strings) and one node
//! attribute per label field, so that its own files round-trip exactly. Files without them
//! (networkx) load with index labels and class "link" where an edge has none.

use std::collections::BTreeMap;

use quick_xml::events::{BytesStart, Event};
use quick_xml::Reader;

use super::{
    check_endpoints_option, finish, parse_u32, resolve_directed, Format, LinkSet, LoadOptions,
    DEFAULT_LINK_CLASS, IMPORTED_FAMILY,
};
use crate::error::{Result, TopolabError};
use crate::network::{Network, NetworkBuilder};

const GRAPHML_HEADER: &str = r#"<graphml xmlns="http://graphml.graphdrawing.org/xmlns" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="http://graphml.graphdrawing.org/xmlns http://graphml.graphdrawing.org/xmlns/1.0/graphml.xsd">"#;

fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            _ => out.push(c),
        }
    }
    out
}

fn json_list(items: &[String]) -> String {
    serde_json::Value::from(items.to_vec()).to_string()
}

/// Fails only for label field names GraphML attributes could not keep apart.
pub fn to_string(net: &Network) -> Result<String> {
    let fields = net.label_fields();
    for (i, f) in fields.iter().enumerate() {
        if f == "endpoints" || fields[..i].contains(f) {
            return Err(TopolabError::invalid(
                "GraphML export",
                "label_fields",
                f,
                "names distinct from each other and from 'endpoints' (GraphML attributes are keyed by name)",
            ));
        }
    }
    let mut out = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    out.push_str(GRAPHML_HEADER);
    out.push('\n');
    let key = |out: &mut String, id: &str, domain: &str, name: &str, ty: &str| {
        out.push_str(&format!(
            "  <key id=\"{}\" for=\"{domain}\" attr.name=\"{}\" attr.type=\"{ty}\"/>\n",
            escape(id),
            escape(name)
        ));
    };
    for name in ["family", "spec", "label_fields", "link_classes"] {
        key(&mut out, name, "graph", name, "string");
    }
    key(&mut out, "endpoints", "node", "endpoints", "int");
    for (i, f) in fields.iter().enumerate() {
        key(&mut out, &format!("label{i}"), "node", f, "long");
    }
    key(&mut out, "width", "edge", "width", "int");
    // `link_class`, the name networkx conversions use too (Network.to_networkx); readers
    // also take `class`, which topolab wrote before.
    key(&mut out, "link_class", "edge", "link_class", "string");
    let direction = if net.directed() {
        "directed"
    } else {
        "undirected"
    };
    out.push_str(&format!("  <graph id=\"G\" edgedefault=\"{direction}\">\n"));
    for (k, v) in [
        ("family", escape(net.family())),
        ("spec", escape(net.spec())),
        ("label_fields", escape(&json_list(fields))),
        ("link_classes", escape(&json_list(net.link_classes()))),
    ] {
        out.push_str(&format!("    <data key=\"{k}\">{v}</data>\n"));
    }
    for r in 0..net.num_routers() {
        out.push_str(&format!(
            "    <node id=\"n{r}\"><data key=\"endpoints\">{}</data>",
            net.endpoints()[r]
        ));
        for (i, v) in net.label(r).iter().enumerate() {
            out.push_str(&format!("<data key=\"label{i}\">{v}</data>"));
        }
        out.push_str("</node>\n");
    }
    for l in net.links() {
        let class = net
            .link_classes()
            .get(l.class as usize)
            .map(|c| escape(c))
            .unwrap_or_default();
        out.push_str(&format!(
            "    <edge source=\"n{}\" target=\"n{}\"><data key=\"width\">{}</data><data key=\"link_class\">{class}</data></edge>\n",
            l.src, l.dst, l.width
        ));
    }
    out.push_str("  </graph>\n</graphml>\n");
    Ok(out)
}

fn err(location: impl Into<String>, reason: impl Into<String>) -> TopolabError {
    TopolabError::format(Format::GraphMl.title(), location, reason)
}

/// Just enough of a document tree: GraphML files are read whole, and resolving keys, node ids
/// and defaults is far simpler on a tree than on a stream of events.
struct Element {
    name: String,
    attrs: Vec<(String, String)>,
    children: Vec<Element>,
    text: String,
    line: usize,
}

impl Element {
    fn attr(&self, name: &str) -> Option<&str> {
        self.attrs
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    fn children_named<'a>(&'a self, name: &'a str) -> impl Iterator<Item = &'a Element> + 'a {
        self.children.iter().filter(move |c| c.name == name)
    }

    fn where_(&self) -> String {
        format!("line {}, <{}>", self.line, self.name)
    }
}

fn line_of(newlines: &[usize], pos: usize) -> usize {
    newlines.partition_point(|&o| o < pos) + 1
}

fn element(e: &BytesStart, line: usize) -> Result<Element> {
    let name = String::from_utf8_lossy(e.local_name().as_ref()).into_owned();
    let mut attrs = Vec::new();
    for a in e.attributes() {
        let a = a.map_err(|x| err(format!("line {line}"), format!("malformed attribute: {x}")))?;
        let value = a.unescape_value().map_err(|x| {
            err(
                format!("line {line}"),
                format!("malformed attribute value: {x}"),
            )
        })?;
        attrs.push((
            String::from_utf8_lossy(a.key.as_ref()).into_owned(),
            value.into_owned(),
        ));
    }
    Ok(Element {
        name,
        attrs,
        children: Vec::new(),
        text: String::new(),
        line,
    })
}

/// Deepest element nesting read. GraphML needs 4 levels (graphml, graph, node, data) plus
/// nested graphs; the tree is built and dropped recursively, so an unbounded depth would
/// overflow the stack.
pub const MAX_XML_DEPTH: usize = 64;

fn parse_tree(text: &str) -> Result<Element> {
    let newlines: Vec<usize> = text.match_indices('\n').map(|(i, _)| i).collect();
    let mut reader = Reader::from_str(text);
    reader.config_mut().trim_text(true);
    let mut stack: Vec<Element> = Vec::new();
    let mut root: Option<Element> = None;
    let mut attach = |el: Element, stack: &mut Vec<Element>| -> Result<()> {
        match stack.last_mut() {
            Some(parent) => parent.children.push(el),
            None if root.is_some() => {
                return Err(err(
                    format!("line {}", el.line),
                    format!("second root element <{}>", el.name),
                ))
            }
            None => root = Some(el),
        }
        Ok(())
    };
    loop {
        let event = reader.read_event().map_err(|e| {
            let line = line_of(&newlines, reader.error_position() as usize);
            err(format!("line {line}"), format!("malformed XML: {e}"))
        })?;
        let line = line_of(&newlines, reader.buffer_position() as usize);
        match event {
            Event::Start(e) => {
                if stack.len() >= MAX_XML_DEPTH {
                    return Err(err(
                        format!("line {line}"),
                        format!("elements nest more than {MAX_XML_DEPTH} levels deep"),
                    ));
                }
                stack.push(element(&e, line)?)
            }
            Event::Empty(e) => attach(element(&e, line)?, &mut stack)?,
            Event::End(_) => match stack.pop() {
                Some(el) => attach(el, &mut stack)?,
                None => {
                    return Err(err(
                        format!("line {line}"),
                        "closing tag without opening tag",
                    ))
                }
            },
            Event::Text(t) => {
                let t = t
                    .unescape()
                    .map_err(|x| err(format!("line {line}"), format!("malformed text: {x}")))?;
                match stack.last_mut() {
                    Some(top) => top.text.push_str(&t),
                    None => {
                        return Err(err(format!("line {line}"), "text outside the root element"))
                    }
                }
            }
            Event::CData(c) => {
                if let Some(top) = stack.last_mut() {
                    top.text.push_str(&String::from_utf8_lossy(&c));
                }
            }
            Event::DocType(_) => {
                // Entities are never expanded, but a DTD (internal or external) is refused
                // outright, as docs/reliability.md says: GraphML needs none.
                return Err(err(
                    format!("line {line}"),
                    "a DTD (<!DOCTYPE ...>) is not allowed in GraphML input",
                ));
            }
            Event::Eof => break,
            _ => {}
        }
    }
    if let Some(open) = stack.last() {
        return Err(err(
            "end of input",
            format!(
                "document ends inside <{}> opened on line {} (truncated?)",
                open.name, open.line
            ),
        ));
    }
    root.ok_or_else(|| err("", "no XML element found"))
}

struct Key {
    domain: String,
    name: String,
    default: Option<String>,
}

/// The attribute values of one node, edge or graph by attribute name, key defaults included.
fn values(
    el: &Element,
    domain: &str,
    keys: &BTreeMap<String, Key>,
) -> Result<BTreeMap<String, String>> {
    let mut out = BTreeMap::new();
    for d in el.children_named("data") {
        let id = d
            .attr("key")
            .ok_or_else(|| err(d.where_(), "<data> without a 'key' attribute"))?;
        let key = keys.get(id).ok_or_else(|| {
            err(
                d.where_(),
                format!("<data> refers to undeclared key '{id}'"),
            )
        })?;
        if key.domain != domain && key.domain != "all" {
            return Err(err(
                d.where_(),
                format!(
                    "key '{id}' is declared for {} but used on a {domain}",
                    key.domain
                ),
            ));
        }
        if out.insert(key.name.clone(), d.text.clone()).is_some() {
            return Err(err(
                d.where_(),
                format!("second value for attribute '{}'", key.name),
            ));
        }
    }
    for key in keys.values() {
        if key.domain == domain || key.domain == "all" {
            if let Some(default) = &key.default {
                out.entry(key.name.clone())
                    .or_insert_with(|| default.clone());
            }
        }
    }
    Ok(out)
}

fn name_list(text: &str, location: &str, what: &str) -> Result<Vec<String>> {
    let names: Vec<String> = serde_json::from_str(text).map_err(|_| {
        err(
            location,
            format!("graph attribute '{what}' = '{text}' is not a JSON array of strings"),
        )
    })?;
    for (i, n) in names.iter().enumerate() {
        if names[..i].contains(n) {
            return Err(err(
                location,
                format!("graph attribute '{what}' names '{n}' twice"),
            ));
        }
    }
    Ok(names)
}

pub fn from_str(text: &str, options: &LoadOptions) -> Result<Network> {
    let root = parse_tree(text)?;
    if root.name != "graphml" {
        return Err(err(
            root.where_(),
            format!("root element is <{}>, expected <graphml>", root.name),
        ));
    }
    let mut keys: BTreeMap<String, Key> = BTreeMap::new();
    for k in root.children_named("key") {
        let id = k
            .attr("id")
            .ok_or_else(|| err(k.where_(), "<key> without an 'id' attribute"))?;
        let key = Key {
            domain: k.attr("for").unwrap_or("all").to_string(),
            name: k.attr("attr.name").unwrap_or(id).to_string(),
            default: k.children_named("default").next().map(|d| d.text.clone()),
        };
        if keys.insert(id.to_string(), key).is_some() {
            return Err(err(k.where_(), format!("key id '{id}' declared twice")));
        }
    }
    let mut graphs = root.children_named("graph");
    let graph = graphs
        .next()
        .ok_or_else(|| err(root.where_(), "no <graph> element"))?;
    if let Some(g) = graphs.next() {
        return Err(err(
            g.where_(),
            "more than one <graph>; topolab reads one network per file",
        ));
    }

    let stated = match graph.attr("edgedefault") {
        None => None,
        Some("directed") => Some(true),
        Some("undirected") => Some(false),
        Some(other) => {
            return Err(err(
                graph.where_(),
                format!("edgedefault='{other}' must be 'directed' or 'undirected'"),
            ))
        }
    };
    let directed = resolve_directed(Format::GraphMl, stated, options)?;
    let gvals = values(graph, "graph", &keys)?;
    let gloc = graph.where_();
    let label_fields = match gvals.get("label_fields") {
        Some(t) => name_list(t, &gloc, "label_fields")?,
        None => Vec::new(),
    };
    let declared_classes = match gvals.get("link_classes") {
        Some(t) => name_list(t, &gloc, "link_classes")?,
        None => Vec::new(),
    };
    let family = gvals
        .get("family")
        .cloned()
        .unwrap_or_else(|| IMPORTED_FAMILY.to_string());
    let spec = gvals.get("spec").cloned().unwrap_or_default();

    let mut index: BTreeMap<&str, u32> = BTreeMap::new();
    let mut endpoints: Vec<u32> = Vec::new();
    let mut labels: Vec<i64> = Vec::new();
    for child in &graph.children {
        match child.name.as_str() {
            "hyperedge" => {
                return Err(err(
                    child.where_(),
                    "hyperedges cannot be links between two routers",
                ))
            }
            "node" => {
                let node = child;
                let id = node
                    .attr("id")
                    .ok_or_else(|| err(node.where_(), "<node> without an 'id' attribute"))?;
                let loc = format!("line {}, node '{id}'", node.line);
                if node.children_named("graph").next().is_some() {
                    return Err(err(loc, "nested graphs are not supported"));
                }
                if index.insert(id, endpoints.len() as u32).is_some() {
                    return Err(err(loc, "node id declared twice"));
                }
                if endpoints.len() >= u32::MAX as usize - 1 {
                    return Err(err(loc, "too many nodes"));
                }
                let vals = values(node, "node", &keys)?;
                let e = match vals.get("endpoints") {
                    Some(t) => {
                        let e = parse_u32(t.trim(), "endpoints").map_err(|m| err(&loc, m))?;
                        check_endpoints_option(Format::GraphMl, &loc, e, options)?;
                        e
                    }
                    None => options.endpoints_per_router.unwrap_or(0),
                };
                endpoints.push(e);
                for f in &label_fields {
                    let t = vals
                        .get(f)
                        .ok_or_else(|| err(&loc, format!("no value for label field '{f}'")))?;
                    labels.push(t.trim().parse::<i64>().map_err(|_| {
                        err(
                            &loc,
                            format!("label field '{f}' = '{t}' is not a 64-bit integer"),
                        )
                    })?);
                }
            }
            _ => {}
        }
    }

    let mut b = NetworkBuilder::new(&family, endpoints.len(), directed);
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
    let mut classes: Vec<String> = Vec::new();
    for c in &declared_classes {
        b.link_class(c);
        classes.push(c.clone());
    }
    let mut set = LinkSet::new(directed);
    for edge in graph.children_named("edge") {
        let loc = edge.where_();
        let end = |attr: &str| -> Result<(&str, u32)> {
            let id = edge
                .attr(attr)
                .ok_or_else(|| err(&loc, format!("<edge> without a '{attr}' attribute")))?;
            let r = index
                .get(id)
                .copied()
                .ok_or_else(|| err(&loc, format!("{attr} '{id}' is not a declared node")))?;
            Ok((id, r))
        };
        let ((src_id, src), (_, dst)) = (end("source")?, end("target")?);
        if src == dst {
            return Err(err(
                &loc,
                format!("self-loop at node '{src_id}' (a network has no router-to-itself links)"),
            ));
        }
        if let Some(d) = edge.attr("directed") {
            if d != directed.to_string() {
                return Err(err(
                    &loc,
                    format!(
                        "edge with directed='{d}' in a {} graph; topolab networks are all one or the other",
                        if directed { "directed" } else { "undirected" }
                    ),
                ));
            }
        }
        let vals = values(edge, "edge", &keys)?;
        let width = match vals.get("width") {
            Some(t) => parse_u32(t.trim(), "width").map_err(|m| err(&loc, m))?,
            None => 1,
        };
        if width == 0 {
            return Err(err(&loc, "width must be at least 1"));
        }
        let class_name = vals
            .get("link_class")
            .or_else(|| vals.get("class"))
            .map(|s| s.as_str())
            .unwrap_or(DEFAULT_LINK_CLASS);
        if !classes.iter().any(|c| c == class_name) {
            if classes.len() > u16::MAX as usize {
                return Err(err(&loc, "more than 65536 link classes"));
            }
            classes.push(class_name.to_string());
        }
        let class = b.link_class(class_name);
        set.add(src, dst, width, class, |c| classes[c as usize].clone())
            .map_err(|m| err(&loc, m))?;
    }
    set.add_to(&mut b);
    finish(b, Format::GraphMl, &family, &spec)
}
