"""The report's first screen: the best competitive alternative on each objective, on a table
built by hand where the answer can be read off, and the block as rendered."""

from __future__ import annotations

import pandas as pd

from topolab.report import answer

OBJECTIVES = {"cost_per_endpoint": "min", "bisection_per_endpoint": "max", "avg_latency_ns": "min"}


def table() -> pd.DataFrame:
    """The recommended design at $1,000; on the front beside it a cheaper runner-up, a faster
    and a wider design within 1.5x of its cost, and a lavish one at 17x with three times the
    bisection; off the front an oversubscribed design better on everything (not recommendable)
    and a dominated one."""
    rows = [
        # rank, name, on_front, $/ep, bisection/ep, latency ns
        (1, "Recommended", True, 1000.0, 0.80, 500.0),
        (2, "Runner-up", True, 950.0, 0.60, 480.0),
        (3, "Fast", True, 1400.0, 0.70, 400.0),
        (4, "Wide", True, 1450.0, 1.00, 600.0),
        (5, "Lavish", True, 17000.0, 3.00, 450.0),
        (6, "Dominated", False, 1100.0, 0.70, 550.0),
        (7, "Oversubscribed", False, 800.0, 0.90, 350.0),
    ]
    frame = pd.DataFrame(
        rows,
        columns=["rank", "name", "on_front", "cost_per_endpoint", "bisection_per_endpoint", "avg_latency_ns"],
    )
    frame["recommendable"] = frame["name"] != "Oversubscribed"
    return frame


def _picked(frame: pd.DataFrame, factor: float) -> dict[str, tuple[str | None, str | None]]:
    out = {}
    for o in answer.objectives(frame, OBJECTIVES, factor):
        name = None if o.alternative is None else o.alternative["name"]
        beyond = None if o.beyond is None else o.beyond["name"]
        out[o.column] = (name, beyond)
    return out


def test_the_best_alternative_is_the_best_competitive_front_design_not_the_outlier():
    picked = _picked(table(), 1.5)
    assert picked == {
        "cost_per_endpoint": ("Runner-up", None),
        # Lavish has three times the bisection at 17x the cost: named beyond the rule, not picked
        "bisection_per_endpoint": ("Wide", "Lavish"),
        # Lavish is slower than Fast: not worth naming
        "avg_latency_ns": ("Fast", None),
    }
    assert list(answer.competitive(table(), 1.5)["name"]) == ["Runner-up", "Fast", "Wide"]


def test_a_tighter_cost_factor_leaves_the_wider_design_out():
    # at 1.42x the recommended cost, Wide ($1,450) is out: Fast (0.70) is the widest within it
    picked = _picked(table(), 1.42)
    assert picked["bisection_per_endpoint"] == ("Fast", "Lavish")
    assert picked["cost_per_endpoint"] == ("Runner-up", None)


def test_the_values_beside_the_recommendation():
    rows = {o.column: o for o in answer.objectives(table(), OBJECTIVES)}
    assert rows["cost_per_endpoint"].recommended == 1000.0
    assert rows["cost_per_endpoint"].runner_up == 950.0
    assert rows["avg_latency_ns"].runner_up == 480.0
    assert answer.change(950.0, 1000.0, "min") == ("\u22125%", "5% lower", "better")
    assert answer.change(0.6, 0.8, "max") == ("\u221225%", "25% lower", "worse")
    assert answer.change(1001.0, 1000.0, "min") == ("same", "the same", "")
    assert answer.change(None, 1000.0, "min") == ("", "", "")
