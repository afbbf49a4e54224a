"""PolarFly, BDF, Bundlefly and PolarStar against networkx: the diameters their publications prove, the
average shortest path length topolab's analysis reports, and ER_q built independently here
from its definition (points of PG(2, q), u ~ v iff u.v = 0, u != v) for prime q."""

import itertools

import networkx as nx
import pytest

import topolab

# (spec, diameter the publication proves)
DIAMETERS = [
    ("polarfly:q=2", 2),
    ("polarfly:q=4", 2),
    ("polarfly:q=7", 2),
    ("polarfly:q=9", 2),
    ("bdf:u=3", 3),
    ("bdf:u=5", 3),
    ("bundlefly:q=3,a=5", 3),
    ("bundlefly:q=4,a=5", 3),
    ("polarstar:q=2,d=3", 3),
    ("polarstar:q=3,d=4", 3),
    ("polarstar:q=3,a=9", 3),
]


@pytest.mark.parametrize("spec, diameter", DIAMETERS)
def test_diameter_and_average_distance_match_networkx(spec, diameter):
    net = topolab.build(spec)
    g = net.to_networkx()
    assert g.number_of_nodes() == net.num_routers
    assert g.number_of_edges() == len(net.links)
    assert nx.diameter(g) == diameter
    report = topolab.analyze(net)
    assert report.diameter == diameter
    assert report.aspl == pytest.approx(nx.average_shortest_path_length(g), abs=1e-5)


def polarity_graph_by_definition(q: int) -> nx.Graph:
    points = [v for v in itertools.product(range(q), repeat=3) if any(v)]
    points = [v for v in points if next(x for x in v if x) == 1]  # left-normalised
    g = nx.Graph()
    g.add_nodes_from(points)
    for u, v in itertools.combinations(points, 2):
        if sum(a * b for a, b in zip(u, v)) % q == 0:
            g.add_edge(u, v)
    return g


@pytest.mark.parametrize("q", [2, 3, 5])
def test_polarfly_is_the_polarity_graph(q):
    ours = topolab.build(f"polarfly:q={q}").to_networkx()
    reference = polarity_graph_by_definition(q)
    assert reference.number_of_nodes() == q * q + q + 1
    assert nx.is_isomorphic(nx.Graph(ours), reference)


def test_polarfly_labels_are_the_points_and_their_clusters():
    net = topolab.build("polarfly:q=5")
    assert net.label_fields == ["cluster", "x0", "x1", "x2"]
    g = net.to_networkx()
    labels = net.labels
    for u, v in g.edges():
        pu, pv = labels[u][1:], labels[v][1:]
        assert sum(a * b for a, b in zip(pu, pv)) % 5 == 0
