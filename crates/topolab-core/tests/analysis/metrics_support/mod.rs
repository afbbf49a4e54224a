//! Shared by the metrics tests: small networks built by hand and a brute-force BFS that does not
//! use the library's kernels.

#![allow(dead_code)]

use rand::Rng;
use std::collections::VecDeque;
use topolab_core::rng::{stream, Stream};
use topolab_core::{Network, NetworkBuilder};

pub const INF: u32 = u32::MAX;

/// A network from an explicit link list, endpoints per router.
pub fn network(n: usize, directed: bool, links: &[(usize, usize)], endpoints: &[u32]) -> Network {
    let mut b = NetworkBuilder::new("test", n, directed);
    let class = b.link_class("test");
    for &(u, v) in links {
        b.add_link(u, v, 1, class);
    }
    for (r, &e) in endpoints.iter().enumerate() {
        b.set_endpoints(r, e);
    }
    b.build().unwrap()
}

/// G(n, p)-like random network (each ordered or unordered pair with probability p), random
/// endpoints in 0..=max_endpoints (all equal to max_endpoints when `uniform`).
pub fn random_network(
    n: usize,
    p: f64,
    directed: bool,
    max_endpoints: u32,
    uniform: bool,
    seed: u64,
) -> Network {
    let mut rng = stream(seed, Stream::Construction, 7);
    let mut links = Vec::new();
    for u in 0..n {
        for v in 0..n {
            if u == v || (!directed && v < u) {
                continue;
            }
            if rng.random_bool(p) {
                links.push((u, v));
            }
        }
    }
    let endpoints: Vec<u32> = (0..n)
        .map(|_| {
            if uniform {
                max_endpoints
            } else {
                rng.random_range(0..=max_endpoints)
            }
        })
        .collect();
    network(n, directed, &links, &endpoints)
}

/// A ring of n routers with one endpoint each.
pub fn ring(n: usize) -> Network {
    let links: Vec<(usize, usize)> = (0..n).map(|i| (i, (i + 1) % n)).collect();
    network(n, false, &links, &vec![1; n])
}

/// The complete graph on n routers.
pub fn complete(n: usize) -> Network {
    let links: Vec<(usize, usize)> = (0..n)
        .flat_map(|u| (u + 1..n).map(move |v| (u, v)))
        .collect();
    network(n, false, &links, &vec![1; n])
}

/// Kautz digraph K(d, k) built from its definition: vertices are the words of length k over
/// d + 1 letters with no two equal consecutive letters; s_1..s_k -> s_2..s_k x for x != s_k.
/// It has d^k + d^(k-1) vertices, out-degree d and diameter k.
pub fn kautz(d: usize, k: usize) -> Network {
    let mut words: Vec<Vec<usize>> = (0..=d).map(|a| vec![a]).collect();
    for _ in 1..k {
        words = words
            .into_iter()
            .flat_map(|w| {
                let last = *w.last().unwrap();
                (0..=d).filter(move |&x| x != last).map(move |x| {
                    let mut w2 = w.clone();
                    w2.push(x);
                    w2
                })
            })
            .collect();
    }
    let index: std::collections::BTreeMap<Vec<usize>, usize> = words
        .iter()
        .cloned()
        .enumerate()
        .map(|(i, w)| (w, i))
        .collect();
    let mut links = Vec::new();
    for (i, w) in words.iter().enumerate() {
        let last = *w.last().unwrap();
        for x in (0..=d).filter(|&x| x != last) {
            let mut next = w[1..].to_vec();
            next.push(x);
            let j = index[&next];
            if j != i {
                links.push((i, j));
            }
        }
    }
    network(words.len(), true, &links, &vec![1; words.len()])
}

/// Out-distances from s by a plain queue over `Network::neighbors`.
pub fn bfs(net: &Network, s: usize) -> Vec<u32> {
    let mut dist = vec![INF; net.num_routers()];
    dist[s] = 0;
    let mut q = VecDeque::from([s]);
    while let Some(u) = q.pop_front() {
        for &v in net.neighbors(u) {
            if dist[v as usize] == INF {
                dist[v as usize] = dist[u] + 1;
                q.push_back(v as usize);
            }
        }
    }
    dist
}

/// The full distance matrix by brute force.
pub fn matrix(net: &Network) -> Vec<Vec<u32>> {
    (0..net.num_routers()).map(|s| bfs(net, s)).collect()
}
