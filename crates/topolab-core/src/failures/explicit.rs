//! An explicit failure set: a text file listing the dead links and routers.
//!
//! One item a line, `#` starts a comment:
//!
//! ```text
//! router 12             # router 12 with its links and endpoints
//! link 3 17             # every cable of the link between routers 3 and 17
//! router (2,5)          # the router labelled (2, 5) in the network's label fields
//! link (0,1) (3,2)      # a link between two labelled routers
//! ```
//!
//! A router is its id (0-based, in the network's order) or its label written as a tuple of the
//! network's label fields (`topolab info` lists them; a Dragonfly's are (group, index)).

use super::{Failed, FailureKind, FailureSet};
use crate::error::{Result, TopolabError};
use crate::network::Network;
use crate::topology::{ParamDef, ParamKind};
use std::collections::BTreeMap;

pub const FILE: FailureKind = FailureKind {
    name: "file",
    summary: "the links and routers a text file lists ('router R', 'link R S'; R an id or a label tuple like (2,5))",
    params: &[ParamDef {
        name: "path",
        kind: ParamKind::Text,
        default: None,
        help: "the file listing the failed links and routers",
    }],
    parse: |p| match p.opt_text("path")? {
        Some(path) if !path.is_empty() => Ok(FailureSet::File { path }),
        _ => Err(TopolabError::MissingParameter {
            context: p.family().to_string(),
            param: "path".into(),
            help: "the file listing the failed links and routers".into(),
        }),
    },
};

/// Marks what the file at `path` lists.
pub fn from_file(net: &Network, path: &str, failed: &mut Failed) -> Result<()> {
    let p = std::path::Path::new(path);
    let text = std::fs::read_to_string(p).map_err(|e| TopolabError::io(p, e))?;
    read_failures(net, &text, path, failed)
}

/// Marks what `text` lists (`origin` names it in errors).
pub fn read_failures(net: &Network, text: &str, origin: &str, failed: &mut Failed) -> Result<()> {
    let err = |line: usize, reason: String| {
        TopolabError::format("failure list", format!("{origin}, line {line}"), reason)
    };
    let labels = LabelIndex::new(net);
    for (i, raw) in text.lines().enumerate() {
        let line = raw.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let parts: Vec<&str> = line.split_whitespace().collect();
        match parts[..] {
            ["router", r] => {
                let r = labels.router(net, r).map_err(|e| err(i + 1, e))?;
                failed.routers[r] = true;
            }
            ["link", a, b] => {
                let a = labels.router(net, a).map_err(|e| err(i + 1, e))?;
                let b = labels.router(net, b).map_err(|e| err(i + 1, e))?;
                let l = find_link(net, a, b).ok_or_else(|| {
                    err(
                        i + 1,
                        format!(
                            "no link {} {a} and {b} in this network",
                            if net.directed() { "from" } else { "between" }
                        ),
                    )
                })?;
                failed.link(net, l);
            }
            _ => {
                return Err(err(
                    i + 1,
                    format!(
                        "'{line}' is not 'router R' or 'link R S' (R a router id or a label tuple)"
                    ),
                ))
            }
        }
    }
    Ok(())
}

/// The index into `links()` of the link from `a` to `b` (either way when undirected).
pub fn find_link(net: &Network, a: usize, b: usize) -> Option<usize> {
    let i = net.neighbors(a).binary_search(&(b as u32)).ok()?;
    Some(net.neighbor_links(a)[i] as usize)
}

/// Routers by label, for files that name routers by their label tuple.
struct LabelIndex {
    by_label: BTreeMap<Vec<i64>, Option<usize>>,
}

impl LabelIndex {
    fn new(net: &Network) -> LabelIndex {
        let mut by_label = BTreeMap::new();
        for r in 0..net.num_routers() {
            by_label
                .entry(net.label(r).to_vec())
                .and_modify(|e| *e = None)
                .or_insert(Some(r));
        }
        LabelIndex { by_label }
    }

    fn router(&self, net: &Network, token: &str) -> std::result::Result<usize, String> {
        let n = net.num_routers();
        if let Some(inner) = token.strip_prefix('(') {
            let inner = inner
                .strip_suffix(')')
                .ok_or_else(|| format!("'{token}' lacks its closing ')'"))?;
            let values: Vec<i64> = inner
                .split(',')
                .map(|v| v.trim().parse::<i64>())
                .collect::<std::result::Result<_, _>>()
                .map_err(|_| format!("'{token}' is not a tuple of integers"))?;
            let fields = net.label_fields().join(", ");
            if values.len() != net.label_fields().len() {
                return Err(format!(
                    "label {token} has {} values; this network's labels are ({fields})",
                    values.len()
                ));
            }
            return match self.by_label.get(&values) {
                Some(Some(r)) => Ok(*r),
                Some(None) => Err(format!(
                    "label {token} names several routers; give a router id instead"
                )),
                None => Err(format!("no router is labelled {token} ({fields})")),
            };
        }
        match token.parse::<usize>() {
            Ok(r) if r < n => Ok(r),
            _ => Err(format!(
                "router '{token}' is neither an id from 0 to {} nor a label tuple like (0,1)",
                n.saturating_sub(1)
            )),
        }
    }
}
