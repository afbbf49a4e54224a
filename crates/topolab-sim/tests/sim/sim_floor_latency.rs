//! Channel latencies from the floor plan (`channel_latency = floor`): per link,
//! ceil(cable length x 5 ns/m / cycle_time_ns) cycles (Fujiwara et al., IPDPS 2014, §II-E), cable
//! lengths from the physical model's placement and cable rule.

use crate::common;

use common::short;
use topolab_core::physical::{link_lengths, place, Floor, PlaceOptions};
use topolab_core::progress::Silent;
use topolab_core::{build_str, Network};
use topolab_sim::topo::SimTopology;
use topolab_sim::{simulate, SimConfig};

fn floor_cfg(cycle_ns: &str, more: &[(&str, &str)]) -> SimConfig {
    let mut pairs = vec![("channel_latency", "floor"), ("cycle_time_ns", cycle_ns)];
    pairs.extend_from_slice(more);
    short(&pairs)
}

/// Latency of the output port of router `r` towards neighbour `v` in the wired topology.
fn port_latency(topo: &SimTopology, r: usize, v: u32) -> u32 {
    let (a, b) = (topo.out_offset[r] as usize, topo.out_offset[r + 1] as usize);
    topo.out_link[a..b]
        .iter()
        .find(|l| l.peer == v)
        .unwrap()
        .latency
}

/// torus:dims=4x4 on the `slimfly` floor (1 m cabinet pitch, 1 m intra-cabinet cables, 2 m
/// overhead between cabinets): one d0 ring per cabinet, cabinets r / 4 on a 2 x 2 grid
/// (row-major). Cable lengths derived by hand from that rule: 1 m inside a cabinet, 1 + 2 = 3 m
/// between side-by-side cabinets, 2 + 2 = 4 m between diagonal ones.
fn torus_cable_m(net: &Network, u: usize, v: usize) -> f64 {
    let cab = |r: usize| r / 4;
    let (cu, cv) = (cab(u), cab(v));
    if cu == cv {
        // The same cabinet means the same d1 (a d0 ring).
        assert_eq!(net.label(u)[1], net.label(v)[1]);
        return 1.0;
    }
    let (ru, cu_col, rv, cv_col) = (cu / 2, cu % 2, cv / 2, cv % 2);
    (ru.abs_diff(rv) + cu_col.abs_diff(cv_col)) as f64 + 2.0
}

#[test]
fn torus_link_latencies_follow_the_cable_lengths() {
    let net = build_str("torus:dims=4x4").unwrap();
    for (cycle, per_m) in [("1.0", 5.0), ("2.0", 2.5), ("0.5", 10.0)] {
        let topo = SimTopology::new(&net, &floor_cfg(cycle, &[])).unwrap();
        for u in 0..net.num_routers() {
            for &v in net.neighbors(u) {
                let want = (torus_cable_m(&net, u, v as usize) * per_m).ceil() as u32;
                assert_eq!(
                    port_latency(&topo, u, v),
                    want,
                    "cycle {cycle} ns, link {u} -> {v}"
                );
            }
        }
    }
}

#[test]
fn latencies_are_the_physical_modules_lengths_converted() {
    // Skywalk and Slim Fly on their own floors: the simulator reads the physical module's lengths.
    for (spec, floor) in [
        ("slimfly:q=5,p=2", "slimfly"),
        ("skywalk:z=4,c=9,di=2,do=2", "skywalk"),
    ] {
        let net = build_str(spec).unwrap();
        let f = Floor::resolve(floor).unwrap();
        let lengths = link_lengths(
            &net,
            &place(&net, &f, &PlaceOptions::default()).unwrap(),
            &f,
        );
        let cfg = floor_cfg("1.5", &[("floor", floor)]);
        let topo = SimTopology::new(&net, &cfg).unwrap();
        let mut distinct = std::collections::BTreeSet::new();
        for (l, link) in net.links().iter().enumerate() {
            let want = ((lengths[l] * 5.0 / 1.5) - 1e-9).ceil().max(1.0) as u32;
            distinct.insert(want);
            assert_eq!(
                port_latency(&topo, link.src as usize, link.dst),
                want,
                "{spec}: link {l} of {} m",
                lengths[l]
            );
        }
        assert!(distinct.len() > 1, "{spec}: every link the same latency");
    }
}

/// Zero-load network latency of a single-flit packet from router s to router t under
/// dimension order on torus:dims=4x4, with `link(u, v)` cycles per channel: d0 hops first, then
/// d1, each the shorter way round (at ring distance 2 both ways must cost the same, or the
/// expectation would depend on the routing's coin). Over H routers:
/// 2 (e + 1) + H R + sum over links (c + 1), R = 2 with the default delays, e = 1.
fn dor_latency(net: &Network, s: usize, t: usize, link: &dyn Fn(usize, usize) -> f64) -> f64 {
    let at = |x: usize, y: usize| {
        (0..net.num_routers())
            .find(|&r| net.label(r)[0] == x as i64 && net.label(r)[1] == y as i64)
            .unwrap()
    };
    let (sx, sy) = (net.label(s)[0] as usize, net.label(s)[1] as usize);
    let (tx, ty) = (net.label(t)[0] as usize, net.label(t)[1] as usize);
    // Cost and hops of walking dimension `dim` from `from` `steps` times in direction `dir`.
    let walk = |dim: usize, from: usize, dir: usize, steps: usize| {
        let mut c = from;
        let mut cost = 0.0;
        for _ in 0..steps {
            let next = (c + dir) % 4;
            cost += if dim == 0 {
                link(at(c, sy), at(next, sy))
            } else {
                link(at(tx, c), at(tx, next))
            } + 1.0;
            c = next;
        }
        cost
    };
    let mut total = 2.0 * 2.0;
    let mut routers = 1.0;
    for (dim, from, to) in [(0, sx, tx), (1, sy, ty)] {
        let up = (to + 4 - from) % 4;
        let (a, b) = (walk(dim, from, 1, up), walk(dim, from, 3, (4 - up) % 4));
        if up == 2 {
            assert_eq!(a, b, "the two ways round differ");
        }
        total += if up <= 2 { a } else { b };
        routers += up.min(4 - up) as f64;
    }
    total + 2.0 * routers
}

#[test]
fn zero_load_latency_grows_with_the_cable_delays() {
    // tornado on torus:dims=4x4 moves both coordinates by 1: router (x, y) sends to
    // (x + 1, y + 1), one intra-cabinet hop and one hop between cabinets (3 or 4 m of cable).
    let net = build_str("torus:dims=4x4").unwrap();
    let n = net.num_routers();
    let dest = |s: usize| {
        let (x, y) = (net.label(s)[0], net.label(s)[1]);
        (0..n)
            .find(|&r| net.label(r)[0] == (x + 1) % 4 && net.label(r)[1] == (y + 1) % 4)
            .unwrap()
    };
    let floor_cycles = |u: usize, v: usize| (torus_cable_m(&net, u, v) * 5.0).ceil();
    let mean = |link: &dyn Fn(usize, usize) -> f64| {
        (0..n)
            .map(|s| dor_latency(&net, s, dest(s), link))
            .sum::<f64>()
            / n as f64
    };
    let want_floor = mean(&floor_cycles);
    let want_plain = mean(&|_, _| 1.0);
    let run = |cfg: &SimConfig| {
        simulate(&net, "dor", "tornado", 0.005, cfg, &Silent)
            .unwrap()
            .avg_network_latency
    };
    let long = [("sample_period", "10000")];
    let (got_floor, got_plain) = (run(&floor_cfg("1.0", &long)), run(&short(&long)));
    // Per-packet latencies differ by source (3 or 4 m cables), so the mean carries a little
    // sampling noise: 1%.
    assert!(
        (got_floor - want_floor).abs() < 0.01 * want_floor,
        "floor: {got_floor} vs {want_floor}"
    );
    assert!(
        (got_plain - want_plain).abs() < 0.01 * want_plain,
        "1-cycle channels: {got_plain} vs {want_plain}"
    );
    assert!(want_floor > want_plain + 20.0);
}

#[test]
fn floor_latency_parameters_are_checked() {
    let mut c = SimConfig::default();
    let e = c.set("channel_latency", "flor").unwrap_err().to_string();
    assert!(e.contains("channel_latency") && e.contains("floor"), "{e}");
    let e = c.set("cycle_time_ns", "0").unwrap_err().to_string();
    assert!(e.contains("cycle_time_ns"), "{e}");
    let e = SimConfig::from_pairs([("channel_latency", "floor"), ("link_latency", "x:3")])
        .unwrap_err()
        .to_string();
    assert!(e.contains("link_latency"), "{e}");
    let net = build_str("torus:dims=4x4").unwrap();
    let cfg = floor_cfg("1.0", &[("floor", "nowhere")]);
    let e = SimTopology::new(&net, &cfg).unwrap_err().to_string();
    assert!(e.contains("nowhere"), "{e}");
}
