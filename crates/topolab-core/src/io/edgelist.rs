//! Edge lists: one link per line, `u v [width]`, `#` starts a comment.
//!
//! topolab writes a header of comment lines so that its own files keep direction, endpoints,
//! family and spec:
//! ```text
//! # topolab-edgelist version=1 directed=false
//! # family slimfly
//! # spec slimfly:q=5,p=4
//! # endpoints 4 4 4 ...
//! 0 1
//! 0 4 2
//! ```
//! Files from elsewhere (networkx `write_edgelist(G, path, data=False)`) have no header: their
//! integer node ids, whatever they are, become routers 0..R-1 in ascending order, and direction
//! and endpoints come from `LoadOptions`. Labels and link classes are not kept by this format.

use std::collections::BTreeMap;

use super::{
    check_endpoints_option, finish, parse_u32, resolve_directed, Format, LinkSet, LoadOptions,
    DEFAULT_LINK_CLASS, IMPORTED_FAMILY,
};
use crate::error::{Result, TopolabError};
use crate::network::{Network, NetworkBuilder};

pub const MARKER: &str = "topolab-edgelist";
pub const VERSION: u32 = 1;

fn one_line(s: &str) -> String {
    s.replace(['\n', '\r'], " ")
}

pub fn to_string(net: &Network) -> String {
    let mut out = format!("# {MARKER} version={VERSION} directed={}\n", net.directed());
    if !net.family().is_empty() {
        out.push_str(&format!("# family {}\n", one_line(net.family())));
    }
    if !net.spec().is_empty() {
        out.push_str(&format!("# spec {}\n", one_line(net.spec())));
    }
    out.push_str("# endpoints");
    for e in net.endpoints() {
        out.push_str(&format!(" {e}"));
    }
    out.push('\n');
    for l in net.links() {
        if l.width == 1 {
            out.push_str(&format!("{} {}\n", l.src, l.dst));
        } else {
            out.push_str(&format!("{} {} {}\n", l.src, l.dst, l.width));
        }
    }
    out
}

fn err(line: usize, reason: impl Into<String>) -> TopolabError {
    TopolabError::format(Format::EdgeList.title(), format!("line {line}"), reason)
}

#[derive(Default)]
struct Header {
    marker: bool,
    directed: Option<bool>,
    family: Option<String>,
    spec: Option<String>,
    endpoints: Option<Vec<u32>>,
}

impl Header {
    /// Interprets one comment line before the first link; other comments are ignored.
    fn read(&mut self, body: &str, line: usize) -> Result<()> {
        let (word, rest) = match body.split_once(char::is_whitespace) {
            Some((w, r)) => (w, r.trim()),
            None => (body, ""),
        };
        if word == MARKER {
            if self.marker {
                return Err(err(line, format!("second '# {MARKER}' header line")));
            }
            self.marker = true;
            for item in rest.split_whitespace() {
                match item.split_once('=') {
                    Some(("version", v)) => {
                        if v != VERSION.to_string() {
                            return Err(err(
                                line,
                                format!("version '{v}' is not supported; this topolab reads version {VERSION}"),
                            ));
                        }
                    }
                    Some(("directed", v)) => {
                        self.directed = Some(match v {
                            "true" => true,
                            "false" => false,
                            _ => {
                                return Err(err(
                                    line,
                                    format!("directed='{v}' must be true or false"),
                                ))
                            }
                        })
                    }
                    _ => {
                        return Err(err(
                            line,
                            format!("unknown header item '{item}'; expected version=1 and directed=true|false"),
                        ))
                    }
                }
            }
            return Ok(());
        }
        if !self.marker {
            return Ok(());
        }
        let slot_taken = match word {
            "family" => self.family.replace(rest.to_string()).is_some(),
            "spec" => self.spec.replace(rest.to_string()).is_some(),
            "endpoints" => {
                let counts = rest
                    .split_whitespace()
                    .map(|t| parse_u32(t, "endpoint count").map_err(|m| err(line, m)))
                    .collect::<Result<Vec<u32>>>()?;
                self.endpoints.replace(counts).is_some()
            }
            _ => false,
        };
        if slot_taken {
            return Err(err(line, format!("second '# {word}' header line")));
        }
        Ok(())
    }
}

struct Line {
    a: i64,
    b: i64,
    width: u32,
    line: usize,
}

fn parse_id(token: &str, line: usize) -> Result<i64> {
    token
        .parse::<i64>()
        .map_err(|_| err(line, format!("node id '{token}' is not an integer")))
}

pub fn from_str(text: &str, options: &LoadOptions) -> Result<Network> {
    let mut header = Header::default();
    let mut lines: Vec<Line> = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let trimmed = raw.trim();
        if let Some(body) = trimmed.strip_prefix('#') {
            if lines.is_empty() {
                header.read(body.trim(), line)?;
            }
            continue;
        }
        let content = match trimmed.find('#') {
            Some(k) => &trimmed[..k],
            None => trimmed,
        };
        let fields: Vec<&str> = content.split_whitespace().collect();
        if fields.is_empty() {
            continue;
        }
        if fields.len() > 3 {
            return Err(err(
                line,
                format!(
                    "{} fields; a link line is 'u v' or 'u v width'",
                    fields.len()
                ),
            ));
        }
        if fields.len() < 2 {
            return Err(err(
                line,
                format!("'{content}' is not a link; a link line is 'u v' or 'u v width'"),
            ));
        }
        let width = match fields.get(2) {
            None => 1,
            Some(t) => {
                let w = parse_u32(t, "width").map_err(|m| {
                    err(
                        line,
                        format!(
                            "{m} (write networkx edge lists with data=False or data=['width'])"
                        ),
                    )
                })?;
                if w == 0 {
                    return Err(err(line, "width must be at least 1"));
                }
                w
            }
        };
        let (a, b) = (parse_id(fields[0], line)?, parse_id(fields[1], line)?);
        if a == b {
            return Err(err(
                line,
                format!("self-loop {a}-{b} (a network has no router-to-itself links)"),
            ));
        }
        lines.push(Line { a, b, width, line });
    }

    let directed = resolve_directed(Format::EdgeList, header.directed, options)?;
    let (endpoints, index): (Vec<u32>, BTreeMap<i64, u32>) = match header.endpoints {
        Some(endpoints) => {
            for (r, &e) in endpoints.iter().enumerate() {
                check_endpoints_option(
                    Format::EdgeList,
                    format!("'# endpoints' entry for router {r}"),
                    e,
                    options,
                )?;
            }
            let routers = endpoints.len() as i64;
            for l in &lines {
                if let Some(bad) = [l.a, l.b].into_iter().find(|&x| x < 0 || x >= routers) {
                    return Err(err(
                        l.line,
                        format!(
                            "router {bad} is outside 0..{routers} (the '# endpoints' header lists {routers} routers)"
                        ),
                    ));
                }
            }
            let index = (0..routers).map(|r| (r, r as u32)).collect();
            (endpoints, index)
        }
        None => {
            let mut ids: BTreeMap<i64, u32> = BTreeMap::new();
            for l in &lines {
                ids.insert(l.a, 0);
                ids.insert(l.b, 0);
            }
            if ids.len() > u32::MAX as usize - 1 {
                return Err(err(
                    1,
                    format!("{} distinct node ids is too many", ids.len()),
                ));
            }
            for (k, v) in ids.values_mut().enumerate() {
                *v = k as u32;
            }
            let endpoints = vec![options.endpoints_per_router.unwrap_or(0); ids.len()];
            (endpoints, ids)
        }
    };

    let family = header.family.unwrap_or_else(|| IMPORTED_FAMILY.to_string());
    let mut b = NetworkBuilder::new(&family, endpoints.len(), directed);
    let class = b.link_class(DEFAULT_LINK_CLASS);
    for (r, &e) in endpoints.iter().enumerate() {
        b.set_endpoints(r, e);
    }
    let mut set = LinkSet::new(directed);
    for l in &lines {
        set.add(index[&l.a], index[&l.b], l.width, class, |_| {
            DEFAULT_LINK_CLASS.to_string()
        })
        .map_err(|m| err(l.line, m))?;
    }
    set.add_to(&mut b);
    finish(
        b,
        Format::EdgeList,
        &family,
        header.spec.as_deref().unwrap_or(""),
    )
}
