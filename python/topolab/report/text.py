"""The terminal summary of a comparison: what was asked, how many designs were considered and
measured, the Pareto front and the recommendation in words, readable without knowing topolab."""

from __future__ import annotations

import textwrap
from typing import TYPE_CHECKING

from topolab.report import tables

if TYPE_CHECKING:
    import pandas as pd

    from topolab.comparison import Comparison

OBJECTIVE_WORDS = {
    "cost_per_endpoint": "cost per endpoint (lower is better)",
    "bisection_per_endpoint": "bisection bandwidth per endpoint (higher)",
    "avg_latency_ns": "average latency (lower)",
    "saturation_uniform": "simulated saturation load, uniform traffic (higher)",
    "saturation_worst": "simulated saturation load, worst-case traffic (higher)",
    "saturation_failed": "simulated saturation load, uniform traffic, cables failed (higher)",
    "workload_cycles": "simulated completion time of the --workload job (lower)",
}
FRONT_ROWS = 10  # front members listed on the terminal; the report lists them all


def question(c: Comparison) -> str:
    s = c.settings
    return f"Which network for {s.endpoints:,} endpoints with routers of {s.radix} ports?"


def asked_lines(c: Comparison) -> list[tuple[str, str]]:
    """(label, text) pairs describing the question, the models and the counts."""
    from topolab.physical import load_catalog, load_floor

    s = c.settings
    lo, hi = s.endpoint_range()
    families = "all families topolab builds" if s.families is None else ", ".join(s.families)
    floor, catalog = load_floor(s.floor), load_catalog(s.catalog)
    considered = len(c.designs)
    n_families = c.designs["family"].nunique()
    if s.per_family is None:
        measured = f"all {len(c.frame):,} measured"
    else:
        measured = (
            f"{len(c.frame):,} measured: a shortlist of at most {s.per_family} per family "
            f"(balanced first, then load nearest 1; --all measures every one)"
        )
    lines = [
        (
            "asked",
            f"routers of at most {s.radix} ports, {lo:,} to {hi:,} endpoints "
            f"({s.endpoints:,} ±{s.endpoint_tolerance:.0%}), {families}, "
            + (
                "recommend balanced designs only"
                if s.oversubscription == 0
                else f"recommend designs up to {s.oversubscription:.0%} oversubscribed"
            )
            + (
                f" (designs up to {s.shown_oversubscription:.0%} oversubscribed shown, marked)"
                if s.shown_oversubscription > s.oversubscription
                else ""
            ),
        ),
        (
            "machine room",
            f"floor '{floor.name}' ({floor.description}); catalog '{catalog.name}' ({catalog.description})",
        ),
        (
            "latency",
            f"Fastest Routing, {s.switch_delay_ns:g} ns per switch, {s.cable_ns_per_m:g} ns/m "
            f"of cable, {s.injection_ns:g} ns injection + ejection",
        ),
        ("designs", f"{considered:,} feasible designs of {n_families} families considered; {measured}"),
        (
            "ranked by",
            "Pareto front over "
            + ", ".join(OBJECTIVE_WORDS.get(k, k) for k in c.objectives)
            + f": {int(c.frame['on_front'].sum())} designs",
        ),
    ]
    if s.resilience:
        lines.append(("resilience", "measured (random cable failures, Besta & Hoefler, SC14, §III-D)"))
    if s.simulate:
        router = simulated_router(c.frame)
        lines.append(
            (
                "simulation",
                "saturation load under uniform and the family's worst-case traffic, each with the "
                f"family's best routing (cycle-accurate, seed {s.seed}{'; ' + router if router else ''}), "
                "shown as its search's bracket (highest load carried–lowest saturated); "
                f"{simulated_size(c.frame)}",
            )
        )
    if s.failures is not None:
        lines.append(
            (
                "failures",
                f"saturation load with {s.failures:.4g} of the cables failed (links:fraction="
                f"{s.failures:g},seed={s.seed}), a column and an objective; degradation curves of "
                "the recommended design and the next designs of the front at "
                + ", ".join(f"{100 * f:.4g}%" for f in s.curve_fractions)
                + f" failed, {s.failure_seeds} failure set{'s' if s.failure_seeds > 1 else ''} "
                "each (seeds from the comparison's), beside each degraded graph's static bound",
            )
        )
    failed = c.failed
    if len(failed):
        lines.append(("failed", f"{len(failed)} designs could not be fully measured (see the report)"))
    return lines


def simulated_size(frame: pd.DataFrame) -> str:
    """Whether the simulated figures are of the designs at full size or of stand-ins, in words."""
    if "sim_endpoints" not in frame or not frame["sim_endpoints"].notna().any():
        return "no design could be simulated"
    done = frame[frame["sim_endpoints"].notna()]
    if "sim_full_size" in done:
        full = done["sim_full_size"].fillna(False).astype(bool)
    else:
        full = done["sim_endpoints"] < 0  # no column: all stand-ins
    parts = []
    if full.any():
        parts.append(f"{_designs(int(full.sum()))} simulated at full size")
    if (~full).any():
        sizes = done.loc[~full, "sim_endpoints"]
        parts.append(
            f"{_designs(int((~full).sum()))} from stand-ins of {int(sizes.min()):,} to "
            f"{int(sizes.max()):,} endpoints (a smaller member of each family, same structure and "
            "load: --simulate-scaled)"
        )
    return "; ".join(parts)


def simulated_router(frame: pd.DataFrame) -> str:
    """The router the simulated designs ran on (the ``sim_router`` column), "" when none is
    recorded (a frame from before the column)."""
    if "sim_router" not in frame:
        return ""
    return "; ".join(str(router) for router in frame["sim_router"].dropna().unique())


def _designs(count: int) -> str:
    return f"{count} design" + ("" if count == 1 else "s")


def summary(c: Comparison, width: int = 100, files: dict[str, str] | None = None) -> str:
    out = [f"topolab compare: {question(c)}", ""]
    label_width = max(len(label) for label, _ in asked_lines(c)) + 2
    for label, text in asked_lines(c):
        wrapped = textwrap.wrap(text, width - label_width) or [""]
        out.append(f"{label + ':':<{label_width}}{wrapped[0]}")
        out.extend(" " * label_width + w for w in wrapped[1:])
    out.append("")

    front = c.front
    out.append(f"Pareto front ({len(front)} designs, best first):")
    shown = front.head(FRONT_ROWS)
    out.extend(format_table(shown, tables.TERMINAL, width))
    if len(front) > FRONT_ROWS:
        out.append(f"... and {len(front) - FRONT_ROWS} more on the front (in the report)")
    out.append("")
    out.extend(degradation_lines(c, width))
    for sentence in c.recommendation:
        wrapped = textwrap.wrap(sentence, width, subsequent_indent="  ")
        out.extend(wrapped)
    if files:
        out.append("")
        out.append(f"Report: {files['html']}")
        data = ", ".join(str(files[k]) for k in ("csv", "parquet") if k in files)
        out.append(f"Data:   {data} (every measured design; designs.csv: every design considered)")
    return "\n".join(out)


def degradation_lines(c: Comparison, width: int = 100) -> list[str]:
    """The degradation curves in words: per design the saturation load at each failed fraction,
    the mean over the failure sets and the lowest-highest; nothing without curves."""
    from topolab.report.plots import degradation_summary, has_degradation, percent

    if not has_degradation(c.degradation):
        return []
    out = textwrap.wrap(
        "Saturation load, uniform traffic, as cables fail (mean over the failure sets, lowest-highest; "
        "static channel-load bound after '/'):",
        width,
    )
    for first, summary in degradation_summary(c.degradation):
        points = []
        for _, p in summary.iterrows():
            sat, low, high = p["saturation_load_mean"], p["saturation_load_min"], p["saturation_load_max"]
            span = f" ({low:.2f}-{high:.2f})" if low != high else ""
            bound = p["static_bound_mean"]
            bound_text = "-" if bound is None or bound != bound else f"{bound:.2f}"
            points.append(f"{percent(p['failed_fraction'])} {sat:.2f}{span} / {bound_text}")
        text = f"#{int(first['rank'])} {first['name']} @ {int(first['sim_endpoints']):,}: " + ", ".join(
            points
        )
        out.extend(textwrap.wrap(text, width, subsequent_indent="    "))
    out.append("")
    return out


# Terminal columns given up, in this order, until the table fits the width.
DROP_ORDER = ("cable_length_km", "power_per_endpoint_w", "routers", "max_latency_ns", "radix", "diameter")


def format_table(frame, keys, width: int = 1000) -> list[str]:
    """The table as lines, columns right-aligned (design names left), dropping columns of
    ``DROP_ORDER`` until the lines fit ``width``."""
    keys = list(keys)
    while True:
        columns, body = tables.rows(frame, keys)
        header = [col.header for col in columns]
        widths = [max(len(x) for x in col) for col in zip(header, *body)]
        dropping = [k for k in DROP_ORDER if k in keys and k in {c.key for c in columns}]
        if sum(widths) + 2 * (len(widths) - 1) <= width or not dropping:
            break
        keys.remove(dropping[0])
    lines = []
    for row in [header, *body]:
        cells = [x.ljust(w) if col.key == "name" else x.rjust(w) for x, w, col in zip(row, widths, columns)]
        lines.append("  ".join(cells).rstrip())
    return lines
