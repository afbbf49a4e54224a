"""The bisection and spectrum sections of analyze, through the Python API and the CLI."""

import json
import math

import networkx as nx
import pytest

import topolab
from topolab.cli import main


def test_bisection_of_a_hypercube_is_half_its_routers():
    # Q_n: the minimum balanced cut is 2^(n-1) links (one dimension), 1 link per endpoint pair.
    a = topolab.analyze(topolab.build("hypercube:n=6"), bisection=True)
    assert a.bisection.links_cut == 32
    assert a.bisection.per_endpoint == pytest.approx(1.0)
    sides = a.bisection.side
    assert sides.count(0) == sides.count(1) == 32
    net = topolab.build("hypercube:n=6")
    cut = sum(w for (u, v, w, _) in net.links if sides[u] != sides[v])
    assert cut == a.bisection.links_cut


def test_spectrum_matches_numpy_free_closed_form_for_a_cycle():
    a = topolab.analyze(topolab.build("torus:dims=9"), spectrum=True)
    assert a.spectrum.lambda1 == pytest.approx(2.0)
    assert a.spectrum.lambda2 == pytest.approx(2 * math.cos(2 * math.pi / 9))


def test_spectrum_agrees_with_networkx_on_a_random_graph():
    pytest.importorskip("numpy")
    import numpy as np

    g = nx.random_regular_graph(5, 40, seed=11)
    net = topolab.from_networkx(g, endpoints=1)
    eig = np.sort(np.linalg.eigvalsh(nx.to_numpy_array(g)))
    a = topolab.analyze(net, spectrum=True)
    assert a.spectrum.lambda1 == pytest.approx(eig[-1], abs=1e-7)
    assert a.spectrum.lambda2 == pytest.approx(eig[-2], abs=1e-7)
    assert a.spectrum.lambda_min == pytest.approx(eig[0], abs=1e-7)


def test_cli_prints_bisection_and_spectrum_keys(capsys):
    assert main(["analyze", "slimfly:q=5", "--bisection", "--spectral", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["bisection_links"] > 0 and 0 < out["bisection_per_endpoint"] < 2
    assert out["lambda1"] == pytest.approx(7.0) and out["lambda2"] == pytest.approx(2.0)
    assert out["lambda_min"] == pytest.approx(-3.0)


def test_spectrum_of_a_directed_network_is_a_clear_error():
    with pytest.raises(topolab.TopolabError, match="undirected"):
        topolab.analyze(topolab.build("kautz:d=2,k=3"), spectrum=True)
    with pytest.raises(topolab.ParameterError, match="bisection_runs"):
        topolab.analyze(topolab.build("slimfly:q=3"), bisection=True, bisection_runs=0)
