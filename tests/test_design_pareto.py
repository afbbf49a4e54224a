"""Pareto front, layers and ranking: a constructed example, brute-force dominance on random data
(ties, duplicates, NaN), missing columns, orientation, errors."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

import topolab
from topolab.design import pareto_front, pareto_layers, rank_designs, used_objectives

OBJ = {"cost": "min", "bw": "max", "lat": "min"}


def brute_dominates(a, b, objectives):
    """a dominates b, NaN counting as the worst value (the documented rule), plain Python."""

    def key(v, sense):
        if v is None or (isinstance(v, float) and math.isnan(v)):
            return math.inf
        return v if sense == "min" else -v

    ka = [key(a[c], s) for c, s in objectives.items()]
    kb = [key(b[c], s) for c, s in objectives.items()]
    return all(x <= y for x, y in zip(ka, kb)) and any(x < y for x, y in zip(ka, kb))


def brute_layers(rows, objectives):
    remaining = list(range(len(rows)))
    layer = [None] * len(rows)
    level = 0
    while remaining:
        front = [
            i for i in remaining if not any(brute_dominates(rows[j], rows[i], objectives) for j in remaining)
        ]
        for i in front:
            layer[i] = level
        remaining = [i for i in remaining if i not in front]
        level += 1
    return layer


def test_constructed_example():
    df = pd.DataFrame(
        {
            "name": ["sf", "df", "ft", "torus", "df-twin", "bad"],
            "cost": [1000, 1300, 2300, 1700, 1300, 2400],
            "bw": [0.50, 0.60, 0.50, 0.10, 0.60, 0.40],
            "lat": [400, 500, 700, 900, 500, 950],
        },
        index=[10, 11, 12, 13, 14, 15],
    )
    # sf: cheapest; df: most bandwidth; df-twin equals df (equal rows do not dominate each
    # other); ft is dominated by sf (same bw, costlier, slower) and by df; torus by sf;
    # bad by ft (costlier, less bw, slower): layer 2.
    assert list(pareto_front(df, OBJ)) == [True, True, False, False, True, False]
    assert list(pareto_front(df, OBJ).index) == [10, 11, 12, 13, 14, 15]
    assert list(pareto_layers(df, OBJ)) == [0, 0, 1, 1, 0, 2]
    ranked = rank_designs(df, OBJ)
    assert list(ranked["rank"]) == [1, 2, 3, 4, 5, 6]
    assert list(ranked["pareto_layer"]) == sorted(ranked["pareto_layer"])
    assert set(ranked["name"].iloc[:3]) == {"sf", "df", "df-twin"}
    assert ranked["name"].iloc[-1] == "bad"
    # score: each value relative to the best: sf is best in cost and latency, 0.5/0.6 in bw
    scores = ranked.set_index("name")["score"]
    assert scores["sf"] == pytest.approx((1 + 0.5 / 0.6 + 1) / 3)
    assert scores["torus"] == pytest.approx((1000 / 1700 + 0.1 / 0.6 + 400 / 900) / 3)
    # negative values: min-max scaling (1 best, 0 worst)
    neg = rank_designs(pd.DataFrame({"x": [-1.0, 0.0, 3.0]}), {"x": "max"})
    assert list(neg["score"]) == pytest.approx([1.0, 0.25, 0.0])


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_layers_match_brute_force_on_random_data(seed):
    rng = np.random.default_rng(seed)
    n = 120
    # small integer ranges make ties and duplicate rows common
    df = pd.DataFrame(
        {"cost": rng.integers(0, 8, n), "bw": rng.integers(0, 6, n), "lat": rng.integers(0, 8, n)}
    ).astype(float)
    if seed >= 2:  # NaN counts as the worst value
        df.loc[rng.choice(n, 15, replace=False), "lat"] = np.nan
        df.loc[rng.choice(n, 10, replace=False), "bw"] = np.nan
    rows = df.to_dict("records")
    expected = brute_layers(rows, OBJ)
    assert list(pareto_layers(df, OBJ)) == expected
    assert list(pareto_front(df, OBJ)) == [x == 0 for x in expected]


def test_two_objectives_and_larger_random_front():
    rng = np.random.default_rng(7)
    df = pd.DataFrame({"cost": rng.random(400), "bw": rng.random(400)})
    objectives = {"cost": "min", "bw": "max"}
    mask = pareto_front(df, objectives)
    rows = df.to_dict("records")
    for i in range(len(rows)):
        dominated = any(brute_dominates(rows[j], rows[i], objectives) for j in range(len(rows)))
        assert mask.iloc[i] == (not dominated)
    # in 2D the front is a staircase: sorted by cost, bandwidth strictly increases
    front = df[mask].sort_values("cost")
    assert front["bw"].is_monotonic_increasing


def test_nan_exclude_leaves_rows_out():
    df = pd.DataFrame({"cost": [1.0, 2.0, np.nan, 0.5], "bw": [1.0, 3.0, 9.0, np.nan], "lat": [1.0] * 4})
    worst = pareto_layers(df, OBJ)
    # with NaN as worst, the NaN-cost row still wins on bw, the NaN-bw row on cost
    assert list(worst) == [0, 0, 0, 0]
    excluded = pareto_layers(df, OBJ, nan="exclude")
    assert list(excluded.iloc[:2]) == [0, 0] and excluded.iloc[2:].isna().all()
    assert list(pareto_front(df, OBJ, nan="exclude")) == [True, True, False, False]
    ranked = rank_designs(df, OBJ, nan="exclude")
    assert list(ranked.index[-2:]) == [2, 3]  # unranked rows last


def test_missing_and_unmeasured_objectives_are_left_out():
    df = pd.DataFrame({"cost": [3.0, 1.0, 2.0], "lat": [np.nan] * 3})
    objectives = {"cost": "min", "bw": "max", "lat": "min"}
    assert used_objectives(df, objectives) == {"cost": "min"}
    assert list(pareto_layers(df, objectives)) == [2, 0, 1]
    nothing = pd.DataFrame({"name": ["a", "b"]})
    assert list(pareto_layers(nothing, objectives)) == [0, 0]
    assert list(pareto_front(pd.DataFrame({"cost": []}), objectives)) == []
    # the default objectives are the ones topolab compare measures
    df = pd.DataFrame({"cost_per_endpoint": [2.0, 1.0], "avg_latency_ns": [1.0, 2.0]})
    assert list(pareto_front(df)) == [True, True]


def test_orientation_and_errors():
    df = pd.DataFrame({"x": [1.0, 2.0, 3.0]})
    assert list(pareto_front(df, {"x": "min"})) == [True, False, False]
    assert list(pareto_front(df, {"x": "max"})) == [False, False, True]
    with pytest.raises(topolab.ParameterError, match="'x'.*'best'.*'min' or 'max'"):
        pareto_front(df, {"x": "best"})
    with pytest.raises(topolab.ParameterError, match="'nan'"):
        pareto_front(df, {"x": "min"}, nan="ignore")


def test_weights_change_the_order_within_the_front():
    df = pd.DataFrame({"cost": [1.0, 2.0], "bw": [1.0, 2.0]})
    objectives = {"cost": "min", "bw": "max"}
    assert list(rank_designs(df, objectives, weights={"cost": 1.0, "bw": 0.0}).index) == [0, 1]
    assert list(rank_designs(df, objectives, weights={"cost": 0.0, "bw": 1.0}).index) == [1, 0]
