"""HammingMesh (Hoefler et al., SC 2022) against networkx: the graph built independently
here from the construction (a x b mesh boards in an x by y grid, one fat tree per accelerator
row and column) is isomorphic to topolab's; diameter and average distances agree; its own
routing and the generic ones simulate; impossible parameters are ParameterErrors."""

import math

import networkx as nx
import pytest

import topolab
from topolab import routing
from topolab.cli import main

FAST = {"sample_period": 200, "warmup_periods": 1, "max_samples": 2}


def add_tree(g, name, edge_ports, radix, taper):
    """One dimension's fat tree over ``edge_ports`` (accelerators, in port order): a switch
    when they fit in ``radix`` ports, else leaves of radix*t/(t+1) down- and u = radix/(t+1)
    up-ports, and the fewest spines that hold all leaves' up-links with u split evenly."""
    n = len(edge_ports)
    if n <= radix:
        for acc in edge_ports:
            add_cable(g, acc, (name, "switch"))
        return
    up = radix // (taper + 1)
    down = up * taper
    leaves = math.ceil(n / down)
    spines = min(s for s in range(1, up + 1) if up % s == 0 and leaves * up // s <= radix)
    for i, acc in enumerate(edge_ports):
        add_cable(g, acc, (name, "leaf", i // down))
    for leaf in range(leaves):
        for spine in range(spines):
            for _ in range(up // spines):
                add_cable(g, (name, "leaf", leaf), (name, "spine", spine))


def add_cable(g, u, v):
    """One more cable between u and v (parallel cables: the edge's width)."""
    width = g.edges[u, v]["width"] if g.has_edge(u, v) else 0
    g.add_edge(u, v, width=width + 1)


def hammingmesh_graph(a, b, x, y, radix=64, taper=1):
    """Accelerators ("acc", global column, global row) with a 2D mesh inside each board."""
    g = nx.Graph()
    cols, rows = x * b, y * a
    for c in range(cols):
        for r in range(rows):
            g.add_node(("acc", c, r), hosts=1)
            if c % b != b - 1:
                add_cable(g, ("acc", c, r), ("acc", c + 1, r))
            if r % a != a - 1:
                add_cable(g, ("acc", c, r), ("acc", c, r + 1))
    for r in range(rows):
        ports = [("acc", k * b + side * (b - 1), r) for k in range(x) for side in (0, 1)]
        add_tree(g, ("row", r), ports, radix, taper)
    for c in range(cols):
        ports = [("acc", c, k * a + side * (a - 1)) for k in range(y) for side in (0, 1)]
        add_tree(g, ("col", c), ports, radix, taper)
    for v in g.nodes:
        g.nodes[v].setdefault("hosts", 0)
    return g


def topolab_graph(net):
    g = net.to_networkx()
    nx.set_node_attributes(g, dict(enumerate(net.endpoints)), "hosts")
    return g


@pytest.mark.parametrize(
    "params",
    [
        dict(a=2, b=2, x=3, y=3),
        dict(a=4, b=4, x=2, y=1),
        dict(a=2, b=3, x=4, y=2, radix=4),
        dict(a=2, b=2, x=6, y=2, radix=8, taper=3),
        dict(a=2, b=2, x=6, y=3, radix=8),
        dict(a=2, b=1, x=3, y=2),
    ],
)
def test_the_graph_is_the_construction(params):
    spec = "hammingmesh:" + ",".join(f"{k}={v}" for k, v in params.items())
    net = topolab.build(spec)
    ours, theirs = topolab_graph(net), hammingmesh_graph(**params)
    assert (ours.number_of_nodes(), ours.number_of_edges()) == (
        theirs.number_of_nodes(),
        theirs.number_of_edges(),
    )
    assert nx.is_isomorphic(
        ours,
        theirs,
        node_match=lambda u, v: u["hosts"] == v["hosts"],
        edge_match=lambda u, v: u["width"] == v["width"],
    )


@pytest.mark.parametrize(
    "spec, endpoint_diameter",
    [
        # Hx2Mesh: in each dimension a neighbour on the board or accelerator, switch, accelerator
        ("hammingmesh:a=2,x=3", 4),
        ("hammingmesh:a=2,x=4,y=2", 4),
        # 4 x 4 boards: to the middle of another board, 1 + 2 + 1 hops per dimension
        ("hammingmesh:a=4,x=2", 8),
        # two-level row trees on radix 4: 1 + (leaf, spine, leaf) 4 + 1 along the rows, and
        # 1 + 2 + 1 along the 3-tall columns (one switch)
        ("hammingmesh:a=3,b=4,x=4,y=2,radix=4", 6 + 4),
    ],
)
def test_distances_agree_with_networkx(spec, endpoint_diameter):
    net = topolab.build(spec)
    a = topolab.analyze(net)
    g = net.to_networkx()
    d = dict(nx.all_pairs_shortest_path_length(g))
    hosts = [r for r in range(net.num_routers) if net.endpoints[r] > 0]
    n = len(hosts)
    assert a.diameter == nx.diameter(g)
    assert a.aspl == pytest.approx(nx.average_shortest_path_length(g), rel=1e-12)
    assert a.endpoint_diameter == max(d[s][t] for s in hosts for t in hosts) == endpoint_diameter
    mean = sum(d[s][t] for s in hosts for t in hosts if s != t) / (n * (n - 1))
    assert a.endpoint_aspl == pytest.approx(mean, rel=1e-12)


@pytest.mark.parametrize(
    "spec", ["hammingmesh:a=2,x=3", "hammingmesh:a=4,x=2", "hammingmesh:a=2,x=6,radix=8"]
)
def test_own_routing_passes_the_deadlock_check(spec):
    report = routing.check(topolab.build(spec), "hammingmesh_min")
    assert report.acyclic
    assert report.vcs_used == 2  # VC 1 from the hop out of a tree on


@pytest.mark.parametrize("spec", ["hammingmesh:a=2,x=3", "hammingmesh:a=4,x=2"])
@pytest.mark.parametrize("name", ["hammingmesh_min", "min", "valiant", "ugal_l"])
def test_routings_simulate(spec, name):
    # the generic routings' hop-indexed VCs need one VC per hop of their longest path
    r = topolab.simulate(spec, name, "uniform", 0.1, seed=1, num_vcs=24, **FAST)
    assert r.measured_packets > 0
    assert not r.saturated
    assert r.accepted_throughput == pytest.approx(0.1, abs=0.02)


def test_cli_simulates_with_the_own_routing(capsys):
    args = ["sim", "hammingmesh:a=2,x=3", "--routing", "hammingmesh_min", "--load", "0.2"]
    args += ["--sample-period", "200", "--warmup-periods", "1", "--max-samples", "2", "--json"]
    assert main(args) == 0
    assert '"routing": "hammingmesh_min"' in capsys.readouterr().out


@pytest.mark.parametrize(
    "spec, words",
    [
        ("hammingmesh:x=6,radix=8,taper=2", ["taper", "divisible"]),
        ("hammingmesh:x=40,radix=8", ["'x'", "third tree level"]),
        ("hammingmesh:a=0,x=2", ["'a'"]),
        ("hammingmesh:a=2", ["'x'"]),
    ],
)
def test_impossible_parameters_are_parameter_errors(spec, words):
    with pytest.raises(topolab.ParameterError) as err:
        topolab.build(spec)
    for w in words:
        assert w in str(err.value)
