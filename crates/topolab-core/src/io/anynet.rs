//! BookSim2's `anynet` network file (src/networks/anynet.cpp, `AnyNet::readFile`).
//!
//! What BookSim2 accepts: one line per head, `router R` (or `node N`), followed by entries
//! `router S [latency]` and `node E [latency]`, separated by spaces. A `router R ... router S`
//! entry makes channels both ways (the reverse one only if not listed already), so one-way links
//! cannot be written; neighbours are kept in a map per router, so a repeated entry is one
//! channel, not two. Routers are indexed by id and nodes must be numbered 0..N-1.
//!
//! topolab writes what BookSim2's own reference inputs look like: for every router in order,
//! `router R`, its endpoints `node E` (ids ascending, assigned router by router), then its
//! neighbours `router S` ascending, so each undirected link is listed from both ends.

use std::collections::{BTreeMap, BTreeSet};

use super::{
    check_endpoints_option, finish, resolve_directed, Format, LoadOptions, DEFAULT_LINK_CLASS,
    IMPORTED_FAMILY,
};
use crate::error::{Result, TopolabError};
use crate::network::{Network, NetworkBuilder};

fn cannot(reason: String) -> TopolabError {
    TopolabError::invalid(
        "anynet export",
        "format",
        "anynet",
        format!("{reason}; write json, edgelist or graphml instead"),
    )
}

/// Fails for what anynet cannot express: widths above 1 and one-way links.
pub fn to_string(net: &Network) -> Result<String> {
    if net.num_routers() == 0 {
        return Err(cannot("the network has no routers".to_string()));
    }
    let pairs: BTreeSet<(u32, u32)> = net.links().iter().map(|l| (l.src, l.dst)).collect();
    for l in net.links() {
        if l.width != 1 {
            return Err(cannot(format!(
                "link {}-{} has width {}, and anynet keeps one channel per router pair (no parallel links)",
                l.src, l.dst, l.width
            )));
        }
        if net.directed() && !pairs.contains(&(l.dst, l.src)) {
            return Err(cannot(format!(
                "link {}->{} has no reverse link {}->{}, and every anynet router entry makes channels both ways (no one-way links)",
                l.src, l.dst, l.dst, l.src
            )));
        }
    }
    let mut out = String::new();
    let mut node = 0u64;
    for r in 0..net.num_routers() {
        out.push_str(&format!("router {r}"));
        for _ in 0..net.endpoints()[r] {
            out.push_str(&format!(" node {node}"));
            node += 1;
        }
        for s in net.neighbors(r) {
            out.push_str(&format!(" router {s}"));
        }
        out.push('\n');
    }
    Ok(out)
}

fn err(location: impl Into<String>, reason: impl Into<String>) -> TopolabError {
    TopolabError::format(Format::Anynet.title(), location, reason)
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Router,
    Node,
}

fn kind(token: &str) -> Option<Kind> {
    match token {
        "router" => Some(Kind::Router),
        "node" => Some(Kind::Node),
        _ => None,
    }
}

#[derive(Default)]
struct Parsed {
    routers: BTreeSet<u32>,
    node_router: BTreeMap<u32, u32>,
    links: BTreeSet<(u32, u32)>,
}

impl Parsed {
    fn attach(&mut self, node: u32, router: u32) -> std::result::Result<(), String> {
        self.routers.insert(router);
        match self.node_router.insert(node, router) {
            Some(old) if old != router => Err(format!(
                "node {node} is attached to routers {old} and {router}; a node has one router"
            )),
            _ => Ok(()),
        }
    }

    fn line(&mut self, tokens: &[&str]) -> std::result::Result<(), String> {
        let id = |i: usize| -> std::result::Result<u32, String> {
            let t = tokens
                .get(i)
                .ok_or_else(|| format!("the line ends after '{}' without an id", tokens[i - 1]))?;
            match t.parse::<u32>() {
                Ok(x) if x < u32::MAX => Ok(x),
                _ => Err(format!(
                    "token {}: id '{t}' is not an integer in 0..{}",
                    i + 1,
                    u32::MAX
                )),
            }
        };
        let head = kind(tokens[0])
            .ok_or_else(|| format!("a line starts with 'router' or 'node', not '{}'", tokens[0]))?;
        let head_id = id(1)?;
        if head == Kind::Router {
            self.routers.insert(head_id);
        }
        let mut i = 2;
        while i < tokens.len() {
            let body = kind(tokens[i]).ok_or_else(|| {
                format!(
                    "token {}: expected 'router' or 'node', found '{}'",
                    i + 1,
                    tokens[i]
                )
            })?;
            let body_id = id(i + 1)?;
            i += 2;
            match (head, body) {
                (Kind::Node, Kind::Node) => {
                    return Err(format!(
                    "node {head_id} is connected to node {body_id}; nodes connect to routers only"
                ))
                }
                (Kind::Node, Kind::Router) => self.attach(head_id, body_id)?,
                (Kind::Router, Kind::Node) => self.attach(body_id, head_id)?,
                (Kind::Router, Kind::Router) => {
                    if head_id == body_id {
                        return Err(format!(
                            "router {head_id} is connected to itself (a network has no router-to-itself links)"
                        ));
                    }
                    self.routers.insert(body_id);
                    self.links
                        .insert((head_id.min(body_id), head_id.max(body_id)));
                }
            }
            if let Some(t) = tokens.get(i).filter(|t| kind(t).is_none()) {
                // BookSim2 stores a latency under [head type][head][body], which for a node
                // entry or a node head line is a router channel that was never asked for.
                if (head, body) != (Kind::Router, Kind::Router) {
                    return Err(format!(
                        "token {}: latency '{t}' after a node entry; BookSim2 reads latencies only on router-to-router entries correctly",
                        i + 1
                    ));
                }
                if !matches!(t.parse::<u32>(), Ok(x) if x >= 1) {
                    return Err(format!(
                        "token {}: expected 'router', 'node' or a channel latency (a positive integer), found '{t}'",
                        i + 1
                    ));
                }
                i += 1;
            }
        }
        Ok(())
    }
}

/// Channel latencies are accepted and ignored: topolab's network model has no latency.
pub fn from_str(text: &str, options: &LoadOptions) -> Result<Network> {
    let mut parsed = Parsed::default();
    for (i, raw) in text.lines().enumerate() {
        let tokens: Vec<&str> = raw.split_whitespace().collect();
        if !tokens.is_empty() {
            parsed
                .line(&tokens)
                .map_err(|m| err(format!("line {}", i + 1), m))?;
        }
    }
    let routers = parsed.routers.len();
    if routers == 0 {
        return Err(err("", "no router in the file"));
    }
    if let Some((k, &r)) = parsed
        .routers
        .iter()
        .enumerate()
        .find(|&(k, &r)| r as usize != k)
    {
        return Err(err(
            "",
            format!(
                "router ids must be 0..{} without gaps (BookSim2 indexes routers by id), but router {k} is missing and router {r} appears",
                routers - 1
            ),
        ));
    }
    let mut endpoints = vec![0u32; routers];
    let mut previous: Option<(u32, u32)> = None;
    for (k, (&node, &router)) in parsed.node_router.iter().enumerate() {
        if node as usize != k {
            return Err(err(
                "",
                format!(
                    "node ids must be 0..{} without gaps (BookSim2's traffic manager requires it), but node {k} is missing",
                    parsed.node_router.len() - 1
                ),
            ));
        }
        if let Some((pn, pr)) = previous {
            if router < pr {
                return Err(err(
                    "",
                    format!(
                        "node {node} is on router {router} but node {pn} is on router {pr}; topolab numbers endpoints router by router, so node ids must ascend with the router id"
                    ),
                ));
            }
        }
        previous = Some((node, router));
        endpoints[router as usize] += 1;
    }
    for (r, &e) in endpoints.iter().enumerate() {
        check_endpoints_option(Format::Anynet, format!("router {r}"), e, options)?;
    }
    let directed = resolve_directed(Format::Anynet, None, options)?;

    let mut b = NetworkBuilder::new(IMPORTED_FAMILY, routers, directed);
    let class = b.link_class(DEFAULT_LINK_CLASS);
    for (r, &e) in endpoints.iter().enumerate() {
        b.set_endpoints(r, e);
    }
    for &(u, v) in &parsed.links {
        b.add_link(u as usize, v as usize, 1, class);
        if directed {
            b.add_link(v as usize, u as usize, 1, class);
        }
    }
    finish(b, Format::Anynet, IMPORTED_FAMILY, "")
}
