"""The bisection is stated as what it is: METIS's cut, an upper bound on the minimum, with the
spectral lower bound beside it where that holds (docs/bisection.md)."""

from __future__ import annotations

import pytest

import topolab
from topolab.cli import main


def test_hypercube_bounds_meet_at_the_closed_form():
    # Besta & Hoefler, SC14, §III-C: a hypercube of 2^d routers bisects with 2^(d-1) links.
    b = topolab.analyze(topolab.build("hypercube:n=6"), bisection=True).bisection
    assert b.lower_bound == b.links_cut == 32


def test_longhop_minimum_is_proven_by_the_lower_bound_and_a_hyperplane_cut():
    # Long Hop is a Cayley graph of Z_2^n (router ids are the vectors): every nonzero linear
    # functional a.x splits the routers 512/512, and the best such hyperplane cut, searched here
    # with networkx's edges, meets the spectral lower bound: the minimum bisection is proven.
    net = topolab.build("longhop:n=10")
    g = net.to_networkx()
    assert sorted(g.nodes) == list(range(1024))
    steps = [(u ^ v, d.get("width", 1)) for u, v, d in g.edges(data=True)]
    hyperplane = min(sum(w for step, w in steps if bin(a & step).count("1") % 2) for a in range(1, 1024))
    b = topolab.analyze(net, bisection=True).bisection
    assert b.lower_bound == hyperplane == 2048
    # METIS's cut is an upper bound and here not the minimum.
    assert b.links_cut >= hyperplane


def test_no_bound_where_it_does_not_hold():
    # Fat-tree spines carry no endpoints: the bisection may put them anywhere, the spectral
    # argument over balanced router sets does not apply.
    b = topolab.analyze(topolab.build("fattree:k=4,levels=2"), bisection=True).bisection
    assert b.lower_bound is None


@pytest.mark.parametrize("spec", ["slimfly:q=5", "torus:dims=6x6"])
def test_cli_says_upper_bound_and_gives_the_lower_one(spec, capsys):
    assert main(["analyze", spec, "--bisection", "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert "upper bound" in out and "bisection_links_lower_bound" in out
    b = topolab.analyze(topolab.build(spec), bisection=True).bisection
    assert f"between {b.lower_bound} and {b.links_cut}" in out
