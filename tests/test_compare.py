"""topolab compare: the measured columns against independent calls, the Pareto front against a
brute force, the shortlist, determinism, extra measurements and bad arguments.
The report files and the command line are in test_compare_report.py."""

from __future__ import annotations

import io
import math

import networkx as nx
import numpy as np
import pandas as pd
import pytest

import topolab
from topolab.comparison import Comparison
from topolab.design import enumerate_designs, shortlist
from topolab.design.compare import (
    MEASUREMENTS,
    CompareSettings,
    Measurement,
    run_comparison,
)

FAMILIES = ("slimfly", "dragonfly", "fattree", "hyperx", "jellyfish", "kautz")
SMALL = CompareSettings(radix=12, endpoints=100, families=FAMILIES, per_family=4)
OBJECTIVES = {"cost_per_endpoint": 1, "bisection_per_endpoint": -1, "avg_latency_ns": 1}  # 1: min


@pytest.fixture(scope="module")
def small():
    return run_comparison(SMALL, progress=False)


def test_measures_the_shortlist_in_rank_order(small):
    designs = enumerate_designs(12, 100, families=FAMILIES)
    chosen = shortlist(designs, 4)
    assert len(small.designs) == len(designs)
    assert sorted(small.frame["spec"]) == sorted(d.spec for d in chosen)
    assert set(small.designs.loc[small.designs["measured"], "spec"]) == {d.spec for d in chosen}
    assert list(small.frame["rank"]) == list(range(1, len(chosen) + 1))
    assert set(small.frame["family"]) == set(FAMILIES)
    assert (small.frame["error"] == "").all(), small.frame["error"]


def test_measured_columns_equal_independent_calls(small):
    """Every design's columns are what topolab.analyze / cost / latency return for its spec,
    called here on a freshly built network with the settings the comparison used."""
    for _, row in small.frame.iterrows():
        net = topolab.build(row["spec"])
        a = topolab.analyze(net, bisection=True, bisection_runs=SMALL.bisection_runs, seed=SMALL.seed)
        c = topolab.cost(net, SMALL.catalog, SMALL.floor)
        lat = topolab.latency(net, routing="fastest", floor=SMALL.floor)
        expected = {
            "routers": net.num_routers,
            "endpoints": net.num_endpoints,
            "radix": net.radix,
            "diameter": a.endpoint_diameter,
            "router_diameter": a.diameter,
            "avg_hops": a.endpoint_aspl,
            "moore_fraction": a.moore_fraction,
            "bisection_links": a.bisection.links_cut,
            "bisection_per_endpoint": a.bisection.per_endpoint,
            "electric_cables": c.electric_cables,
            "optical_cables": c.optical_cables,
            "cable_length_km": c.total_cable_m / 1000,
            "cabinets": c.cabinets,
            "total_cost": c.total_cost,
            "cost_per_endpoint": c.cost_per_endpoint,
            "power_per_endpoint_w": c.power_per_endpoint_w,
            "avg_latency_ns": lat.avg_latency_ns,
            "max_latency_ns": lat.max_latency_ns,
        }
        for column, value in expected.items():
            assert row[column] == pytest.approx(value, rel=1e-12), (row["spec"], column)
        assert bool(row["directed"]) == net.directed


def _endpoint_hops_networkx(spec: str) -> tuple[float, int]:
    """Average hops between distinct endpoints and the largest hop count between endpoint
    routers, from networkx shortest paths (independent of topolab's kernel)."""
    net = topolab.build(spec)
    g = net.to_networkx()
    eps = net.endpoints
    n = sum(eps)
    total, longest = 0, 0
    for s, dist in nx.all_pairs_shortest_path_length(g):
        if eps[s] == 0:
            continue
        for t, d in dist.items():
            if eps[t] and t != s:
                total += eps[s] * eps[t] * d
                longest = max(longest, d)
    return total / (n * (n - 1)), longest


def test_hops_against_networkx(small):
    for family in ("slimfly", "fattree", "kautz"):
        row = small.frame[small.frame["family"] == family].iloc[0]
        hops, diameter = _endpoint_hops_networkx(row["spec"])
        assert row["avg_hops"] == pytest.approx(hops, rel=1e-12), row["spec"]
        assert row["diameter"] == diameter, row["spec"]


def _dominates(a: np.ndarray, b: np.ndarray) -> bool:
    return bool(np.all(a <= b) and np.any(a < b))


def test_pareto_front_is_the_non_dominated_set(small):
    """Brute force over the frame: a front row is dominated by no recommendable row, every other
    recommendable row by some recommendable row (objectives oriented for minimization).
    Recommendable = balanced by default (docs/compare.md §3); the others are never on the front."""
    f = small.frame
    ok = f["oversubscription"].to_numpy(dtype=float) <= 1e-9
    assert list(f["recommendable"]) == list(ok)
    assert ok.any() and not ok.all(), "the small case has both kinds"
    values = np.column_stack([f[c].to_numpy(dtype=float) * s for c, s in OBJECTIVES.items()])
    assert not np.isnan(values).any()
    for i in range(len(f)):
        if not ok[i]:
            assert not f["on_front"].iloc[i], f["spec"].iloc[i]
            continue
        dominated = any(_dominates(values[j], values[i]) for j in range(len(f)) if j != i and ok[j])
        assert bool(f["on_front"].iloc[i]) == (not dominated), f["spec"].iloc[i]
    assert f["on_front"].iloc[0], "the recommendation is on the front"
    front_ranks = f.loc[f["on_front"], "rank"]
    assert list(front_ranks) == list(range(1, len(front_ranks) + 1)), "front members rank first"
    # every recommendable design ranks before every oversubscribed one
    assert list(f["recommendable"]) == sorted(f["recommendable"], reverse=True)


def test_oversubscription_allows_oversubscribed_designs_to_be_recommended(small):
    allowed = run_comparison(
        CompareSettings(radix=12, endpoints=100, families=FAMILIES, per_family=4, oversubscription=0.4),
        progress=False,
    )
    assert sorted(allowed.frame["spec"]) == sorted(small.frame["spec"]), "the same designs are measured"
    assert allowed.frame["recommendable"].all()
    over = small.frame[~small.frame["recommendable"]]
    note = small.recommendation[-1]
    assert note.startswith(f"Not recommended: {len(over)} measured designs more oversubscribed")
    assert "--oversubscription" in note and not any("Not recommended" in s for s in allowed.recommendation)


def test_recommendation_names_rank_one(small):
    assert small.recommendation[0].startswith(f"Recommended: {small.frame['name'].iloc[0]}:")
    assert small.recommended["rank"] == 1


def test_repr_is_one_short_line_leading_with_the_answer(small):
    """Like the other result types (topolab.display.Summarized): bounded, frames by shape."""
    text = repr(small)
    rank_one = small.frame.loc[small.frame["rank"] == 1, "spec"].item()
    front = sum(bool(x) for x in small.frame["on_front"])
    assert "\n" not in text and len(text) <= 260
    assert text.startswith(
        f"Comparison(recommended={rank_one!r}, considered={len(small.designs)}, "
        f"measured={len(small.frame)}, front={front}, settings=CompareSettings(...)"
    )
    page = small._repr_html_()
    assert page.startswith("<table>") and rank_one in page
    # the nested settings' radix, a number right-aligned
    assert (
        "<b>CompareSettings</b>" in page
        and "<th style='text-align:left'>radix</th><td style='text-align:right'>12</td>" in page
    )
    assert f"&lt;DataFrame {len(small.frame)}x{small.frame.shape[1]}&gt;" in page
    # the frame is summarised, not dumped: the last measured design's spec never appears
    last = small.frame["spec"].iloc[-1]
    assert last != rank_one and last not in page and last not in text


def test_repr_of_a_comparison_that_measured_nothing():
    empty = Comparison(SMALL, pd.DataFrame(), pd.DataFrame(), [], [], {}, 0.0, 0.0)
    assert repr(empty).startswith("Comparison(recommended=None, considered=0, measured=0, front=0,")
    assert (
        "<th style='text-align:left'>recommended</th><td style='text-align:left'>None</td>"
        in empty._repr_html_()
    )


def test_same_arguments_same_result(small):
    again = run_comparison(SMALL, progress=False)
    pd.testing.assert_frame_equal(
        small.frame.drop(columns="measure_s"), again.frame.drop(columns="measure_s")
    )
    assert small.recommendation == again.recommendation


def test_measure_all(small):
    every = run_comparison(
        CompareSettings(radix=12, endpoints=100, families=("slimfly", "fattree"), per_family=None),
        progress=False,
    )
    designs = enumerate_designs(12, 100, families=("slimfly", "fattree"))
    assert len(every.frame) == len(designs) == len(every.designs)
    assert every.designs["measured"].all()


def test_progress_off_a_terminal_is_one_final_line_with_the_count():
    stream = io.StringIO()
    result = run_comparison(
        CompareSettings(radix=12, endpoints=100, families="slimfly,fattree", per_family=2), progress=stream
    )
    lines = stream.getvalue().splitlines()
    n = len(result.frame)
    assert len(lines) == 1, lines
    assert f"measuring {n} of {len(result.designs)} designs" in lines[0] and f"{n}/{n}" in lines[0]
    assert "design/s" in lines[0] or "s/design" in lines[0]


def test_extra_measurement_is_ranked_and_described():
    """A measurement added to the list (as the simulator's saturation will be) joins the frame;
    a failing one leaves NaN and says why, without stopping the others."""

    def saturation(design, net, settings):
        return {"saturation_uniform": min(1.0, 1.0 / design.load)}

    def broken(design, net, settings):
        if design.family == "fattree":
            raise topolab.ParameterError("not for fat trees")
        return {"broken_value": 1.0}

    settings = CompareSettings(radix=12, endpoints=100, families=("slimfly", "fattree"), per_family=2)
    extra = [
        *[m for m in MEASUREMENTS if m.enabled(settings)],
        Measurement("saturation", ("saturation_uniform",), saturation, "test"),
        Measurement("broken", ("broken_value",), broken, "test"),
    ]
    result = run_comparison(settings, measurements=extra, progress=False)
    f = result.frame
    for _, row in f.iterrows():
        assert row["saturation_uniform"] == pytest.approx(min(1.0, 1.0 / row["load"]))
        if row["family"] == "fattree":
            assert math.isnan(row["broken_value"])
            assert row["error"] == "broken: not for fat trees"
            assert not math.isnan(row["cost_per_endpoint"])
        else:
            assert row["broken_value"] == 1.0 and row["error"] == ""
    best = result.recommendation[0]
    assert "saturation load (uniform)" in best
    assert len(result.failed) == (f["family"] == "fattree").sum()


def test_compare_api_returns_the_frame_with_the_recommendation(tmp_path):
    df = topolab.compare(12, 100, families=["slimfly", "hyperx"], per_family=2, output=tmp_path / "r")
    assert isinstance(df, pd.DataFrame)
    assert df["rank"].iloc[0] == 1
    assert df.attrs["recommendation"][0].startswith(f"Recommended: {df['name'].iloc[0]}")
    assert df.attrs["settings"]["radix"] == 12
    assert df.attrs["considered"] == len(enumerate_designs(12, 100, families=["slimfly", "hyperx"]))
    assert (tmp_path / "r" / "report.html").is_file()


@pytest.mark.parametrize(
    "kwargs, name",
    [
        ({"radix": 2}, "radix"),
        ({"radix": 12.5}, "radix"),
        ({"endpoints": 0}, "endpoints"),
        ({"endpoint_tolerance": 1.5}, "endpoint_tolerance"),
        ({"endpoint_tolerance": float("nan")}, "endpoint_tolerance"),
        ({"per_family": 0}, "per_family"),
        ({"seed": -1}, "seed"),
        ({"oversubscription": -0.1}, "oversubscription"),
        ({"resilience": "yes"}, "resilience"),
        ({"switch_delay_ns": float("inf")}, "switch_delay_ns"),
    ],
)
def test_bad_settings_name_the_parameter(kwargs, name):
    with pytest.raises(topolab.ParameterError, match=f"'{name}'"):
        CompareSettings(**kwargs)


def test_bad_family_floor_catalog_and_empty_space():
    with pytest.raises(topolab.ParameterError, match="'families'.*nosuch"):
        run_comparison(CompareSettings(radix=12, endpoints=100, families=("nosuch",)), progress=False)
    with pytest.raises(topolab.TopolabError, match="nofloor"):
        run_comparison(CompareSettings(radix=12, endpoints=100, floor="nofloor"), progress=False)
    with pytest.raises(topolab.TopolabError, match="nocatalog"):
        run_comparison(CompareSettings(radix=12, endpoints=100, catalog="nocatalog"), progress=False)
    with pytest.raises(topolab.ParameterError, match="no design.*'radix'.*'endpoint_tolerance'"):
        run_comparison(CompareSettings(radix=4, endpoints=1_000_000), progress=False)
