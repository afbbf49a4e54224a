"""Files: round trips through every format, and exchange with networkx and BookSim2 files."""

import networkx as nx
import pytest

import topolab


def same_structure(a: topolab.Network, b: topolab.Network) -> bool:
    strip = lambda n: sorted((u, v, w) for (u, v, w, _) in n.links)  # noqa: E731
    return (a.directed, a.endpoints, strip(a)) == (b.directed, b.endpoints, strip(b))


@pytest.mark.parametrize("ext", ["json", "graphml", "edgelist", "anynet"])
def test_round_trip_through_every_format(tmp_path, ext):
    net = topolab.build("slimfly:q=7,p=3")
    path = tmp_path / f"sf.{ext}"
    net.save(path)
    back = topolab.load(path)
    assert same_structure(net, back)
    if ext == "json":
        assert back == net  # labels, classes, family and spec survive too


def test_json_round_trip_keeps_a_directed_network_with_widths():
    g = nx.DiGraph()
    g.add_edge("a", "b", width=2)
    g.add_edge("b", "c")
    g.add_edge("c", "a", link_class="back")
    net = topolab.from_networkx(g, endpoints={"a": 1, "c": 3})
    assert net.directed and net.num_links == 4 and net.endpoints == [1, 0, 3]
    assert topolab.loads(net.dumps("json"), "json") == net


def test_graphml_written_by_networkx_loads():
    g = nx.random_regular_graph(4, 30, seed=3)
    nx.set_node_attributes(g, 2, "endpoints")
    g = nx.relabel_nodes(g, {n: f"sw{n}" for n in g})
    text = "\n".join(nx.generate_graphml(g))
    net = topolab.loads(text, "graphml")
    assert net.num_routers == 30 and net.num_links == 60 and net.num_endpoints == 60
    expected = topolab.from_networkx(g, endpoints="endpoints")
    assert same_structure(net, expected)


def test_graphml_written_by_topolab_reads_in_networkx(tmp_path):
    net = topolab.build("slimfly:q=5")
    path = tmp_path / "sf.graphml"
    net.save(path)
    g = nx.read_graphml(path)
    assert g.number_of_nodes() == 50 and g.number_of_edges() == 175
    assert nx.diameter(g) == 2


def test_plain_edge_list_from_networkx_loads_with_options(tmp_path):
    g = nx.cycle_graph(12)
    path = tmp_path / "ring.edgelist"
    nx.write_edgelist(g, path, data=False)
    net = topolab.load(path, directed=False, endpoints_per_router=2)
    assert (net.num_routers, net.num_links, net.num_endpoints) == (12, 12, 24)
    assert sorted(nx.Graph(net.to_networkx()).degree[n] for n in range(12)) == [2] * 12


def test_booksim_reference_anynet_equals_our_slim_fly(booksim_reference):
    for q, p, name in [(5, 4, "slimfly_q5_p4.anynet"), (13, 10, "slimfly_q13_p10.anynet")]:
        ours = topolab.build("slimfly", q=q, p=p)
        ref = topolab.load(booksim_reference / name)
        assert same_structure(ours, ref), name
        text = (booksim_reference / name).read_text()
        assert ours.dumps("anynet").split("\n") == text.rstrip("\n").split("\n") or (
            ours.dumps("anynet").strip() == text.strip()
        )


def test_networkx_round_trip_preserves_structure():
    net = topolab.build("slimfly:q=4,p=2")
    back = topolab.from_networkx(net.to_networkx())
    assert same_structure(net, back)
    assert set(back.link_classes) == set(net.link_classes)


@pytest.mark.parametrize(
    "text, fmt, words",
    [
        ('{"format": "topolab-network", "version": 99}', "json", ["version"]),
        ("{not json", "json", ["json"]),
        ("0 1\n1 x\n", "edgelist", ["line 2"]),
        ("router 0 node 0 router 1\nrouter 1 bogus 3\n", "anynet", ["bogus"]),
        ("<graphml><graph", "graphml", ["graphml"]),
    ],
)
def test_malformed_files_raise_format_errors(text, fmt, words):
    with pytest.raises(topolab.FormatError) as info:
        topolab.loads(text, fmt)
    for word in words:
        assert word.lower() in str(info.value).lower(), str(info.value)


def test_unknown_extension_and_missing_file(tmp_path):
    net = topolab.build("slimfly:q=3")
    with pytest.raises(topolab.TopolabError, match=".graphml"):
        net.save(tmp_path / "x.xyz")
    with pytest.raises(topolab.FileError):
        topolab.load(tmp_path / "absent.json")


def test_graphml_edge_class_has_the_networkx_name(tmp_path):
    # One name for a link's class: networkx's own GraphML reader sees `link_class`, the attribute
    # Network.to_networkx() and from_networkx use, so a file round-trips through networkx.
    net = topolab.build("slimfly:q=5")
    path = tmp_path / "sf.graphml"
    net.save(path)
    g = nx.read_graphml(path)
    classes = {d["link_class"] for _, _, d in g.edges(data=True)}
    assert classes == set(net.link_classes)
    back = topolab.from_networkx(g, endpoints="endpoints")
    assert sorted(c for (_, _, _, c) in back.links) == sorted(c for (_, _, _, c) in net.links)


def test_graphml_written_with_the_old_class_key_still_reads(tmp_path):
    net = topolab.build("slimfly:q=5")
    text = net.dumps("graphml").replace('"link_class"', '"class"')
    assert 'attr.name="class"' in text
    assert topolab.loads(text, "graphml") == net
