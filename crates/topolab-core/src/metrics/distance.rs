//! Hop distances between routers by breadth-first search over the CSR adjacency.

use crate::network::Network;

/// Marks a router that cannot be reached.
pub const UNREACHABLE: u32 = u32::MAX;

/// Hop distance from `src` to every router (out-links when directed).
pub fn distances_from(net: &Network, src: usize) -> Vec<u32> {
    let (offsets, targets) = net.csr();
    let mut dist = vec![UNREACHABLE; net.num_routers()];
    let mut queue = Vec::with_capacity(net.num_routers());
    dist[src] = 0;
    queue.push(src as u32);
    let mut head = 0;
    while head < queue.len() {
        let u = queue[head] as usize;
        head += 1;
        let next = dist[u] + 1;
        for &v in &targets[offsets[u] as usize..offsets[u + 1] as usize] {
            if dist[v as usize] == UNREACHABLE {
                dist[v as usize] = next;
                queue.push(v);
            }
        }
    }
    dist
}

/// Largest hop distance between two distinct routers of `among`, or None when one cannot reach
/// another. Used for indirect networks whose diameter counts only endpoint routers.
pub fn diameter_among(net: &Network, among: &[usize]) -> Option<u32> {
    let mut diameter = 0;
    for &s in among {
        let dist = distances_from(net, s);
        for &t in among {
            let d = dist[t];
            if d == UNREACHABLE {
                return None;
            }
            diameter = diameter.max(d);
        }
    }
    Some(diameter)
}

/// Diameter over all routers, or None when the network is not (strongly) connected.
pub fn diameter(net: &Network) -> Option<u32> {
    let all: Vec<usize> = (0..net.num_routers()).collect();
    diameter_among(net, &all)
}

/// Routers with at least one endpoint.
pub fn endpoint_routers(net: &Network) -> Vec<usize> {
    (0..net.num_routers())
        .filter(|&r| net.endpoints()[r] > 0)
        .collect()
}
