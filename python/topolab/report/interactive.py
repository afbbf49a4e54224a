"""The report's interactive parts, inside its one HTML file and working offline (no network when
it is viewed): the cost-bandwidth chart, drawn as SVG in the browser by the report's own script
(``templates/chart.js``) from the data given here, with a hover (or tap) naming each design and a
legend that hides a family, and DataTables (sorting and filtering) from the bundle that itables
ships, applied to the tables the template writes out in full (so every row is in the page, on
screen and in print, also without script).

Why a chart of its own: one scatter plot with a hover needs about 300 lines of script, where
plotly.js, inline, is 4.8 MB of the report. DataTables works on a plain HTML table whose rows and
text wrap like any other, where bokeh's DataTable draws a grid of fixed-height rows in a scroll
box."""

from __future__ import annotations

import base64
import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from topolab.report.plots import bracket_rise, far_out
from topolab.report.styles import Style

if TYPE_CHECKING:
    import pandas as pd


def datatables_assets() -> tuple[str, str]:
    """(the DataTables ES module as base64, its CSS) from itables' offline bundle
    (``itables.options.dt_bundle``). The template imports the module from a Blob URL."""
    from itables import options

    bundle = Path(options.dt_bundle)
    js = bundle.read_bytes()
    return base64.b64encode(js).decode("ascii"), bundle.with_suffix(".css").read_text(encoding="utf-8")


def _hover_text(row: pd.Series, y: str) -> list[str]:
    def number(key: str, fmt: str) -> str:
        value = row.get(key)
        try:
            return fmt.format(float(value)) if value == value else "-"
        except (TypeError, ValueError):
            return "-"

    lines = [
        f"#{int(row['rank'])} {row['name']}",
        f"spec: {row['spec']}",
        f"cost per endpoint: {number('cost_per_endpoint', '${:,.0f}')}",
        f"{y.replace('_', ' ')}: {number(y, '{:.3f}')}"
        + (
            f" (within [{number(y, '{:.3f}')}, {number(y + '_upper', '{:.3f}')}])"
            if number(y + "_upper", "{}") != "-"
            else ""
        ),
        f"average latency: {number('avg_latency_ns', '{:,.0f} ns')}",
        f"{int(row['endpoints']):,} endpoints, {int(row['routers']):,} routers",
    ]
    if bool(row.get("on_front")):
        lines.append("on the Pareto front")
    if not bool(row.get("recommendable", True)):
        lines.append("not recommended: oversubscribed")
    return lines


def cost_bandwidth_chart(frame: pd.DataFrame, y: str, y_label: str, styles: dict[str, Style]) -> str:
    """``cost_bandwidth_data`` as JSON inside a ``<script type="application/json">``, for
    ``templates/chart.js`` to draw."""
    text = json.dumps(cost_bandwidth_data(frame, y, y_label, styles), separators=(",", ":"))
    # "</" cannot end the script element early; "<\/" is the same string to JSON
    return (
        '<script type="application/json" id="cost-bandwidth-data">' + text.replace("</", "<\\/") + "</script>"
    )


def _number(value: Any) -> float | None:
    v = float(value)
    return v if np.isfinite(v) else None


def cost_bandwidth_data(
    frame: pd.DataFrame, y: str, y_label: str, styles: dict[str, Style]
) -> dict[str, Any]:
    """Cost per endpoint against ``y`` for the chart: a series per family present, in its colour
    and symbol (``styles``, as in the PNG plots), each point with its rank, whether it is on the
    front (drawn larger, ringed), its hover lines and, for a simulated saturation load, the rise
    of its error bar up to the lowest load its search saturated at (``plots.bracket_rise``); the
    recommended design (drawn as a star, labelled); the first view's y range without the designs
    far out in ``y`` (``plots.far_out``), which a button shows; costs on a log axis when they span
    more than 3x."""
    data = frame.dropna(subset=["cost_per_endpoint", y])
    families = []
    for family, style in styles.items():
        part = data[data["family_name"] == family]
        if len(part) == 0:
            continue
        rise = bracket_rise(part, y)
        points = []
        for i, (_, row) in enumerate(part.iterrows()):
            up = None if rise is None else _number(rise[i])
            points.append(
                {
                    "x": float(row["cost_per_endpoint"]),
                    "y": float(row[y]),
                    "rise": up,
                    "rank": int(row["rank"]),
                    "front": bool(row.get("on_front")),
                    "hover": _hover_text(row, y),
                }
            )
        families.append({"name": family, "color": style.color, "symbol": style.symbol, "points": points})
    best = data[data["rank"] == 1]
    recommended = None
    if len(best):
        row = best.iloc[0]
        recommended = {
            "x": float(row["cost_per_endpoint"]),
            "y": float(row[y]),
            "name": str(row["name"]),
            "hover": _hover_text(row, y),
        }
    costs = data["cost_per_endpoint"].to_numpy(float)
    view = None
    high = far_out(data[y].to_numpy(float))
    if high.any():  # the first view without the far-out designs; "show all" shows them
        shown = data.loc[~high, y].to_numpy(float)
        pad = 0.08 * max(float(shown.max() - shown.min()), 0.05)
        view = [float(shown.min()) - pad, float(shown.max()) + 3 * pad]
    return {
        "x_label": "cost per endpoint ($)",
        "y_label": y_label,
        "x_log": bool(len(costs) > 0 and costs.min() > 0 and costs.max() / costs.min() > 3),
        "y_view": view,
        "far_out": int(high.sum()),
        "families": families,
        "recommended": recommended,
    }
