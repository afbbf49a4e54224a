"""topolab reproduce resilience (Besta & Hoefler, SC14, Table III, §III-D), quick mode: sizes from the
constructions, the summaries from the survival curves, and Besta & Hoefler's (SC14) values within the
tolerances of docs/reproduce.md."""

from __future__ import annotations

import pytest

import topolab
from topolab import reproduce
from topolab.reproduce import resilience


@pytest.fixture(scope="module")
def rep():
    return reproduce.run("resilience", quick=True)


@pytest.fixture(scope="module")
def recs(rep):
    return {(r["topology"], r["size"]): r for r in rep.data}


def test_quick_keeps_every_row_up_to_the_router_limit(rep, recs):
    assert rep.quick
    for topology, specs in resilience.SPECS.items():
        for size, spec in specs.items():
            net = topolab.build(spec)
            assert ((topology, size) in recs) == (net.num_routers <= resilience.QUICK_MAX_ROUTERS)
    assert len(recs) >= 27


def test_sizes_follow_the_balanced_constructions(recs):
    q_of = {256: 5, 512: 7, 2048: 11, 4096: 13, 8192: 17}
    for (topology, size), r in recs.items():
        if topology == "SF":
            q = q_of[size]
            kp = (3 * q - {0: 0, 1: 1, 3: -1}[q % 4]) // 2
            assert (r["routers"], r["endpoints"], r["network_radix"]) == (
                2 * q * q,
                2 * q * q * -(-kp // 2),
                kp,
            )
        elif topology == "DF":
            h = {256: 3, 1024: 4, 2048: 5, 4096: 6, 8192: 7}[size]
            assert r["endpoints"] == 2 * h * h * (2 * h * h + 1)
        elif topology == "FBF-3":
            s = round(r["routers"] ** (1 / 3))
            assert r["endpoints"] == s**4 and 0.75 * size <= r["endpoints"] <= 1.3 * size
        elif topology == "FT-3":
            k = r["network_radix"]
            assert r["endpoints"] == k**3 // 4
        elif topology == "DLN":
            sf = recs.get(("SF", size))
            if sf:  # the DLN copies the Slim Fly of its row
                assert (r["routers"], r["network_radix"], r["endpoints"]) == (
                    sf["routers"],
                    sf["network_radix"],
                    sf["endpoints"],
                )
        assert r["diameter"] is not None


def test_summaries_follow_from_the_survival_curves():
    # Each sample's threshold is step * (steps it survives), so the mean is step * sum survival[1:].
    net = topolab.build("slimfly:q=5")
    r = topolab.analyze(net, resilience=True, seed=0, progress=False).resilience
    for key, _ in resilience.CRITERIA:
        t = getattr(r, key)
        assert t.mean == pytest.approx(r.step * sum(t.survival[1:]))
        assert all(a >= b for a, b in zip(t.survival, t.survival[1:]))
        half = resilience.survival_step(t, r.step, 0.5)
        assert t.survival[round(half / r.step)] >= 0.5
        if half < 1.0:
            assert t.survival[round(half / r.step) + 1] < 0.5
        assert resilience.survival_step(t, r.step, 0.75) <= half


def test_intervals(recs):
    for r in recs.values():
        for key, _ in resilience.CRITERIA:
            assert r[f"{key}_ci_low"] <= r[f"{key}_mean"] <= r[f"{key}_ci_high"]
            if r["converged"]:
                assert r[f"{key}_ci_high"] - r[f"{key}_ci_low"] <= 2.0 + 1e-9


def test_against_table_iii(rep, recs):
    # docs/reproduce.md: every cell but the tori has the 75%-survival step within two steps (10
    # points) of Besta & Hoefler (SC14) and at least 80% of them within one step; the mean lies 5 below to 10
    # above, but for FT-3 at N ~ 2048, where Besta & Hoefler's (SC14) FT-3 row stays at 40% from N ~ 1024 and
    # then jumps to 55%.
    cells = [
        r for r in recs.values() if r["paper_disconnect"] is not None and r["topology"] not in ("T3D", "T5D")
    ]
    diffs = [r["disconnect_q75"] - r["paper_disconnect"] for r in cells]
    assert max(abs(d) for d in diffs) <= 10.0
    assert sum(abs(d) <= 5.0 for d in diffs) >= 0.8 * len(diffs)
    for r in cells:
        high = 13.0 if (r["topology"], r["size"]) == ("FT-3", 2048) else 10.0
        assert -5.0 <= r["disconnect_mean"] - r["paper_disconnect"] <= high, r
    sf, df, dln = recs[("SF", 8192)], recs[("DF", 8192)], recs[("DLN", 8192)]
    assert abs(sf["disconnect_mean"] - 75) <= 3.0
    assert abs(sf["aspl_plus1_mean"] - 55) <= 2.5 and abs(df["aspl_plus1_mean"] - 45) <= 2.5
    assert abs(dln["aspl_plus1_mean"] - 60) <= 5.0
    # diameter + 2: topolab is one to three steps above Besta & Hoefler (SC14) for SF and DF (documented)
    assert 0 < sf["diameter_plus2_mean"] - 40 <= 15 and 0 < df["diameter_plus2_mean"] - 25 <= 15
    # tori: above Besta & Hoefler (SC14) and falling with N, as they say
    t3d = sorted((r["size"], r["disconnect_mean"]) for r in recs.values() if r["topology"] == "T3D")
    assert len(t3d) >= 2 and all(a[1] > b[1] for a, b in zip(t3d, t3d[1:]))
    assert all(r["disconnect_mean"] > r["paper_disconnect"] for r in recs.values() if r["topology"] == "T3D")
    rows = {(r.column, r.quantity): r for r in rep.rows}
    r = rows[("SF N~8192", "disconnect (mean)")]
    assert r.unit == "%" and r.paper == 75 and r.abs_diff == pytest.approx(r.topolab - 75)
    lh = recs[("LH-HC", 256)]
    assert (lh["routers"], lh["network_radix"], lh["diameter"]) == (256, 13, 4)
    assert rows[("LH-HC N~256", "disconnect (mean)")].paper == 55


def test_isolated_router_estimate():
    assert resilience.isolated_router_estimate(8192, 6, 0.05) == pytest.approx(8192 * 0.05**6)
