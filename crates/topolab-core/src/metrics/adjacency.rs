//! Adjacency rows as the metric kernels walk them, and connectivity.
//!
//! The all-pairs kernel pulls from IN-neighbours (a router learns its distance from the routers
//! that link to it), so directed networks need the reverse of `Network::csr()`. Resilience works
//! on a failure mask: it keeps the link index of every row entry and filters rows into reused
//! buffers instead of rebuilding a `Network`.

use crate::network::Network;

/// Borrowed compressed rows: row `r` is `targets[offsets[r]..offsets[r + 1]]`.
#[derive(Debug, Clone, Copy)]
pub struct Rows<'a> {
    pub offsets: &'a [u32],
    pub targets: &'a [u32],
}

impl<'a> Rows<'a> {
    pub fn num_rows(&self) -> usize {
        self.offsets.len().saturating_sub(1)
    }

    #[inline]
    pub fn row(&self, r: usize) -> &'a [u32] {
        &self.targets[self.offsets[r] as usize..self.offsets[r + 1] as usize]
    }
}

/// Owned compressed rows with the link index of every entry.
#[derive(Debug, Clone, Default)]
pub struct OwnedRows {
    pub offsets: Vec<u32>,
    pub targets: Vec<u32>,
    pub links: Vec<u32>,
}

impl OwnedRows {
    pub fn rows(&self) -> Rows<'_> {
        Rows {
            offsets: &self.offsets,
            targets: &self.targets,
        }
    }

    /// Out-rows of `net` (both directions of an undirected link), with link indices.
    pub fn outgoing(net: &Network) -> OwnedRows {
        let (offsets, targets) = net.csr();
        let links = (0..net.num_routers())
            .flat_map(|r| net.neighbor_links(r).iter().copied())
            .collect();
        OwnedRows {
            offsets: offsets.to_vec(),
            targets: targets.to_vec(),
            links,
        }
    }

    /// In-rows of `net`: row v lists the routers u with a link u -> v, ascending. Equal to the
    /// out-rows when the network is undirected.
    pub fn incoming(net: &Network) -> OwnedRows {
        if !net.directed() {
            return OwnedRows::outgoing(net);
        }
        let n = net.num_routers();
        let mut offsets = vec![0u32; n + 1];
        for l in net.links() {
            offsets[l.dst as usize + 1] += 1;
        }
        for i in 0..n {
            offsets[i + 1] += offsets[i];
        }
        let mut fill = offsets.clone();
        let total = offsets[n] as usize;
        let mut targets = vec![0u32; total];
        let mut links = vec![0u32; total];
        // Links are sorted by (src, dst), so each row fills in ascending source order.
        for (i, l) in net.links().iter().enumerate() {
            let slot = fill[l.dst as usize] as usize;
            targets[slot] = l.src;
            links[slot] = i as u32;
            fill[l.dst as usize] += 1;
        }
        OwnedRows {
            offsets,
            targets,
            links,
        }
    }

    /// Overwrites `out` with the entries of `self` whose link is still alive, i.e. whose
    /// `keys[link] >= removed`; reuses `out`'s buffers (no allocation once they are large enough).
    pub fn filter_into(&self, keys: &[u32], removed: u32, out: &mut OwnedRows) {
        out.offsets.clear();
        out.targets.clear();
        out.links.clear();
        out.offsets.push(0);
        for r in 0..self.offsets.len() - 1 {
            let span = self.offsets[r] as usize..self.offsets[r + 1] as usize;
            for (&t, &l) in self.targets[span.clone()].iter().zip(&self.links[span]) {
                if keys[l as usize] >= removed {
                    out.targets.push(t);
                    out.links.push(l);
                }
            }
            out.offsets.push(out.targets.len() as u32);
        }
    }
}

/// Both directions of the adjacency, as the kernels need them: out-rows to push a sparse
/// frontier, in-rows to pull (the same rows when the network is undirected).
#[derive(Debug, Clone, Copy)]
pub struct Graph<'a> {
    pub outgoing: Rows<'a>,
    pub incoming: Rows<'a>,
    pub directed: bool,
}

impl Graph<'_> {
    pub fn num_routers(&self) -> usize {
        self.outgoing.num_rows()
    }

    /// Entries of the out-rows (links counted once per direction they can be used).
    pub fn num_arcs(&self) -> usize {
        self.outgoing.targets.len()
    }
}

/// Owned out- and in-rows with link indices; `incoming` is None for an undirected network.
#[derive(Debug, Clone, Default)]
pub struct Adjacency {
    pub outgoing: OwnedRows,
    pub incoming: Option<OwnedRows>,
}

impl Adjacency {
    pub fn of(net: &Network) -> Adjacency {
        Adjacency {
            outgoing: OwnedRows::outgoing(net),
            incoming: net.directed().then(|| OwnedRows::incoming(net)),
        }
    }

    pub fn graph(&self) -> Graph<'_> {
        let outgoing = self.outgoing.rows();
        Graph {
            outgoing,
            incoming: self.incoming.as_ref().map_or(outgoing, |r| r.rows()),
            directed: self.incoming.is_some(),
        }
    }

    /// Overwrites `out` with the links whose `keys[link] >= removed` (see
    /// `OwnedRows::filter_into`), reusing its buffers.
    pub fn filter_into(&self, keys: &[u32], removed: u32, out: &mut Adjacency) {
        self.outgoing.filter_into(keys, removed, &mut out.outgoing);
        match &self.incoming {
            Some(inc) => inc.filter_into(
                keys,
                removed,
                out.incoming.get_or_insert_with(OwnedRows::default),
            ),
            None => out.incoming = None,
        }
    }
}

/// Routers reached from `start` along `rows`, counted with a reused queue and mark buffer.
pub fn reached_from(
    rows: Rows<'_>,
    start: usize,
    mark: &mut Vec<bool>,
    queue: &mut Vec<u32>,
) -> usize {
    let n = rows.num_rows();
    mark.clear();
    mark.resize(n, false);
    queue.clear();
    if n == 0 {
        return 0;
    }
    mark[start] = true;
    queue.push(start as u32);
    let mut head = 0;
    while head < queue.len() {
        let u = queue[head] as usize;
        head += 1;
        for &v in rows.row(u) {
            if !mark[v as usize] {
                mark[v as usize] = true;
                queue.push(v);
            }
        }
    }
    queue.len()
}

/// Whether every router reaches every other: one search forward from router 0 and, for a
/// directed network, one backward.
pub fn strongly_connected(graph: Graph<'_>, mark: &mut Vec<bool>, queue: &mut Vec<u32>) -> bool {
    let n = graph.num_routers();
    if n <= 1 {
        return true;
    }
    reached_from(graph.outgoing, 0, mark, queue) == n
        && (!graph.directed || reached_from(graph.incoming, 0, mark, queue) == n)
}

/// Connected components, ignoring link direction (weakly connected components of a directed
/// network).
pub fn weak_components(net: &Network) -> usize {
    let n = net.num_routers();
    let mut sets = crate::union_find::UnionFind::new(n);
    let mut components = n;
    for l in net.links() {
        if sets.union(l.src, l.dst) {
            components -= 1;
        }
    }
    components
}

/// Strongly connected components of a directed network (Tarjan's algorithm, iterative so that
/// long paths cannot overflow the stack). For an undirected network this equals the number of
/// connected components.
pub fn strong_components(net: &Network) -> usize {
    let n = net.num_routers();
    const NONE: u32 = u32::MAX;
    let mut index = vec![NONE; n];
    let mut low = vec![0u32; n];
    let mut on_stack = vec![false; n];
    let mut stack: Vec<u32> = Vec::new();
    // (router, position in its neighbour list)
    let mut calls: Vec<(u32, u32)> = Vec::new();
    let mut next_index = 0u32;
    let mut components = 0;
    for root in 0..n {
        if index[root] != NONE {
            continue;
        }
        calls.push((root as u32, 0));
        index[root] = next_index;
        low[root] = next_index;
        next_index += 1;
        stack.push(root as u32);
        on_stack[root] = true;
        while let Some(top) = calls.last_mut() {
            let v = top.0;
            if let Some(&w) = net.neighbors(v as usize).get(top.1 as usize) {
                top.1 += 1;
                let w = w as usize;
                if index[w] == NONE {
                    index[w] = next_index;
                    low[w] = next_index;
                    next_index += 1;
                    stack.push(w as u32);
                    on_stack[w] = true;
                    calls.push((w as u32, 0));
                } else if on_stack[w] {
                    low[v as usize] = low[v as usize].min(index[w]);
                }
                continue;
            }
            calls.pop();
            let v = v as usize;
            if let Some(&(parent, _)) = calls.last() {
                low[parent as usize] = low[parent as usize].min(low[v]);
            }
            if low[v] == index[v] {
                components += 1;
                while let Some(w) = stack.pop() {
                    on_stack[w as usize] = false;
                    if w as usize == v {
                        break;
                    }
                }
            }
        }
    }
    components
}
