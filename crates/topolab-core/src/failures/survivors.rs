//! The network that survives a failure set: the failed routers and the links that lost every
//! cable are removed, and of what remains the connected component (strongly connected when the
//! network is directed) with the most endpoints is kept (ties: the one with the lowest router).
//! Every endpoint outside it is cut off: it can reach no endpoint of the kept component.

use super::Failed;
use crate::error::Result;
use crate::network::{Network, NetworkBuilder};
use crate::union_find::UnionFind;

crate::result_type! {
/// The surviving network of a failure set (`network`) and what the set cost.
///
/// The survivors are the connected component (strongly connected when directed) holding the
/// most endpoints; `cut_off_endpoints` (ids of the intact network) are on failed routers or
/// outside it. The degraded network numbers its endpoints afresh, so traffic from or to a
/// cut-off endpoint is excluded from every measurement on it: `excluded_pair_fraction` is
/// the share of the intact network's ordered endpoint pairs excluded that way.
#[python = "Failures"]
pub struct Degraded {
    /// The surviving network.
    #[serde(skip)]
    pub network: Network,
    /// The failure spec, as given.
    pub failures: String,
    /// Cables failed (a link of width w counts w).
    pub failed_cables: u64,
    /// Cables of the intact network.
    pub cables_before: u64,
    /// Routers the failure set names (original ids, ascending).
    pub failed_routers: Vec<u32>,
    /// Routers that work but are cut off from the kept component (original ids, ascending).
    pub isolated_routers: Vec<u32>,
    /// For each router of the degraded network, its id in the intact one.
    pub router_ids: Vec<u32>,
    /// Endpoints of the intact network.
    pub endpoints_before: u64,
    /// Endpoints cut off (ids of the intact network, ascending): on failed routers or outside
    /// the kept component. The degraded network numbers its endpoints afresh, router by router.
    pub cut_off_endpoints: Vec<u64>,
    /// Share of the intact network's ordered endpoint pairs (s != t) with a cut-off end: the
    /// share of uniform traffic excluded from any measurement of the degraded network.
    pub excluded_pair_fraction: f64,
}
}

impl Degraded {
    /// Endpoints that still take part.
    pub fn surviving_endpoints(&self) -> u64 {
        self.endpoints_before - self.cut_off_endpoints.len() as u64
    }
}

/// Removes what `failed` names and keeps the component with the most endpoints.
pub fn survive(net: &Network, failed: &Failed, failures: &str) -> Result<Degraded> {
    let n = net.num_routers();
    let alive_link = |l: usize| {
        let link = net.links()[l];
        failed.cables[l] < link.width
            && !failed.routers[link.src as usize]
            && !failed.routers[link.dst as usize]
    };
    let component = if net.directed() {
        strong_components(net, &alive_link)
    } else {
        let mut uf = UnionFind::new(n);
        for (l, link) in net.links().iter().enumerate() {
            if alive_link(l) {
                uf.union(link.src, link.dst);
            }
        }
        uf.classes().0
    };
    // The kept component: most endpoints, then lowest first router; failed routers are in
    // no component.
    let mut weight: Vec<(u64, usize)> = Vec::new();
    for (r, &c) in component.iter().enumerate() {
        if failed.routers[r] {
            continue;
        }
        let c = c as usize;
        if weight.len() <= c {
            weight.resize(c + 1, (0, usize::MAX));
        }
        weight[c].0 += net.endpoints()[r] as u64;
        weight[c].1 = weight[c].1.min(r);
    }
    let kept = (0..weight.len())
        .filter(|&c| weight[c].1 != usize::MAX)
        .max_by_key(|&c| (weight[c].0, std::cmp::Reverse(weight[c].1)));
    let keep = |r: usize| !failed.routers[r] && Some(component[r] as usize) == kept;

    let router_ids: Vec<u32> = (0..n).filter(|&r| keep(r)).map(|r| r as u32).collect();
    let mut new_id = vec![u32::MAX; n];
    for (i, &r) in router_ids.iter().enumerate() {
        new_id[r as usize] = i as u32;
    }
    let mut b = NetworkBuilder::new(net.family(), router_ids.len(), net.directed());
    let fields: Vec<&str> = net.label_fields().iter().map(String::as_str).collect();
    b.label_fields(&fields);
    for class in net.link_classes() {
        b.link_class(class);
    }
    for (i, &r) in router_ids.iter().enumerate() {
        b.set_label(i, net.label(r as usize));
        b.set_endpoints(i, net.endpoints()[r as usize]);
    }
    for (l, link) in net.links().iter().enumerate() {
        let (s, d) = (new_id[link.src as usize], new_id[link.dst as usize]);
        if alive_link(l) && s != u32::MAX && d != u32::MAX {
            b.add_link(
                s as usize,
                d as usize,
                link.width - failed.cables[l],
                link.class,
            );
        }
    }
    let network = b.build()?.with_failures(failures);

    let mut cut_off_endpoints = Vec::new();
    let mut first = 0u64;
    for r in 0..n {
        let e = net.endpoints()[r] as u64;
        if !keep(r) {
            cut_off_endpoints.extend(first..first + e);
        }
        first += e;
    }
    let before = net.num_endpoints();
    let alive = before - cut_off_endpoints.len() as u64;
    let pairs = |k: u64| k as f64 * k.saturating_sub(1) as f64;
    let excluded_pair_fraction = if before < 2 {
        0.0
    } else {
        1.0 - pairs(alive) / pairs(before)
    };
    Ok(Degraded {
        failures: failures.to_string(),
        failed_cables: failed.cables.iter().map(|&c| c as u64).sum(),
        cables_before: net.num_links(),
        failed_routers: (0..n as u32)
            .filter(|&r| failed.routers[r as usize])
            .collect(),
        isolated_routers: (0..n as u32)
            .filter(|&r| !failed.routers[r as usize] && !keep(r as usize))
            .collect(),
        router_ids,
        endpoints_before: before,
        cut_off_endpoints,
        excluded_pair_fraction,
        network,
    })
}

/// Strongly connected components over the links `alive` keeps (Kosaraju, iterative): the
/// component of every router, numbered in order of discovery.
fn strong_components(net: &Network, alive: &dyn Fn(usize) -> bool) -> Vec<u32> {
    let n = net.num_routers();
    let mut out: Vec<Vec<u32>> = vec![Vec::new(); n];
    let mut back: Vec<Vec<u32>> = vec![Vec::new(); n];
    for (l, link) in net.links().iter().enumerate() {
        if alive(l) {
            out[link.src as usize].push(link.dst);
            back[link.dst as usize].push(link.src);
        }
    }
    // First pass: routers in order of finishing.
    let mut seen = vec![false; n];
    let mut order = Vec::with_capacity(n);
    for start in 0..n {
        if seen[start] {
            continue;
        }
        seen[start] = true;
        let mut stack = vec![(start, 0usize)];
        while let Some((v, i)) = stack.pop() {
            if let Some(&w) = out[v].get(i) {
                stack.push((v, i + 1));
                if !seen[w as usize] {
                    seen[w as usize] = true;
                    stack.push((w as usize, 0));
                }
            } else {
                order.push(v);
            }
        }
    }
    // Second pass on the reversed graph, in reverse finishing order.
    let mut component = vec![u32::MAX; n];
    let mut count = 0u32;
    for &start in order.iter().rev() {
        if component[start] != u32::MAX {
            continue;
        }
        component[start] = count;
        let mut stack = vec![start];
        while let Some(v) = stack.pop() {
            for &w in &back[v] {
                if component[w as usize] == u32::MAX {
                    component[w as usize] = count;
                    stack.push(w as usize);
                }
            }
        }
        count += 1;
    }
    component
}
