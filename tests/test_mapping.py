"""`topolab.map_network` / `topolab map` (Daryin & Korzh, JSFI 2014, §2): networks exported with
shuffled router ids and no labels are mapped back; the recovered structure is checked against
the construction with networkx (an independent reader of the same graph)."""

from __future__ import annotations

import json
import random

import networkx as nx
import pytest

import topolab
from topolab.cli import main


def bare(spec: str, seed: int) -> tuple[topolab.Network, topolab.Network, dict[int, int]]:
    """The built network, the same graph with shuffled ids and no labels, and the renaming."""
    net = topolab.build(spec)
    g = net.to_networkx()
    ids = list(g.nodes)
    random.Random(seed).shuffle(ids)
    perm = dict(zip(g.nodes, ids))
    h = nx.Graph()
    h.add_nodes_from(sorted(ids))
    for u, v, d in g.edges(data=True):
        h.add_edge(perm[u], perm[v], width=d["width"])
    eps = {perm[r]: e for r, e in enumerate(net.endpoints)}
    return net, topolab.from_networkx(h, endpoints=eps), perm


@pytest.mark.parametrize("spec", ["hyperx:dims=3x4", "hyperx:dims=2x2x3,widths=1x2x1", "hypercube:n=3"])
def test_hyperx_mapping_recovers_the_product_structure(spec: str) -> None:
    net, shuffled, perm = bare(spec, 3)
    m = topolab.map_network(shuffled, "hyperx")
    # The mapped coordinates describe the same graph: routers that differ in exactly one
    # coordinate are exactly the linked ones (networkx's view of the shuffled graph).
    labels = m.network.labels
    g = shuffled.to_networkx()
    for u in g.nodes:
        for v in g.nodes:
            if u < v:
                differ = sum(a != b for a, b in zip(labels[u], labels[v]))
                assert (differ == 1) == g.has_edge(u, v)
    sizes = [max(lab[d] for lab in net.labels) + 1 for d in range(len(net.label_fields))]
    assert sorted(m.shape) == sorted(sizes)
    assert m.network.endpoints == shuffled.endpoints


def test_dragonfly_mapping_recovers_groups() -> None:
    net, shuffled, perm = bare("dragonfly:a=4,h=2", 5)
    m = topolab.map_network(shuffled, "dragonfly")
    groups = {}
    for r, lab in enumerate(net.labels):
        groups.setdefault(lab[0], set()).add(m.network.labels[perm[r]][0])
    assert all(len(s) == 1 for s in groups.values())
    assert len({next(iter(s)) for s in groups.values()}) == len(groups)
    assert m.shape == (9, 4)


def test_cli_map_then_routing_check(tmp_path) -> None:
    _, shuffled, _ = bare("hyperx:dims=3x3x2", 11)
    src, out = tmp_path / "fabric.json", tmp_path / "mapped.json"
    shuffled.save(src)
    assert main(["map", str(src), "--as", "hyperx", "-o", str(out), "--json"]) == 0
    assert main(["routing", "check", str(out), "--routing", "hyperx_dor:mixed=true", "--json"]) == 0
    assert topolab.load(out).family == "hyperx"


def test_not_of_the_family_is_a_clear_error(capsys) -> None:
    with pytest.raises(topolab.NetworkError, match="not a HyperX"):
        topolab.map_network("slimfly:q=5", "hyperx")
    with pytest.raises(topolab.NetworkError, match="no triangle"):
        topolab.map_network("torus:dims=5x5", "dragonfly")
    with pytest.raises(topolab.ParameterError, match="max_missing"):
        topolab.map_network("hyperx:dims=3x3", "hyperx", max_missing=-1)
    assert main(["map", "torus:dims=6x6", "--as", "hyperx"]) == 2
    assert "not a HyperX" in capsys.readouterr().err


def test_cli_json_summary(capsys) -> None:
    assert main(["map", "hyperx:dims=4x4,widths=2x1", "--as", "hyperx", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["shape"] == [4, 4] and sorted(out["widths"]) == [1, 2]
