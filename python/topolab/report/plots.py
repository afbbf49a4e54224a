"""The plots of the compare report, drawn with matplotlib's Agg canvas (no pyplot, no global
backend switch, no display needed) and returned as PNG bytes.

- ``cost_bandwidth``: cost per endpoint against bisection per endpoint (or simulated saturation
  throughput when there is one), every measured design,
  the Pareto front (over cost, bandwidth and latency) ringed, the recommendation starred;
- ``moore``: routers against network radix with the Moore bounds for diameter 2 and 3
  (000 §II-A, Fig. 5a), designs coloured by router diameter;
- ``cable_lengths``: histogram of the router-to-router cable lengths of the recommended design
  and the next members of the front.
"""

from __future__ import annotations

import io
from typing import TYPE_CHECKING, Sequence

import numpy as np

if TYPE_CHECKING:
    import pandas as pd
    from matplotlib.figure import Figure

DPI = 110


def _figure(width: float = 8.0, height: float = 5.2) -> Figure:
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=(width, height), dpi=DPI)
    FigureCanvasAgg(fig)
    return fig


def png(fig: Figure) -> bytes:
    """The figure as PNG bytes (Agg; no timestamp is written, so the bytes are reproducible)."""
    out = io.BytesIO()
    fig.savefig(out, format="png", dpi=DPI, metadata={"Software": None})
    return out.getvalue()


def family_colors(families: Sequence[str]) -> dict[str, tuple]:
    """A colour per family in the order given: tab20's ten strong colours, then its ten light
    ones (so that the first ten families are easy to tell apart), then tab20b."""
    from matplotlib import colormaps

    tab20 = list(colormaps["tab20"].colors)
    palette = tab20[0::2] + tab20[1::2] + list(colormaps["tab20b"].colors)
    return {f: palette[i % len(palette)] for i, f in enumerate(families)}


def _short(name: str, limit: int = 44) -> str:
    return name if len(name) <= limit else name[: limit - 1] + "…"


# The bandwidth axis of ``cost_bandwidth``: the METIS bisection, or the simulated saturation
# throughput under uniform traffic when ``compare --simulate`` measured it (what it ranks by).
BANDWIDTH_LABELS = {
    "bisection_per_endpoint": "bisection bandwidth per endpoint (links)",
    "saturation_uniform": "simulated saturation throughput, uniform (flits/endpoint/cycle)",
}


def bandwidth_column(frame: pd.DataFrame) -> str:
    if "saturation_uniform" in frame.columns and frame["saturation_uniform"].notna().any():
        return "saturation_uniform"
    return "bisection_per_endpoint"


def _scatter_designs(
    ax, data: pd.DataFrame, colors: dict[str, tuple], numbers: bool, y: str = "bisection_per_endpoint"
) -> None:
    for fam, color in colors.items():
        part = data[data["family_name"] == fam]
        for on_front in (False, True):
            sel = part[part["on_front"] == on_front]
            if len(sel) == 0:
                continue
            ax.scatter(
                sel["cost_per_endpoint"],
                sel[y],
                s=64 if on_front else 20,
                color=color,
                alpha=1.0 if on_front else 0.7,
                edgecolors="black" if on_front else "none",
                linewidths=1.0 if on_front else 0,
                label=fam if not any(t.get_label() == fam for t in ax.collections) else None,
                zorder=3 if on_front else 2,
            )
    best = data[data["rank"] == 1]
    ax.scatter(
        best["cost_per_endpoint"],
        best[y],
        marker="*",
        s=340,
        color="gold",
        edgecolors="black",
        linewidths=1.0,
        zorder=5,
        label="recommended",
    )
    if numbers:
        for _, row in data[data["on_front"]].iterrows():
            ax.annotate(
                str(int(row["rank"])),
                (row["cost_per_endpoint"], row[y]),
                xytext=(4, 3),
                textcoords="offset points",
                fontsize=7,
                zorder=6,
            )
    ax.set_xlabel("cost per endpoint ($)")
    ax.grid(True, which="both", alpha=0.25)


def cost_bandwidth(frame: pd.DataFrame, bandwidth: str | None = None) -> Figure:
    """Cost per endpoint (x) against bandwidth (y: ``bandwidth_column(frame)`` by default): left
    every measured design (log x when costs span more than 6x), right the region of the Pareto
    front with its members numbered by rank (the report's tables give the names). ``frame`` is
    ranked best first with ``rank`` and ``on_front``."""
    y = bandwidth_column(frame) if bandwidth is None else bandwidth
    fig = _figure(11.0, 6.4)
    overview, zoom = fig.subplots(1, 2)
    data = frame.dropna(subset=["cost_per_endpoint", y])
    colors = family_colors(list(dict.fromkeys(data["family_name"])))
    _scatter_designs(overview, data, colors, numbers=False, y=y)
    overview.set_ylabel(BANDWIDTH_LABELS.get(y, y))
    overview.set_title("All measured designs", fontsize=10)
    front = data[data["on_front"]]
    if len(data):
        costs = data["cost_per_endpoint"].to_numpy(dtype=float)
        if costs.min() > 0 and costs.max() / costs.min() > 6:
            overview.set_xscale("log")
    if len(front):
        x0, x1 = front["cost_per_endpoint"].min(), front["cost_per_endpoint"].max()
        y0, y1 = front[y].min(), front[y].max()
        if x1 > 4 * x0:  # a front from cheap to lavish: zoom on its cheaper half
            x1 = float(np.median(front["cost_per_endpoint"])) * 1.3
            y1 = float(front.loc[front["cost_per_endpoint"] <= x1, y].max())
        dx, dy = 0.05 * max(x1 - x0, 1.0), 0.08 * max(y1 - y0, 0.05)
        inside = data[data["cost_per_endpoint"].between(x0 - dx, x1 + dx) & data[y].between(y0 - dy, y1 + dy)]
        _scatter_designs(zoom, inside, colors, numbers=True, y=y)
        zoom.set_xlim(x0 - dx, x1 + dx)
        zoom.set_ylim(y0 - dy, y1 + dy)
    zoom.set_title("The Pareto front, numbered by rank", fontsize=10)
    fig.suptitle(
        "Cost against bandwidth. Ringed: the Pareto front over cost, bandwidth and latency "
        "(a ringed design that looks beaten here wins on latency)",
        fontsize=10,
    )
    handles, labels = overview.get_legend_handles_labels()
    fig.legend(
        handles, labels, loc="lower center", ncol=min(7, max(1, len(labels))), fontsize=7, frameon=False
    )
    fig.tight_layout(rect=(0, 0.06 + 0.025 * ((len(labels) - 1) // 7), 1, 0.96))
    return fig


def moore(frame: pd.DataFrame) -> Figure:
    """Routers against network radix, the Moore bounds M(d, 2) and M(d, 3) (000 §II-A) drawn
    from ``topolab.moore_bound``; designs coloured by router diameter, directed ones as
    triangles (their own, directed bound is lower: 002 §I)."""
    from topolab.analysis import moore_bound

    fig = _figure(10.0, 5.6)
    ax = fig.add_subplot()
    data = frame.dropna(subset=["network_radix", "routers"])
    degrees = data["network_radix"].to_numpy(dtype=float)
    top = int(max(4, degrees.max() if len(degrees) else 4)) + 2
    d = np.arange(2, top + 1)
    for diameter, style in ((2, "-"), (3, "--")):
        bound = [float(moore_bound(int(x), diameter)) for x in d]
        ax.plot(d, bound, style, color="black", linewidth=1.2, label=f"Moore bound, diameter {diameter}")

    diam = data["router_diameter"].to_numpy(dtype=float)
    groups = [
        ("diameter 2", diam == 2, "tab:green"),
        ("diameter 3", diam == 3, "tab:blue"),
        ("diameter 4", diam == 4, "tab:orange"),
        ("diameter 5+", diam >= 5, "tab:red"),
        ("diameter unknown", np.isnan(diam), "tab:gray"),
    ]
    directed = data["directed"].fillna(False).astype(bool).to_numpy()
    for label, mask, color in groups:
        for is_directed, marker in ((False, "o"), (True, "^")):
            sel = mask & (directed == is_directed)
            if sel.any():
                ax.scatter(
                    data["network_radix"][sel],
                    data["routers"][sel],
                    marker=marker,
                    s=26,
                    color=color,
                    alpha=0.8,
                    linewidths=0,
                    label=label + (" (directed)" if is_directed else ""),
                )
    if len(data):
        best = frame.iloc[0]
        ax.scatter(
            [best["network_radix"]],
            [best["routers"]],
            marker="*",
            s=320,
            color="gold",
            edgecolors="black",
            linewidths=1.0,
            zorder=5,
            label="recommended",
        )
    ax.set_yscale("log")
    ax.set_xlim(1, top + 1)
    if len(data):
        ax.set_ylim(bottom=max(1.0, float(data["routers"].min()) / 4))
    ax.set_xlabel("network radix d (router-to-router ports)")
    ax.set_ylabel("routers")
    ax.set_title("Routers against network radix: how close each design comes to the Moore bound", fontsize=10)
    ax.grid(True, which="both", alpha=0.25)
    ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0), framealpha=0.85)
    fig.tight_layout()
    return fig


def length_bins(values: Sequence[np.ndarray], most: int = 120) -> np.ndarray:
    """Histogram bin edges for cable lengths: one bin per length when the lengths take few
    distinct values on a regular step (a floor of unit racks gives whole metres), else 40
    equal bins over the range."""
    every = np.unique(np.round(np.concatenate(values), 6))
    lo, hi = float(every[0]), float(every[-1])
    if len(every) == 1:
        return np.array([lo - 0.5, lo + 0.5])
    step = float(np.min(np.diff(every)))
    if len(every) <= 60 and (hi - lo) / step <= most:
        return np.arange(lo - step / 2, hi + step, step)
    return np.linspace(lo, hi, 41)


def cable_lengths(series: Sequence[tuple[str, np.ndarray, np.ndarray]], floor: str) -> Figure:
    """Step histograms of cable lengths: ``series`` is (label, length of each link, cables per
    link), the recommended design first."""
    fig = _figure(10.0, 5.0)
    ax = fig.add_subplot()
    values = [lengths for _, lengths, _ in series if len(lengths)]
    if values:
        bins = length_bins(values)
        for i, (label, lengths, weights) in enumerate(series):
            if len(lengths) == 0:
                continue
            total_km = float(np.dot(lengths, weights)) / 1000
            ax.hist(
                lengths,
                bins=bins,
                weights=weights,
                histtype="step",
                linewidth=2.6 if i == 0 else 1.4,
                label=f"{'recommended: ' if i == 0 else ''}{label} ({total_km:,.1f} km)",
            )
    ax.set_yscale("log")
    ax.set_xlabel(f"cable length (m), {floor} floor")
    ax.set_ylabel("router-to-router cables")
    ax.set_title(
        "Cable lengths of the recommended design and the next designs of the Pareto front", fontsize=10
    )
    ax.grid(True, alpha=0.3)
    if values:
        low, high = ax.get_ylim()
        ax.set_ylim(low, high * 10 ** (0.12 * len(series)))  # room for the legend above the bars
        ax.legend(fontsize=7, loc="upper right", framealpha=0.9)
    fig.tight_layout()
    return fig


# Designs drawn in the latency-load plot: the recommendation and the next front members, one
# curve per distinct simulated network.
LATENCY_LOAD_DESIGNS = 6


def has_simulation(frame: pd.DataFrame) -> bool:
    """True when the frame has simulated latency-load curves (``compare --simulate``)."""
    return any(
        c in frame.columns and frame[c].notna().any() for c in ("sim_curve_uniform", "sim_curve_worst")
    )


def latency_load(frame: pd.DataFrame, count: int = LATENCY_LOAD_DESIGNS) -> Figure:
    """Average packet latency (cycles) against offered load, uniform traffic on the left and
    the family's worst case on the right, for the recommended design and the next members of
    the front (by rank) with a different simulated network; labels say the simulated size."""
    import json

    front = frame[frame["on_front"]] if "on_front" in frame else frame
    rows, seen = [], set()
    for _, row in [(None, frame.iloc[0])] + list(front.iterrows()):
        net = row.get("sim_network")
        if not isinstance(net, str) or net in seen:
            continue
        seen.add(net)
        rows.append(row)
        if len(rows) >= count:
            break
    colors = family_colors(list(dict.fromkeys(str(r["family_name"]) for r in rows)))
    fig = _figure(11.0, 4.6)
    axes = fig.subplots(1, 2, sharey=True)
    for ax, key, title in ((axes[0], "uniform", "uniform traffic"), (axes[1], "worst", "worst-case traffic")):
        for i, row in enumerate(rows):
            text = row.get(f"sim_curve_{key}")
            if not isinstance(text, str):
                continue
            curve = np.asarray(json.loads(text), dtype=float)
            label = f"{_short(str(row['name']), 32)} @ {int(row['sim_endpoints']):,}"
            ax.plot(
                curve[:, 0],
                curve[:, 2],
                marker="o",
                markersize=3,
                color=colors[str(row["family_name"])],
                linestyle=("-", "--", ":", "-.")[i % 4],
                label=label,
            )
        ax.set_title(title)
        ax.set_xlabel("offered load (flits per endpoint per cycle)")
        ax.set_xlim(0, 1.05)
        ax.grid(alpha=0.3)
    axes[0].set_ylabel("average latency (cycles)")
    axes[0].set_yscale("log")
    axes[1].legend(fontsize=7, loc="upper left")
    fig.tight_layout()
    return fig
