"""The plots of the compare report, drawn with matplotlib's Agg canvas (no pyplot, no global
backend switch, no display needed) and returned as PNG bytes.

- ``cost_bandwidth``: cost per endpoint against bisection per endpoint (or simulated saturation
  throughput when there is one), every measured design,
  the Pareto front (over cost, bandwidth and latency) ringed, the recommendation starred;
- ``moore``: routers against network radix with the Moore bounds for diameter 2 and 3
  (Besta & Hoefler, SC14, §II-A, Fig. 5a), designs coloured by router diameter;
- ``cable_lengths``: histogram of the router-to-router cable lengths of the recommended design
  and the next members of the front.
"""

from __future__ import annotations

import functools
import io
from typing import TYPE_CHECKING, Any, Callable, Sequence, TypeVar

import numpy as np

from topolab.comparison.result import CURVE_DESIGNS, simulated_front
from topolab.report.styles import MARKERS, PALETTE, Style, family_styles

if TYPE_CHECKING:
    import pandas as pd
    from matplotlib.figure import Figure

DPI = 110

_Plot = TypeVar("_Plot", bound=Callable[..., Any])


def _plain_text(plot: _Plot) -> _Plot:
    """Draws ``plot``'s text as written: matplotlib reads text between two dollar signs as
    mathematics, and a label naming two costs ("($19,092, 0.68); ... ($19,012, 0.81)") then
    failed to parse and ended a finished `topolab compare --simulate` without its report. A
    text keeps the setting it was created with, so creating the figure inside is enough."""

    @functools.wraps(plot)
    def drawn(*args: Any, **kwargs: Any) -> Any:
        from matplotlib import rc_context

        with rc_context({"text.parse_math": False}):
            return plot(*args, **kwargs)

    return drawn  # type: ignore[return-value]


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


def _short(name: str, limit: int = 44) -> str:
    return name if len(name) <= limit else name[: limit - 1] + "…"


# The bandwidth axis of ``cost_bandwidth``: the METIS bisection, or the simulated saturation
# throughput under uniform traffic when ``compare --simulate`` measured it (what it ranks by).
BANDWIDTH_LABELS = {
    "bisection_per_endpoint": "bisection bandwidth per endpoint (links)",
    "saturation_uniform": "simulated saturation load, uniform (flits/endpoint/cycle)",
}


def bracket_rise(data: pd.DataFrame, y: str) -> np.ndarray | None:
    """For a simulated saturation column, how far above each design's value the lowest load its
    search saturated at lies (the bracket [value, upper] drawn as an error bar up; NaN where the
    search saturated at no load run); None for a column without a bracket."""
    upper = f"{y}_upper"
    if upper not in data.columns:
        return None
    return data[upper].to_numpy(float) - data[y].to_numpy(float)


def bandwidth_column(frame: pd.DataFrame) -> str:
    if "saturation_uniform" in frame.columns and frame["saturation_uniform"].notna().any():
        return "saturation_uniform"
    return "bisection_per_endpoint"


def _scatter_designs(ax, data: pd.DataFrame, styles: dict[str, Style], y: str, grey: bool = False) -> None:
    """Every design of ``data`` in its family's colour and marker, the Pareto front larger and
    ringed in black, the recommendation as a gold star; with ``grey`` the designs off the front
    as small grey dots."""
    if grey:
        off = data[~data["on_front"].astype(bool)]
        ax.scatter(off["cost_per_endpoint"], off[y], s=10, color="0.75", zorder=1)
        data = data[data["on_front"].astype(bool)]
    for fam, style in styles.items():
        part = data[data["family_name"] == fam]
        for on_front in (False, True):
            sel = part[part["on_front"] == on_front]
            if len(sel) == 0:
                continue
            ax.scatter(
                sel["cost_per_endpoint"],
                sel[y],
                s=60 if on_front else 24,
                marker=style.marker,
                color=style.color,
                alpha=1.0 if on_front else 0.75,
                edgecolors="black" if on_front else "none",
                linewidths=1.1 if on_front else 0,
                zorder=3 if on_front else 2,
            )
    best = data[data["rank"] == 1]
    ax.scatter(
        best["cost_per_endpoint"], best[y], marker="*", s=340, color="gold", edgecolors="black", zorder=5
    )
    rise = bracket_rise(data, y)
    if rise is not None:
        drawn = np.isfinite(rise)
        ax.errorbar(
            data["cost_per_endpoint"].to_numpy(float)[drawn],
            data[y].to_numpy(float)[drawn],
            yerr=[np.zeros(int(drawn.sum())), rise[drawn]],
            fmt="none",
            ecolor="0.35",
            elinewidth=0.8,
            capsize=2,
            zorder=4,
        )
    ax.set_xlabel("cost per endpoint ($)")
    ax.grid(True, which="both", alpha=0.25)


def _log_if_spread(ax, values: np.ndarray, axis: str = "x", spread: float = 3.0) -> None:
    """A log axis when the values span more than ``spread`` times, so that one lavish design
    does not squash the others against the origin."""
    values = values[np.isfinite(values)]
    if len(values) and values.min() > 0 and values.max() / values.min() > spread:
        (ax.set_xscale if axis == "x" else ax.set_yscale)("log")
        _plain_log_labels(ax.xaxis if axis == "x" else ax.yaxis)


def _plain_log_labels(target, leading: tuple[int, ...] = (1, 2, 3, 5)) -> None:
    """Plain numbers ("2,000", not "2x10^3") on a log axis, at ``leading`` times a power of ten."""
    from matplotlib.ticker import FuncFormatter

    def label(value: float, _position: object) -> str:
        first = int(f"{value:e}"[0])  # 2 for 2,000
        return f"{value:,.0f}" if first in leading else ""

    target.set_major_formatter(FuncFormatter(label))
    target.set_minor_formatter(FuncFormatter(label))


def _rank_labels(ax, front: pd.DataFrame, y: str) -> None:
    """The rank of each front member beside its point, moved apart where they would overlap
    (adjustText, when installed) with a thin line back to the point."""
    from topolab._labels import spread_labels

    texts = [
        ax.text(
            float(row["cost_per_endpoint"]),
            float(row[y]),
            str(int(row["rank"])),
            fontsize=8,
            zorder=6,
            bbox={"boxstyle": "round,pad=0.15", "facecolor": "white", "edgecolor": "none", "alpha": 0.8},
        )
        for _, row in front.iterrows()
    ]
    spread_labels(
        texts,
        ax,
        front["cost_per_endpoint"].to_numpy(float),
        front[y].to_numpy(float),
        arrowprops={"arrowstyle": "-", "color": "0.4", "lw": 0.6},
        expand=(1.3, 1.5),
    )


def _legend_handles(styles: dict[str, Style]) -> tuple[list, list[str]]:
    """One handle per family at one size, then the front ring and the recommendation star."""
    from matplotlib.lines import Line2D

    handles = [
        Line2D([], [], linestyle="", marker=s.marker, color=s.color, markersize=7) for s in styles.values()
    ]
    labels = list(styles)
    handles.append(
        Line2D(
            [], [], linestyle="", marker="o", markerfacecolor="white", markeredgecolor="black", markersize=8
        )
    )
    labels.append("ringed: on the Pareto front (grey dots on the right: the others)")
    handles.append(
        Line2D(
            [], [], linestyle="", marker="*", markerfacecolor="gold", markeredgecolor="black", markersize=14
        )
    )
    labels.append("recommended")
    return handles, labels


def far_out(values: np.ndarray, log: bool = False, k: float = 8.0) -> np.ndarray:
    """Which values lie far above the others: more than ``k`` scaled median absolute deviations
    above the median (of log10 of the values with ``log``). These are drawn apart so that one
    lavish design does not squash the rest of a plot."""
    values = np.asarray(values, dtype=float)
    if len(values) < 4:
        return np.zeros(len(values), dtype=bool)
    v = np.log10(np.maximum(values, 1e-300)) if log else values
    middle = np.median(v)
    spread = 1.4826 * np.median(np.abs(v - middle))
    if spread == 0:
        return np.zeros(len(values), dtype=bool)
    return v > middle + k * spread


def _outlier_note(ax, rows: pd.DataFrame, y: str) -> None:
    """Names the designs left off a panel, under its axis label (where no point can be)."""
    if len(rows) == 0:
        return
    named = [
        f"#{int(r['rank'])} {_short(str(r['name']), 30)} (${r['cost_per_endpoint']:,.0f}, {r[y]:.2f})"
        for _, r in rows.head(2).iterrows()
    ]
    more = f" and {len(rows) - 2} more" if len(rows) > 2 else ""
    ax.set_xlabel(f"{ax.get_xlabel()}\nfar out, not shown: {'; '.join(named)}{more}", fontsize=8)


@_plain_text
def cost_bandwidth(
    frame: pd.DataFrame, bandwidth: str | None = None, styles: dict[str, Style] | None = None
) -> Figure:
    """Cost per endpoint (x) against bandwidth (y: ``bandwidth_column(frame)`` by default): left
    every measured design, right the Pareto front, every member numbered by rank (the report's
    tables give the names). Costs on a log axis when they span more than 3x; designs far out
    (``far_out``) in bandwidth are left off the left panel's scale, and in cost or bandwidth off
    the right panel, each named in a note on the panel. ``frame`` is ranked best first with
    ``rank`` and ``on_front``; ``styles`` maps family names to their look."""
    y = bandwidth_column(frame) if bandwidth is None else bandwidth
    data = frame.dropna(subset=["cost_per_endpoint", y])
    styles = family_styles(data["family_name"]) if styles is None else styles
    styles = {f: st for f, st in styles.items() if f in set(data["family_name"])}
    fig = _figure(12.0, 7.0)
    overview, zoom = fig.subplots(1, 2)

    high = far_out(data[y].to_numpy(float))
    shown = data[~high]
    _scatter_designs(overview, shown, styles, y)
    _log_if_spread(overview, data["cost_per_endpoint"].to_numpy(float))
    _outlier_note(overview, data[high].sort_values("rank"), y)
    if high.any():
        overview.set_ylim(top=float(shown[y].max()) + 0.25 * float(shown[y].max() - shown[y].min()))
    overview.set_ylabel(BANDWIDTH_LABELS.get(y, y))
    overview.set_title("All measured designs", fontsize=10)

    front = data[data["on_front"].astype(bool)]
    if len(front):
        far_cost = far_out(front["cost_per_endpoint"].to_numpy(float), log=True)
        off = far_cost | far_out(front[y].to_numpy(float))
        near = front[~off]
        costs, values = near["cost_per_endpoint"].to_numpy(float), near[y].to_numpy(float)
        x0, x1 = costs.min(), costs.max()
        y0, y1 = values.min(), values.max()
        dx, dy = 0.05 * max(x1 - x0, 1.0), 0.1 * max(y1 - y0, 0.05)
        inside = data[data["cost_per_endpoint"].between(x0 - dx, x1 + dx) & data[y].between(y0 - dy, y1 + dy)]
        _scatter_designs(zoom, inside, styles, y, grey=True)
        _log_if_spread(zoom, costs)
        zoom.set_xlim(x0 - dx, x1 + dx)
        zoom.set_ylim(y0 - dy, y1 + dy)
        _rank_labels(zoom, near, y)
        _outlier_note(zoom, front[off], y)
    zoom.set_title(f"The Pareto front ({len(front)} designs), numbered by rank", fontsize=10)
    fig.suptitle(
        "Cost against bandwidth. Ringed: the Pareto front over cost, bandwidth and latency "
        "(a ringed design that looks beaten here wins on latency)",
        fontsize=10,
    )
    handles, labels = _legend_handles(styles)
    columns = 5
    fig.legend(handles, labels, loc="lower center", ncol=columns, fontsize=8, frameon=False)
    rows = -(-len(labels) // columns)
    fig.tight_layout(rect=(0, 0.035 * rows + 0.01, 1, 0.96))
    return fig


@_plain_text
def moore(frame: pd.DataFrame) -> Figure:
    """Routers against network radix, the Moore bounds M(d, 2) and M(d, 3) (Besta & Hoefler, SC14, §II-A)
    drawn from ``topolab.moore_bound``; designs coloured by router diameter, directed ones as
    triangles (their own, directed bound is lower: Koibuchi et al., 2018, §I)."""
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
    _plain_log_labels(ax.yaxis, leading=(1, 2, 5))
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


def length_bins(values: Sequence[np.ndarray], most: int = 120) -> list[float]:
    """Histogram bin edges for cable lengths: one bin per length when the lengths take few
    distinct values on a regular step (a floor of unit racks gives whole metres), else 40
    equal bins over the range."""
    every = np.unique(np.round(np.concatenate(values), 6))
    lo, hi = float(every[0]), float(every[-1])
    if len(every) == 1:
        return [lo - 0.5, lo + 0.5]
    step = float(np.min(np.diff(every)))
    if len(every) <= 60 and (hi - lo) / step <= most:
        return np.arange(lo - step / 2, hi + step, step).tolist()
    return np.linspace(lo, hi, 41).tolist()


@_plain_text
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
    _plain_log_labels(ax.yaxis, leading=(1, 2, 5))
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


# Designs drawn in the latency-load and degradation plots: the recommendation and the next
# front members, one curve per distinct simulated network (``simulated_front``).
LATENCY_LOAD_DESIGNS = CURVE_DESIGNS


def has_simulation(frame: pd.DataFrame) -> bool:
    """True when the frame has simulated latency-load curves (``compare --simulate``)."""
    return any(
        c in frame.columns and frame[c].notna().any() for c in ("sim_curve_uniform", "sim_curve_worst")
    )


def _carried(curve: np.ndarray, saturation: Any) -> np.ndarray:
    """Which runs of a saturation search's curve the network carried: those at or below the
    highest load the search carried (``saturation``, the bracket's lower end). Above it the
    network saturated, and a run's average latency is of the packets delivered before the run
    ended, not a steady value (it may even fall as the load rises). Every run, without the
    search's verdict."""
    try:
        limit = float(saturation)
    except (TypeError, ValueError):
        limit = float("nan")
    if not np.isfinite(limit):
        return np.ones(len(curve), dtype=bool)
    return curve[:, 0] <= limit + 1e-9


def _name_apart(ax, points: list[tuple[str, float, float]], gap: float = 12.0) -> None:
    """Names each (name, x, y) point on its left, the names stacked ``gap`` points apart in the
    order of their y around the points' middle, each with a line back to its point: points that
    lie together (searches that carried full load in their one run) keep their names apart.
    Call it once the axes' limits and size are final."""
    to_axes = ax.transData + ax.transAxes.inverted()
    height = ax.get_window_extent().height * 72.0 / ax.figure.dpi  # the axes' height in points
    ordered = sorted(points, key=lambda p: p[2])
    where = [to_axes.transform((x, y)) for _, x, y in ordered]
    middle = float(np.mean([w[1] for w in where]))
    for k, ((name, x, y), w) in enumerate(zip(ordered, where)):
        ax.annotate(
            name,
            (x, y),
            xytext=(float(w[0]) - 0.14, middle + (k - (len(ordered) - 1) / 2) * gap / height),
            textcoords="axes fraction",
            fontsize=7,
            ha="right",
            va="center",
            zorder=6,
            bbox={"boxstyle": "round,pad=0.1", "facecolor": "white", "edgecolor": "none", "alpha": 0.85},
            arrowprops={"arrowstyle": "-", "color": "0.4", "lw": 0.6, "shrinkA": 0, "shrinkB": 3},
        )


@_plain_text
def latency_load(frame: pd.DataFrame, count: int = LATENCY_LOAD_DESIGNS) -> Figure:
    """Average packet latency (cycles) against offered load, uniform traffic on the left and
    the family's worst case on the right, for the recommended design and the next members of
    the front (by rank) with a different simulated network; labels say the simulated size.
    A curve joins the runs the network carried (``_carried``); the runs above its saturation
    load are hollow markers, apart. A search of a single carried run (full load carried at
    once) is a marker named beside it, the names moved apart where such runs lie together."""
    import json

    from matplotlib.lines import Line2D

    rows = simulated_front(frame, count)
    fig = _figure(11.0, 5.6)
    axes = fig.subplots(1, 2, sharey=True)
    saturated_drawn = False
    named = []
    for ax, key, title in ((axes[0], "uniform", "uniform traffic"), (axes[1], "worst", "worst-case traffic")):
        alone: list[tuple[str, float, float]] = []
        for i, row in enumerate(rows):
            text = row.get(f"sim_curve_{key}")
            if not isinstance(text, str):
                continue
            # [offered, accepted, latency, accepted ±, latency ±] (the half-widths null where a
            # run had no interval; a curve stored before them has three entries)
            curve = np.full((len(json.loads(text)), 5), np.nan)
            for j, point in enumerate(json.loads(text)):
                curve[j, : len(point)] = [np.nan if x is None else x for x in point]
            carried = _carried(curve, row.get(f"saturation_{key}"))
            below, above = curve[carried], curve[~carried]
            label = f"{_short(str(row['name']), 32)} @ {int(row['sim_endpoints']):,}"
            look = {
                "marker": MARKERS[i % len(MARKERS)][0],
                "color": PALETTE[i % len(PALETTE)],
            }
            if len(below):
                ax.errorbar(
                    below[:, 0],
                    below[:, 2],
                    yerr=np.nan_to_num(below[:, 4]),
                    capsize=2,
                    elinewidth=0.8,
                    markersize=4 if len(below) > 1 else 7,
                    linestyle=("-", "--", ":", "-.")[i % 4] if len(below) > 1 else "none",
                    label=label if ax is axes[0] else None,
                    **look,
                )
            if len(below) == 1:
                alone.append((_short(str(row["name"]), 24), float(below[0, 0]), float(below[0, 2])))
            if len(above):
                saturated_drawn = True
                ax.plot(
                    above[:, 0],
                    above[:, 2],
                    linestyle="none",
                    markersize=5,
                    markerfacecolor="none",
                    markeredgewidth=1.0,
                    label=label if ax is axes[0] and not len(below) else None,
                    **look,
                )
        ax.set_title(title)
        ax.set_xlabel("offered load (flits per endpoint per cycle)")
        ax.set_xlim(0, 1.05)
        ax.grid(alpha=0.3)
        ax.set_yscale("log")
        named.append((ax, alone))
    axes[0].set_ylabel("average latency (cycles)")
    _plain_log_labels(axes[0].yaxis, leading=(1, 2, 5))
    handles, labels = axes[0].get_legend_handles_labels()
    if saturated_drawn:
        handles.append(
            Line2D([], [], linestyle="none", marker="o", markerfacecolor="none", markeredgecolor="0.3")
        )
        labels.append("hollow: a run above the saturation load (latency not steady)")
    fig.legend(handles, labels, loc="lower center", ncol=3, fontsize=8, frameon=False)
    fig.tight_layout(rect=(0, 0.045 * -(-len(labels) // 3) + 0.01, 1, 1))
    for ax, alone in named:
        if alone:
            _name_apart(ax, alone)
    return fig


def has_workload(frame: pd.DataFrame) -> bool:
    """True when the frame has simulated workload completion times (``compare --workload``)."""
    return "workload_cycles" in frame.columns and frame["workload_cycles"].notna().any()


@_plain_text
def workload_cost(frame: pd.DataFrame, styles: dict[str, Style] | None = None) -> Figure:
    """The --workload job's completion time (cycles) against cost per endpoint, one point per
    simulated design, labelled with its rank and simulated size: lower left is better."""
    data = frame.dropna(subset=["workload_cycles", "cost_per_endpoint"])
    styles = styles or family_styles(data["family_name"])
    fig = _figure()
    ax = fig.subplots()
    for family, rows in data.groupby("family_name", sort=False):
        style = styles.get(str(family))
        ax.scatter(
            rows["cost_per_endpoint"],
            rows["workload_cycles"],
            s=46,
            marker=style.marker if style else "o",
            color=style.color if style else None,
            label=str(family),
            zorder=3,
        )
        for _, row in rows.iterrows():
            ax.annotate(
                f"#{int(row['rank'])} @ {int(row['sim_endpoints']):,}",
                (row["cost_per_endpoint"], row["workload_cycles"]),
                textcoords="offset points",
                xytext=(5, 4),
                fontsize=8,
            )
    ax.set_xlabel("cost per endpoint (USD)")
    ax.set_ylabel("workload completion (cycles)")
    workload = data["sim_workload"].dropna()
    ax.set_title(_short(str(workload.iloc[0]).split(" / ")[0], 70) if len(workload) else "workload")
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8, frameon=False)
    fig.tight_layout()
    return fig


def has_degradation(curves: pd.DataFrame | None) -> bool:
    """True when ``curves`` (``Comparison.degradation``) holds a finished saturation search."""
    return curves is not None and len(curves) > 0 and bool((curves["status"] == "ok").any())


def degradation_summary(curves: pd.DataFrame) -> list[tuple[pd.Series, pd.DataFrame]]:
    """(first row, per-fraction summary: ``topolab.degradation.summarize``) of each design of
    ``curves``, in the order of the curves (the recommendation first)."""
    from topolab.degradation import summarize

    out = []
    for _, runs in curves.groupby("sim_network", sort=False):
        done = runs[runs["status"] == "ok"]
        if len(done):
            out.append((runs.iloc[0], summarize(done)))
    return out


def percent(fraction: float) -> str:
    """A failed fraction as a reader writes it: 0%, 2.5%, 10%."""
    return f"{100 * fraction:.4g}%"


@_plain_text
def degradation(curves: pd.DataFrame) -> Figure:
    """Saturation load under uniform traffic against the share of cables failed, one colour per
    design (``Comparison.degradation``: the recommendation and the next front members): the
    simulated saturation load as a solid line, the static channel-load bound of the degraded
    graphs as a dashed line of the same colour, each point the mean over the failure sets and
    its bar from the lowest to the highest."""
    from matplotlib.lines import Line2D

    fig = _figure(10.0, 5.8)
    ax = fig.add_subplot()
    fractions: set[float] = set()
    for i, (first, summary) in enumerate(degradation_summary(curves)):
        color, marker = PALETTE[i % len(PALETTE)], MARKERS[i % len(MARKERS)][0]
        x = summary["failed_fraction"].to_numpy(float)
        fractions.update(x.tolist())
        for key, line, label in (
            ("saturation_load", "-", f"{_short(str(first['name']), 36)} @ {int(first['sim_endpoints']):,}"),
            ("static_bound", "--", None),
        ):
            mean = summary[f"{key}_mean"].to_numpy(float)
            low = mean - summary[f"{key}_min"].to_numpy(float)
            high = summary[f"{key}_max"].to_numpy(float) - mean
            ax.errorbar(
                x,
                mean,
                yerr=[np.nan_to_num(low), np.nan_to_num(high)],
                capsize=3,
                elinewidth=0.9,
                marker=marker,
                markersize=5 if line == "-" else 3,
                markerfacecolor=color if line == "-" else "white",
                color=color,
                linestyle=line,
                linewidth=1.6 if line == "-" else 1.0,
                label=label,
            )
    ticks = sorted(fractions)
    ax.set_xticks(ticks)
    ax.set_xticklabels([percent(f) for f in ticks])
    ax.set_xlabel("cables failed at random (share of the network's cables)")
    ax.set_ylabel("saturation load, uniform traffic (flits per surviving endpoint per cycle)", fontsize=9)
    ax.set_ylim(bottom=0)
    ax.grid(alpha=0.3)
    ax.set_title(
        "Saturation load as cables fail: simulated (solid) and static channel-load bound (dashed); "
        "mean over the failure sets, bars from lowest to highest",
        fontsize=9,
    )
    handles, labels = ax.get_legend_handles_labels()
    handles += [
        Line2D([], [], color="0.3", linestyle="-", marker="o", markersize=5),
        Line2D([], [], color="0.3", linestyle="--", marker="o", markersize=3, markerfacecolor="white"),
    ]
    labels += ["simulated saturation load", "static channel-load bound of the degraded graph"]
    fig.legend(handles, labels, loc="lower center", ncol=2, fontsize=8, frameon=False)
    fig.tight_layout(rect=(0, 0.045 * -(-len(labels) // 2) + 0.01, 1, 1))
    return fig
