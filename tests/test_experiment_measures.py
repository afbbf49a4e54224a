"""The "analyze", "cost" and "latency" experiment kinds on a tiny TOML grid, checked against
networkx (distances, link counts) and against properties of the models (Fastest Routing is never
slower than Nearest Routing; Nearest Routing's longest path is the diameter)."""

from __future__ import annotations

import textwrap

import networkx as nx
import pytest

import topolab
from topolab.experiment.kinds import get_kind

NETWORKS = ["slimfly:q=5", "torus:dims=4x4,p=2", "fattree:k=4"]


def _run(tmp_path, text: str):
    path = tmp_path / "grid.toml"
    path.write_text(textwrap.dedent(text))
    df = topolab.run_experiment(str(path), workers=1, progress=False)
    assert set(df["status"]) == {"ok"}, df[["error"]]
    return df


def _router_graph(spec: str) -> nx.Graph:
    return topolab.build(spec).to_networkx()


def test_analyze_kind_grid_matches_networkx(tmp_path):
    df = _run(
        tmp_path,
        f"""
        kind = "analyze"
        [fixed]
        seed = 1
        [axes]
        network = {NETWORKS!r}
        bisection = [false, true]
        """.replace("'", '"'),
    )
    assert len(df) == 2 * len(NETWORKS)
    for _, row in df.iterrows():
        g = _router_graph(row["network"])
        assert row["diameter"] == nx.diameter(g)
        assert row["aspl"] == pytest.approx(nx.average_shortest_path_length(g), rel=1e-12)
        assert row["links"] == g.number_of_edges()
        if row["bisection"]:
            assert row["bisection_links"] >= 1
            cut = nx.algorithms.community.kernighan_lin_bisection(g, seed=1)
            # METIS's best of 5 runs is no worse than a single Kernighan-Lin run (small graphs)
            assert row["bisection_links"] <= nx.cut_size(g, *cut)
        else:
            assert "bisection_links" not in row or row["bisection_links"] != row["bisection_links"]


def test_cost_kind_counts_every_link_once(tmp_path):
    df = _run(
        tmp_path,
        f"""
        kind = "cost"
        [axes]
        network = {NETWORKS!r}
        max_electric_m = [0.0, 1000.0]
        """.replace("'", '"'),
    )
    for _, row in df.iterrows():
        g = _router_graph(row["network"])
        cables = sum(d.get("width", 1) for _, _, d in g.edges(data=True))
        assert row["electric_cables"] + row["optical_cables"] == cables
        if row["max_electric_m"] == 0.0:
            assert row["electric_cables"] == 0  # every cable longer than 0 m is optical
        else:
            assert row["optical_cables"] == 0
        assert row["total_cost"] == pytest.approx(row["cable_cost"] + row["router_cost"])


def test_latency_kind_fastest_never_slower_than_nearest(tmp_path):
    df = _run(
        tmp_path,
        f"""
        kind = "latency"
        [fixed]
        floor = "slimfly"
        [axes]
        network = {NETWORKS!r}
        routing = ["fastest", "nearest"]
        """.replace("'", '"'),
    )
    for net in NETWORKS:
        fastest = df[(df["network"] == net) & (df["routing"] == "fastest")].iloc[0]
        nearest = df[(df["network"] == net) & (df["routing"] == "nearest")].iloc[0]
        assert fastest["avg_latency_ns"] <= nearest["avg_latency_ns"] + 1e-9
        assert fastest["max_latency_ns"] <= nearest["max_latency_ns"] + 1e-9
        g = _router_graph(net)
        ends = [r for r, d in g.nodes(data=True) if d.get("endpoints", 0) > 0]
        longest = max(nx.shortest_path_length(g, a, b) for a in ends for b in ends)
        assert nearest["max_hops"] == longest


@pytest.mark.parametrize(
    "kind,params,word",
    [
        ("latency", {"network": "slimfly:q=5", "routing": "dijkstra"}, "fastest or nearest"),
        ("analyze", {"network": "slimfly:q=5", "bisection": "yes"}, "true or false"),
        ("cost", {"network": "slimfly:q=5", "budget": 3}, "valid parameters"),
        ("analyze", {"seed": 1}, "needs parameter 'network'"),
    ],
)
def test_bad_points_are_rejected_before_running(kind, params, word):
    with pytest.raises(topolab.ParameterError, match=word):
        get_kind(kind).check(params)
