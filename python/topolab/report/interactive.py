"""The report's interactive parts, inside its one HTML file and working offline (no network when
it is viewed): a plotly chart whose hover names each design, with plotly.js inline, and
DataTables (sorting and filtering) from the bundle that itables ships, applied to the tables the
template writes out in full (so every row is in the page, on screen and in print, also without
script).

Why plotly and DataTables: both ship their JavaScript inside their PyPI wheels, so the report
needs nothing at view time; DataTables works on a plain HTML table whose rows and text wrap
like any other, where bokeh's DataTable draws a grid of fixed-height rows in a scroll box."""

from __future__ import annotations

import base64
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from topolab.report.plots import bracket_rise, far_out
from topolab.report.styles import Style

if TYPE_CHECKING:
    import pandas as pd


def plotly_js() -> str:
    """plotly.js, as shipped with the plotly package."""
    from plotly.offline import get_plotlyjs

    return get_plotlyjs()


def datatables_assets() -> tuple[str, str]:
    """(the DataTables ES module as base64, its CSS) from itables' offline bundle
    (``itables.options.dt_bundle``). The template imports the module from a Blob URL."""
    from itables import options

    bundle = Path(options.dt_bundle)
    js = bundle.read_bytes()
    return base64.b64encode(js).decode("ascii"), bundle.with_suffix(".css").read_text(encoding="utf-8")


def _hover_text(row: pd.Series, y: str) -> str:
    def number(key: str, fmt: str) -> str:
        value = row.get(key)
        try:
            return fmt.format(float(value)) if value == value else "-"
        except (TypeError, ValueError):
            return "-"

    lines = [
        f"<b>#{int(row['rank'])} {row['name']}</b>",
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
    return "<br>".join(lines)


def cost_bandwidth_chart(frame: pd.DataFrame, y: str, y_label: str, styles: dict[str, Style]) -> str:
    """``cost_bandwidth_figure`` as a ``<div>`` and its script; plotly.js must be on the page."""
    return cost_bandwidth_figure(frame, y, y_label, styles).to_html(
        full_html=False,
        include_plotlyjs=False,
        div_id="cost-bandwidth-chart",
        config={"displaylogo": False, "responsive": True},
    )


def cost_bandwidth_figure(frame: pd.DataFrame, y: str, y_label: str, styles: dict[str, Style]) -> Any:
    """Cost per endpoint against ``y``, one trace per family in its colour and marker (the
    legend toggles a family), the front ringed, the recommendation starred; hovering a point
    names the design; a simulated saturation load has an error bar up to the lowest load its
    search saturated at (``plots.bracket_rise``). The first view leaves designs far out in ``y``
    (``plots.far_out``) above its top; a double click shows them. A plotly Figure."""
    import plotly.graph_objects as go

    data = frame.dropna(subset=["cost_per_endpoint", y])
    fig = go.Figure()
    for family, style in styles.items():
        part = data[data["family_name"] == family]
        if len(part) == 0:
            continue
        front = part["on_front"].astype(bool)
        rise = bracket_rise(part, y)
        fig.add_trace(
            go.Scatter(
                x=part["cost_per_endpoint"],
                y=part[y],
                # a simulated saturation load: a bar up to the lowest load its search saturated at
                error_y=None
                if rise is None
                else {
                    "type": "data",
                    "symmetric": False,
                    "array": np.nan_to_num(rise).tolist(),
                    "arrayminus": [0.0] * len(rise),
                    "thickness": 1,
                    "width": 3,
                    "color": "#555",
                },
                mode="markers",
                name=family,
                marker={
                    "color": style.color,
                    "symbol": style.symbol,
                    "size": [12 if f else 8 for f in front],
                    "line": {"color": "black", "width": [1.5 if f else 0 for f in front]},
                },
                text=[_hover_text(row, y) for _, row in part.iterrows()],
                hovertemplate="%{text}<extra></extra>",
            )
        )
    best = data[data["rank"] == 1]
    fig.add_trace(
        go.Scatter(
            x=best["cost_per_endpoint"],
            y=best[y],
            mode="markers",
            name="recommended",
            marker={"color": "gold", "symbol": "star", "size": 22, "line": {"color": "black", "width": 1}},
            text=[_hover_text(row, y) for _, row in best.iterrows()],
            hovertemplate="%{text}<extra></extra>",
        )
    )
    costs = data["cost_per_endpoint"].to_numpy(float)
    log = len(costs) > 0 and costs.min() > 0 and costs.max() / costs.min() > 3
    yaxis: dict[str, Any] = {"title": y_label}
    high = far_out(data[y].to_numpy(float))
    if high.any():  # first view without the far-out designs; a double click shows everything
        shown = data.loc[~high, y].to_numpy(float)
        pad = 0.08 * max(float(shown.max() - shown.min()), 0.05)
        yaxis["range"] = [float(shown.min()) - pad, float(shown.max()) + 3 * pad]
    fig.update_layout(
        template="plotly_white",
        height=560,
        margin={"l": 60, "r": 10, "t": 30, "b": 50},
        xaxis={
            "title": "cost per endpoint ($)",
            "type": "log" if log else "linear",
            "tickformat": ",.0f",
            # on a log axis, label 1, 2 and 5 times a power of ten only: no crowded labels
            **({"dtick": "D2"} if log else {}),
        },
        yaxis=yaxis,
        legend={"title": {"text": "family (click to hide)"}, "itemsizing": "constant"},
        hoverlabel={"align": "left"},
    )
    return fig
