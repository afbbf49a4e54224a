//! The network model: routers, router-to-router links and the endpoints attached to each router.
//!
//! A `Network` is immutable once built; `NetworkBuilder` is the only way to make one, and it
//! validates the whole graph (indices in range, no self-loops, no duplicate links) so that
//! every later computation can trust it. Adjacency is kept in compressed sparse rows with u32
//! indices because all-pairs BFS, routing tables and the simulator walk it in their hot loops.

use crate::error::{Result, TopolabError};

/// One router-to-router link. Undirected links are stored once with `src < dst`; a directed link
/// carries traffic from `src` to `dst` only. `width` counts parallel cables (HyperX/torus link
/// widths, Dragonfly group pairs joined twice).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Link {
    pub src: u32,
    pub dst: u32,
    pub width: u32,
    /// Index into `Network::link_classes()`.
    pub class: u16,
}

/// A structure that routings, placements and traffic patterns ask a network for instead of
/// asking for a family by name: any network whose routers carry these labels has it (a
/// Dragonfly built here, a product whose factor provides it, an imported file that names them).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Capability {
    /// What it is, for errors: "router groups".
    pub what: &'static str,
    /// The label fields, in this order, that carry it.
    pub fields: &'static [&'static str],
}

/// Routers in equal groups: (group, index), e.g. Dragonfly groups.
pub const ROUTER_GROUPS: Capability = Capability {
    what: "router groups",
    fields: &["group", "index"],
};

/// Routers in tree levels with pods: (level, pod, index), level 0 the leaves, pod -1 above them.
pub const TREE_LEVELS: Capability = Capability {
    what: "tree levels",
    fields: &["level", "pod", "index"],
};

// The capabilities of a single family are declared in that family's file.
pub use crate::topology::hammingmesh::HAMMINGMESH_LAYOUT;
pub use crate::topology::mlfm::MLFM_LAYOUT;
pub use crate::topology::oft::OFT_LEVELS;
pub use crate::topology::polarfly::POLARFLY_CLUSTERS;
pub use crate::topology::slimfly::MMS_COORDINATES;

#[derive(Debug, Clone, PartialEq)]
pub struct Network {
    family: String,
    spec: String,
    directed: bool,
    endpoints: Vec<u32>,
    label_fields: Vec<String>,
    labels: Vec<i64>,
    link_classes: Vec<String>,
    links: Vec<Link>,
    // CSR of outgoing adjacency (both directions of every undirected link), neighbours ascending.
    offsets: Vec<u32>,
    targets: Vec<u32>,
    target_links: Vec<u32>,
    // The failure spec this network survived (`failures::apply`); None for an intact network.
    failures: Option<String>,
}

impl Network {
    /// Family name ("slimfly", "dragonfly", ... or "imported" for files without one).
    pub fn family(&self) -> &str {
        &self.family
    }

    /// The spec string this network was built from; empty for imported networks.
    pub fn spec(&self) -> &str {
        &self.spec
    }

    pub fn directed(&self) -> bool {
        self.directed
    }

    pub fn num_routers(&self) -> usize {
        self.endpoints.len()
    }

    /// Endpoints attached to each router (0 for the upper levels of indirect networks).
    pub fn endpoints(&self) -> &[u32] {
        &self.endpoints
    }

    pub fn num_endpoints(&self) -> u64 {
        self.endpoints.iter().map(|&e| e as u64).sum()
    }

    /// Router-to-router cables, counting width.
    pub fn num_links(&self) -> u64 {
        self.links.iter().map(|l| l.width as u64).sum()
    }

    pub fn links(&self) -> &[Link] {
        &self.links
    }

    pub fn link_classes(&self) -> &[String] {
        &self.link_classes
    }

    pub fn label_fields(&self) -> &[String] {
        &self.label_fields
    }

    /// Whether the routers carry `cap`'s labels.
    pub fn has(&self, cap: Capability) -> bool {
        self.label_fields == cap.fields
    }

    /// Ok when the network has `cap`; otherwise an error saying that `user` (e.g. "routing
    /// dragonfly_static") needs it and what this network has instead.
    pub fn require(&self, user: &str, cap: Capability) -> Result<()> {
        if self.has(cap) {
            return Ok(());
        }
        Err(TopolabError::InvalidNetwork(format!(
            "{user} needs {} (router labels {}); this network ('{}') has labels ({})",
            cap.what,
            cap.fields.join(", "),
            self.family,
            self.label_fields.join(", ")
        )))
    }

    /// The family-specific label of router `r`, one value per `label_fields()` entry.
    pub fn label(&self, r: usize) -> &[i64] {
        let w = self.label_fields.len();
        &self.labels[r * w..(r + 1) * w]
    }

    /// Routers reachable over one link from `r` (out-neighbours when directed), ascending.
    pub fn neighbors(&self, r: usize) -> &[u32] {
        &self.targets[self.offsets[r] as usize..self.offsets[r + 1] as usize]
    }

    /// Indices into `links()` parallel to `neighbors(r)`.
    pub fn neighbor_links(&self, r: usize) -> &[u32] {
        &self.target_links[self.offsets[r] as usize..self.offsets[r + 1] as usize]
    }

    /// CSR arrays (offsets, targets) for kernels that want the raw adjacency.
    pub fn csr(&self) -> (&[u32], &[u32]) {
        (&self.offsets, &self.targets)
    }

    /// Ports used towards other routers: sum of link widths (out-links when directed).
    pub fn degree(&self, r: usize) -> u32 {
        self.neighbor_links(r)
            .iter()
            .map(|&l| self.links[l as usize].width)
            .sum()
    }

    /// Ports used by links arriving at `r`; equals `degree` for undirected networks.
    pub fn in_degrees(&self) -> Vec<u32> {
        let mut deg = vec![0u32; self.num_routers()];
        for l in &self.links {
            deg[l.dst as usize] += l.width;
            if !self.directed {
                deg[l.src as usize] += l.width;
            }
        }
        deg
    }

    /// Maximum router-to-router degree (out-degree when directed).
    pub fn network_radix(&self) -> u32 {
        (0..self.num_routers())
            .map(|r| self.degree(r))
            .max()
            .unwrap_or(0)
    }

    /// Router radix needed to build the network: the most ports any one router uses, links and
    /// endpoints together. For direct networks this is network radix + concentration; for
    /// indirect ones (fat tree, MLFM, OFT) the busiest router may carry no endpoints.
    pub fn radix(&self) -> u32 {
        (0..self.num_routers())
            .map(|r| self.degree(r) + self.endpoints[r])
            .max()
            .unwrap_or(0)
    }

    /// Index of the first router of each endpoint-owning router, i.e. endpoint ids are assigned
    /// contiguously router by router; returns the router that owns `endpoint`.
    pub fn endpoint_router(&self, endpoint: u64) -> Option<usize> {
        let mut seen = 0u64;
        for (r, &e) in self.endpoints.iter().enumerate() {
            seen += e as u64;
            if endpoint < seen {
                return Some(r);
            }
        }
        None
    }

    /// The failure spec whose survivors this network is (`failures::apply`), None when intact.
    /// Routings built from a family's structure refuse a degraded network
    /// (`routing::degraded::check`): their rules assume links that may be gone.
    pub fn failures(&self) -> Option<&str> {
        self.failures.as_deref()
    }

    /// A copy marked as the survivors of `failures`; the spec string is cleared because
    /// building it again would give the intact network.
    pub fn with_failures(mut self, failures: &str) -> Self {
        self.spec.clear();
        self.failures = Some(failures.to_string());
        self
    }

    /// A copy with the spec string replaced (set by the registry after building).
    pub fn with_spec(mut self, family: &str, spec: &str) -> Self {
        self.family = family.to_string();
        self.spec = spec.to_string();
        self
    }

    /// A copy with a different number of endpoints on each router.
    pub fn with_endpoints(mut self, endpoints: Vec<u32>) -> Result<Self> {
        if endpoints.len() != self.num_routers() {
            return Err(TopolabError::InvalidNetwork(format!(
                "{} endpoint counts given for {} routers",
                endpoints.len(),
                self.num_routers()
            )));
        }
        check_ports(&self.links, &endpoints, self.directed)?;
        self.endpoints = endpoints;
        Ok(self)
    }
}

/// Collects routers, labels and links, then validates and freezes them into a `Network`.
#[derive(Debug, Clone)]
pub struct NetworkBuilder {
    family: String,
    directed: bool,
    endpoints: Vec<u32>,
    label_fields: Vec<String>,
    labels: Vec<i64>,
    link_classes: Vec<String>,
    links: Vec<Link>,
}

impl NetworkBuilder {
    pub fn new(family: &str, num_routers: usize, directed: bool) -> Self {
        NetworkBuilder {
            family: family.to_string(),
            directed,
            endpoints: vec![0; num_routers],
            label_fields: Vec::new(),
            labels: Vec::new(),
            link_classes: Vec::new(),
            links: Vec::new(),
        }
    }

    pub fn num_routers(&self) -> usize {
        self.endpoints.len()
    }

    /// Declares the label fields; all labels start at 0.
    pub fn label_fields(&mut self, fields: &[&str]) -> &mut Self {
        self.label_fields = fields.iter().map(|s| s.to_string()).collect();
        self.labels = vec![0; fields.len() * self.num_routers()];
        self
    }

    pub fn set_label(&mut self, router: usize, label: &[i64]) -> &mut Self {
        let w = self.label_fields.len();
        assert_eq!(label.len(), w, "label arity must match label_fields");
        self.labels[router * w..(router + 1) * w].copy_from_slice(label);
        self
    }

    /// Index of link class `name`, registering it on first use.
    pub fn link_class(&mut self, name: &str) -> u16 {
        match self.link_classes.iter().position(|c| c == name) {
            Some(i) => i as u16,
            None => {
                self.link_classes.push(name.to_string());
                (self.link_classes.len() - 1) as u16
            }
        }
    }

    pub fn set_endpoints(&mut self, router: usize, count: u32) -> &mut Self {
        self.endpoints[router] = count;
        self
    }

    pub fn uniform_endpoints(&mut self, count: u32) -> &mut Self {
        self.endpoints.iter_mut().for_each(|e| *e = count);
        self
    }

    /// Adds a link; duplicates and self-loops are reported by `build`, not merged, so that a
    /// construction that produces one by mistake fails loudly.
    pub fn add_link(&mut self, src: usize, dst: usize, width: u32, class: u16) -> &mut Self {
        let (src, dst) = if !self.directed && dst < src {
            (dst, src)
        } else {
            (src, dst)
        };
        self.links.push(Link {
            src: src as u32,
            dst: dst as u32,
            width,
            class,
        });
        self
    }

    pub fn build(mut self) -> Result<Network> {
        let n = self.num_routers();
        if n > u32::MAX as usize - 1 {
            return Err(TopolabError::InvalidNetwork(format!(
                "{n} routers exceed the u32 index range"
            )));
        }
        if self.label_fields.is_empty() {
            self.label_fields = vec!["index".to_string()];
            self.labels = (0..n as i64).collect();
        }
        for l in &self.links {
            if l.src as usize >= n || l.dst as usize >= n {
                return Err(TopolabError::InvalidNetwork(format!(
                    "link {}-{} refers to a router outside 0..{}",
                    l.src, l.dst, n
                )));
            }
            if l.src == l.dst {
                return Err(TopolabError::InvalidNetwork(format!(
                    "self-loop at router {}",
                    l.src
                )));
            }
            if l.class as usize >= self.link_classes.len() {
                return Err(TopolabError::InvalidNetwork(format!(
                    "link {}-{} has class {} but only {} link classes are named",
                    l.src,
                    l.dst,
                    l.class,
                    self.link_classes.len()
                )));
            }
            if l.width == 0 {
                return Err(TopolabError::InvalidNetwork(format!(
                    "link {}-{} has width 0",
                    l.src, l.dst
                )));
            }
        }
        self.links.sort_unstable_by_key(|l| (l.src, l.dst));
        if let Some(w) = self
            .links
            .windows(2)
            .find(|w| (w[0].src, w[0].dst) == (w[1].src, w[1].dst))
        {
            return Err(TopolabError::InvalidNetwork(format!(
                "duplicate link {}-{} (use width for parallel links)",
                w[0].src, w[0].dst
            )));
        }
        check_ports(&self.links, &self.endpoints, self.directed)?;
        let (offsets, targets, target_links) = build_csr(n, &self.links, self.directed);
        Ok(Network {
            family: self.family,
            spec: String::new(),
            directed: self.directed,
            endpoints: self.endpoints,
            label_fields: self.label_fields,
            labels: self.labels,
            link_classes: self.link_classes,
            links: self.links,
            offsets,
            targets,
            target_links,
            failures: None,
        })
    }
}

/// Refuses a router whose ports (link widths, in and out, plus endpoints) do not fit the u32
/// that `degree`, `radix` and the simulator count them in: summed in u32 they would wrap, and a
/// router with 2 x 4,294,967,295 endpoints would report a radix of 0.
fn check_ports(links: &[Link], endpoints: &[u32], directed: bool) -> Result<()> {
    let mut ports: Vec<u64> = endpoints.iter().map(|&e| e as u64).collect();
    let mut incoming = vec![0u64; endpoints.len()];
    for l in links {
        ports[l.src as usize] += l.width as u64;
        if directed {
            incoming[l.dst as usize] += l.width as u64;
        } else {
            ports[l.dst as usize] += l.width as u64;
        }
    }
    let limit = u32::MAX as u64;
    let total: u64 = endpoints.iter().map(|&e| e as u64).sum();
    if total > limit {
        return Err(TopolabError::InvalidNetwork(format!(
            "{total} endpoints in all exceed the u32 endpoint id range (at most {limit})"
        )));
    }
    for (r, (&p, &i)) in ports.iter().zip(&incoming).enumerate() {
        if p > limit || i + endpoints[r] as u64 > limit {
            return Err(TopolabError::InvalidNetwork(format!(
                "router {r} has {} ports (links and endpoints), more than {limit}",
                p.max(i + endpoints[r] as u64)
            )));
        }
    }
    Ok(())
}

fn build_csr(n: usize, links: &[Link], directed: bool) -> (Vec<u32>, Vec<u32>, Vec<u32>) {
    let mut count = vec![0u32; n + 1];
    for l in links {
        count[l.src as usize + 1] += 1;
        if !directed {
            count[l.dst as usize + 1] += 1;
        }
    }
    for i in 0..n {
        count[i + 1] += count[i];
    }
    let offsets = count.clone();
    let mut fill = count;
    let total = offsets[n] as usize;
    let mut pairs = vec![(0u32, 0u32); total];
    for (i, l) in links.iter().enumerate() {
        let s = l.src as usize;
        pairs[fill[s] as usize] = (l.dst, i as u32);
        fill[s] += 1;
        if !directed {
            let d = l.dst as usize;
            pairs[fill[d] as usize] = (l.src, i as u32);
            fill[d] += 1;
        }
    }
    for r in 0..n {
        pairs[offsets[r] as usize..offsets[r + 1] as usize].sort_unstable();
    }
    let (targets, target_links) = pairs.into_iter().unzip();
    (offsets, targets, target_links)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ports_that_wrap_u32_are_refused() {
        let two = |endpoints: [u32; 2]| {
            let mut b = NetworkBuilder::new("imported", 2, false);
            b.set_endpoints(0, endpoints[0]);
            b.set_endpoints(1, endpoints[1]);
            let class = b.link_class("link");
            b.add_link(0, 1, 1, class);
            b.build()
        };
        let err = two([u32::MAX, 0]).unwrap_err().to_string();
        assert!(err.contains("router 0 has 4294967296 ports"), "{err}");
        let err = two([u32::MAX, u32::MAX]).unwrap_err().to_string();
        assert!(err.contains("8589934590 endpoints in all"), "{err}");
        let net = two([u32::MAX - 1, 0]).unwrap();
        assert_eq!(net.radix(), u32::MAX);
    }
}
