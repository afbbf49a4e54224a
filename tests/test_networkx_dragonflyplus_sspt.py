"""Dragonfly+ (Shpiner et al., HiPINEB 2017) and Stacked Single-Path Trees (Kathareios et al.,
SC15, §2.2.2) against networkx: distances computed independently, the diameters the papers
give between endpoint routers (3 and 2), the SSPT's special cases isomorphic to today's MLFM and
OFT, and the families' own routings deadlock-free by the CDG check."""

import networkx as nx
import pytest

import topolab
from topolab import routing


def networkx_distances(net):
    """(router diameter, router ASPL, endpoint diameter, endpoint ASPL) by networkx, with the
    definitions of docs/analysis.md."""
    g = net.to_networkx()
    d = dict(nx.all_pairs_shortest_path_length(g))
    routers = range(net.num_routers)
    e = net.endpoints
    hosts = [r for r in routers if e[r] > 0]
    n = sum(e)
    endpoint_sum = sum(e[a] * e[b] * d[a][b] for a in hosts for b in hosts if a != b)
    return (
        nx.diameter(g),
        nx.average_shortest_path_length(g),
        max(d[a][b] for a in hosts for b in hosts),
        endpoint_sum / (n * (n - 1)),
    )


@pytest.mark.parametrize(
    "spec, endpoint_diameter",
    [
        ("dragonflyplus:h=2", 3),
        ("dragonflyplus:h=3", 3),
        ("dragonflyplus:h=2,s=3,l=4,p=1,g=4", 3),
        ("dragonflyplus:h=3,s=2,l=3,g=3,p=4", 3),
        ("sspt:r1=4,r2=3,s=2", 2),
        ("sspt:r1=3,r2=3,s=3", 2),
        ("sspt:r1=5,r2=4,s=1,p=2", 2),
        ("sspt:r1=1,r2=4,s=2", 2),
    ],
)
def test_distances_agree_with_networkx_and_the_papers(spec, endpoint_diameter):
    net = topolab.build(spec)
    a = topolab.analyze(net)
    diameter, aspl, e_diameter, e_aspl = networkx_distances(net)
    assert a.diameter == diameter
    assert a.aspl == pytest.approx(aspl, rel=1e-12)
    assert a.endpoint_diameter == e_diameter == endpoint_diameter
    assert a.endpoint_aspl == pytest.approx(e_aspl, rel=1e-12)


@pytest.mark.parametrize(
    "sspt, special",
    [
        ("sspt:r1=3,r2=2,s=3,p=2", "mlfm:h=3,l=3,p=2"),
        ("sspt:r1=4,r2=2,s=2,p=4", "mlfm:h=4,l=2,p=4"),
        ("sspt:r1=3,r2=3,p=3", "oft:k=3"),
        ("sspt:r1=4,r2=4,p=1", "oft:k=4,p=1"),
        ("sspt:r1=5,r2=5,p=5", "oft:k=5"),
    ],
)
def test_sspt_special_cases_are_isomorphic_to_mlfm_and_oft(sspt, special):
    a, b = topolab.build(sspt), topolab.build(special)
    ga, gb = a.to_networkx(), b.to_networkx()
    for net, g in ((a, ga), (b, gb)):
        nx.set_node_attributes(g, dict(enumerate(net.endpoints)), "hosts")
    assert (a.num_routers, a.num_endpoints, len(a.links)) == (b.num_routers, b.num_endpoints, len(b.links))
    assert nx.is_isomorphic(ga, gb, node_match=lambda x, y: x["hosts"] == y["hosts"])


@pytest.mark.parametrize("name", ["dragonflyplus_min", "dragonflyplus_valiant", "dragonflyplus_adaptive"])
@pytest.mark.parametrize("spec", ["dragonflyplus:h=3", "dragonflyplus:h=2,s=3,g=4"])
def test_dragonflyplus_routings_pass_the_deadlock_check(spec, name):
    report = routing.check(topolab.build(spec), name)
    assert report.acyclic
    assert report.vcs_used == (1 if name == "dragonflyplus_min" else 2)
