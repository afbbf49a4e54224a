"""Pareto front, non-dominated layers and ranking of measured configurations.

The metrics are data: a DataFrame with one row per configuration and one column per metric.
``objectives`` maps column names to "min" or "max". Design a dominates design b when a is at
least as good in every objective and strictly better in one.

Missing values (docs/compare.md):
- an objective whose column is absent, or NaN in every row, was not measured and is left out
  (``used_objectives`` says which remain);
- a NaN in a measured column counts as the worst possible value of that objective (two NaNs
  are equal): a configuration is never favoured for what was not measured, yet can still be on
  the front for what was (the cheapest configuration stays non-dominated even if its latency
  is unknown). ``nan="exclude"`` instead leaves such rows out of the front and the layers.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Mapping

import numpy as np

from topolab._args import bad

if TYPE_CHECKING:
    import pandas as pd

DEFAULT_OBJECTIVES: dict[str, str] = {
    "cost_per_endpoint": "min",
    "bisection_per_endpoint": "max",
    "avg_latency_ns": "min",
}

# Rows compared against all others at once when building the dominance relation: bounds the
# temporary (rows x n) boolean planes to a few MB for n = 20,000.
_CHUNK = 256


def used_objectives(df: pd.DataFrame, objectives: Mapping[str, str] | None = None) -> dict[str, str]:
    """The objectives that were measured: column present with at least one value. Raises
    ParameterError on a sense other than "min"/"max"."""
    objectives = DEFAULT_OBJECTIVES if objectives is None else objectives
    used = {}
    for column, sense in objectives.items():
        if sense not in ("min", "max"):
            raise bad(
                "pareto",
                column,
                sense,
                "'min' or 'max'",
                message=(f"pareto: objective '{column}' = {sense!r} is not allowed: 'min' or 'max'"),
            )
        if column in df.columns and _numeric(df[column]).notna().any():
            used[column] = sense
    return used


def pareto_layers(
    df: pd.DataFrame, objectives: Mapping[str, str] | None = None, nan: str = "worst"
) -> pd.Series:
    """Non-dominated sorting: layer 0 is the Pareto front, layer 1 the front once layer 0 is
    removed, and so on (exact; O(n^2) comparisons). Returns a nullable integer Series aligned
    with ``df``; with ``nan="exclude"`` rows with a NaN objective get <NA>. With no measured
    objective every row is layer 0 (nothing dominates anything)."""
    import pandas as pd

    if nan not in ("worst", "exclude"):
        raise bad("pareto", "nan", nan, "'worst' or 'exclude'")
    used = used_objectives(df, objectives)
    layers = pd.Series(pd.array([pd.NA] * len(df), dtype="Int64"), index=df.index)
    if len(df) == 0:
        return layers
    values, missing = _minimization_matrix(df, used)
    rows = np.arange(len(df))
    if nan == "exclude":
        rows = rows[~missing]
    found = _layers(values[rows])
    layers.iloc[rows] = found
    return layers


def pareto_front(
    df: pd.DataFrame, objectives: Mapping[str, str] | None = None, nan: str = "worst"
) -> pd.Series:
    """Boolean mask aligned with ``df``: True for the non-dominated configurations."""
    return pareto_layers(df, objectives, nan).eq(0).fillna(False).astype(bool)


def rank_designs(
    df: pd.DataFrame,
    objectives: Mapping[str, str] | None = None,
    weights: Mapping[str, float] | None = None,
    nan: str = "worst",
) -> pd.DataFrame:
    """A copy of ``df`` sorted best first, with columns ``pareto_layer``, ``score`` and ``rank``.

    Order: Pareto layer (front first), then ``score`` (higher first), then the original order.
    score = weighted mean over the measured objectives of the value relative to the best one in
    the frame: best / value for "min", value / best for "max" (1 for the best, 0.5 for twice the
    cost or half the bandwidth). An objective with a value <= 0 is min-max scaled instead (1
    best, 0 worst). NaN scores 0. ``weights`` (column -> weight) default to 1 each; columns left
    out of ``weights`` get 0. Rows with <NA> layer (``nan="exclude"``) go last.
    """
    used = used_objectives(df, objectives)
    out = df.copy()
    out["pareto_layer"] = pareto_layers(df, objectives, nan)
    out["score"] = _scores(df, used, weights)
    order = np.lexsort(
        (
            np.arange(len(out)),
            -out["score"].to_numpy(dtype=float),
            out["pareto_layer"].fillna(np.iinfo(np.int64).max).to_numpy(dtype=np.int64),
        )
    )
    out = out.iloc[order]
    out["rank"] = np.arange(1, len(out) + 1)
    return out


def dominates(a: np.ndarray, b: np.ndarray) -> bool:
    """Whether row a dominates row b, both already oriented for minimization."""
    return bool(np.all(a <= b) and np.any(a < b))


# ---------------------------------------------------------------------------------------------


def _numeric(column: pd.Series) -> pd.Series:
    import pandas as pd

    return pd.to_numeric(column, errors="coerce").astype(float)


def _minimization_matrix(df: pd.DataFrame, used: Mapping[str, str]) -> tuple[np.ndarray, np.ndarray]:
    """(n, m) float matrix where smaller is better in every column, NaN replaced by +inf (the
    worst), and the mask of rows that had a NaN."""
    columns = []
    missing = np.zeros(len(df), dtype=bool)
    for column, sense in used.items():
        v = _numeric(df[column]).to_numpy(dtype=float)
        v = -v if sense == "max" else v.copy()
        nan = np.isnan(v)
        missing |= nan
        v[nan] = np.inf
        columns.append(v)
    if not columns:
        return np.zeros((len(df), 0)), missing
    return np.column_stack(columns), missing


def _layers(values: np.ndarray) -> np.ndarray:
    """Layer of every row of ``values`` (minimization): Deb's fast non-dominated sort, with the
    dominance relation computed in row chunks and kept as packed bits (n^2 / 8 bytes)."""
    n, m = values.shape
    if m == 0:
        return np.zeros(n, dtype=np.int64)
    dominated_by = np.zeros(n, dtype=np.int64)  # how many rows dominate each row
    packed = []  # per chunk: packed bits of "row i dominates column j"
    columns = [np.ascontiguousarray(values[:, k]) for k in range(m)]
    for start in range(0, n, _CHUNK):
        stop = min(n, start + _CHUNK)
        le = np.ones((stop - start, n), dtype=bool)
        lt = np.zeros((stop - start, n), dtype=bool)
        for col in columns:  # one objective at a time: (chunk, n) planes, no small-axis reduce
            mine = col[start:stop, None]
            le &= mine <= col[None, :]
            lt |= mine < col[None, :]
        dom = le & lt
        dominated_by += dom.sum(axis=0, dtype=np.int64)
        packed.append(np.packbits(dom, axis=1))
    relation = np.concatenate(packed, axis=0)

    layer = np.full(n, -1, dtype=np.int64)
    current = np.flatnonzero(dominated_by == 0)
    level = 0
    while current.size:
        layer[current] = level
        released = np.unpackbits(relation[current], axis=1, count=n).sum(axis=0, dtype=np.int64)
        dominated_by -= released
        dominated_by[current] = -1  # placed: never picked again
        current = np.flatnonzero(dominated_by == 0)
        level += 1
    return layer


def _scores(df: pd.DataFrame, used: Mapping[str, str], weights: Mapping[str, float] | None) -> np.ndarray:
    total = np.zeros(len(df))
    weight_sum = 0.0
    for column, sense in used.items():
        w = 1.0 if weights is None else float(weights.get(column, 0.0))
        if w == 0:
            continue
        v = _numeric(df[column]).to_numpy(dtype=float)
        lo, hi = np.nanmin(v), np.nanmax(v)
        with np.errstate(divide="ignore", invalid="ignore"):
            if lo > 0:  # relative to the best: 10% more cost scores 1/1.1, not 0
                good = lo / v if sense == "min" else v / hi
            elif hi > lo:  # values <= 0: min-max scaling
                good = (hi - v) / (hi - lo) if sense == "min" else (v - lo) / (hi - lo)
            else:
                good = np.ones_like(v)
        good[np.isnan(v)] = 0.0
        total += w * good
        weight_sum += w
    return total / weight_sum if weight_sum else total
