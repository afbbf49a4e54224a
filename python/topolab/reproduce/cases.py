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

from topolab._core import ParameterError
from topolab._files import save_figure
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
    ``routing`` on ``network`` under ``traffic``."""

    label: str
    network: str
    routing: str
    traffic: str


def check_scale(scale: str) -> str:
    if scale not in SCALES:
        raise ParameterError(
            f"reproduce: parameter 'scale' = {scale!r} is not allowed: one of {', '.join(SCALES)}"
        )
    return scale


def setup_value(table: Sequence[SetupRow], parameter: str) -> Any:
    """The topolab value of the row ``parameter`` of a setup table."""
    for row in table:
        if row.parameter == parameter:
            return row.topolab
    raise KeyError(parameter)


def run_curves(
    name: str,
    curves: Sequence[Curve],
    table: Sequence[SetupRow],
    tolerance: float,
    execution: Execution = Execution(),
) -> list[dict[str, Any]]:
    """Runs every curve as one "sweep" point with the setup table's simulator keywords and
    returns, per curve in order, ``{"curve": Curve, "saturation_load", "saturation_throughput",
    "points": [one record per run]}``. A failed curve raises ParameterError with its error."""
    from topolab.experiment import run_experiment

    experiment = {
        "name": name,
        "kind": "sweep",
        "fixed": {**sim_params(tuple(table)), "tolerance": tolerance, "seed": 1},
        "cases": [{"network": c.network, "routing": c.routing, "traffic": c.traffic} for c in curves],
    }
    df = run_experiment(
        experiment,
        results=execution.results,
        workers=execution.workers or 1,
        scheduler=execution.scheduler,
        progress=execution.workers is not None or execution.scheduler is not None,
    )
    failed = df[df["status"] != "ok"]
    if len(failed):
        row = failed.iloc[0]
        raise ParameterError(
            f"reproduce {name}: {row['routing']} / {row['traffic']} on {row['network']} failed: "
            f"{row['error']}"
        )
    from topolab.sim import SWEEP_CURVE_COLUMNS

    out = []
    for curve, (_, row) in zip(curves, df.iterrows()):
        runs = len(row["offered_load"])
        points = [{c: _plain(row[c][i]) for c in SWEEP_CURVE_COLUMNS} for i in range(runs)]
        out.append(
            {
                "curve": curve,
                "saturation_load": float(row["saturation_load"]),
                "saturation_throughput": float(row["saturation_throughput"]),
                "points": points,
            }
        )
    return out


def _plain(value: Any) -> Any:
    return value.item() if hasattr(value, "item") else value


def plot_curves(data: Sequence[dict[str, Any]], path: Path, title: str, panel: str = "traffic") -> None:
    """Latency against offered load, one panel per value of ``panel`` in the records, one line
    per ``routing`` label, saturated runs left out (matplotlib, Agg)."""
    import matplotlib.pyplot as plt

    panels = list(dict.fromkeys(d[panel] for d in data))
    cols = min(3, len(panels))
    rows_n = (len(panels) + cols - 1) // cols
    fig, axes = plt.subplots(rows_n, cols, figsize=(5 * cols, 3.8 * rows_n), squeeze=False)
    for ax, value in zip(axes.flat, panels):
        for label in dict.fromkeys(d["routing"] for d in data if d[panel] == value):
            pts = sorted(
                (d for d in data if d[panel] == value and d["routing"] == label and not d["saturated"]),
                key=lambda d: d["offered_load"],
            )
            if pts:
                ax.plot(
                    [d["offered_load"] for d in pts], [d["avg_latency"] for d in pts], "o-", ms=3, label=label
                )
        ax.set_title(str(value))
        ax.set_xlabel("offered load [flits/endpoint/cycle]")
        ax.set_ylabel("latency [cycles]")
        ax.set_xlim(0, 1)
        ax.grid(True, alpha=0.3)
        ax.legend(fontsize=7)
    for ax in list(axes.flat)[len(panels) :]:
        ax.set_visible(False)
    fig.suptitle(title)
    fig.tight_layout()
    save_figure(fig, path, dpi=110)
    plt.close(fig)
