"""topolab.analyze against networkx on small random and structured networks, directed and
undirected, connected and not; path diversity against networkx's shortest-path enumeration;
the Moore bound; the result object."""

from __future__ import annotations

import itertools
import random

import networkx as nx
import pytest

import topolab


def random_graph(n: int, p: float, directed: bool, seed: int) -> nx.Graph:
    g = nx.gnp_random_graph(n, p, seed=seed, directed=directed)
    rng = random.Random(seed)
    for v in g.nodes:
        g.nodes[v]["endpoints"] = rng.randint(0, 4)
    return g


def structured_graphs() -> list[tuple[str, nx.Graph]]:
    out = []
    for spec in ["slimfly:q=5", "torus:dims=4x3", "fattree:k=4,levels=3", "dragonfly:a=4,h=2,p=2"]:
        out.append((spec, topolab.build(spec).to_networkx()))
    out.append(("petersen", nx.petersen_graph()))
    out.append(("directed cycle", nx.cycle_graph(7, create_using=nx.DiGraph)))
    out.append(
        (
            "de bruijn-like",
            nx.DiGraph([(i, (2 * i + b) % 12) for i in range(12) for b in (0, 1) if i != (2 * i + b) % 12]),
        )
    )
    out.append(("two components", nx.disjoint_union(nx.complete_graph(4), nx.path_graph(5))))
    return out


def reference(g: nx.Graph, endpoints: list[int]) -> dict:
    """Every metric from networkx's all-pairs lengths, by the definitions of docs/analysis.md."""
    nodes = list(g.nodes)
    n = len(nodes)
    lengths = dict(nx.all_pairs_shortest_path_length(g))
    histogram = [0]
    unreachable = 0
    for s, t in itertools.permutations(nodes, 2):
        d = lengths[s].get(t)
        if d is None:
            unreachable += 1
            continue
        histogram += [0] * (d + 1 - len(histogram))
        histogram[d] += 1
    connected = unreachable == 0
    out = {"histogram": histogram, "unreachable_pairs": unreachable, "connected": connected}
    if g.is_directed():
        out["components"] = nx.number_weakly_connected_components(g)
        out["strong_components"] = nx.number_strongly_connected_components(g)
    else:
        out["components"] = nx.number_connected_components(g) if n else 0
        out["strong_components"] = None
    if connected:
        ecc = nx.eccentricity(g, sp=lengths)
        out["eccentricities"] = [ecc[v] for v in nodes]
        out["diameter"] = max(ecc.values())
        out["radius"] = min(ecc.values())
        # No pair of distinct routers, no mean (networkx says 0 for one node).
        out["aspl"] = nx.average_shortest_path_length(g) if n >= 2 else None
    else:
        out.update(eccentricities=None, diameter=None, radius=None, aspl=None)
    total = sum(endpoints)
    pairs = [(i, j) for i, j in itertools.permutations(range(n), 2) if endpoints[i] and endpoints[j]]
    if total >= 2 and all(nodes[j] in lengths[nodes[i]] for i, j in pairs):
        hops = sum(endpoints[i] * endpoints[j] * lengths[nodes[i]][nodes[j]] for i, j in pairs)
        out["endpoint_aspl"] = hops / (total * (total - 1))
    else:
        out["endpoint_aspl"] = None
    return out


def check(g: nx.Graph, what: str) -> None:
    net = topolab.from_networkx(g, endpoints="endpoints")
    got = topolab.analyze(net)
    want = reference(g, net.endpoints)
    for key, value in want.items():
        if isinstance(value, float):
            assert getattr(got, key) == pytest.approx(value, rel=1e-12), f"{what}: {key}"
        elif isinstance(value, list):  # a per-router or per-distance list: a tuple in the result
            assert getattr(got, key) == tuple(value), f"{what}: {key}"
        else:
            assert getattr(got, key) == value, f"{what}: {key}"


@pytest.mark.parametrize("directed", [False, True])
def test_random_networks_match_networkx(directed):
    for n, p in [(1, 0.5), (2, 1.0), (6, 0.4), (15, 0.15), (25, 0.1), (40, 0.08), (60, 0.04)]:
        for seed in range(4):
            g = random_graph(n, p, directed, seed)
            check(g, f"n={n} p={p} directed={directed} seed={seed}")


def test_structured_networks_match_networkx():
    for name, g in structured_graphs():
        for v in g.nodes:
            g.nodes[v].setdefault("endpoints", 1)
        check(g, name)


def test_larger_network_spanning_two_batches():
    # 512 sources per batch in the kernel: 700 routers make a full batch and a partial one.
    g = nx.random_regular_graph(5, 700, seed=3)
    for v in g.nodes:
        g.nodes[v]["endpoints"] = v % 3
    check(g, "random regular 700")


def path_counts(g: nx.Graph) -> list[int]:
    counts = []
    lengths = dict(nx.all_pairs_shortest_path_length(g))
    for s, t in itertools.permutations(g.nodes, 2):
        if lengths[s].get(t, 0) >= 2:
            counts.append(sum(1 for _ in nx.all_shortest_paths(g, s, t)))
    return counts


@pytest.mark.parametrize("directed", [False, True])
def test_path_diversity_matches_networkx_enumeration(directed):
    graphs = [
        random_graph(n, p, directed, seed) for n, p, seed in [(12, 0.3, 1), (20, 0.15, 2), (30, 0.12, 3)]
    ]
    if not directed:
        graphs += [nx.hypercube_graph(4), nx.grid_2d_graph(4, 5), topolab.build("slimfly:q=4").to_networkx()]
    for g in graphs:
        g = nx.convert_node_labels_to_integers(g)
        counts = path_counts(g)
        got = topolab.analyze(topolab.from_networkx(g, endpoints=1), paths=True).paths
        assert got.pairs == len(counts)
        assert got.max == max(counts)
        assert got.mean == pytest.approx(sum(counts) / len(counts), rel=1e-12)
        assert got.multipath_pairs == sum(c > 1 for c in counts)


def test_moore_bound_and_fraction():
    assert topolab.moore_bound(7, 2) == 50
    assert topolab.moore_bound(3, 2) == 10
    assert topolab.moore_bound(8, 4, directed=True) == 1 + 8 + 64 + 512 + 4096
    # Exact beyond 64 bits: 1 + 100·Σ_{i<12} 99^i.
    assert topolab.moore_bound(100, 12) == 1 + 100 * sum(99**i for i in range(12))
    a = topolab.analyze(topolab.build("slimfly:q=5"))
    assert (a.moore_bound, a.moore_fraction) == (50, 1.0)
    petersen = topolab.from_networkx(nx.petersen_graph(), endpoints=1)
    assert topolab.analyze(petersen).moore_fraction == 1.0
    # A bound beyond 64 bits stays exact through analyze: the prism C_200 x K_2 is cubic with
    # diameter 101, bound 1 + 3(2^101 - 1).
    prism = topolab.analyze(topolab.from_networkx(nx.circular_ladder_graph(200), endpoints=1))
    assert prism.diameter == 101
    assert prism.moore_bound == 1 + 3 * (2**101 - 1)
    assert prism.moore_fraction == pytest.approx(400 / (1 + 3 * (2**101 - 1)))
    with pytest.raises(topolab.ParameterError, match="'diameter' = 100"):
        topolab.moore_bound(1000, 100)
    with pytest.raises(topolab.ParameterError, match="'degree' = -1"):
        topolab.moore_bound(-1, 2)


def test_disconnected_network_reports_components_not_infinity():
    g = nx.disjoint_union(nx.cycle_graph(5), nx.cycle_graph(4))
    a = topolab.analyze(topolab.from_networkx(g, endpoints=1))
    assert (a.connected, a.components) == (False, 2)
    assert (a.diameter, a.aspl, a.endpoint_aspl, a.moore_bound, a.moore_fraction) == (None,) * 5
    d = a.to_dict()
    assert d["diameter"] is None and d["components"] == 2
    with pytest.raises(topolab.NetworkError, match="2 components"):
        topolab.analyze(topolab.from_networkx(g, endpoints=1), resilience=True)


def test_result_object_and_dict():
    a = topolab.analyze(topolab.build("slimfly:q=5"), paths=True, resilience=True, seed=3)
    assert isinstance(a, topolab.Analysis)
    assert isinstance(a.paths, topolab.PathDiversity) and isinstance(a.resilience, topolab.Resilience)
    d = a.to_dict()
    required = """routers endpoints links network_radix radix directed connected components diameter
        aspl endpoint_aspl moore_bound moore_fraction path_diversity_mean path_diversity_max
        disconnect_fraction diameter_plus2_fraction aspl_plus1_fraction""".split()
    assert set(required) <= set(d)
    for key in ("disconnect_fraction", "diameter_plus2_fraction", "aspl_plus1_fraction"):
        low, high = d[f"{key}_interval"]
        assert low <= d[key] <= high and high - low <= 0.02
    assert d["resilience_seed"] == 3
    # Same seed, same numbers; another seed, other samples.
    assert topolab.analyze(topolab.build("slimfly:q=5"), resilience=True, seed=3).resilience == a.resilience
    other = topolab.analyze(topolab.build("slimfly:q=5"), resilience=True, seed=4).resilience
    assert other.disconnect != a.resilience.disconnect
    plain = topolab.analyze(topolab.build("slimfly:q=5")).to_dict()
    assert "path_diversity_mean" not in plain and "disconnect_fraction" not in plain


def test_bad_arguments():
    net = topolab.build("slimfly:q=5")
    with pytest.raises(topolab.ParameterError, match="'seed' = -1"):
        topolab.analyze(net, seed=-1)
    with pytest.raises(topolab.ParameterError, match="a topolab.Network"):
        topolab.analyze(nx.path_graph(3))
