//! Recovering a structured network's labels from its bare graph (Daryin & Korzh, JSFI 2014,
//! §2): an InfiniBand subnet manager sees only switches and cables, while the DOR-family and
//! Dragonfly routings need coordinates or groups. `map_network` takes a network whose router
//! ids carry no structure and returns the same routers and links labelled the way the family's
//! own builder labels them (HyperX: d0, d1, ...; Dragonfly: group, index), so that every
//! structured routing accepts the result.
//!
//! Both mappings start from the equivalence relation ε on links of Daryin & Korzh, JSFI 2014, §2.1,
//! closed with a union-find (`link_classes`): rule 1 (the two directions of a link) and rule 2
//! (parallel cables) hold by construction here, since a `Link` is one undirected link with a width;
//! rule 3 joins the three links of a triangle, rule 4 the opposite sides of a 4-cycle.
//! One file per family: `hyperx.rs` (Daryin & Korzh, JSFI 2014, §2.1), `dragonfly.rs` (§2.2).

pub mod dragonfly;
pub mod hyperx;

use crate::error::{Result, TopolabError};
use crate::network::Network;
pub use crate::union_find::UnionFind;

crate::result_type! {
/// The labelled network and what the mapping found.
#[python = "MappedNetwork"]
pub struct Mapped {
    /// The input's routers, links, widths and endpoints under the family's labels.
    #[serde(skip)]
    pub network: Network,
    #[serde(flatten)]
    pub report: MappingReport,
}
}

crate::result_type! {
/// What the mapping recovered.
pub struct MappingReport {
    /// "hyperx" or "dragonfly".
    pub family: String,
    /// HyperX: K_n per dimension. Dragonfly: [groups, routers per group].
    pub shape: Vec<u32>,
    /// HyperX: link width L_n per dimension (the largest width seen in the dimension).
    /// Dragonfly: [local width, largest number of cables between two groups].
    pub widths: Vec<u32>,
    /// Router pairs the family has a link between but the network does not (a cabling
    /// fault), as (router, router) with the routers' ids in the input.
    pub missing_links: Vec<(u32, u32)>,
    /// Cables missing from links that exist but are narrower than their dimension's width.
    pub missing_cables: u64,
}
}

/// Maps `net` as a network of `family` ("hyperx" or "dragonfly"), accepting at most
/// `max_missing` missing links (cables) before calling the network not of the family.
pub fn map_network(net: &Network, family: &str, max_missing: u64) -> Result<Mapped> {
    if net.directed() {
        return Err(TopolabError::InvalidNetwork(
            "mapping (Daryin & Korzh, JSFI 2014, §2) needs an undirected network; this one is directed"
                .into(),
        ));
    }
    match family.trim().to_ascii_lowercase().as_str() {
        "hyperx" | "flatfly" => hyperx::map(net, max_missing),
        "dragonfly" => dragonfly::map(net, max_missing),
        other => Err(TopolabError::invalid(
            "map",
            "as",
            other,
            "hyperx (FlatFly, Daryin & Korzh, JSFI 2014, §2.1) or dragonfly (§2.2)",
        )),
    }
}

/// The link index of the link between routers u and v, if any.
fn link_between(net: &Network, u: u32, v: u32) -> Option<u32> {
    let nb = net.neighbors(u as usize);
    nb.binary_search(&v)
        .ok()
        .map(|p| net.neighbor_links(u as usize)[p])
}

/// The closure of ε over `net.links()`: rule 3 (a triangle's three links are equivalent) and,
/// with `rectangles`, rule 4 (opposite sides of a 4-cycle are equivalent). Returns the class
/// of every link (numbered by their first link) and the number of classes.
///
/// Every 2-path u - v - w is visited once from its middle router v: a triangle when u and w
/// are adjacent, and a 4-cycle v - u - x - w for every other common neighbour x of u and w.
/// O(n d^3) with d the router degree: Daryin & Korzh, JSFI 2014, §2.1's walk is O(n d^2) because it
/// stops at the first fourth corner, which in a HyperX is the only one; taking all of them costs a
/// factor d and makes the classes independent of the walk order.
pub fn link_classes(net: &Network, rectangles: bool) -> (Vec<u32>, usize) {
    let mut uf = UnionFind::new(net.links().len());
    let mut common = Vec::new();
    for v in 0..net.num_routers() {
        let nb = net.neighbors(v);
        let nl = net.neighbor_links(v);
        for i in 0..nb.len() {
            for j in i + 1..nb.len() {
                let (u, w) = (nb[i], nb[j]);
                let (vu, vw) = (nl[i], nl[j]);
                if let Some(uw) = link_between(net, u, w) {
                    uf.union(vu, vw);
                    uf.union(vu, uw);
                }
                if !rectangles {
                    continue;
                }
                common.clear();
                intersect(
                    net.neighbors(u as usize),
                    net.neighbors(w as usize),
                    &mut common,
                );
                for &x in &common {
                    if x as usize == v {
                        continue;
                    }
                    let ux = link_between(net, u, x).expect("common neighbour");
                    let wx = link_between(net, w, x).expect("common neighbour");
                    uf.union(vu, wx);
                    uf.union(vw, ux);
                }
            }
        }
    }
    uf.classes()
}

fn intersect(a: &[u32], b: &[u32], out: &mut Vec<u32>) {
    let (mut i, mut j) = (0, 0);
    while i < a.len() && j < b.len() {
        match a[i].cmp(&b[j]) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => {
                out.push(a[i]);
                i += 1;
                j += 1;
            }
        }
    }
}

/// The error for a network that is not of the family: `property` says which one failed.
fn not_of_family(family: &str, section: &str, property: String) -> TopolabError {
    TopolabError::InvalidNetwork(format!(
        "not a {family} (mapping of Daryin & Korzh, JSFI 2014, {section}): {property}"
    ))
}

/// Fails when more links are missing than allowed; the message names the first few.
fn check_missing(
    family: &str,
    section: &str,
    missing: &[(u32, u32)],
    missing_cables: u64,
    max_missing: u64,
    what: &str,
) -> Result<()> {
    let total = missing.len() as u64 + missing_cables;
    if total <= max_missing {
        return Ok(());
    }
    let examples: Vec<String> = missing
        .iter()
        .take(3)
        .map(|(a, b)| format!("{a}-{b}"))
        .collect();
    let mut text = format!("{what}: {} links missing", missing.len());
    if !examples.is_empty() {
        text.push_str(&format!(" (e.g. between routers {})", examples.join(", ")));
    }
    if missing_cables > 0 {
        text.push_str(&format!(
            " and {missing_cables} cables missing from links narrower than their dimension's width"
        ));
    }
    text.push_str(&format!(
        "; at most {max_missing} allowed (max_missing), as a cabling fault"
    ));
    Err(not_of_family(family, section, text))
}
