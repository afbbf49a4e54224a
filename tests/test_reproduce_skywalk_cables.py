"""topolab reproduce skywalk-cables (Fujiwara et al., IPDPS 2014, §III-B–E), quick mode: totals and ratios
within the tolerances of docs/reproduce.md, the degrees exact, Fujiwara et al.'s (IPDPS 2014) orderings."""

from __future__ import annotations

import pytest

from topolab import reproduce
from topolab.reproduce import skywalk_cables


@pytest.fixture(scope="module")
def rep():
    return reproduce.run("skywalk-cables", quick=True)


@pytest.fixture(scope="module")
def rows(rep):
    return {(r.column, r.quantity): r for r in rep.rows}


def test_quick_leaves_out_the_8192_switch_networks(rep):
    names = {r["name"] for r in rep.data}
    assert names == {n.name for n in skywalk_cables.NETS if not n.large}
    assert all(r["switches"] == 2048 and r["cabinets"] == 256 for r in rep.data)


def test_degrees_and_totals(rows):
    for net in skywalk_cables.NETS:
        if net.large:
            continue
        assert rows[(net.name, "degree")].topolab == net.degree
        if net.paper_km is not None:
            tol = 0.03 if net.name.startswith("Skywalk") else 0.01
            assert abs(rows[(net.name, "total cable [km]")].rel_diff) <= tol, net.name


def test_torus_total_by_hand(rep):
    # Torus 8x16x16, one 8-ring per cabinet on a 16 x 16 cabinet grid (x = y = 16): the 8-ring
    # stays in its cabinet (2 m); the two 16-rings run along cabinet rows and columns: neighbours
    # are one pitch apart (+4 m), the wrap-around link spans 15 pitches. Dimension order of the
    # cabinets (row-major or column-major) does not change the sum.
    intra = 2048 * 2.0
    ring = lambda pitch: 15 * (pitch + 4.0) + (15 * pitch + 4.0)  # noqa: E731
    inter = 8 * 16 * (ring(0.6) + ring(2.1))
    torus = next(r for r in rep.data if r["name"] == "Torus(8,256,6)")
    assert torus["total_cable_km"] == pytest.approx((intra + inter) / 1000)


def test_ratios_quoted_by_004(rows):
    sky12 = "Skywalk(8,256,7,12) against Dragonfly and HyperX"
    for q in (
        "cable vs Dragonfly (§III-E) [%]",
        "cable vs HyperX (§III-E) [%]",
        "max latency vs Dragonfly (§III-E) [%]",
        "max latency vs HyperX (§III-E) [%]",
        "avg latency vs Dragonfly (§III-C) [%]",
        "avg latency vs HyperX (§III-C) [%]",
    ):
        assert abs(rows[(sky12, q)].abs_diff) <= 1.0, q
    sky4 = "Skywalk(8,256,7,4) against the others"
    for q in ("cable vs Dragonfly (§III-E) [%]", "cable vs HyperX (§III-E) [%]"):
        assert abs(rows[(sky4, q)].abs_diff) <= 1.0, q
    for q in ("avg latency vs Dragonfly (§III-B) [%]", "avg latency vs HyperX (§III-B) [%]"):
        assert abs(rows[(sky4, q)].abs_diff) <= 1.5, q
    # "more than 10x / 6x / 3x" the cable of Skywalk(8,256,7,4)
    for q in (
        "Dragonfly cable / Skywalk's (§III-B: more than 10x)",
        "HyperX cable / Skywalk's (§III-B: more than 6x)",
        "Random cable / Skywalk's (§III-B: more than 3x)",
    ):
        assert rows[(sky4, q)].topolab > rows[(sky4, q)].paper, q
    # the maximum latency of this random instance is further from the figures of Fujiwara et al., IPDPS 2014
    # (docs/reproduce.md): bounded
    assert 0 < rows[(sky4, "max latency vs Dragonfly (§III-B, §III-E) [%]")].abs_diff <= 10
    assert abs(rows[(sky4, "max latency vs Hypercube (§III-C) [%]")].abs_diff) <= 5
    # Fujiwara et al., IPDPS 2014, §III-B: Skywalk below Torus, Hypercube and Random at 60 ns, maximum and
    # average
    for other in ("Torus(8,256,6)", "Hypercube(2048,11)", "Random(2048,11)"):
        for label in ("max", "avg"):
            assert rows[(sky4, f"{label} latency vs {other} [%]")].topolab < 0
    d32 = "Skywalk degree 32 at 2,048 switches (§III-D)"
    assert (
        rows[
            (d32, "avg latency vs the worse of DF/HyperX [%] (Fujiwara et al. (IPDPS 2014): at most)")
        ].topolab
        <= 1.3
    )


def test_latency_model_on_a_path(rep):
    # Dragonfly(8,256,39): 3 hops at most; its maximum latency is 300 + 4 x 60 + 5 ns/m x the
    # cables of the slowest pair, so it lies between the hop bound with 2 m cables and with the
    # longest floor cable (15 x 2.1 + 15 x 0.6 + 4 = 44.5 m) twice.
    df = next(r for r in rep.data if r["name"] == "Dragonfly(8,256,39)")
    assert df["max_hops"] == 3
    assert 300 + 4 * 60 + 5 * (2 + 2 + 4.6) <= df["max_latency_ns"] <= 300 + 4 * 60 + 5 * (2 + 44.5 + 2)
