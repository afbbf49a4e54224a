//! Bad inputs of every format give errors that say what and where, never panics.

use topolab_core::io::{self, Format, LoadOptions};
use topolab_core::{build_str, TopolabError};

/// Loads `text`, expects a Format error and returns its message.
fn fails(format: Format, text: &str) -> String {
    match io::from_str(text, format, &LoadOptions::default()) {
        Err(e @ TopolabError::Format { .. }) => e.to_string(),
        other => panic!("expected a format error for {text:?}, got {other:?}"),
    }
}

fn assert_has(msg: &str, parts: &[&str]) {
    for p in parts {
        assert!(msg.contains(p), "{p:?} not in: {msg}");
    }
}

const JSON_OK: &str = r#"{"format": "topolab-network", "version": 1, "family": "f", "spec": "",
 "directed": false, "endpoints": [1, 1, 2], "label_fields": ["i"], "labels": [[0], [1], [2]],
 "link_classes": ["l"], "links": [[0, 1, 1, 0], [1, 2, 2, 0]]}"#;

fn json_with(from: &str, to: &str) -> String {
    assert!(JSON_OK.contains(from), "{from}");
    JSON_OK.replacen(from, to, 1)
}

#[test]
fn json_errors() {
    assert!(io::from_str(JSON_OK, Format::Json, &LoadOptions::default()).is_ok());
    let cases: &[(&str, &str, &[&str])] = &[
        (
            "\"version\": 1",
            "\"version\": 2",
            &["(version)", "version 2 is not supported"],
        ),
        ("\"version\": 1", "\"version\": \"1\"", &["(version)"]),
        (
            "topolab-network\"",
            "graph\"",
            &["(format)", "not a topolab network file"],
        ),
        ("\"spec\": \"\",", "", &["missing field 'spec'"]),
        (
            "\"spec\": \"\",",
            "\"spec\": \"\", \"extra\": 1,",
            &["unknown field 'extra'"],
        ),
        (
            "\"directed\": false",
            "\"directed\": 0",
            &["(directed)", "true or false"],
        ),
        ("[1, 1, 2]", "[1, -1, 2]", &["(endpoints[1])", "found -1"]),
        ("[1, 1, 2]", "[1, 1.5, 2]", &["(endpoints[1])", "found 1.5"]),
        ("[1, 1, 2]", "[1, 4294967296, 2]", &["(endpoints[1])"]),
        (
            "[[0], [1], [2]]",
            "[[0], [1]]",
            &["(labels)", "2 labels for 3 routers"],
        ),
        (
            "[[0], [1], [2]]",
            "[[0], [1, 5], [2]]",
            &["(labels[1])", "2 values for 1 label fields"],
        ),
        (
            "[[0], [1], [2]]",
            "[[0], [\"a\"], [2]]",
            &["(labels[1][0])"],
        ),
        (
            "[\"i\"]",
            "[\"i\", \"i\"]",
            &["(label_fields[1])", "duplicate"],
        ),
        ("[\"l\"]", "[]", &["(links[0])", "'link_classes' is empty"]),
        (
            "[0, 1, 1, 0]",
            "[0, 3, 1, 0]",
            &["(links[0][1])", "0..=2", "found 3"],
        ),
        (
            "[0, 1, 1, 0]",
            "[-1, 1, 1, 0]",
            &["(links[0][0])", "found -1"],
        ),
        (
            "[0, 1, 1, 0]",
            "[0, 1, 0, 0]",
            &["(links[0][2])", "at least 1"],
        ),
        (
            "[0, 1, 1, 0]",
            "[0, 1, -3, 0]",
            &["(links[0][2])", "found -3"],
        ),
        ("[0, 1, 1, 0]", "[0, 1, 1, 1]", &["(links[0][3])", "0..=0"]),
        (
            "[0, 1, 1, 0]",
            "[0, 1, 1]",
            &["(links[0])", "[src, dst, width, class]"],
        ),
        ("[0, 1, 1, 0]", "[1, 1, 1, 0]", &["(links[0])", "self-loop"]),
        (
            "[0, 1, 1, 0]",
            "[2, 1, 1, 0]",
            &["(links[1])", "same router pair as links[0]"],
        ),
        ("[[0, 1, 1, 0]", "[{}", &["(links[0])", "expected an array"]),
    ];
    for (from, to, parts) in cases {
        let msg = fails(Format::Json, &json_with(from, to));
        assert_has(&msg, parts);
        assert!(msg.starts_with("topolab JSON input"), "{msg}");
    }
    for text in ["", "[]", "{", "null", "{\"format\": \"topolab-network\""] {
        fails(Format::Json, text);
    }
    let msg = fails(Format::Json, &JSON_OK[..JSON_OK.len() / 2]);
    assert_has(&msg, &["truncated", "line 2, column"]);
    let msg = fails(Format::Json, "{\"format\": tru}");
    assert_has(&msg, &["line 1, column"]);

    let opts = LoadOptions {
        directed: Some(true),
        ..Default::default()
    };
    let e = io::from_str(JSON_OK, Format::Json, &opts).unwrap_err();
    assert_has(
        &e.to_string(),
        &["directed=false", "LoadOptions.directed is true"],
    );
}

#[test]
fn edgelist_errors() {
    let cases: &[(&str, &[&str])] = &[
        ("0 1\n0 a\n", &["(line 2)", "node id 'a' is not an integer"]),
        ("0 1 x\n", &["(line 1)", "width 'x'", "data=False"]),
        ("0 1 {}\n", &["width '{}'", "data=False"]),
        ("0 1 -2\n", &["(line 1)", "width '-2'"]),
        ("0 1 0\n", &["(line 1)", "at least 1"]),
        ("3 3\n", &["(line 1)", "self-loop 3-3"]),
        ("1 2 3 4\n", &["(line 1)", "4 fields"]),
        ("\n\n5\n", &["(line 3)", "'5' is not a link"]),
        ("0 1 4294967295\n1 0\n", &["(line 2)", "exceeds"]),
        (
            "# topolab-edgelist version=2\n0 1\n",
            &["(line 1)", "version '2'"],
        ),
        ("# topolab-edgelist directed=maybe\n", &["directed='maybe'"]),
        (
            "# topolab-edgelist colour=red\n",
            &["unknown header item 'colour=red'"],
        ),
        (
            "# topolab-edgelist\n# topolab-edgelist\n",
            &["(line 2)", "second"],
        ),
        (
            "# topolab-edgelist\n# endpoints 1 -1\n",
            &["(line 2)", "endpoint count '-1'"],
        ),
        (
            "# topolab-edgelist\n# endpoints 1\n# endpoints 1\n",
            &["(line 3)", "second '# endpoints'"],
        ),
        (
            "# topolab-edgelist\n# endpoints 1 1\n0 2\n",
            &["(line 3)", "router 2 is outside 0..2"],
        ),
        (
            "# topolab-edgelist\n# endpoints 1 1\n-1 0\n",
            &["(line 3)", "router -1"],
        ),
    ];
    for (text, parts) in cases {
        let msg = fails(Format::EdgeList, text);
        assert_has(&msg, parts);
        assert!(msg.starts_with("edge list input"), "{msg}");
    }
    // A header-like comment without the marker is a plain comment.
    let net = io::from_str(
        "# endpoints 9 9\n0 1\n",
        Format::EdgeList,
        &LoadOptions::default(),
    )
    .unwrap();
    assert_eq!(net.endpoints(), [0, 0]);
}

const GRAPHML_HEAD: &str = r#"<?xml version="1.0"?><graphml xmlns="http://graphml.graphdrawing.org/xmlns">
<key id="e" for="node" attr.name="endpoints" attr.type="int"/>
<key id="w" for="edge" attr.name="width" attr.type="int"/>
<key id="c" for="edge" attr.name="class" attr.type="string"/>
<key id="f" for="graph" attr.name="label_fields" attr.type="string"/>
"#;

fn graphml(body: &str) -> String {
    format!("{GRAPHML_HEAD}{body}\n</graphml>\n")
}

fn graph(nodes_and_edges: &str) -> String {
    graphml(&format!(
        "<graph edgedefault=\"undirected\">\n<node id=\"a\"/>\n<node id=\"b\"/>\n{nodes_and_edges}\n</graph>"
    ))
}

#[test]
fn graphml_errors() {
    assert!(io::from_str(
        &graph("<edge source=\"a\" target=\"b\"/>"),
        Format::GraphMl,
        &LoadOptions::default()
    )
    .is_ok());
    let cases: Vec<(String, &[&str])> = vec![
        ("not xml at all".to_string(), &["text outside the root element"][..]),
        ("<graphml><graph>".to_string(), &["document ends inside <graph>", "truncated"]),
        ("<graphml></graph>".to_string(), &["malformed XML"]),
        ("<graphml><graph edgedefault=\"undirected\"></graphml>".to_string(), &["malformed XML"]),
        ("<graphml/><graphml/>".to_string(), &["second root element"]),
        ("<gml/>".to_string(), &["root element is <gml>"]),
        (graphml(""), &["no <graph> element"]),
        (graphml("<graph/><graph/>"), &["more than one <graph>"]),
        (graphml("<graph edgedefault=\"both\"/>"), &["edgedefault='both'"]),
        (graph("<node/>"), &["<node> without an 'id'"]),
        (graph("<node id=\"a\"/>"), &["node 'a'", "declared twice"]),
        (graph("<edge source=\"a\" target=\"z\"/>"), &["target 'z' is not a declared node"]),
        (graph("<edge target=\"a\"/>"), &["without a 'source'"]),
        (graph("<edge source=\"a\" target=\"a\"/>"), &["self-loop at node 'a'"]),
        (graph("<edge source=\"a\" target=\"b\" directed=\"true\"/>"), &["directed='true'"]),
        (graph("<hyperedge/>"), &["hyperedges"]),
        (graph("<node id=\"c\"><graph/></node>"), &["node 'c'", "nested graphs"]),
        (graph("<node id=\"c\"><data key=\"e\">-3</data></node>"), &["node 'c'", "endpoints '-3'"]),
        (graph("<node id=\"c\"><data key=\"zz\">1</data></node>"), &["undeclared key 'zz'"]),
        (graph("<node id=\"c\"><data key=\"w\">1</data></node>"), &["key 'w' is declared for edge"]),
        (graph("<node id=\"c\"><data key=\"e\">1</data><data key=\"e\">2</data></node>"), &["second value for attribute 'endpoints'"]),
        (graph("<edge source=\"a\" target=\"b\"><data key=\"w\">0</data></edge>"), &["at least 1"]),
        (graph("<edge source=\"a\" target=\"b\"><data key=\"w\">two</data></edge>"), &["width 'two'"]),
        (
            graph("<edge source=\"a\" target=\"b\"><data key=\"c\">x</data></edge><edge source=\"b\" target=\"a\"><data key=\"c\">y</data></edge>"),
            &["classes 'x' and 'y'"],
        ),
        (graph("<data key=\"f\">[\"t\"</data>"), &["'label_fields'", "not a JSON array"]),
        (graph("<data key=\"f\">[\"t\"]</data>"), &["node 'a'", "no value for label field 't'"]),
        (graph("<node id=\"c\" x=\"&bogus;\"/>"), &["malformed attribute value"]),
    ];
    for (text, parts) in &cases {
        let msg = fails(Format::GraphMl, text);
        assert_has(&msg, parts);
        assert!(msg.starts_with("GraphML input"), "{msg}");
    }
    let msg = fails(
        Format::GraphMl,
        &graph("\n\n<edge source=\"a\" target=\"q\"/>"),
    );
    assert_has(&msg, &["(line 11, <edge>)"]);
}

#[test]
fn anynet_errors() {
    let cases: &[(&str, &[&str])] = &[
        ("", &["no router"]),
        ("switch 0 node 0\n", &["(line 1)", "not 'switch'"]),
        ("router 0 node 0\nrouter x\n", &["(line 2)", "id 'x'"]),
        ("router -1\n", &["id '-1'"]),
        ("router 0 node\n", &["the line ends after 'node'"]),
        ("router\n", &["the line ends after 'router'"]),
        ("router 0 router 0\n", &["connected to itself"]),
        ("router 0 link 1\n", &["token 3", "found 'link'"]),
        ("router 0 router 1 abc\n", &["token 5", "'abc'"]),
        ("router 0 router 1 0\n", &["token 5", "positive integer"]),
        ("router 0 node 0 5\n", &["latency '5' after a node entry"]),
        ("node 0 router 0 5\n", &["latency '5' after a node entry"]),
        ("node 0 node 1\n", &["nodes connect to routers only"]),
        (
            "router 0 node 0\nrouter 1 node 0\n",
            &["node 0 is attached to routers 0 and 1"],
        ),
        (
            "node 0 router 0 router 1\n",
            &["node 0 is attached to routers 0 and 1"],
        ),
        (
            "router 0 router 2\n",
            &["router 1 is missing", "router 2 appears"],
        ),
        ("router 0 node 0 node 2\n", &["node 1 is missing"]),
        (
            "router 0 node 1\nrouter 1 node 0\n",
            &["node 1 is on router 0", "node 0 is on router 1"],
        ),
        ("router 4294967295\n", &["id '4294967295'"]),
    ];
    for (text, parts) in cases {
        let msg = fails(Format::Anynet, text);
        assert_has(&msg, parts);
        assert!(msg.starts_with("BookSim2 anynet input"), "{msg}");
    }
    let opts = LoadOptions {
        endpoints_per_router: Some(1),
        ..Default::default()
    };
    let e = io::from_str("router 0 node 0 router 1\n", Format::Anynet, &opts).unwrap_err();
    assert_has(&e.to_string(), &["(router 1)", "0 endpoints"]);
}

/// Every prefix of a valid file, and the file with each byte in turn replaced by a
/// troublesome one, must load or fail cleanly.
#[test]
fn truncated_and_corrupted_files_never_panic() {
    let net = build_str("slimfly:q=3,p=2").unwrap();
    for format in Format::ALL {
        let text = io::to_string(&net, format).unwrap();
        let opts = LoadOptions::default();
        let step = (text.len() / 400).max(1);
        for cut in (0..text.len()).step_by(step) {
            let _ = io::from_str(&text[..cut], format, &opts);
        }
        for (i, bad) in (0..text.len())
            .step_by(step)
            .zip([b'-', b'9', b'<', b'"', b' ', b'#', b'0'].iter().cycle())
        {
            let mut bytes = text.clone().into_bytes();
            bytes[i] = *bad;
            let _ = io::from_str(&String::from_utf8(bytes).unwrap(), format, &opts);
        }
        assert!(matches!(
            io::from_str(&text[..text.len() / 2], format, &opts),
            Err(TopolabError::Format { .. }) | Ok(_)
        ));
    }
}
