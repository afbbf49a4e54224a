//! Static channel load against a per-destination flow propagation (a different algorithm for
//! the same routing model), the ring closed form and the Slim Fly worst case of Kathareios et al.,
//! SC15, §4.2.

use std::sync::Arc;
use topolab_core::progress::Silent;
use topolab_core::routing::load::{channel_load, Demands};
use topolab_core::routing::minimal::{Minimal, MinimalTable};
use topolab_core::routing::path::arc;
use topolab_core::routing::vc_rule::VcRule;
use topolab_core::routing::{HopMatrix, RuleRoute};
use topolab_core::{build_str, Network};

/// Flow propagation towards each destination: the flow at r splits evenly over the minimal
/// next hops (the `min` routing's per-hop uniform choice), routers processed by decreasing
/// distance to t.
fn propagate(net: &Network, d: &HopMatrix, dem: &Demands) -> Vec<f64> {
    propagate_weighted(net, d, dem, |_, _| 1.0)
}

/// `propagate` with the flow at v split over its minimal next hops w in proportion to
/// `weight(v, w)`; the link loads divided by their widths.
fn propagate_weighted(
    net: &Network,
    d: &HopMatrix,
    dem: &Demands,
    weight: impl Fn(usize, usize) -> f64,
) -> Vec<f64> {
    let n = net.num_routers();
    let mut load = vec![0.0; net.csr().1.len()];
    for t in 0..n {
        let mut flow = vec![0.0; n];
        for &(s, tt, r) in &dem.entries {
            if tt as usize == t {
                flow[s as usize] += r;
            }
        }
        let mut order: Vec<usize> = (0..n).collect();
        order.sort_by_key(|&v| std::cmp::Reverse(d.get(v, t)));
        for v in order {
            if v == t || flow[v] == 0.0 {
                continue;
            }
            let nx: Vec<u32> = net
                .neighbors(v)
                .iter()
                .copied()
                .filter(|&w| d.get(w as usize, t) + 1 == d.get(v, t))
                .collect();
            let total: f64 = nx.iter().map(|&w| weight(v, w as usize)).sum();
            for &w in &nx {
                let f = flow[v] * weight(v, w as usize) / total;
                load[arc(net, v, w as usize).unwrap()] += f;
                flow[w as usize] += f;
            }
        }
    }
    for (a, l) in load.iter_mut().enumerate() {
        *l /= width_of_arc(net, a);
    }
    load
}

/// The width of the link behind arc `a` (CSR order).
fn width_of_arc(net: &Network, a: usize) -> f64 {
    let (offs, _) = net.csr();
    let u = offs.partition_point(|&o| o as usize <= a) - 1;
    let i = a - offs[u] as usize;
    net.links()[net.neighbor_links(u)[i] as usize].width as f64
}

#[test]
fn minimal_uniform_load_matches_flow_propagation() {
    for spec in [
        "torus:dims=4x3,p=2",
        "hyperx:dims=3x3",
        "slimfly:q=5",
        "jellyfish:routers=24,degree=3",
    ] {
        let net = build_str(spec).unwrap();
        let h = Arc::new(HopMatrix::build(&net, &Silent).unwrap());
        let r = min_route(&net, h.clone(), VcRule::Hop);
        let dem = Demands::uniform(&net);
        let got = channel_load(&net, &r, &dem, &Silent).unwrap();
        let want = propagate(&net, &h, &dem);
        for (a, b) in got.loads.iter().zip(&want) {
            assert!((a - b).abs() < 1e-9, "{spec}: {a} vs {b}");
        }
    }
}

#[test]
fn minimal_loads_weigh_a_wide_link_by_its_width_as_the_simulator_does() {
    // With `ports=random` the simulator draws uniformly over the ports of the minimal next
    // hops, so a neighbour behind a link of width w is w times as likely as one behind a
    // single cable: the flow propagation splits by width, and differs from the even split.
    // (Uniform traffic hides the split on these symmetric networks: every link of a dimension
    // carries the same either way. Uneven rates between every pair of routers do not.)
    for spec in [
        "hyperx:dims=3x4,widths=2x1,p=2",
        "torus:dims=4x5,widths=1x3,p=1",
    ] {
        let net = build_str(spec).unwrap();
        let h = Arc::new(HopMatrix::build(&net, &Silent).unwrap());
        let r = min_route(&net, h.clone(), VcRule::Hop);
        let n = net.num_routers() as u32;
        let dem = Demands {
            entries: (0..n)
                .flat_map(|s| (0..n).filter(move |&t| t != s).map(move |t| (s, t)))
                .map(|(s, t)| (s, t, ((s * 31 + t * 17) % 5 + 1) as f64))
                .collect(),
            ..Demands::default()
        };
        let got = channel_load(&net, &r, &dem, &Silent).unwrap();
        let width = |v: usize, w: usize| width_of_arc(&net, arc(&net, v, w).unwrap());
        let want = propagate_weighted(&net, &h, &dem, width);
        for (a, b) in got.loads.iter().zip(&want) {
            assert!((a - b).abs() < 1e-9, "{spec}: {a} vs {b}");
        }
        let even = propagate(&net, &h, &dem);
        assert!(
            got.loads
                .iter()
                .zip(&even)
                .any(|(a, b)| (a - b).abs() > 1e-3),
            "{spec}: the width-weighted loads equal the even split's"
        );
    }
}

#[test]
fn ring_closed_form() {
    // Odd ring of k routers, one endpoint each, uniform traffic, minimal: every directed link
    // carries sum_{d=1}^{(k-1)/2} d / (k-1) = (k+1)/8.
    for k in [5usize, 7, 9] {
        let net = build_str(&format!("torus:dims={k},p=1")).unwrap();
        let h = Arc::new(HopMatrix::build(&net, &Silent).unwrap());
        let r = min_route(&net, h, VcRule::Single);
        let got = channel_load(&net, &r, &Demands::uniform(&net), &Silent).unwrap();
        let want = (k as f64 + 1.0) / 8.0;
        for l in &got.loads {
            assert!((l - want).abs() < 1e-12);
        }
        assert!((got.throughput_bound - 1.0 / want).abs() < 1e-9);
    }
}

#[test]
fn slimfly_worst_case_is_two_p() {
    // Kathareios et al., SC15, §4.2: routers A, X with unique common neighbour Y, and B, Y with
    // unique common neighbour X; endpoints of A and X exchange (both directions), likewise B and Y.
    // Link Y -> X carries A -> X and Y -> B: 2p flows, so minimal routing accepts at most 1/(2p).
    for q in [5u32, 7] {
        let net = build_str(&format!("slimfly:q={q}")).unwrap();
        let p = net.endpoints()[0] as usize;
        let adj = |u: usize, v: usize| net.neighbors(u).contains(&(v as u32));
        let common = |u: usize, v: usize| {
            net.neighbors(u)
                .iter()
                .filter(|&&w| adj(v, w as usize))
                .count()
        };
        let find = |x: usize, y: usize, not: usize| {
            net.neighbors(y)
                .iter()
                .map(|&v| v as usize)
                .find(|&a| a != x && a != not && !adj(a, x) && common(a, x) == 1)
        };
        let (x, y, a, b) = net
            .links()
            .iter()
            .find_map(|l| {
                let (x, y) = (l.src as usize, l.dst as usize);
                let a = find(x, y, usize::MAX)?;
                let b = find(y, x, a)?;
                Some((x, y, a, b))
            })
            .unwrap();
        // Endpoint permutation: endpoint j of A <-> endpoint j of X, B <-> Y, others idle
        // (sending to themselves).
        let first = |r: usize| net.endpoints()[..r].iter().map(|&e| e as u64).sum::<u64>();
        let mut dest: Vec<u64> = (0..net.num_endpoints()).collect();
        for (u, v) in [(a, x), (b, y)] {
            for j in 0..p as u64 {
                dest[(first(u) + j) as usize] = first(v) + j;
                dest[(first(v) + j) as usize] = first(u) + j;
            }
        }
        let dem = Demands::permutation(&net, &dest).unwrap();
        let h = Arc::new(HopMatrix::build(&net, &Silent).unwrap());
        let r = min_route(&net, h, VcRule::Hop);
        let got = channel_load(&net, &r, &dem, &Silent).unwrap();
        assert!(
            (got.max_load - 2.0 * p as f64).abs() < 1e-9,
            "q={q}: {}",
            got.max_load
        );
        assert!((got.loads[arc(&net, y, x).unwrap()] - 2.0 * p as f64).abs() < 1e-9);
        assert!((got.throughput_bound - 1.0 / (2.0 * p as f64)).abs() < 1e-12);
    }
}

fn table(net: &Network, hops: Arc<HopMatrix>) -> Arc<MinimalTable> {
    Arc::new(MinimalTable::from_hops(net, hops).unwrap())
}

fn min_route(net: &Network, hops: Arc<HopMatrix>, vcs: VcRule) -> RuleRoute<'_> {
    RuleRoute {
        net,
        rule: Arc::new(Minimal::new(table(net, hops), vcs).unwrap()),
        oblivious: true,
        ports: topolab_core::routing::Ports::Random,
    }
}

#[test]
fn a_port_by_destination_needs_the_demands_by_destination_endpoint() {
    // `dor` takes a bundle's port by the destination endpoint: demands recorded per router
    // pair alone cannot say which port a flow loads, so they are refused by name rather than
    // spread over the bundle.
    let net = build_str("torus:dims=4x3,widths=2x2,p=2").unwrap();
    let dor = topolab_core::routing::catalog::build_static(&net, "dor", &Silent).unwrap();
    let shift = |i: u64, out: &mut Vec<(u64, f64)>| out.push(((i + 5) % 24, 1.0));
    let pairs_only = Demands::from_endpoint_rates(&net, None, false, shift).unwrap();
    let err = channel_load(&net, &*dor, &pairs_only, &Silent)
        .unwrap_err()
        .to_string();
    assert!(err.contains("destination endpoint"), "{err}");
    // The same shift by destination endpoint equals the shift as a permutation.
    let by_destination = Demands::from_endpoint_rates(&net, None, true, shift).unwrap();
    let dest: Vec<u64> = (0..24).map(|i| (i + 5) % 24).collect();
    let permutation = Demands::permutation(&net, &dest).unwrap();
    let a = channel_load(&net, &*dor, &by_destination, &Silent).unwrap();
    let b = channel_load(&net, &*dor, &permutation, &Silent).unwrap();
    assert_eq!(a.loads, b.loads);
    // Lists that do not match the entries are refused, not read out of bounds.
    let mut broken = by_destination.clone();
    broken.entries.push((0, 1, 1.0));
    let err = channel_load(&net, &*dor, &broken, &Silent)
        .unwrap_err()
        .to_string();
    assert!(err.contains("one non-empty list per entry"), "{err}");
}

#[test]
fn valiant_loads_equal_the_minimal_loads_of_its_two_phases() {
    // Valiant routing takes a minimal path to an intermediate drawn from every router but the
    // pair's two, then a minimal path on: its channel loads, enumerated path by path and
    // intermediate by intermediate, equal the minimal routing's loads of the two phases'
    // demands (`Demands::valiant_phases`).
    use topolab_core::routing::catalog::build_static;
    for spec in ["slimfly:q=5", "hyperx:dims=3x4,widths=2x1,p=2"] {
        let net = build_str(spec).unwrap();
        let valiant = build_static(&net, "valiant", &Silent).unwrap();
        let min = build_static(&net, "min", &Silent).unwrap();
        let n = net.num_endpoints();
        let dest: Vec<u64> = (0..n).map(|i| (i * 7 + 3) % n).collect();
        for dem in [
            Demands::uniform(&net),
            Demands::permutation(&net, &dest).unwrap(),
        ] {
            let want = channel_load(&net, &*valiant, &dem, &Silent).unwrap();
            let phases = dem.valiant_phases(net.num_routers(), None).unwrap();
            let got = channel_load(&net, &*min, &phases, &Silent).unwrap();
            for (a, b) in got.loads.iter().zip(&want.loads) {
                assert!((a - b).abs() < 1e-9, "{spec}: {a} vs {b}");
            }
        }
    }
}
