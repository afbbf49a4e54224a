//! The simulator reads the core's one routing catalog: aliases run as their definition,
//! a routing only static analysis reads is refused naming it, the hot-potato router refuses a
//! BookSim2 reading it cannot honour, and adversarial traffic asks for a capability (labels),
//! not a family name.

use crate::common;

use common::short;
use topolab_core::progress::Silent;
use topolab_core::{build_str, Network, NetworkBuilder};
use topolab_sim::simulate;
use topolab_sim::traffic::Traffic;

#[test]
fn an_alias_runs_as_its_definition() {
    let torus = build_str("torus:dims=4x4").unwrap();
    let cfg = short(&[]);
    let alias = simulate(&torus, "dor", "uniform", 0.2, &cfg, &Silent).unwrap();
    let spelled = simulate(
        &torus,
        "torus_dor:vcs=dateline,ports=destination,vc_split=fill",
        "uniform",
        0.2,
        &cfg,
        &Silent,
    )
    .unwrap();
    assert_eq!(alias.avg_latency, spelled.avg_latency);
    assert_eq!(alias.accepted_throughput, spelled.accepted_throughput);
    let e = simulate(&torus, "dor:vcs=booksim", "uniform", 0.2, &cfg, &Silent)
        .unwrap_err()
        .to_string();
    assert!(e.contains("torus_dor"), "{e}");
}

#[test]
fn static_only_routings_and_unknown_names_are_refused_by_name() {
    let sf = build_str("slimfly:q=5").unwrap();
    let cfg = short(&[]);
    for name in ["ugal", "dfsssp"] {
        let e = simulate(&sf, name, "uniform", 0.1, &cfg, &Silent)
            .unwrap_err()
            .to_string();
        assert!(e.contains(name) && e.contains("static analysis"), "{e}");
    }
    let e = simulate(&sf, "quickest", "uniform", 0.1, &cfg, &Silent)
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("dragonfly_ugal") && e.contains("torus_dor"),
        "{e}"
    );
}

#[test]
fn hotpotato_reads_the_rule_but_not_a_booksim_reading() {
    let torus = build_str("torus:dims=4x4").unwrap();
    let cfg = short(&[("router", "hotpotato")]);
    let e = simulate(&torus, "dor", "uniform", 0.1, &cfg, &Silent)
        .unwrap_err()
        .to_string();
    assert!(e.contains("'dor' with router=hotpotato"), "{e}");
    let r = simulate(&torus, "torus_dor", "uniform", 0.1, &cfg, &Silent).unwrap();
    assert!(r.measured_packets > 0);
}

/// `from`'s routers, labels, links and endpoints in a network of another family name.
fn renamed(from: &Network, family: &str) -> Network {
    let fields: Vec<&str> = from.label_fields().iter().map(String::as_str).collect();
    let mut b = NetworkBuilder::new(family, from.num_routers(), false);
    b.label_fields(&fields);
    for r in 0..from.num_routers() {
        b.set_label(r, from.label(r));
    }
    let class = b.link_class("link");
    for l in from.links() {
        b.add_link(l.src as usize, l.dst as usize, l.width, class);
    }
    for (r, &e) in from.endpoints().iter().enumerate() {
        b.set_endpoints(r, e);
    }
    b.build().unwrap()
}

#[test]
fn adversarial_patterns_ask_for_labels_not_a_family() {
    for (spec, pattern) in [
        ("dragonfly:a=4,h=2", "dragonfly_worst"),
        ("fattree:k=4", "fattree_worst"),
        ("slimfly:q=5", "slimfly_worst"),
    ] {
        let net = build_str(spec).unwrap();
        let copy = renamed(&net, "imported");
        let (a, b) = (
            Traffic::parse(pattern, &net).unwrap(),
            Traffic::parse(pattern, &copy).unwrap(),
        );
        let (mut x, mut y) = (Vec::new(), Vec::new());
        for e in 0..net.num_endpoints() as u32 {
            x.clear();
            y.clear();
            a.rates(e, &mut x);
            b.rates(e, &mut y);
            assert_eq!(x, y, "{pattern} endpoint {e}");
        }
    }
    // Without the labels the error names the capability.
    let sf = build_str("slimfly:q=5").unwrap();
    let e = Traffic::parse("dragonfly_worst", &sf)
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("router groups") && e.contains("'slimfly'"),
        "{e}"
    );
}
