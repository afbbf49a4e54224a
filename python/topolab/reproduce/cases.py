"""Reproductions as data: a simulated figure is a list of ``Curve`` cases (network, routing,
traffic) measured with one setup table, run as points of kind "sweep" through the experiment
package (so every curve is an independent job: on all local cores, on a Dask cluster with
``scheduler``, resumable from ``results``), and drawn by one plot helper.

A reproduction module declares ``setup_table(scale)`` and ``curves(scale)`` and calls
``run_curves``; ``scale`` is "quick" (the subset the tests run), "default" (scaled to this
machine) or "full" (the paper's sizes).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Optional, Sequence

import topolab
from topolab._args import bad
from topolab._files import save_figure
from topolab.experiment.run import TIMING_COLUMNS
from topolab.reproduce import SetupRow, sim_params

SCALES = ("quick", "default", "full")


@dataclass(frozen=True)
class Execution:
    """Where the points of a reproduction run: ``workers`` local processes (default 1: in this
    process), or a Dask ``scheduler`` ('local' or an address); ``results`` keeps finished
    curves so that an interrupted run resumes (default: nothing kept)."""

    workers: Optional[int] = None
    scheduler: Optional[str] = None
    results: Optional[str | os.PathLike[str]] = None


@dataclass(frozen=True)
class Curve:
    """One latency-load curve of a figure: ``label`` (the paper's legend, e.g. "SF-MIN") of
    ``routing`` on ``network`` under ``traffic``, drawn in the plot's ``panel`` (default: the
    traffic). ``loads``: the offered loads run in increasing order up to the first saturated one
    (default: sweep_load's 0.1 steps), before the saturation search narrows the bracket.
    ``params``: simulator keywords this curve sets itself, each one a varied row of the setup
    table (``varied``) that lists it (a varied row listing None may be left unset: it does not
    apply to the curve)."""

    label: str
    network: str
    routing: str
    traffic: str
    loads: Optional[tuple[float, ...]] = None
    params: tuple[tuple[str, Any], ...] = ()
    panel: str = ""


@dataclass(frozen=True)
class Exchange:
    """One fixed exchange of a figure run to completion (kind "exchange"): ``label`` (the
    paper's legend, e.g. "INR") of ``routing`` on ``network``, the exchange spec ``exchange``
    (e.g. "alltoall:packets=30", docs/traffic.md "Exchanges"), drawn in ``panel``."""

    label: str
    network: str
    routing: str
    exchange: str
    panel: str = ""


def scale_of(quick: bool, full: bool = False) -> str:
    """The scale a reproduction's ``run(quick, full=...)`` runs at."""
    return "quick" if quick else "full" if full else "default"


def check_scale(scale: str) -> str:
    if scale not in SCALES:
        raise bad("reproduce", "scale", scale, f"one of {', '.join(SCALES)}")
    return scale


def varied(*values: Any) -> tuple[Any, ...]:
    """The topolab value of a setup row that differs between the curves of a figure (e.g.
    Fig. 8a's buffer sizes): every curve sets it in ``Curve.params`` to one of ``values``."""
    return tuple(values)


def loads_around(center: float, low: tuple[float, ...] = (0.1, 0.3)) -> tuple[float, ...]:
    """Offered loads for a saturation search expected near ``center`` (a static bound, or the
    load the paper states): ``low`` loads for the curve's shape, five around ``center`` (-0.1,
    -0.04, 0, +0.04, +0.1) and 1 (a sweep with explicit loads stops at the first saturated
    one; the saturation search then narrows the step that saturates)."""
    near = {round(min(1.0, max(0.02, center + d)), 4) for d in (-0.1, -0.04, 0.0, 0.04, 0.1)}
    start = min(near)
    return tuple(sorted({x for x in low if x < start - 1e-9} | near | {1.0}))


def default_execution(scale: str, execution: Optional[Execution]) -> Execution:
    """The execution asked for, else: the quick subset in this process, the other scales on
    every local core (one process per core)."""
    if execution is not None:
        return execution
    return Execution() if scale == "quick" else Execution(workers=os.cpu_count() or 1)


def network_row(paper: str, specs: Sequence[str], full: bool) -> SetupRow:
    """The setup row "network": the networks run with their sizes beside the paper's (``full``:
    the paper's own, else scaled down)."""
    built = []
    for spec in specs:
        net = topolab.build(spec)
        built.append(
            f"{spec}: {net.num_routers} routers, p = {max(net.endpoints)}, {net.num_endpoints} endpoints"
        )
    return SetupRow(
        "network",
        paper,
        "; ".join(built),
        "-" if full else "scaled down to fit this machine's two cores; static bounds in the bound column",
    )


def setup_value(table: Sequence[SetupRow], parameter: str) -> Any:
    """The topolab value of the row ``parameter`` of a setup table."""
    for row in table:
        if row.parameter == parameter:
            return row.topolab
    raise KeyError(parameter)


def run_points(
    name: str,
    kind: str,
    fixed: dict[str, Any],
    cases: Sequence[dict[str, Any]],
    execution: Execution = Execution(),
) -> Any:
    """The one runner of reproductions: every case (with ``fixed``) as one point of ``kind``
    (docs/experiments.md: sweep, exchange, analyze, cost, latency, ...) through the experiment
    package, on ``execution``'s workers or Dask scheduler, resuming from its results. Returns the
    results DataFrame, one row per case in order; a failed case raises ParameterError naming
    it and its error."""
    from topolab.experiment import run_experiment

    df = run_experiment(
        {"name": name, "kind": kind, "fixed": fixed, "cases": [dict(c) for c in cases]},
        results=execution.results,
        workers=execution.workers or 1,
        scheduler=execution.scheduler,
        progress=execution.workers is not None or execution.scheduler is not None,
    )
    failed = df[df["status"] != "ok"]
    if len(failed):
        row = failed.iloc[0]
        case = cases[int(row["point"])]
        if kind == "sweep":
            what = f"{case['routing']} / {case['traffic']} on {case['network']}"
        else:
            what = ", ".join(f"{k}={v}" for k, v in case.items())
        raise bad(
            f"reproduce {name}",
            "case",
            what,
            "a case that runs",
            message=f"reproduce {name}: {what} failed: {row['error']}",
        )
    return df


def run_curves(
    name: str,
    curves: Sequence[Curve],
    table: Sequence[SetupRow],
    tolerance: float,
    execution: Execution = Execution(),
) -> list[dict[str, Any]]:
    """Runs every curve as one "sweep" point with the setup table's simulator keywords and
    returns, per curve in order, ``{"curve": Curve, "saturation_load", "saturated_load",
    "saturation_throughput", "points": [one record per run]}`` (``saturated_load``: the bracket's
    upper end, ``sweep_load``; None when no run saturated). A failed curve raises ParameterError
    with its error."""
    fixed = {**sim_params(tuple(table)), "tolerance": tolerance, "seed": 1}
    varied_rows = {r.sim_param: r for r in table if r.sim_param and isinstance(r.topolab, tuple)}
    for c in curves:
        for key, value in c.params:
            row = varied_rows.get(key)
            if row is None or value not in row.topolab:
                raise bad(
                    f"reproduce {name}",
                    key,
                    value,
                    "a value the setup table's varied row lists",
                    message=f"reproduce {name}: curve {c.label!r} sets {key} = {value!r}, which no "
                    "varied row of the setup table lists (the table printed must be the setup run)",
                )
    # A curve leaves a varied row unset only where the row lists None (not applicable to it).
    missing = [
        k
        for k, row in varied_rows.items()
        if None not in row.topolab and any(k not in dict(c.params) for c in curves)
    ]
    if missing:
        raise bad(
            f"reproduce {name}",
            "curves",
            missing,
            "curves that each set every varied setup row",
            message=f"reproduce {name}: varied setup rows {missing} are not set by every curve",
        )
    cases = [
        {
            "network": c.network,
            "routing": c.routing,
            "traffic": c.traffic,
            # Without loads the sweep stops at the first saturated one of 0.1, 0.2, ...
            **({"loads": list(c.loads)} if c.loads else {}),
            **dict(c.params),
        }
        for c in curves
    ]
    df = run_points(name, "sweep", fixed, cases, execution)
    from topolab.sim import SWEEP_CURVE_COLUMNS

    out = []
    for curve, (_, row) in zip(curves, df.iterrows()):
        runs = len(row["offered_load"])
        # a curve stored before a column existed has no list there
        listed = {c: row[c] if hasattr(row.get(c), "__len__") else [None] * runs for c in SWEEP_CURVE_COLUMNS}
        points = [{c: _plain(listed[c][i]) for c in SWEEP_CURVE_COLUMNS} for i in range(runs)]
        upper = _plain(row.get("saturated_load"))
        upper = float(upper) if isinstance(upper, (int, float)) and upper == upper else None
        out.append(
            {
                "curve": curve,
                "saturation_load": float(row["saturation_load"]),
                "saturated_load": upper,
                "saturation_throughput": float(row["saturation_throughput"]),
                "points": points,
            }
        )
    return out


def bracket(measured: dict[str, Any], scale: float = 1.0) -> Optional[tuple[float, float]]:
    """A measured curve's saturation bracket (``run_curves``): (highest load carried, lowest
    saturated) times ``scale`` (100 for percent); None when no run saturated."""
    upper = measured.get("saturated_load")
    return None if upper is None else (scale * measured["saturation_load"], scale * upper)


def confidence(point: dict[str, Any], figure: str, scale: float = 1.0) -> Optional[tuple[float, float]]:
    """The 95% confidence interval of ``figure`` (``accepted_throughput`` or ``avg_latency``) of
    one run of a curve, from its half-width, times ``scale``; None without one."""
    half = point.get(f"{figure}_halfwidth")
    value = point.get(figure)
    if half is None or value is None or half != half or value != value:  # absent, or NaN
        return None
    return (scale * (value - half), scale * (value + half))


def run_exchanges(
    name: str,
    exchanges: Sequence[Exchange],
    table: Sequence[SetupRow],
    execution: Execution = Execution(),
) -> list[dict[str, Any]]:
    """Runs every exchange as one "exchange" point with the setup table's simulator keywords
    (seed 1) and returns, per exchange in order, ``{"exchange": Exchange, **its results}``
    (``name``: the exchange spec resolved, ``completion_cycles``, ``packets``,
    ``effective_throughput``, ...)."""
    cases = [{"network": x.network, "routing": x.routing, "exchange": x.exchange} for x in exchanges]
    df = run_points(name, "exchange", {**sim_params(tuple(table)), "seed": 1}, cases, execution)
    skip = {"point", "point_id", "kind", "status", "error", *cases[0], "seed", *TIMING_COLUMNS}
    skip |= set(sim_params(tuple(table)))
    return [
        {"exchange": x, **{k: _plain(v) for k, v in row.items() if k not in skip}}
        for x, (_, row) in zip(exchanges, df.iterrows())
    ]


def _plain(value: Any) -> Any:
    return value.item() if hasattr(value, "item") else value


def records(measured: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """The runs of measured curves as flat records (the reproduction's data): the curve's
    ``label``, ``network``, ``routing``, ``traffic``, ``panel``, its own setup keywords, then
    the run's columns."""
    out: list[dict[str, Any]] = []
    for m in measured:
        c = m["curve"]
        head = {
            "label": c.label,
            "network": c.network,
            "routing": c.routing,
            "traffic": c.traffic,
            "panel": c.panel or c.traffic,
            **dict(c.params),
        }
        out.extend({**head, **pt} for pt in m["points"])
    return out


def plot_curves(
    data: Sequence[dict[str, Any]],
    path: Path,
    title: str,
    *,
    x: str = "offered_load",
    y: str = "avg_latency",
    xlabel: str = "offered load [flits/endpoint/cycle]",
    ylabel: str = "latency [cycles]",
    logy: bool = False,
    series: str = "label",
) -> None:
    """``y`` against ``x``, one panel per ``panel`` of the records (``records``), one line per
    ``series`` value, saturated runs left out (matplotlib, Agg)."""
    import matplotlib.pyplot as plt

    panels = list(dict.fromkeys(d["panel"] for d in data))
    cols = min(3, len(panels))
    rows_n = (len(panels) + cols - 1) // cols
    fig, axes = plt.subplots(rows_n, cols, figsize=(5 * cols, 3.8 * rows_n), squeeze=False)
    for ax, value in zip(axes.flat, panels):
        mine = [d for d in data if d["panel"] == value]
        for label in dict.fromkeys(d[series] for d in mine):
            pts = sorted((d for d in mine if d[series] == label and not d["saturated"]), key=lambda d: d[x])
            if pts:
                ax.plot([d[x] for d in pts], [d[y] for d in pts], "o-", ms=3, label=str(label))
        ax.set_title(str(value), fontsize=9)
        ax.set_xlabel(xlabel)
        ax.set_ylabel(ylabel)
        if logy:
            ax.set_yscale("log")
        ax.set_xlim(left=0)
        ax.grid(True, alpha=0.3)
        ax.legend(fontsize=7)
    for ax in list(axes.flat)[len(panels) :]:
        ax.set_visible(False)
    fig.suptitle(title, fontsize=10)
    fig.tight_layout()
    save_figure(fig, path, dpi=110)
    plt.close(fig)


def plot_rows(rep: Any, path: Path, paper_label: str, topolab_label: str = "topolab") -> None:
    """The comparison rows as bars, paper beside topolab (and the static bound as a tick), one
    panel per column (matplotlib, Agg): for tables of saturation figures."""
    import matplotlib.pyplot as plt

    columns = list(dict.fromkeys(r.column for r in rep.rows))
    fig, axes = plt.subplots(len(columns), 1, figsize=(9, 2.6 * len(columns)), squeeze=False)
    for ax, column in zip(axes[:, 0], columns):
        mine = [r for r in rep.rows if r.column == column]
        x = list(range(len(mine)))
        ax.bar([i - 0.2 for i in x], [r.paper or 0.0 for r in mine], 0.4, label=paper_label)
        ax.bar([i + 0.2 for i in x], [r.topolab or 0.0 for r in mine], 0.4, label=topolab_label)
        bounded = [(i, r.bound) for i, r in zip(x, mine) if r.bound is not None]
        if bounded:
            ax.plot([i + 0.2 for i, _ in bounded], [b for _, b in bounded], "k_", ms=10, label="static bound")
        ax.set_xticks(x)
        ax.set_xticklabels([r.quantity for r in mine], fontsize=5, rotation=90)
        ax.set_title(column, fontsize=9)
        ax.legend(fontsize=6)
    fig.tight_layout()
    save_figure(fig, path, dpi=120)
    plt.close(fig)
