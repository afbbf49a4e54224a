"""The Long Hop hypercube and Delorme families against networkx: the folded hypercube (L = 1)
against its known diameter and an independently built copy, SC14 Table II's LH-HC diameters,
Delorme's diameter 3 and degrees, and both families' balanced p (Besta & Hoefler, SC14,
§II-B2) against networkx's average distance."""

import networkx as nx
import pytest

import topolab


@pytest.mark.parametrize("n", [4, 5, 6, 7])
def test_one_long_hop_is_the_folded_hypercube(n):
    net = topolab.build(f"longhop:n={n},hops=1")
    g = net.to_networkx()
    folded = nx.hypercube_graph(n)
    folded.add_edges_from((x, tuple(1 - b for b in x)) for x in list(folded.nodes))
    assert nx.is_isomorphic(g, folded)
    assert nx.diameter(g) == (n + 1) // 2  # weight w is min(w, n + 1 - w) hops away


def test_sc14_table_ii_diameters_of_lh_hc():
    # Besta & Hoefler, SC14, Table II: LH-HC of 2^8 .. 2^13 endpoints (p = 1) have diameter 4-6.
    for n in (8, 9, 10):
        g = topolab.build(f"longhop:n={n}").to_networkx()
        assert 4 <= nx.diameter(g) <= 6
        assert all(d == n + 5 for _, d in g.degree())


@pytest.mark.parametrize("spec", ["longhop:n=7,hops=3", "delorme:v=2"])
def test_balanced_concentration_from_networkx_distances(spec):
    g = topolab.build(spec).to_networkx()
    r = g.number_of_nodes()
    # Besta & Hoefler, SC14, §II-B2: link ends x N_r / sum of distances over ordered pairs (self pairs count
    # 0)
    total = nx.average_shortest_path_length(g) * r * (r - 1)
    expected = 2 * g.number_of_edges() * r / total
    assert topolab.family_sizes(spec).balanced_concentration == pytest.approx(expected)


def test_delorme_v2_degrees_and_diameter():
    g = topolab.build("delorme:v=2").to_networkx()
    assert g.number_of_nodes() == 3**2 * 5**2 and nx.number_of_selfloops(g) == 0
    degrees = sorted(d for _, d in g.degree())
    # 45 routers (P, l) with P on l have 8 links, the other 180 have 9
    assert degrees == [8] * 45 + [9] * 180
    assert nx.diameter(g) == 3
    assert nx.is_connected(g)
