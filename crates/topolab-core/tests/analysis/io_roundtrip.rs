//! Every format written and read back, over generated and hand-made networks, through strings
//! and through files.

use topolab_core::io::{self, Format, LoadOptions};
use topolab_core::{build_str, Network, NetworkBuilder};

/// Undirected, labels with negative values, widths > 1, an unused class, routers without
/// endpoints and an isolated router.
fn handmade_undirected() -> Network {
    let mut b = NetworkBuilder::new("custom", 6, false);
    b.label_fields(&["a", "b"]);
    for r in 0..6 {
        b.set_label(r, &[r as i64 - 3, -(r as i64) * 1000]);
    }
    let x = b.link_class("x");
    let y = b.link_class("y");
    b.link_class("unused");
    b.add_link(0, 1, 1, x)
        .add_link(2, 1, 3, y)
        .add_link(0, 3, 2, x)
        .add_link(2, 3, 1, x)
        .add_link(3, 4, 1, y);
    for (r, e) in [2, 0, 3, 1, 0, 0].into_iter().enumerate() {
        b.set_endpoints(r, e);
    }
    b.build().unwrap().with_spec("custom", "custom:n=6")
}

/// Directed with one-way links and a pair of opposite links of different widths.
fn handmade_directed() -> Network {
    let mut b = NetworkBuilder::new("ring", 4, true);
    let c = b.link_class("fwd");
    let d = b.link_class("back");
    b.add_link(0, 1, 1, c)
        .add_link(1, 0, 2, d)
        .add_link(1, 2, 1, c)
        .add_link(2, 3, 4, c)
        .add_link(3, 0, 1, c);
    b.uniform_endpoints(1);
    b.build().unwrap()
}

/// Directed, every link paired with its reverse and of width 1: what anynet can express.
fn symmetric_directed() -> Network {
    let mut b = NetworkBuilder::new("pairs", 3, true);
    let c = b.link_class("link");
    for (u, v) in [(0, 1), (1, 0), (1, 2), (2, 1)] {
        b.add_link(u, v, 1, c);
    }
    b.uniform_endpoints(2);
    b.build().unwrap()
}

fn no_links() -> Network {
    let mut b = NetworkBuilder::new("empty", 3, false);
    b.uniform_endpoints(5);
    b.build().unwrap()
}

fn samples() -> Vec<Network> {
    vec![
        build_str("slimfly:q=5,p=4").unwrap(),
        build_str("slimfly:q=3").unwrap(),
        handmade_undirected(),
        handmade_directed(),
        symmetric_directed(),
        no_links(),
    ]
}

/// What every format keeps: direction, endpoints, links with widths.
fn assert_same_structure(a: &Network, b: &Network, what: &str) {
    assert_eq!(a.directed(), b.directed(), "{what}: directed");
    assert_eq!(a.endpoints(), b.endpoints(), "{what}: endpoints");
    let links = |n: &Network| -> Vec<(u32, u32, u32)> {
        n.links().iter().map(|l| (l.src, l.dst, l.width)).collect()
    };
    assert_eq!(links(a), links(b), "{what}: links");
}

#[test]
fn json_round_trip_is_exact() {
    for net in samples() {
        let text = io::to_string(&net, Format::Json).unwrap();
        let back = io::from_str(&text, Format::Json, &LoadOptions::default()).unwrap();
        assert_eq!(back, net, "{}", net.family());
        assert_eq!(io::to_string(&back, Format::Json).unwrap(), text);
    }
}

#[test]
fn json_layout_matches_the_documented_schema() {
    let net = handmade_undirected();
    let text = io::to_string(&net, Format::Json).unwrap();
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(v["format"], "topolab-network");
    assert_eq!(v["version"], 1);
    assert_eq!(v["family"], "custom");
    assert_eq!(v["spec"], "custom:n=6");
    assert_eq!(v["directed"], false);
    assert_eq!(v["endpoints"], serde_json::json!([2, 0, 3, 1, 0, 0]));
    assert_eq!(v["label_fields"], serde_json::json!(["a", "b"]));
    assert_eq!(v["labels"][5], serde_json::json!([2, -5000]));
    assert_eq!(v["link_classes"], serde_json::json!(["x", "y", "unused"]));
    // Undirected links are stored with src < dst, sorted; class 1 is "y".
    assert_eq!(v["links"][2], serde_json::json!([1, 2, 3, 1]));
}

#[test]
fn graphml_round_trip_is_exact() {
    for net in samples() {
        let text = io::to_string(&net, Format::GraphMl).unwrap();
        let back = io::from_str(&text, Format::GraphMl, &LoadOptions::default()).unwrap();
        assert_eq!(back, net, "{}", net.family());
    }
}

#[test]
fn edgelist_round_trip_keeps_structure_family_and_spec() {
    for net in samples() {
        let text = io::to_string(&net, Format::EdgeList).unwrap();
        let back = io::from_str(&text, Format::EdgeList, &LoadOptions::default()).unwrap();
        assert_same_structure(&back, &net, net.family());
        assert_eq!(back.family(), net.family());
        assert_eq!(back.spec(), net.spec());
        assert_eq!(back.link_classes(), ["link"]);
        assert_eq!(io::to_string(&back, Format::EdgeList).unwrap(), text);
    }
}

#[test]
fn edgelist_text_is_the_documented_one() {
    let text = io::to_string(&handmade_directed(), Format::EdgeList).unwrap();
    assert_eq!(
        text,
        "# topolab-edgelist version=1 directed=true\n# family ring\n# endpoints 1 1 1 1\n\
         0 1\n1 0 2\n1 2\n2 3 4\n3 0\n"
    );
}

#[test]
fn anynet_round_trip_of_what_it_can_express() {
    let opts = LoadOptions::default();
    for net in [
        build_str("slimfly:q=5,p=4").unwrap(),
        build_str("slimfly:q=3").unwrap(),
        no_links(),
    ] {
        let text = io::to_string(&net, Format::Anynet).unwrap();
        let back = io::from_str(&text, Format::Anynet, &opts).unwrap();
        assert_same_structure(&back, &net, net.family());
        assert_eq!(back.family(), "imported");
        assert_eq!(io::to_string(&back, Format::Anynet).unwrap(), text);
    }
    let net = symmetric_directed();
    let text = io::to_string(&net, Format::Anynet).unwrap();
    assert_eq!(
        text,
        "router 0 node 0 node 1 router 1\nrouter 1 node 2 node 3 router 0 router 2\nrouter 2 node 4 node 5 router 1\n"
    );
    let directed = LoadOptions {
        directed: Some(true),
        ..Default::default()
    };
    let back = io::from_str(&text, Format::Anynet, &directed).unwrap();
    assert_same_structure(&back, &net, "symmetric directed");
}

#[test]
fn anynet_refuses_what_it_cannot_express() {
    let e = io::to_string(&handmade_undirected(), Format::Anynet)
        .unwrap_err()
        .to_string();
    assert!(e.contains("link 0-3 has width 2"), "{e}");
    assert!(e.contains("parallel"), "{e}");
    // Widths are checked first, link by link; 0->1 is width 1 with a reverse link, 1->0 has
    // width 2.
    let e = io::to_string(&handmade_directed(), Format::Anynet)
        .unwrap_err()
        .to_string();
    assert!(e.contains("link 1-0 has width 2"), "{e}");
    let mut b = NetworkBuilder::new("oneway", 3, true);
    let c = b.link_class("l");
    b.add_link(0, 1, 1, c)
        .add_link(1, 0, 1, c)
        .add_link(1, 2, 1, c);
    let e = io::to_string(&b.build().unwrap(), Format::Anynet)
        .unwrap_err()
        .to_string();
    assert!(e.contains("link 1->2 has no reverse link 2->1"), "{e}");
    assert!(e.contains("one-way"), "{e}");
}

#[test]
fn files_round_trip_through_save_and_load() {
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("io_roundtrip_{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let net = build_str("slimfly:q=5,p=4").unwrap();
    for name in [
        "n.json",
        "n.edgelist",
        "n.edges",
        "n.TXT",
        "n.graphml",
        "n.anynet",
    ] {
        let path = dir.join(name);
        let format = Format::from_path(&path).unwrap();
        io::save(&net, &path, format).unwrap();
        let back = io::load(&path, format, &LoadOptions::default()).unwrap();
        assert_same_structure(&back, &net, name);
        if matches!(format, Format::Json | Format::GraphMl) {
            assert_eq!(back, net, "{name}");
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn format_from_path_and_name() {
    assert_eq!(Format::from_path("a/b.json").unwrap(), Format::Json);
    assert_eq!(Format::from_path("x.EDGES").unwrap(), Format::EdgeList);
    assert_eq!(Format::from_path("x.txt").unwrap(), Format::EdgeList);
    assert_eq!(Format::from_path("x.GraphML").unwrap(), Format::GraphMl);
    assert_eq!(Format::from_path("x.anynet").unwrap(), Format::Anynet);
    for bad in ["net.xml", "net"] {
        let e = Format::from_path(bad).unwrap_err().to_string();
        for ext in [
            ".json",
            ".edgelist",
            ".edges",
            ".txt",
            ".graphml",
            ".anynet",
        ] {
            assert!(e.contains(ext), "{e}");
        }
        assert!(e.starts_with(bad), "{e}");
    }
    assert_eq!(Format::from_name("GraphML").unwrap(), Format::GraphMl);
    assert_eq!(Format::from_name(".edges").unwrap(), Format::EdgeList);
    let e = Format::from_name("csv").unwrap_err().to_string();
    assert!(e.contains("'format' = csv"), "{e}");
}

#[test]
fn missing_file_is_an_io_error_naming_the_path() {
    let e = io::load(
        "/nonexistent/dir/net.json",
        Format::Json,
        &LoadOptions::default(),
    )
    .unwrap_err();
    assert!(matches!(e, topolab_core::TopolabError::Io { .. }));
    assert!(e.to_string().contains("/nonexistent/dir/net.json"), "{e}");
}
