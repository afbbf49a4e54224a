//! Files written by other tools. The GraphML and edge-list texts below are verbatim output of
//! networkx 3.6 (`write_graphml`, `write_edgelist(G, path, data=False)`).

use topolab_core::io::{self, Format, LoadOptions};
use topolab_core::{Network, NetworkBuilder, TopolabError};

fn links(n: &Network) -> Vec<(u32, u32, u32)> {
    n.links().iter().map(|l| (l.src, l.dst, l.width)).collect()
}

fn load(text: &str, format: Format, options: LoadOptions) -> Network {
    io::from_str(text, format, &options).unwrap()
}

/// `G = nx.Graph(); G.add_edge('a','b',width=2); G.add_edge('b','c');
/// G.add_node('d',endpoints=3); G.nodes['a']['endpoints']=1`
const NX_STRING_IDS: &str = r#"<?xml version='1.0' encoding='utf-8'?>
<graphml xmlns="http://graphml.graphdrawing.org/xmlns" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="http://graphml.graphdrawing.org/xmlns http://graphml.graphdrawing.org/xmlns/1.0/graphml.xsd">
  <key id="d1" for="edge" attr.name="width" attr.type="long" />
  <key id="d0" for="node" attr.name="endpoints" attr.type="long" />
  <graph edgedefault="undirected">
    <node id="a">
      <data key="d0">1</data>
    </node>
    <node id="b" />
    <node id="c" />
    <node id="d">
      <data key="d0">3</data>
    </node>
    <edge source="a" target="b">
      <data key="d1">2</data>
    </edge>
    <edge source="b" target="c" />
  </graph>
</graphml>
"#;

/// `D = nx.DiGraph(); D.add_edges_from([(5,3),(3,5),(3,9)])`
const NX_DIRECTED: &str = r#"<?xml version='1.0' encoding='utf-8'?>
<graphml xmlns="http://graphml.graphdrawing.org/xmlns" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="http://graphml.graphdrawing.org/xmlns http://graphml.graphdrawing.org/xmlns/1.0/graphml.xsd">
  <graph edgedefault="directed">
    <node id="5" />
    <node id="3" />
    <node id="9" />
    <edge source="5" target="3" />
    <edge source="3" target="5" />
    <edge source="3" target="9" />
  </graph>
</graphml>
"#;

/// `M = nx.MultiGraph(); M.add_edges_from([(0,1),(0,1),(1,2)])`
const NX_MULTIGRAPH: &str = r#"<?xml version='1.0' encoding='utf-8'?>
<graphml xmlns="http://graphml.graphdrawing.org/xmlns" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="http://graphml.graphdrawing.org/xmlns http://graphml.graphdrawing.org/xmlns/1.0/graphml.xsd">
  <graph edgedefault="undirected">
    <node id="0" />
    <node id="1" />
    <node id="2" />
    <edge source="0" target="1" id="0" />
    <edge source="0" target="1" id="1" />
    <edge source="1" target="2" id="0" />
  </graph>
</graphml>
"#;

/// A topolab GraphML file (the network of `small_topolab`) read by `nx.read_graphml` and
/// written again by `nx.write_graphml`: key ids renamed, graph data moved to the end.
const NX_REWRITTEN_TOPOLAB: &str = r#"<?xml version='1.0' encoding='utf-8'?>
<graphml xmlns="http://graphml.graphdrawing.org/xmlns" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="http://graphml.graphdrawing.org/xmlns http://graphml.graphdrawing.org/xmlns/1.0/graphml.xsd">
  <key id="d8" for="edge" attr.name="class" attr.type="string" />
  <key id="d7" for="edge" attr.name="width" attr.type="long" />
  <key id="d6" for="node" attr.name="b" attr.type="long" />
  <key id="d5" for="node" attr.name="a" attr.type="long" />
  <key id="d4" for="node" attr.name="endpoints" attr.type="long" />
  <key id="d3" for="graph" attr.name="link_classes" attr.type="string" />
  <key id="d2" for="graph" attr.name="label_fields" attr.type="string" />
  <key id="d1" for="graph" attr.name="spec" attr.type="string" />
  <key id="d0" for="graph" attr.name="family" attr.type="string" />
  <graph edgedefault="undirected">
    <node id="n0">
      <data key="d4">2</data>
      <data key="d5">-2</data>
      <data key="d6">0</data>
    </node>
    <node id="n1">
      <data key="d4">0</data>
      <data key="d5">-1</data>
      <data key="d6">-1000</data>
    </node>
    <node id="n2">
      <data key="d4">3</data>
      <data key="d5">0</data>
      <data key="d6">-2000</data>
    </node>
    <node id="n3">
      <data key="d4">1</data>
      <data key="d5">1</data>
      <data key="d6">-3000</data>
    </node>
    <edge source="n0" target="n1">
      <data key="d7">1</data>
      <data key="d8">x</data>
    </edge>
    <edge source="n0" target="n3">
      <data key="d7">2</data>
      <data key="d8">x</data>
    </edge>
    <edge source="n1" target="n2">
      <data key="d7">3</data>
      <data key="d8">y</data>
    </edge>
    <data key="d0">custom</data>
    <data key="d1">custom:n=4</data>
    <data key="d2">["a","b"]</data>
    <data key="d3">["x","y"]</data>
  </graph>
</graphml>
"#;

fn small_topolab() -> Network {
    let mut b = NetworkBuilder::new("custom", 4, false);
    b.label_fields(&["a", "b"]);
    for r in 0..4 {
        b.set_label(r, &[r as i64 - 2, -(r as i64) * 1000]);
    }
    let x = b.link_class("x");
    let y = b.link_class("y");
    b.add_link(0, 1, 1, x)
        .add_link(2, 1, 3, y)
        .add_link(0, 3, 2, x);
    for (r, e) in [2, 0, 3, 1].into_iter().enumerate() {
        b.set_endpoints(r, e);
    }
    b.build().unwrap().with_spec("custom", "custom:n=4")
}

#[test]
fn networkx_graphml_with_string_ids_and_optional_attributes() {
    let net = load(NX_STRING_IDS, Format::GraphMl, LoadOptions::default());
    assert!(!net.directed());
    assert_eq!(net.family(), "imported");
    // a, b, c, d in document order; b and c carry no endpoints attribute.
    assert_eq!(net.endpoints(), [1, 0, 0, 3]);
    assert_eq!(links(&net), [(0, 1, 2), (1, 2, 1)]);
    assert_eq!(net.link_classes(), ["link"]);
    assert_eq!(net.label_fields(), ["index"]);

    // The option fills in only where the file says nothing.
    let opts = LoadOptions {
        endpoints_per_router: Some(1),
        ..Default::default()
    };
    let e = io::from_str(NX_STRING_IDS, Format::GraphMl, &opts).unwrap_err();
    assert!(e.to_string().contains("node 'd'"), "{e}");
    assert!(e.to_string().contains("endpoints_per_router is 1"), "{e}");
}

#[test]
fn networkx_directed_graphml_maps_ids_in_document_order() {
    let net = load(NX_DIRECTED, Format::GraphMl, LoadOptions::default());
    assert!(net.directed());
    // Nodes 5, 3, 9 become routers 0, 1, 2.
    assert_eq!(links(&net), [(0, 1, 1), (1, 0, 1), (1, 2, 1)]);
    let opts = LoadOptions {
        endpoints_per_router: Some(2),
        ..Default::default()
    };
    assert_eq!(
        load(NX_DIRECTED, Format::GraphMl, opts).endpoints(),
        [2, 2, 2]
    );
    let undirected = LoadOptions {
        directed: Some(false),
        ..Default::default()
    };
    let e = io::from_str(NX_DIRECTED, Format::GraphMl, &undirected).unwrap_err();
    assert!(matches!(e, TopolabError::Format { .. }));
    assert!(e.to_string().contains("directed=true"), "{e}");
}

#[test]
fn networkx_multigraph_parallel_edges_add_up_to_width() {
    let net = load(NX_MULTIGRAPH, Format::GraphMl, LoadOptions::default());
    assert_eq!(links(&net), [(0, 1, 2), (1, 2, 1)]);
}

#[test]
fn topolab_graphml_survives_a_networkx_rewrite() {
    let original = small_topolab();
    let ours = io::to_string(&original, Format::GraphMl).unwrap();
    assert_eq!(
        load(&ours, Format::GraphMl, LoadOptions::default()),
        original
    );
    assert_eq!(
        load(
            NX_REWRITTEN_TOPOLAB,
            Format::GraphMl,
            LoadOptions::default()
        ),
        original
    );
}

/// `nx.write_edgelist(nx.petersen_graph(), path, data=False)`
const NX_PETERSEN: &str =
    "0 1\n0 4\n0 5\n1 2\n1 6\n2 3\n2 7\n3 4\n3 8\n4 9\n5 7\n5 8\n6 8\n6 9\n7 9\n";

#[test]
fn networkx_edgelist_loads_with_caller_options() {
    let net = load(NX_PETERSEN, Format::EdgeList, LoadOptions::default());
    assert_eq!(net.num_routers(), 10);
    assert_eq!(net.num_links(), 15);
    assert!((0..10).all(|r| net.degree(r) == 3));
    assert_eq!(net.num_endpoints(), 0);
    assert!(!net.directed());

    let opts = LoadOptions {
        directed: Some(true),
        endpoints_per_router: Some(4),
    };
    let net = load(NX_PETERSEN, Format::EdgeList, opts);
    assert!(net.directed());
    assert_eq!(net.endpoints(), [4; 10]);
    assert_eq!(net.links().len(), 15);
    assert_eq!(net.degree(0), 3);
    assert_eq!(net.degree(9), 0);
}

#[test]
fn plain_edgelist_ids_are_renumbered_in_ascending_order() {
    // `H = nx.Graph(); H.add_edges_from([(10,-3),(7,10)])`, plus comments, a blank line, a
    // repeated pair in both orders and a width column.
    let text = "# made by hand\n10 -3\n\n7 10  # inline comment\n-3 10 2\n";
    let net = load(text, Format::EdgeList, LoadOptions::default());
    // -3, 7, 10 become 0, 1, 2; 10 -3 listed twice adds up to width 3.
    assert_eq!(links(&net), [(0, 2, 3), (1, 2, 1)]);

    let directed = LoadOptions {
        directed: Some(true),
        ..Default::default()
    };
    let net = load(text, Format::EdgeList, directed);
    assert_eq!(links(&net), [(0, 2, 2), (1, 2, 1), (2, 0, 1)]);
}

#[test]
fn topolab_edgelist_header_states_direction_and_endpoints() {
    let text =
        "# topolab-edgelist version=1 directed=false\n# endpoints 1 2 0 0\n# a note\n0 1\n1 0\n";
    let net = load(text, Format::EdgeList, LoadOptions::default());
    // Router 3 appears in no link but exists because the header lists four routers.
    assert_eq!(net.endpoints(), [1, 2, 0, 0]);
    assert_eq!(links(&net), [(0, 1, 2)]);
    let conflict = LoadOptions {
        directed: Some(true),
        ..Default::default()
    };
    let e = io::from_str(text, Format::EdgeList, &conflict).unwrap_err();
    assert!(e.to_string().contains("directed=false"), "{e}");
    let conflict = LoadOptions {
        endpoints_per_router: Some(1),
        ..Default::default()
    };
    let e = io::from_str(text, Format::EdgeList, &conflict).unwrap_err();
    assert!(e.to_string().contains("router 1"), "{e}");
    let agree = LoadOptions {
        directed: Some(false),
        ..Default::default()
    };
    assert_eq!(load(text, Format::EdgeList, agree), net);
}

#[test]
fn anynet_as_booksim_accepts_it() {
    // Head lines of either kind, a router known only as a neighbour (3), channel latencies,
    // tabs, a link listed from one end only, a repeated entry, blank lines and CRLF endings.
    let text = "router 0 node 0 node 1 router 1 15 router 2\r\n\
                node 2 router 1\n\
                \n\
                router 1\tnode 3 router 0 router 0 router 3 100\n\
                router 2 node 4 router 0\n";
    let net = load(text, Format::Anynet, LoadOptions::default());
    assert_eq!(net.num_routers(), 4);
    assert_eq!(net.endpoints(), [2, 2, 1, 0]);
    assert_eq!(links(&net), [(0, 1, 1), (0, 2, 1), (1, 3, 1)]);
    assert_eq!(net.family(), "imported");
    // The export lists every link from both ends, so the re-export differs but loads equal.
    let again = io::to_string(&net, Format::Anynet).unwrap();
    assert_eq!(
        again,
        "router 0 node 0 node 1 router 1 router 2\nrouter 1 node 2 node 3 router 0 router 3\nrouter 2 node 4 router 0\nrouter 3 router 1\n"
    );
    assert_eq!(load(&again, Format::Anynet, LoadOptions::default()), net);
}
