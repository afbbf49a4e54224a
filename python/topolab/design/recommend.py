"""The recommendation in words: which configuration to build and why, from measured data.

``recommend(df)`` ranks the rows (``rank_designs``: Pareto layer, then score), recommends the
first and explains it with the values that were measured, names every other member of the
Pareto front with what it gains and loses against the recommendation, and says for each family
without a front member which front member beats its best configuration. Columns that are absent
or NaN are never mentioned. docs/compare.md lists the column names it knows.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Callable, Mapping

import numpy as np

from topolab.comparison.settings import ALTERNATIVE_COST_FACTOR
from topolab.design.pareto import DEFAULT_OBJECTIVES, _numeric, rank_designs, used_objectives

if TYPE_CHECKING:
    import pandas as pd


def _money(v: float) -> str:
    return f"${v:,.0f}" if abs(v) >= 100 else f"${v:,.2f}"


def _number(v: float) -> str:
    if float(v).is_integer() and abs(v) >= 1:
        return f"{int(v):,}"
    return f"{v:,.3g}" if abs(v) < 1000 else f"{v:,.0f}"


def _unit(unit: str) -> Callable[[float], str]:
    return lambda v: f"{_number(v)} {unit}"


def _percent(v: float) -> str:
    return f"{100 * v:.0f}%"


# column -> (words, better, format). "better" orients comparisons of descriptive columns too.
METRICS: dict[str, tuple[str, str, Callable[[float], str]]] = {
    "cost_per_endpoint": ("cost per endpoint", "min", _money),
    "power_per_endpoint_w": ("power per endpoint", "min", _unit("W")),
    "bisection_per_endpoint": ("bisection per endpoint", "max", _number),
    "avg_latency_ns": ("average latency", "min", _unit("ns")),
    "max_latency_ns": ("maximum latency", "min", _unit("ns")),
    "diameter": ("diameter", "min", _number),
    "avg_hops": ("average hops", "min", _number),
    "cable_length_km": ("cable length", "min", _unit("km")),
    "optical_cables": ("optical cables", "min", _number),
    "electric_cables": ("electric cables", "min", _number),
    "saturation_uniform": ("saturation load (uniform)", "max", _percent),
    "saturation_worst": ("saturation load (worst case)", "max", _percent),
    "saturation_failed": ("saturation load (cables failed)", "max", _percent),
    "workload_cycles": ("workload completion", "min", _unit("cycles")),
    "resilience": ("links removable before disconnection", "max", _percent),
}
# Described for the recommended configuration when measured, besides the objectives.
DESCRIBE = (
    "diameter",
    "avg_hops",
    "power_per_endpoint_w",
    "max_latency_ns",
    "saturation_uniform",
    "saturation_worst",
    "cable_length_km",
)


def recommend(
    df: pd.DataFrame,
    objectives: Mapping[str, str] | None = None,
    weights: Mapping[str, float] | None = None,
    detailed: int = 3,
) -> list[str]:
    """Sentences: the recommendation with its reasons, the other Pareto-front members (the first
    ``detailed`` of them with what they gain and lose, the rest by name), and for each family
    with no front member the front member that beats its best configuration."""
    objectives = DEFAULT_OBJECTIVES if objectives is None else objectives
    if len(df) == 0:
        return ["No configuration to recommend: the table is empty."]
    used = used_objectives(df, objectives)
    if not used:
        names = ", ".join(_words(c) for c in objectives)
        return [
            f"No objective was measured ({names}), so the {len(df):,} configurations cannot be "
            "ranked; measure at least one to get a recommendation."
        ]
    ranked = rank_designs(df, used, weights)
    front = ranked[ranked["pareto_layer"] == 0]
    best = ranked.iloc[0]
    lines = [_recommendation(best, ranked, used, len(front))]

    others = front.iloc[1:]
    for _, row in others.iloc[:detailed].iterrows():
        lines.append(_alternative(row, best, used))
    if len(others) > detailed:
        rest = ", ".join(_label(row) for _, row in others.iloc[detailed:].iterrows())
        lines.append(f"Also on the Pareto front: {rest}.")

    if "family" in ranked.columns:
        lines.extend(_families_off_front(ranked, used))
    return lines


# ---------------------------------------------------------------------------------------------


def _words(column: str) -> str:
    return METRICS.get(column, (column.replace("_", " "), "min", _number))[0]


def _show(column: str, value: float) -> str:
    return METRICS.get(column, (column, "min", _number))[2](value)


def _label(row: pd.Series) -> str:
    for column in ("name", "spec"):
        if column in row.index and isinstance(row[column], str) and row[column]:
            return row[column]
    return f"configuration {row.name}"


def _value(row: pd.Series, column: str) -> float | None:
    if column not in row.index:
        return None
    try:
        v = float(row[column])
    except (TypeError, ValueError):
        return None
    return None if math.isnan(v) else v


def _recommendation(best: pd.Series, ranked: pd.DataFrame, used: Mapping[str, str], front_size: int) -> str:
    reasons = []
    for column, sense in used.items():
        v = _value(best, column)
        if v is None:
            reasons.append(f"{_words(column)} not measured")
            continue
        values = _numeric(ranked[column]).to_numpy()
        word = "lowest" if sense == "min" else "highest"
        leader_at = _leader(values, sense)
        extreme = float(values[leader_at])
        if v == extreme:
            reasons.append(f"{word} {_words(column)} ({_show(column, v)})")
            continue
        # The leaders among the alternatives worth weighing (ALTERNATIVE_COST_FACTOR) first; a
        # leader beyond them (a torus with 3x the bisection at 17x the cost) named apart.
        within = np.where(_competitive(ranked, best), values, np.nan)
        near_at = _leader(within, sense)
        if near_at == leader_at or np.isnan(within).all():
            compared = f"{word}: {_show(column, extreme)}, {_priced(ranked.iloc[leader_at], column)}"
        elif float(within[near_at]) == v:
            compared = (
                f"the {word} within {ALTERNATIVE_COST_FACTOR:g}x its cost; {word}: "
                f"{_show(column, extreme)}, {_priced(ranked.iloc[leader_at], column)}"
            )
        else:
            near = _show(column, float(within[near_at]))
            compared = (
                f"{word} within {ALTERNATIVE_COST_FACTOR:g}x its cost: {near}, "
                f"{_priced(ranked.iloc[near_at], column)}; {word}: {_show(column, extreme)}, "
                f"{_priced(ranked.iloc[leader_at], column)}"
            )
        reasons.append(f"{_words(column)} {_show(column, v)} ({compared})")
    for column in DESCRIBE:
        v = _value(best, column)
        if column not in used and v is not None:
            reasons.append(f"{_words(column)} {_show(column, v)}")
    size = _size(best)
    if size:
        reasons.append(size)
    over = _value(best, "oversubscription")
    if over is not None and over > 1e-9:
        # an allowed but oversubscribed choice must say so where it is recommended
        reasons.append(
            f"{over:.0%} oversubscribed (endpoints inject more than the network carries under uniform "
            "traffic)"
        )
    total = len(ranked)
    where = (
        "the only configuration on the Pareto front"
        if front_size == 1
        else f"one of {front_size} configurations on the Pareto front"
    )
    return f"Recommended: {_label(best)}: {', '.join(reasons)}; {where} (of {total:,} compared)."


def _leader(values: np.ndarray, sense: str) -> int:
    """The position of the best value (the first of equals; NaN never leads)."""
    if np.isnan(values).all():
        return 0
    return int(np.nanargmin(values) if sense == "min" else np.nanargmax(values))


def _competitive(ranked: pd.DataFrame, best: pd.Series) -> np.ndarray:
    """The designs on the Pareto front costing at most ALTERNATIVE_COST_FACTOR times ``best``
    per endpoint (all front designs when costs are not measured)."""
    front = (ranked["pareto_layer"] == 0).to_numpy()
    cost = _value(best, "cost_per_endpoint")
    if cost is None or "cost_per_endpoint" not in ranked.columns:
        return front
    costs = _numeric(ranked["cost_per_endpoint"]).to_numpy()
    return front & (costs <= ALTERNATIVE_COST_FACTOR * cost)


def _priced(row: pd.Series, column: str) -> str:
    """The design's name with its price, which tells whether a lead is worth having."""
    label = _label(row)
    cost = _value(row, "cost_per_endpoint")
    if column != "cost_per_endpoint" and cost is not None:
        label += f", at {_show('cost_per_endpoint', cost)}"
    return label


def _size(row: pd.Series) -> str:
    routers, endpoints, radix = (_value(row, c) for c in ("routers", "endpoints", "radix"))
    parts = []
    if endpoints is not None:
        parts.append(f"{int(endpoints):,} endpoints")
    if routers is not None:
        parts.append(f"{int(routers):,} routers" + (f" of radix {int(radix)}" if radix is not None else ""))
    return " on ".join(parts)


def _compare(row: pd.Series, base: pd.Series, used: Mapping[str, str]) -> tuple[list[str], list[str]]:
    """What row does better and worse than base, in words, over the measured objectives."""
    better: list[str] = []
    worse: list[str] = []
    for column, sense in used.items():
        a, b = _value(row, column), _value(base, column)
        if a is None or b is None or a == b:
            continue
        if b != 0:
            if abs(a - b) < 0.005 * abs(b):  # below 0.5%: not worth a word
                continue
            change = f"{abs(a - b) / abs(b) * 100:.0f}%"
            phrase = f"{change} {'higher' if a > b else 'lower'} {_words(column)}"
        else:
            phrase = f"{_words(column)} {_show(column, a)} against {_show(column, b)}"
        good = (a < b) if sense == "min" else (a > b)
        (better if good else worse).append(phrase)
    return better, worse


def _join(parts: list[str]) -> str:
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


def _alternative(row: pd.Series, best: pd.Series, used: Mapping[str, str]) -> str:
    better, worse = _compare(row, best, used)
    if better and worse:
        detail = f"{_join(better)}, but {_join(worse)}"
    elif better or worse:
        detail = _join(better or worse)
    else:
        detail = "the same measured values"
    return f"Also on the Pareto front: {_label(row)}: compared with the recommendation, {detail}."


def _families_off_front(ranked: pd.DataFrame, used: Mapping[str, str]) -> list[str]:
    """For each family with no front member: its best configuration and a front member that
    dominates it (one exists: a dominated row is dominated by some front row)."""
    from topolab.design.enumerate import FAMILY_NAMES
    from topolab.design.pareto import _minimization_matrix, dominates

    layer = ranked["pareto_layer"].to_numpy()
    family = ranked["family"].astype(str).to_numpy()
    front_rows = [i for i in range(len(ranked)) if layer[i] == 0]
    on_front = {family[i] for i in front_rows}
    values, _ = _minimization_matrix(ranked, used)
    lines, seen = [], set()
    for i in range(len(ranked)):  # best first, so the first row of a family is its best
        if family[i] in on_front or family[i] in seen:
            continue
        seen.add(family[i])
        winner = next((j for j in front_rows if dominates(values[j], values[i])), None)
        if winner is None:  # rows excluded from the layers (nan="exclude") or ties
            continue
        row, other = ranked.iloc[i], ranked.iloc[winner]
        better, _ = _compare(other, row, used)
        name = FAMILY_NAMES.get(family[i], family[i])
        lines.append(
            f"Best {name}: {_label(row)}, beaten by {_label(other)}"
            + (f" ({_join(better)})." if better else ".")
        )
    return lines
