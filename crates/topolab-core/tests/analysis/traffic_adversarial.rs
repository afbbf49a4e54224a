//! Adversarial patterns against the properties the papers build them for, checked by brute force
//! over all shortest paths: Slim Fly (Besta & Hoefler, SC14, §V-C, Kathareios et al., SC15, §4.2:
//! pairs at distance 2 whose routes overlap, 2p flows on the shared link), PolarFly (Lakhotia et
//! al., SC22: every router to a neighbour), Dragonfly (group i to group i+1; on Dragonfly+ too),
//! fat tree (through the core), MLFM and OFT (Kathareios et al., SC15, §4.2: all of a router's
//! traffic on one minimal path). The new families' patterns are also measured with the static
//! channel load of minimal routing against uniform traffic and random permutations.

use std::collections::BTreeMap;

use rand_chacha::ChaCha8Rng;
use topolab_core::io::{self, Format, LoadOptions};
use topolab_core::metrics::distance::{distances_from, UNREACHABLE};
use topolab_core::progress::Silent;
use topolab_core::rng::{stream, Stream};
use topolab_core::routing::catalog::build_static;
use topolab_core::routing::load::channel_load;
use topolab_core::traffic::traffic_demands;
use topolab_core::traffic::Traffic;
use topolab_core::{build_str, Network};

fn rng() -> ChaCha8Rng {
    stream(11, Stream::Traffic, 0)
}

fn pattern(spec: &str, net: &Network) -> Traffic {
    Traffic::parse(spec, net).unwrap_or_else(|e| panic!("{spec} on {}: {e}", net.spec()))
}

fn table(t: &Traffic, net: &Network) -> Vec<Option<u32>> {
    let mut r = rng();
    (0..net.num_endpoints() as u32)
        .map(|s| t.destination(s, &mut r))
        .collect()
}

fn router_of(net: &Network, e: u32) -> usize {
    net.endpoint_router(e as u64).unwrap()
}

/// Flows of a deterministic pattern grouped by (source router, destination router).
fn router_flows(net: &Network, dest: &[Option<u32>]) -> BTreeMap<(usize, usize), u32> {
    let mut flows = BTreeMap::new();
    for (s, d) in dest.iter().enumerate() {
        if let Some(d) = d {
            *flows
                .entry((router_of(net, s as u32), router_of(net, *d)))
                .or_insert(0) += 1;
        }
    }
    flows
}

/// Hop distances from `src` and the number of shortest paths to every router.
fn paths_from(net: &Network, src: usize) -> (Vec<u32>, Vec<u64>) {
    let dist = distances_from(net, src);
    let mut order: Vec<usize> = (0..net.num_routers())
        .filter(|&r| dist[r] != UNREACHABLE)
        .collect();
    order.sort_by_key(|&r| dist[r]);
    let mut count = vec![0u64; net.num_routers()];
    count[src] = 1;
    for &v in &order[1..] {
        count[v] = net
            .neighbors(v)
            .iter()
            .filter(|&&u| dist[u as usize] + 1 == dist[v])
            .map(|&u| count[u as usize])
            .sum();
    }
    (dist, count)
}

/// Per directed link, the flows that EVERY shortest path of their router pair crosses
/// (`forced`) and the flows that SOME shortest path crosses (`possible`).
struct Loads {
    forced: BTreeMap<(usize, usize), u32>,
    possible: BTreeMap<(usize, usize), u32>,
}

fn link_loads(net: &Network, flows: &BTreeMap<(usize, usize), u32>) -> Loads {
    let mut loads = Loads {
        forced: BTreeMap::new(),
        possible: BTreeMap::new(),
    };
    for (&(a, b), &f) in flows {
        let (ds, cs) = paths_from(net, a);
        let (dt, ct) = paths_from(net, b);
        for u in 0..net.num_routers() {
            for &v in net.neighbors(u) {
                let v = v as usize;
                if ds[u] == UNREACHABLE || dt[v] == UNREACHABLE || ds[u] + 1 + dt[v] != ds[b] {
                    continue;
                }
                *loads.possible.entry((u, v)).or_insert(0) += f;
                if cs[u] * ct[v] == cs[b] {
                    *loads.forced.entry((u, v)).or_insert(0) += f;
                }
            }
        }
    }
    loads
}

/// Routers strictly between a and b on some shortest path.
fn middles(net: &Network, a: usize, b: usize) -> Vec<usize> {
    let (ds, dt) = (distances_from(net, a), distances_from(net, b));
    (0..net.num_routers())
        .filter(|&m| m != a && m != b && ds[m] + dt[m] == ds[b])
        .collect()
}

fn assert_permutation_on_active(dest: &[Option<u32>]) -> usize {
    let mut hit = vec![false; dest.len()];
    for d in dest.iter().flatten() {
        assert!(!hit[*d as usize], "destination {d} twice");
        hit[*d as usize] = true;
    }
    let active = dest.iter().filter(|d| d.is_some()).count();
    assert_eq!(active, hit.iter().filter(|&&h| h).count());
    for (s, d) in dest.iter().enumerate() {
        assert_eq!(d.is_some(), hit[s], "endpoint {s} sends iff it receives");
    }
    active
}

#[test]
fn slimfly_worst_case_loads_one_link_with_2p_flows_per_pair_of_routes() {
    for (q, min_coverage) in [(4u32, 1.0), (5, 0.85), (7, 0.95), (8, 1.0)] {
        let net = build_str(&format!("slimfly:q={q}")).unwrap();
        let p = net.endpoints()[0];
        let dest = table(&pattern("slimfly_worst", &net), &net);
        let active = assert_permutation_on_active(&dest);
        let coverage = active as f64 / dest.len() as f64;
        println!("slimfly q={q}: {active}/{} endpoints active", dest.len());
        assert!(coverage >= min_coverage, "q={q}: coverage {coverage}");
        // Routers pair up and exchange ("send and receive", Besta & Hoefler, SC14, §V-C), endpoint
        // j with j.
        for (s, d) in dest.iter().enumerate() {
            let Some(d) = *d else { continue };
            assert_eq!(dest[d as usize], Some(s as u32));
            let (rs, rd) = (router_of(&net, s as u32), router_of(&net, d));
            assert_eq!(s as u32 - rs as u32 * p, d - rd as u32 * p);
        }
        let flows = router_flows(&net, &dest);
        for (&(a, b), &f) in &flows {
            assert_eq!(f, p, "all p endpoints of {a} go to {b}");
            let (dist, count) = paths_from(&net, a);
            assert_eq!(dist[b], 2, "pair {a}-{b} at distance 2");
            assert_eq!(count[b], 1, "pair {a}-{b} has one minimal path");
        }
        let loads = link_loads(&net, &flows);
        let max_forced = *loads.forced.values().max().unwrap();
        let max_possible = *loads.possible.values().max().unwrap();
        assert_eq!(max_forced, 2 * p, "q={q}: 2p flows on the shared link");
        assert_eq!(
            max_possible,
            2 * p,
            "q={q}: nothing heavier under any minimal routing"
        );
        // Every flow's only route crosses a link carrying 2p flows.
        for &(a, b) in flows.keys() {
            let m = middles(&net, a, b);
            assert_eq!(m.len(), 1);
            let on_path = [(a, m[0]), (m[0], b)];
            assert!(
                on_path
                    .iter()
                    .any(|l| loads.forced.get(l) == Some(&(2 * p))),
                "q={q}: flow {a}->{b} misses the overloaded links"
            );
        }
    }
}

#[test]
fn slimfly_worst_case_reads_only_the_graph() {
    // An imported copy (anynet carries no family or labels) gives the same pattern.
    let net = build_str("slimfly:q=5").unwrap();
    let text = io::to_string(&net, Format::Anynet).unwrap();
    let imported = io::from_str(&text, Format::Anynet, &LoadOptions::default()).unwrap();
    assert_eq!(imported.family(), "imported");
    assert_eq!(
        table(&pattern("slimfly_worst", &imported), &imported),
        table(&pattern("slimfly_worst", &net), &net)
    );
    assert_eq!(
        pattern("worst", &net),
        pattern("slimfly_worst", &net),
        "'worst' picks the family's pattern"
    );
}

#[test]
fn dragonfly_worst_case_sends_group_i_to_group_i_plus_1() {
    let net = build_str("dragonfly:a=4,h=2").unwrap(); // 9 groups of 4 routers, p = 2
    let groups = 9;
    let group_of = |e: u32| net.label(router_of(&net, e))[0] as u32;
    for (spec, offset) in [("dragonfly_worst", 1), ("dragonfly_worst:offset=3", 3)] {
        let t = pattern(spec, &net);
        let mut r = rng();
        let mut hits = vec![0u32; net.num_endpoints() as usize];
        for s in 0..net.num_endpoints() as u32 {
            for _ in 0..200 {
                let d = t.destination(s, &mut r).unwrap();
                assert_eq!(
                    group_of(d),
                    (group_of(s) + offset) % groups,
                    "{spec}: {s}->{d}"
                );
                hits[d as usize] += 1;
            }
        }
        // Uniform over the 8 endpoints of the next group: each receives Binomial(8 x 200, 1/8)
        // draws, mean 200 and sd 13.2; 6.8 sd either way.
        assert!(
            hits.iter().all(|&h| (110..=290).contains(&h)),
            "{spec}: {hits:?}"
        );
    }
    assert_eq!(pattern("worst", &net), pattern("dragonfly_worst", &net));
    assert_eq!(
        pattern("bad_dragon", &net),
        pattern("dragonfly_worst", &net)
    );
}

/// Hop distance avoiding the routers `blocked` says are blocked.
fn distance_avoiding(net: &Network, a: usize, b: usize, blocked: impl Fn(usize) -> bool) -> u32 {
    let mut dist = vec![UNREACHABLE; net.num_routers()];
    let mut queue = std::collections::VecDeque::from([a]);
    dist[a] = 0;
    while let Some(u) = queue.pop_front() {
        for &v in net.neighbors(u) {
            let v = v as usize;
            if dist[v] == UNREACHABLE && !blocked(v) {
                dist[v] = dist[u] + 1;
                queue.push_back(v);
            }
        }
    }
    dist[b]
}

#[test]
fn fattree_worst_case_crosses_the_top_level() {
    for spec in [
        "fattree:k=4",
        "fattree:k=6,pods=3",
        "fattree:k=4,levels=2",
        "fattree:k=6,p=4",
    ] {
        let net = build_str(spec).unwrap();
        let top = (0..net.num_routers())
            .map(|r| net.label(r)[0])
            .max()
            .unwrap();
        let dest = table(&pattern("fattree_worst", &net), &net);
        let active = assert_permutation_on_active(&dest);
        assert_eq!(active, dest.len(), "{spec}: every endpoint takes part");
        for &(a, b) in router_flows(&net, &dest).keys() {
            let full = distances_from(&net, a)[b];
            let avoiding = distance_avoiding(&net, a, b, |r| net.label(r)[0] == top);
            assert!(
                avoiding > full,
                "{spec}: {a}->{b} has a minimal path below the top level"
            );
            let (la, lb) = (net.label(a), net.label(b));
            if top == 2 {
                assert_eq!(lb[2], la[2], "{spec}: same leaf position");
                let pods = (0..net.num_routers())
                    .map(|r| net.label(r)[1])
                    .max()
                    .unwrap()
                    + 1;
                assert_eq!(lb[1], (la[1] + 1) % pods, "{spec}: next pod");
            } else {
                assert_eq!(lb[2], (la[2] + 1) % 4, "{spec}: next leaf");
            }
        }
    }
}

/// Kathareios et al., SC15, §4.2: every flow has a single intermediate router of the wanted kind
/// and each link of its path carries exactly the p flows of the source router.
fn assert_single_path_shift(
    net: &Network,
    dest: &[Option<u32>],
    middle_ok: impl Fn(usize) -> bool,
) {
    let flows = router_flows(net, dest);
    for (&(a, b), &f) in &flows {
        assert_eq!(f, net.endpoints()[a], "all endpoints of {a} go to {b}");
        let m = middles(net, a, b);
        assert_eq!(m.len(), 1, "{a}->{b}: minimal paths through {m:?}");
        assert!(middle_ok(m[0]), "{a}->{b} through {}", m[0]);
    }
    let loads = link_loads(net, &flows);
    assert_eq!(loads.forced, loads.possible, "single minimal paths");
    let p = net.endpoints().iter().copied().max().unwrap();
    assert!(loads.forced.values().all(|&l| l == p), "{:?}", loads.forced);
}

#[test]
fn mlfm_worst_case_is_the_shift_by_h_through_one_global_router() {
    // h = p = 4: Kathareios et al.'s (SC15) "shift traffic pattern with a shift value of h" on
    // endpoint ids.
    let net = build_str("mlfm:h=4").unwrap();
    let n = net.num_endpoints() as u32;
    let dest = table(&pattern("mlfm_worst", &net), &net);
    for s in 0..n {
        assert_eq!(dest[s as usize], Some((s + 4) % n));
    }
    for spec in ["mlfm:h=4", "mlfm:h=3,l=2,p=2", "mlfm:h=5,l=3,p=5"] {
        let net = build_str(spec).unwrap();
        for t in ["mlfm_worst", "mlfm_worst:offset=2", "worst"] {
            let dest = table(&pattern(t, &net), &net);
            assert_eq!(assert_permutation_on_active(&dest), dest.len());
            assert_single_path_shift(&net, &dest, |m| net.label(m)[0] == 1);
        }
    }
    // An offset of h + 1 pairs routers of one column (h minimal paths): rejected.
    let err = Traffic::parse("mlfm_worst:offset=5", &net)
        .unwrap_err()
        .to_string();
    assert!(err.contains("offset") && err.contains("column"), "{err}");
}

#[test]
fn oft_worst_case_is_the_shift_by_k_through_one_l1_router() {
    let net = build_str("oft:k=4").unwrap(); // p = k = 4
    let n = net.num_endpoints() as u32;
    let dest = table(&pattern("oft_worst", &net), &net);
    for s in 0..n {
        assert_eq!(dest[s as usize], Some((s + 4) % n));
    }
    for spec in ["oft:k=4", "oft:k=3", "oft:k=5,p=2"] {
        let net = build_str(spec).unwrap();
        let level_1 = |m: usize| net.label(m)[0] == 1;
        for t in ["oft_worst", "oft_worst:offset=3", "worst"] {
            let dest = table(&pattern(t, &net), &net);
            assert_eq!(assert_permutation_on_active(&dest), dest.len());
            assert_single_path_shift(&net, &dest, level_1);
        }
    }
    // R_L = 13 for k = 4: an offset of 13 pairs (0, i) with its counterpart (2, i).
    let err = Traffic::parse("oft_worst:offset=13", &net)
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("offset") && err.contains("counterpart"),
        "{err}"
    );
}

#[test]
fn adversarial_patterns_reject_other_families() {
    let sf = build_str("slimfly:q=5").unwrap();
    let df = build_str("dragonfly:a=4,h=2").unwrap();
    let torus = build_str("torus:dims=4x4").unwrap();
    let cases: [(&str, &Network, &str); 7] = [
        ("dragonfly_worst", &sf, "slimfly"),
        ("fattree_worst", &sf, "slimfly"),
        ("mlfm_worst", &df, "dragonfly"),
        ("oft_worst", &df, "dragonfly"),
        ("slimfly_worst", &df, "dragonfly"),
        ("worst", &torus, "torus"),
        ("dragonfly_worst", &torus, "torus"),
    ];
    for (spec, net, family) in cases {
        let err = Traffic::parse(spec, net).unwrap_err().to_string();
        assert!(
            err.contains("'network'") && err.contains(&format!("'{family}'")),
            "{spec} on {family}: {err}"
        );
    }
    let err = Traffic::parse("dragonfly_worst:offset=9", &df)
        .unwrap_err()
        .to_string();
    assert!(err.contains("'offset'") && err.contains("1 to 8"), "{err}");
    let err = Traffic::parse("slimfly_worst:offset=1", &sf)
        .unwrap_err()
        .to_string();
    assert!(err.contains("offset"), "{err}");
    let one_pod = build_str("fattree:k=4,pods=1").unwrap();
    let err = Traffic::parse("fattree_worst", &one_pod)
        .unwrap_err()
        .to_string();
    assert!(err.contains("at least 2 pods"), "{err}");
}

/// Channel loads (flows per link) of the oblivious `routing` under the traffic spec's expected
/// router-level rates: the max, and the mean over the links that carry traffic.
fn loads(net: &Network, routing: &str, traffic: &str) -> (f64, f64) {
    let def = build_static(net, routing, &Silent).unwrap();
    let demands = traffic_demands(net, traffic, routing, None).unwrap();
    let load = channel_load(net, def.as_ref(), &demands, &Silent).unwrap();
    let used: Vec<f64> = load.loads.iter().copied().filter(|&l| l > 0.0).collect();
    (load.max_load, used.iter().sum::<f64>() / used.len() as f64)
}

/// `loads` averaged over random permutations of 8 seeds.
fn randperm_loads(net: &Network, routing: &str) -> (f64, f64) {
    let seeds = 1..9u32;
    let n = seeds.len() as f64;
    let (max, mean) = seeds
        .map(|seed| loads(net, routing, &format!("randperm:seed={seed}")))
        .fold((0.0, 0.0), |a, b| (a.0 + b.0, a.1 + b.1));
    (max / n, mean / n)
}

#[test]
fn polarfly_worst_case_pairs_every_router_with_a_neighbour() {
    for q in [3u32, 5, 7, 9] {
        let net = build_str(&format!("polarfly:q={q}")).unwrap();
        let p = net.endpoints()[0];
        let dest = table(&pattern("polarfly_worst", &net), &net);
        // A permutation of all endpoints (the starter quadric's among themselves).
        assert_eq!(assert_permutation_on_active(&dest), dest.len(), "q={q}");
        let flows = router_flows(&net, &dest);
        let quadrics: Vec<usize> = (0..net.num_routers())
            .filter(|&r| net.neighbors(r).len() == q as usize)
            .collect();
        assert_eq!(quadrics.len(), q as usize + 1);
        let mut senders = BTreeMap::new();
        for (&(a, b), &f) in &flows {
            if a == b {
                assert_eq!(
                    a, quadrics[0],
                    "q={q}: only the starter quadric keeps its traffic"
                );
                continue;
            }
            assert_eq!(f, p, "q={q}: all p endpoints of {a} go to {b}");
            assert!(
                net.neighbors(a).contains(&(b as u32)),
                "q={q}: {a}-{b} adjacent"
            );
            assert_eq!(flows.get(&(b, a)), Some(&p), "q={q}: {a} and {b} exchange");
            *senders.entry(a).or_insert(0) += 1;
        }
        assert_eq!(
            senders.len(),
            net.num_routers() - 1,
            "q={q}: every other router sends"
        );
        // Each flow has one minimal path, the direct link, which carries p flows per direction.
        let loads = link_loads(&net, &flows);
        assert_eq!(*loads.forced.values().max().unwrap(), p);
        assert_eq!(*loads.possible.values().max().unwrap(), p);
    }
}

#[test]
fn polarfly_worst_case_needs_odd_q_and_a_polarfly() {
    let even = build_str("polarfly:q=4").unwrap();
    let err = Traffic::parse("polarfly_worst", &even)
        .unwrap_err()
        .to_string();
    assert!(err.contains("q = 4") && err.contains("odd q"), "{err}");
    let sf = build_str("slimfly:q=5").unwrap();
    let err = Traffic::parse("polarfly_worst", &sf)
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("'slimfly'") && err.contains("PolarFly"),
        "{err}"
    );
    let pf = build_str("polarfly:q=5").unwrap();
    assert_eq!(pattern("badpf", &pf), pattern("polarfly_worst", &pf));
}

#[test]
fn polarfly_declares_slim_flys_worst_case_which_exists_for_every_q() {
    // The family's `worst` is the one pattern that exists for even q as well as odd q.
    for q in [2u32, 3, 4, 5, 8, 9] {
        let pf = build_str(&format!("polarfly:q={q}")).unwrap();
        assert_eq!(
            pattern("worst", &pf),
            pattern("slimfly_worst", &pf),
            "q={q}"
        );
    }
}

#[test]
fn new_worst_cases_load_minimal_routing_more_than_uniform_and_random_permutations() {
    for (spec, worst, routing) in [
        ("polarfly:q=5", "polarfly_worst", "min"),
        ("polarfly:q=7", "polarfly_worst", "min"),
        ("polarfly:q=11", "polarfly_worst", "min"),
        ("polarfly:q=5", "slimfly_worst", "min"),
        ("polarfly:q=7", "slimfly_worst", "min"),
        ("dragonflyplus:h=2", "dragonfly_worst", "dragonflyplus_min"),
        (
            "dragonflyplus:h=3,g=5",
            "dragonfly_worst",
            "dragonflyplus_min",
        ),
    ] {
        let net = build_str(spec).unwrap();
        let uniform = loads(&net, routing, "uniform");
        let random = randperm_loads(&net, routing);
        let bad = loads(&net, routing, worst);
        println!(
            "{spec} {routing}: max / mean-used load {worst} {:.2} / {:.2}, uniform {:.2} / {:.2}, \
             randperm {:.2} / {:.2}",
            bad.0, bad.1, uniform.0, uniform.1, random.0, random.1
        );
        assert!(
            bad.0 > 1.5 * uniform.0,
            "{spec} {worst}: {bad:?} vs uniform {uniform:?}"
        );
        // Random permutations have hot links too on small networks (their max load can match
        // a worst case's); what the worst cases add is that the typical used link is as loaded.
        assert!(
            bad.1 > 1.5 * random.1,
            "{spec} {worst}: {bad:?} vs random {random:?}"
        );
    }
}
