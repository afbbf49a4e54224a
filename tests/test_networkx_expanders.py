"""SpectralFly and Xpander against networkx and numpy: diameter and average distance from
topolab's analysis equal networkx's on small instances, and topolab's Lanczos spectrum equals
numpy's dense eigenvalues (the Ramanujan bound checked on both)."""

import math

import networkx as nx
import numpy as np
import pytest

import topolab

SMALL = [
    "spectralfly:lps_p=3,lps_q=5",
    "spectralfly:lps_p=3,lps_q=11",
    "spectralfly:lps_p=5,lps_q=11",
    "spectralfly:lps_p=13,lps_q=5",
    "spectralfly:lps_p=23,lps_q=7",
    "xpander:d=3,l=20,seed=2",
    "xpander:d=6,l=40",
    "xpander:d=10,l=15,seed=5",
    "xpander:d=2,l=9",
]


@pytest.mark.parametrize("spec", SMALL)
def test_diameter_and_average_distance_equal_networkx(spec):
    net = topolab.build(spec)
    g = net.to_networkx()
    assert nx.is_connected(g)
    a = topolab.analyze(net, progress=False)
    assert a.diameter == nx.diameter(g)
    assert a.aspl == pytest.approx(nx.average_shortest_path_length(g), rel=1e-12)
    assert {d for _, d in g.degree()} == {net.network_radix}


def _legendre(p, q):
    return 1 if any(x * x % q == p % q for x in range(1, q)) else -1


@pytest.mark.parametrize("spec", [s for s in SMALL if s.startswith("spectralfly")])
def test_spectralfly_is_ramanujan_per_numpy_and_bipartite_by_the_legendre_symbol(spec):
    params = dict(kv.split("=") for kv in spec.split(":")[1].split(","))
    p, q = int(params["lps_p"]), int(params["lps_q"])
    net = topolab.build(spec)
    g = net.to_networkx()
    assert nx.is_bipartite(g) == (_legendre(p, q) == -1)
    eig = np.linalg.eigvalsh(nx.to_numpy_array(g))
    d = p + 1
    nontrivial = eig[np.abs(np.abs(eig) - d) > 1e-8]
    assert np.max(np.abs(nontrivial)) <= 2 * math.sqrt(p) + 1e-9
    s = topolab.analyze(net, spectrum=True, progress=False).spectrum
    assert s.lambda2 == pytest.approx(np.sort(eig)[-2], abs=1e-7)
    assert s.lambda_min == pytest.approx(eig.min(), abs=1e-7)


@pytest.mark.parametrize("spec", ["xpander:d=6,l=40", "xpander:d=10,l=15,seed=5"])
def test_xpander_spectrum_equals_numpy_and_is_near_ramanujan(spec):
    net = topolab.build(spec)
    eig = np.sort(np.linalg.eigvalsh(nx.to_numpy_array(net.to_networkx())))
    s = topolab.analyze(net, spectrum=True, progress=False).spectrum
    assert s.lambda_abs == pytest.approx(max(abs(eig[-2]), abs(eig[0])), abs=1e-7)
    assert 0.9 <= s.lambda_abs / s.ramanujan_bound <= 1.1
