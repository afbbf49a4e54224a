"""Reports of ``topolab compare``: the terminal summary (``summary``), and in a directory the
self-contained, interactive HTML report with its plots as PNG files and the data as CSV and
Parquet (``write_report``). docs/compare.md §4 lists the files. The report reads a
``topolab.comparison.Comparison`` and imports nothing that computes one.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import TYPE_CHECKING, Union

import numpy as np

from topolab._files import atomic_write, has_module, import_matplotlib, write_bytes, write_text
from topolab.report.text import summary

if TYPE_CHECKING:
    from topolab.comparison import Comparison

__all__ = ["CABLE_HISTOGRAM_DESIGNS", "FILES", "cable_series", "summary", "write_report"]

# File names inside the report directory.
FILES = {
    "html": "report.html",
    "csv": "compare.csv",
    "parquet": "compare.parquet",
    "designs_csv": "designs.csv",
    "designs_parquet": "designs.parquet",
    "summary": "summary.json",
    "cost_bandwidth": "cost_bandwidth.png",
    "moore": "moore_bound.png",
    "cable_lengths": "cable_lengths.png",
    "latency_load": "latency_load.png",
    "workload": "workload.png",
    "degradation": "degradation.png",
    "degradation_csv": "degradation.csv",
}
# The recommended design and the next front members in the cable-length histogram.
CABLE_HISTOGRAM_DESIGNS = 5


def cable_series(
    c: Comparison, count: int = CABLE_HISTOGRAM_DESIGNS, scan: int = 25
) -> list[tuple[str, np.ndarray, np.ndarray]]:
    """(label, length of each link, cables per link) on the comparison's floor
    (``topolab.cable_lengths``) for the recommended design and the next front members in rank
    order, at most ``count`` different cable plants among the first ``scan`` front members.
    Designs with the same cables (a Slim Fly with another p) join the label of the first."""
    from topolab.network import build
    from topolab.physical import cable_lengths

    rows = [c.frame.iloc[0]] + [row for _, row in c.front.iloc[1:scan].iterrows()]
    series: list[tuple[list[str], np.ndarray, np.ndarray, np.ndarray]] = []
    for row in rows:
        net = build(str(row["spec"]))
        lengths = np.asarray(cable_lengths(net, c.settings.floor), dtype=float)
        widths = np.asarray([w for (_, _, w, _) in net.links], dtype=float)
        plant = np.sort(np.repeat(lengths, widths.astype(int)))
        same = next((s for s in series if np.array_equal(s[3], plant)), None)
        if same is not None:
            same[0].append(str(row["name"]))
        elif len(series) < count:
            series.append(([str(row["name"])], lengths, widths, plant))
    return [
        (names[0] + (f" and {len(names) - 1} more with these cables" if names[1:] else ""), lengths, widths)
        for names, lengths, widths, _ in series
    ]


def write_report(c: Comparison, directory: Union[str, os.PathLike]) -> dict[str, str]:
    """Writes the report files into ``directory`` (created if needed) and returns their paths
    by kind (the keys of ``FILES``). Existing files of those names are replaced."""
    import_matplotlib()  # before plots imports it: an unknown MPLBACKEND is dropped
    from topolab.report import html, plots
    from topolab.report.styles import family_styles

    out = Path(directory)
    out.mkdir(parents=True, exist_ok=True)
    paths = {k: str(out / name) for k, name in FILES.items()}

    # Every file goes through atomic_write: a failure or interruption leaves the old file or
    # the whole new one, never half of one.
    # Parquet copies only where pyarrow is installed (the optional extra topolab[parquet]); the
    # CSV files hold the same frames.
    with_parquet = has_module("pyarrow")
    for frame, csv, parquet in [(c.frame, "csv", "parquet"), (c.designs, "designs_csv", "designs_parquet")]:
        with atomic_write(paths[csv], newline="") as f:
            frame.to_csv(f, index=False)
        if with_parquet:
            with atomic_write(paths[parquet], "wb") as f:
                frame.to_parquet(f, index=False)
        else:
            del paths[parquet]
    summary_data = {k: v for k, v in c.to_dict().items() if k != "designs"}
    write_text(paths["summary"], json.dumps(summary_data, indent=2) + "\n")

    styles = family_styles(c.designs["family_name"])
    images = {
        "cost_bandwidth": plots.png(plots.cost_bandwidth(c.frame, styles=styles)),
        "moore": plots.png(plots.moore(c.frame)),
        "cable_lengths": plots.png(plots.cable_lengths(cable_series(c), c.settings.floor)),
    }
    if plots.has_simulation(c.frame):
        images["latency_load"] = plots.png(plots.latency_load(c.frame))
    if plots.has_workload(c.frame):
        images["workload"] = plots.png(plots.workload_cost(c.frame, styles=styles))
    if c.degradation is not None and plots.has_degradation(c.degradation):
        images["degradation"] = plots.png(plots.degradation(c.degradation))
        with atomic_write(paths["degradation_csv"], newline="") as f:
            c.degradation.to_csv(f, index=False)
    else:
        del paths["degradation_csv"]
    for name, data in images.items():
        write_bytes(paths[name], data)
    for kind in ("latency_load", "workload", "degradation"):  # drawn only with simulation results
        if kind not in images:
            del paths[kind]
    listed = {kind: FILES[kind] for kind in paths if kind != "html"}
    write_text(paths["html"], html.render(c, images, listed, styles))
    return paths
