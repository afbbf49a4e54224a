//! The minimal-next-hop table (bit masks, and the distance-row fallback for degree > 64 or
//! directed networks) against brute-force BFS, and Valiant's sampled intermediates against the
//! distribution static analysis enumerates (uniform over the admissible ones).

use std::collections::{HashMap, VecDeque};
use std::sync::Arc;
use topolab_core::progress::Silent;
use topolab_core::rng::{stream, Stream};
use topolab_core::routing::minimal::MinimalTable;
use topolab_core::routing::valiant::Valiant;
use topolab_core::routing::vc_rule::VcRule;
use topolab_core::routing::{HopRouting, RouteState};
use topolab_core::{build_str, Network};

fn bfs(net: &Network, s: usize) -> Vec<usize> {
    let mut d = vec![usize::MAX; net.num_routers()];
    d[s] = 0;
    let mut q = VecDeque::from([s]);
    while let Some(u) = q.pop_front() {
        for &v in net.neighbors(u) {
            if d[v as usize] == usize::MAX {
                d[v as usize] = d[u] + 1;
                q.push_back(v as usize);
            }
        }
    }
    d
}

#[test]
#[allow(clippy::needless_range_loop)] // t indexes the table and every BFS row alike
fn minimal_next_hops_match_bfs_with_and_without_masks() {
    // slimfly: masks of one byte; the 2D HyperX of degree 18, 33, 41 and 49: 3, 5, 6 and 7
    // bytes, entries not aligned to their width; hyperx 34x34: degree 66 > 64, distance rows;
    // kautz: directed.
    for spec in [
        "slimfly:q=5",
        "hyperx:dims=10x10",
        "hyperx:dims=17x18",
        "hyperx:dims=20x23",
        "hyperx:dims=25x26",
        "hyperx:dims=34x34",
        "kautz:d=3,k=3",
    ] {
        let net = build_str(spec).unwrap();
        let table = MinimalTable::build(&net, &Silent).unwrap();
        let n = net.num_routers();
        let step = if n > 500 { 37 } else { 1 };
        let dist: Vec<Vec<usize>> = (0..n).map(|s| bfs(&net, s)).collect();
        for r in (0..n).step_by(step) {
            for t in 0..n {
                let mut got = Vec::new();
                table.for_each_next(r, t, |i| got.push(i as usize));
                let want: Vec<usize> = net
                    .neighbors(r)
                    .iter()
                    .enumerate()
                    .filter(|&(_, &v)| r != t && dist[v as usize][t] + 1 == dist[r][t])
                    .map(|(i, _)| i)
                    .collect();
                assert_eq!(got, want, "{spec}: {r} -> {t}");
            }
        }
    }
}

#[test]
fn valiant_samples_uniformly_over_admissible_intermediates() {
    for (spec, endpoints_only, max_hops) in [
        ("slimfly:q=5", false, Some(3)),
        ("mlfm:h=3", true, None),
        ("slimfly:q=5", false, None),
    ] {
        let net = build_str(spec).unwrap();
        let table = Arc::new(MinimalTable::build(&net, &Silent).unwrap());
        let v = Valiant::new(&net, table, VcRule::Hop, endpoints_only, max_hops).unwrap();
        let ends: Vec<u32> = (0..net.num_routers() as u32)
            .filter(|&r| net.endpoints()[r as usize] > 0)
            .collect();
        let (s, t) = (ends[0], ends[ends.len() - 1]);
        let mut listed = Vec::new();
        v.start(s, t, &mut listed);
        let mut rng = stream(7, Stream::Routing, 0);
        let draws = 40_000;
        let mut seen: HashMap<RouteState, u32> = HashMap::new();
        for _ in 0..draws {
            *seen.entry(v.sample_start(s, t, &mut rng)).or_default() += 1;
        }
        assert_eq!(
            seen.len(),
            listed.len(),
            "{spec}: every admissible intermediate drawn"
        );
        for (st, w) in &listed {
            let freq = seen[st] as f64 / draws as f64;
            // Binomial standard deviation sqrt(w(1-w)/draws); 5 of them.
            let sd = (w * (1.0 - w) / draws as f64).sqrt();
            assert!(
                (freq - w).abs() < 5.0 * sd + 1e-9,
                "{spec}: {st:?} {freq} vs {w}"
            );
        }
    }
}

#[test]
fn distance_addresses_are_where_the_distances_are() {
    // slimfly: the symmetric hop matrix; kautz: directed, rows by destination.
    for spec in ["slimfly:q=5", "kautz:d=3,k=3"] {
        let net = build_str(spec).unwrap();
        let table = MinimalTable::build(&net, &Silent).unwrap();
        let n = net.num_routers();
        let bytes = table.hops().entry_bytes();
        let origin = table.dist_address(0, 0).unwrap() as usize;
        for v in 0..n {
            let d = bfs(&net, v);
            for (t, &want) in d.iter().enumerate() {
                assert_eq!(table.dist(v, t) as usize, want, "{spec}: {v} -> {t}");
                // the address of d(v, t): row t, column v (undirected networks read the
                // symmetric hop matrix's row t, directed ones their rows by destination)
                let at = table.dist_address(v, t).unwrap() as usize;
                assert_eq!(at - origin, (t * n + v) * bytes, "{spec}: {v} -> {t}");
            }
        }
    }
}

/// UGAL's source decision asks for the table entries of intermediates taken from the next draws
/// ahead of drawing them; that is worth something only if the offered intermediates are the
/// ones drawn: each admissible first try of `draw_start` must be the intermediate offered for
/// the draw it consumed.
#[test]
fn speculative_intermediates_are_the_ones_drawn() {
    for (spec, near_source) in [("slimfly:q=5", false), ("polarfly:q=5", true)] {
        let net = build_str(spec).unwrap();
        let table = Arc::new(MinimalTable::build(&net, &Silent).unwrap());
        let mut v = Valiant::new(&net, table, VcRule::Hop, false, None).unwrap();
        if near_source {
            v = v.near_source(&net);
        }
        let n = net.num_routers() as u32;
        let mut rng = stream(11, Stream::Routing, 0);
        let (mut matched, mut pairs) = (0, 0);
        for s in 0..n {
            for t in (0..n).filter(|&t| t != s) {
                let mut offered = Vec::new();
                v.speculative_intermediates(s, t, &rng, 3, |i| offered.push(i));
                assert_eq!(offered.len(), 3, "{spec}: {s} -> {t}");
                let mut drawn = rng.clone();
                // Three draws in a row, each one word while its first try is admissible.
                let mut all_first_try = true;
                for (k, &i) in offered.iter().enumerate() {
                    let st = v.draw_start(s, t, &mut drawn);
                    if i == s || i == t {
                        all_first_try = false;
                        break;
                    }
                    assert_eq!(st.aux, i, "{spec}: {s} -> {t}, draw {k}");
                }
                matched += all_first_try as u32;
                pairs += 1;
                rng = drawn;
            }
        }
        // A draw hits s or t with probability 2/50 on the Slim Fly's 50 routers (2/31 on the
        // PolarFly's 31 for adjacent pairs, 0 for the others): (48/50)^3 = 88% of the Slim
        // Fly's pairs have all three draws compared.
        assert!(matched * 4 > pairs * 3, "{spec}: {matched} of {pairs}");
    }
}
