"""Every family against networkx: converted graphs must have the diameters the papers state,
the degrees topolab reports and the same connectivity, computed independently by networkx."""

import networkx as nx
import pytest

import topolab


def endpoint_diameter(g, routers):
    lengths = dict(nx.all_pairs_shortest_path_length(g))
    return max(lengths[a][b] for a in routers for b in routers)


# (spec, diameter the papers give, measured only between routers that carry endpoints)
KNOWN_DIAMETERS = [
    ("slimfly:q=3", 2, False),
    ("slimfly:q=4", 2, False),
    ("slimfly:q=7", 2, False),
    ("slimfly:q=8", 2, False),
    ("slimfly:q=9", 2, False),
    ("dragonfly:a=4,h=2,p=2", 3, False),
    ("dragonfly:a=6,h=3,p=3,g=10", 3, False),
    ("hyperx:dims=3x4x2", 3, False),
    ("hyperx:dims=5x5,widths=2x1", 2, False),
    ("torus:dims=5x4x3", 2 + 2 + 1, False),
    ("torus:dims=7x6", 3 + 3, False),
    ("mesh:dims=4x3", 3 + 2, False),
    ("hypercube:n=6", 6, False),
    ("longhop:n=8", 4, False),
    ("delorme:v=2", 3, False),
    ("fattree:k=4,levels=3", 4, True),
    ("fattree:k=6,levels=2", 2, True),
    ("mlfm:h=4", 2, True),
    ("mlfm:h=3,l=5,p=2", 2, True),
    ("oft:k=4", 2, True),
    ("oft:k=6", 2, True),
    ("product:a=(slimfly:q=3),b=(torus:dims=4)", 2 + 2, False),
    ("product:a=(hypercube:n=2),b=(hyperx:dims=3x3)", 2 + 2, False),
]

DIRECTED_DIAMETERS = [
    ("kautz:d=2,k=3", 3),
    ("kautz:d=3,k=2", 2),
    ("debruijn:d=2,k=4", 4),
    ("debruijn:d=3,k=3", 3),
]


@pytest.mark.parametrize("spec, diameter, among_endpoints", KNOWN_DIAMETERS)
def test_undirected_families_have_the_papers_diameter(spec, diameter, among_endpoints):
    net = topolab.build(spec)
    g = net.to_networkx()
    assert g.number_of_nodes() == net.num_routers
    assert g.number_of_edges() == len(net.links)
    assert nx.is_connected(g)
    if among_endpoints:
        routers = [r for r, e in enumerate(net.endpoints) if e > 0]
        assert endpoint_diameter(g, routers) == diameter
    else:
        assert nx.diameter(g) == diameter
    weighted = dict(g.degree(weight="width"))
    assert [weighted[r] for r in range(net.num_routers)] == [net.degree(r) for r in range(net.num_routers)]


@pytest.mark.parametrize("spec, diameter", DIRECTED_DIAMETERS)
def test_directed_families_have_the_papers_diameter(spec, diameter):
    net = topolab.build(spec)
    g = net.to_networkx()
    assert g.is_directed() and nx.is_strongly_connected(g)
    assert nx.diameter(g) == diameter
    out = dict(g.out_degree(weight="width"))
    assert max(out.values()) == net.network_radix


@pytest.mark.parametrize("fam", topolab.families(), ids=lambda f: f.name)
def test_every_family_example_converts_faithfully(fam):
    net = topolab.build(fam.example)
    g = net.to_networkx()
    assert g.is_directed() == net.directed
    connected = nx.is_strongly_connected(g) if net.directed else nx.is_connected(g)
    assert connected, fam.example
    back = topolab.from_networkx(g)
    assert back.endpoints == net.endpoints
    assert sorted(link[:3] for link in back.links) == sorted(link[:3] for link in net.links)


@pytest.mark.parametrize(
    "spec",
    [
        "jellyfish:routers=60,degree=5,seed=7",
        "dln:routers=64,shortcuts=3,seed=7",
        "random_directed:n=40,d=3,seed=7",
        "mddp:n=50,d=3,seed=7",
        "skywalk:z=4,c=16,di=2,do=3,seed=7",
    ],
)
def test_random_families_are_deterministic_and_seed_sensitive(spec):
    a, b = topolab.build(spec), topolab.build(spec)
    assert a == b
    other = topolab.build(spec.replace("seed=7", "seed=8"))
    assert sorted(a.links) != sorted(other.links)


def test_jellyfish_is_regular_and_simple_per_networkx():
    net = topolab.build("jellyfish", routers=200, degree=7 + 1, seed=3)
    g = net.to_networkx()
    assert {d for _, d in g.degree()} == {8}
    assert nx.number_of_selfloops(g) == 0 and nx.is_connected(g)
