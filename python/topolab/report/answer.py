"""The answer at a glance, the report's first screen: the recommended design's value on each
objective of the ranking beside the runner-up's and beside the best competitive alternative's.

A competitive alternative is another design on the Pareto front (of the recommendable designs)
costing at most ``COST_FACTOR`` times the recommended design's cost per endpoint: a design that
leads on bandwidth at many times the price answers another question, and is named apart as
beyond the rule rather than as the alternative."""

from __future__ import annotations

import math
import numbers
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Mapping

if TYPE_CHECKING:
    import pandas as pd

from topolab.comparison.settings import ALTERNATIVE_COST_FACTOR as COST_FACTOR


@dataclass(frozen=True)
class Objective:
    column: str
    sense: str  # "min" or "max"
    recommended: float | None
    runner_up: float | None
    alternative: Any  # the best competitive alternative's row (pd.Series), None when there is none
    beyond: Any  # the best design on the front beyond the cost rule when it beats the alternative


def value(row: Any, column: str) -> float | None:
    """The row's number in ``column``; None when it has none (absent, missing, not a number)."""
    number = None if row is None else row.get(column)
    if isinstance(number, bool) or not isinstance(number, numbers.Real) or math.isnan(number):
        return None
    return float(number)


def competitive(frame: pd.DataFrame, cost_factor: float = COST_FACTOR) -> pd.DataFrame:
    """The alternatives to the recommended design (``rank`` 1): the other rows on the front
    (``on_front``) whose cost per endpoint is at most ``cost_factor`` times its own, best rank
    first. Without a recommended cost, every other front row."""
    front = frame[frame["on_front"].astype(bool) & (frame["rank"] != 1)].sort_values("rank")
    best = frame[frame["rank"] == 1]
    cost = value(best.iloc[0], "cost_per_endpoint") if len(best) else None
    if cost is None:
        return front
    return front[front["cost_per_endpoint"].astype(float) <= cost_factor * cost]


def _best(rows: pd.DataFrame, column: str, sense: str) -> Any:
    """The row of ``rows`` best on ``column`` (ties: the better rank), None when none has a value."""
    values = rows[column].astype(float)
    rows = rows[values.notna()]
    if len(rows) == 0:
        return None
    values = rows[column].astype(float)
    target = values.min() if sense == "min" else values.max()
    return rows[values == target].sort_values("rank").iloc[0]


def objectives(
    frame: pd.DataFrame, used: Mapping[str, str], cost_factor: float = COST_FACTOR
) -> list[Objective]:
    """Per objective of ``used`` (column -> "min" or "max"): the recommended design's value,
    the runner-up's (``rank`` 2 when it is on the front), the best competitive alternative
    (``competitive``) and, when a front design beyond the cost rule is better still on that
    objective, the best of those."""
    best = frame[frame["rank"] == 1]
    recommended = best.iloc[0] if len(best) else None
    second = frame[(frame["rank"] == 2) & frame["on_front"].astype(bool)]
    runner_up = second.iloc[0] if len(second) else None
    near = competitive(frame, cost_factor)
    far = frame[frame["on_front"].astype(bool) & (frame["rank"] != 1)].drop(near.index)
    out = []
    for column, sense in used.items():
        if column not in frame.columns:
            continue
        alternative = _best(near, column, sense)
        beyond = _best(far, column, sense)
        a, b = value(alternative, column), value(beyond, column)
        if b is not None and a is not None and not (b < a if sense == "min" else b > a):
            beyond = None
        out.append(
            Objective(
                column,
                sense,
                value(recommended, column),
                value(runner_up, column),
                alternative,
                beyond,
            )
        )
    return out


def change(other: float | None, base: float | None, sense: str) -> tuple[str, str, str]:
    """``other`` against ``base``: (signed percentage, in words, "better" / "worse" / ""), e.g.
    ("+10%", "10% higher", "worse") for a cost; ("", "", "") when either is missing."""
    if other is None or base is None or (base == 0 and other != 0):
        return "", "", ""
    if abs(other - base) <= 0.005 * abs(base):  # below half a percent: not worth a word
        return "same", "the same", ""
    percent = abs(other - base) / abs(base) * 100
    sign, words = ("+", "higher") if other > base else ("\u2212", "lower")
    good = other < base if sense == "min" else other > base
    return f"{sign}{percent:.0f}%", f"{percent:.0f}% {words}", "better" if good else "worse"


# Objectives in a few words, for the first screen's table.
SHORT = {
    "cost_per_endpoint": "cost per endpoint",
    "bisection_per_endpoint": "bisection per endpoint",
    "avg_latency_ns": "average latency",
    "saturation_uniform": "saturation, uniform traffic",
    "saturation_worst": "saturation, worst case",
    "saturation_failed": "saturation, cables failed",
    "workload_cycles": "workload completion",
}


def show(column: str, number: float | None) -> str:
    """A value of an objective with its unit."""
    if number is None:
        return "\u2013"
    if column == "cost_per_endpoint":
        return f"${number:,.0f}"
    if column == "avg_latency_ns":
        return f"{number:,.0f} ns"
    if column.startswith("saturation_"):
        return f"{100 * number:.0f}%"
    if column == "workload_cycles":
        return f"{number:,.0f} cycles"
    return f"{number:.3f}"
