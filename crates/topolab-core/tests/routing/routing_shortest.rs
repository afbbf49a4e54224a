//! Shortest-path tables against independent references: a literal transcription of BookSim2's
//! AnyNet::route Dijkstra (set-based minimum extraction, relaxation in ascending neighbour order,
//! strict improvement only) and plain BFS path lengths.

use topolab_core::progress::Silent;
use topolab_core::routing::shortest::{NO_HOP, NO_PATH};
use topolab_core::routing::{HopMatrix, NextHopTable};
use topolab_core::{build_str, Network, NetworkBuilder};

/// BookSim2's AnyNet::route for one source, unit weights: returns the first hop to every router.
fn booksim_dijkstra(net: &Network, start: usize) -> Vec<u32> {
    let n = net.num_routers();
    let mut dist = vec![i64::MAX; n];
    let mut prev = vec![usize::MAX; n];
    let mut open: std::collections::BTreeSet<usize> = (0..n).collect();
    dist[start] = 0;
    while !open.is_empty() {
        let mut min_d = i64::MAX;
        let mut cand = usize::MAX;
        for &i in &open {
            if dist[i] < min_d {
                min_d = dist[i];
                cand = i;
            }
        }
        if cand == usize::MAX {
            break;
        }
        open.remove(&cand);
        for &v in net.neighbors(cand) {
            let nd = dist[cand] + 1;
            if nd < dist[v as usize] {
                dist[v as usize] = nd;
                prev[v as usize] = cand;
            }
        }
    }
    (0..n)
        .map(|i| {
            if i == start || prev[i] == usize::MAX {
                return NO_HOP;
            }
            let mut v = i;
            while prev[v] != start {
                v = prev[v];
            }
            v as u32
        })
        .collect()
}

fn check_against_booksim(net: &Network) {
    let hops = HopMatrix::build(net, &Silent).unwrap();
    let table = NextHopTable::build(net, &hops, &Silent).unwrap();
    for s in 0..net.num_routers() {
        let reference = booksim_dijkstra(net, s);
        for (t, &want) in reference.iter().enumerate() {
            assert_eq!(table.get(s, t), want, "first hop {s} -> {t}");
        }
    }
}

#[test]
fn static_table_equals_booksim_dijkstra_on_slimfly_and_torus() {
    check_against_booksim(&build_str("slimfly:q=5,p=1").unwrap());
    check_against_booksim(&build_str("torus:dims=4x3x2").unwrap());
    check_against_booksim(&build_str("dragonfly:a=4,h=2,p=1").unwrap());
}

#[test]
fn following_next_hops_walks_shortest_paths() {
    let net = build_str("jellyfish:routers=40,degree=5,p=1,seed=3").unwrap();
    let hops = HopMatrix::build(&net, &Silent).unwrap();
    let table = NextHopTable::build(&net, &hops, &Silent).unwrap();
    for s in 0..net.num_routers() {
        let bfs = topolab_core::metrics::distance::distances_from(&net, s);
        for (t, &dist) in bfs.iter().enumerate() {
            assert_eq!(hops.get(s, t) as u32, dist);
            let (mut at, mut steps) = (s, 0);
            while at != t {
                let next = table.get(at, t);
                assert!(net.neighbors(at).contains(&next));
                at = next as usize;
                steps += 1;
            }
            assert_eq!(steps, dist);
            // Every minimal next hop is one hop closer; the static one is among them.
            let minimal: Vec<u32> = hops
                .minimal_next_hops(&net, s, t)
                .map(|i| net.neighbors(s)[i])
                .collect();
            for &m in &minimal {
                assert_eq!(dist, hops.get(m as usize, t) as u32 + 1);
            }
            if s != t {
                assert!(minimal.contains(&table.get(s, t)));
            } else {
                assert!(minimal.is_empty());
            }
        }
    }
}

#[test]
fn directed_and_disconnected_networks() {
    // 0 -> 1 -> 2 -> 0 ring plus an isolated router 3.
    let mut b = NetworkBuilder::new("test", 4, true);
    let c = b.link_class("link");
    b.add_link(0, 1, 1, c)
        .add_link(1, 2, 1, c)
        .add_link(2, 0, 1, c);
    let net = b.build().unwrap();
    let hops = HopMatrix::build(&net, &Silent).unwrap();
    assert_eq!(hops.get(0, 2), 2);
    assert_eq!(hops.get(2, 0), 1);
    assert_eq!(hops.get(0, 3), NO_PATH);
    assert!(!hops.connected());
    assert_eq!(hops.max_finite(), 2);
    let table = NextHopTable::build(&net, &hops, &Silent).unwrap();
    assert_eq!(table.get(0, 2), 1);
    assert_eq!(table.get(0, 3), NO_HOP);
    assert_eq!(table.get(1, 1), NO_HOP);
}

/// A directed ring of `n` routers and an isolated one: d(s, t) = (t - s) mod n.
fn directed_ring_and_isolated(n: usize) -> Network {
    let mut b = NetworkBuilder::new("ring", n + 1, true);
    let c = b.link_class("link");
    for r in 0..n {
        b.add_link(r, (r + 1) % n, 1, c);
    }
    b.build().unwrap()
}

#[test]
fn hop_counts_take_one_byte_up_to_diameter_254_and_two_past_it() {
    // directed rings of diameter 254 and 255, against the closed form and BFS's unreachable
    for (n, bytes) in [(255usize, 1usize), (256, 2)] {
        let net = directed_ring_and_isolated(n);
        let hops = HopMatrix::build(&net, &Silent).unwrap();
        assert_eq!(hops.entry_bytes(), bytes, "ring of {n}");
        assert_eq!(hops.max_finite() as usize, n - 1);
        assert!(!hops.connected());
        for s in 0..=n {
            for t in 0..=n {
                let want = match (s == n, t == n) {
                    (false, false) => ((t + n - s) % n) as u16,
                    (true, true) => 0,
                    _ => NO_PATH,
                };
                assert_eq!(hops.get(s, t), want, "ring of {n}: {s} -> {t}");
                // every entry stored where its neighbours' addresses say, `bytes` apart
                let at = hops.address(s, t).unwrap() as usize;
                let origin = hops.address(0, 0).unwrap() as usize;
                assert_eq!(at - origin, (s * (n + 1) + t) * bytes);
            }
        }
        assert_eq!(hops.address(n, n + 1), None);
    }
}
