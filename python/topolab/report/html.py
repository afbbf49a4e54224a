"""The HTML report of a comparison: one self-contained file rendered from the jinja2 templates in
``templates/``. The answer comes first (the recommended design against the runner-up and the
best competitive alternative on each objective: ``topolab.report.answer``), then the chart and
the Pareto front, the reasons and the method after. Tables are written out in full (every row in
the page, on screen and in print) and DataTables adds sorting and filtering; the cost-bandwidth
chart is drawn by the report's own script (``templates/chart.js``), with a hover naming each
design; the other plots are the PNG files' bytes, embedded. Everything is inline, so the file
needs no network when it is viewed (``topolab.report.interactive``)."""

from __future__ import annotations

import base64
from typing import TYPE_CHECKING, Any, Sequence

from topolab.references import REFERENCES, cite
from topolab.report import answer, interactive, plots, tables
from topolab.report.styles import Style
from topolab.report.text import OBJECTIVE_WORDS, asked_lines, question, simulated_router, simulated_size

if TYPE_CHECKING:
    import pandas as pd

    from topolab.comparison import Comparison

# Columns shown as text: left-aligned, wrapped, sorted as shown.
TEXT_COLUMNS = frozenset(
    {
        "name",
        "family_name",
        "tags",
        "spec",
        "sim_network",
        "sim_uniform",
        "sim_worst",
        "sim_note",
        "recommendable",
    }
)


def _environment():
    import jinja2

    return jinja2.Environment(
        loader=jinja2.PackageLoader("topolab.report", "templates"),
        autoescape=jinja2.select_autoescape(["html", "j2"]),
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )


def table(frame: pd.DataFrame, keys: Sequence[str], table_id: str, highlight: bool = True) -> dict[str, Any]:
    """A table for the ``table`` macro: its columns (header, tooltip) and rows of cells (text
    shown, the number a click on the header sorts by), the recommended row and the front marked."""
    columns = tables.present(frame, keys)
    head = [
        {"header": c.header, "title": c.title, "cls": "text" if c.key in TEXT_COLUMNS else ""}
        for c in columns
    ]
    rows = []
    for _, row in frame.iterrows():
        cls = []
        if highlight and "rank" in row.index and row["rank"] == 1:
            cls.append("best")
        elif highlight and bool(row.get("on_front", False)):
            cls.append("front")
        if highlight and not bool(row.get("recommendable", True)):
            cls.append("over")
        cells = [
            {
                "text": tables.row_cell(row, c),
                "order": None if c.key in TEXT_COLUMNS else tables.sort_key(row[c.source]),
                "cls": " ".join(x for x in ("text" if c.key in TEXT_COLUMNS else "", c.key) if x),
                "spec": str(row["spec"]) if c.key == "name" and "spec" in row.index else None,
            }
            for c in columns
        ]
        rows.append({"cls": " ".join(cls), "cells": cells})
    return {"id": table_id, "columns": head, "rows": rows, "sortable": True}


def _considered_table(c: Comparison) -> dict[str, Any]:
    d = c.designs
    rows = []
    for family in dict.fromkeys(d["family"]):
        part = d[d["family"] == family]
        counts = (len(part), int(part["balanced"].sum()), int(part["measured"].sum()))
        cells = [{"text": str(part["family_name"].iloc[0]), "order": None, "cls": "text"}]
        cells += [{"text": f"{n:,}", "order": str(n), "cls": ""} for n in counts]
        rows.append({"cls": "", "cells": cells})
    head = [
        {"header": "family", "title": "topology family", "cls": "text"},
        {"header": "designs", "title": "feasible designs found", "cls": ""},
        {"header": "balanced", "title": "of them balanced (load <= 1)", "cls": ""},
        {"header": "measured", "title": "of them measured", "cls": ""},
    ]
    return {"id": "considered-table", "columns": head, "rows": rows, "sortable": True}


def _figures(c: Comparison, images: dict[str, bytes]) -> list[dict[str, Any]]:
    """The plots shown as pictures, in order: Moore bound, cable lengths, simulation."""
    s = c.settings
    out: list[dict[str, Any]] = []
    if "moore" in images:
        out.append(
            {
                "key": "moore",
                "title": "Moore bound",
                "alt": "routers against network radix with the Moore bounds",
                "caption": "The Moore bound M(d, D) is the most routers a network of network radix d and "
                f"diameter D can have ({cite('000', '§II-A')}). Designs near the "
                "diameter-2 curve use "
                "their ports best; directed designs (triangles) have a lower, directed bound "
                f"({cite('002', '§I')}).",
            }
        )
    if "cable_lengths" in images:
        out.append(
            {
                "key": "cable_lengths",
                "title": "Cable lengths",
                "alt": "histogram of cable lengths",
                "caption": "Router-to-router cables of the recommended design and the next designs of the "
                f"front, placed on the '{s.floor}' floor by their family's rule. Cables up to the "
                "floor's electric limit are electric, longer ones optical.",
            }
        )
    simulated = [
        k for k in ("saturation_uniform", "saturation_worst") if k in c.frame and c.frame[k].notna().any()
    ]
    if simulated:
        data = c.frame.dropna(subset=simulated, how="all")
        scaled = f" {simulated_size(data).capitalize()} (columns 'sim. endpoints', 'simulated as')."
        routers = simulated_router(data)
        router = f" Routers: {routers}." if routers else ""
        entry: dict[str, Any] = {
            "key": "simulation",
            "title": "Simulation",
            "text": "Saturation load from the cycle-accurate simulator: the highest offered load the "
            "network carries, in flits per sending endpoint per cycle (1 = every endpoint injecting "
            "at full rate), under uniform traffic and under the family's worst-case "
            "pattern, each with the family's best available routing (columns 'uniform', 'worst "
            "case'), for each family's best designs. Each is shown as its search's bracket, "
            "'62–63%': the highest load a run carried and the lowest it saturated at (at most 0.01 "
            "apart; one figure when even full load was carried); the charts draw it as an error bar "
            "up. The search starts at the static channel-load "
            f"bound and ends each run once its verdict is clear.{router}{scaled}",
            "table": table(data, ["rank", "name", *simulated, *tables.SIMULATION], "simulation-table"),
        }
        if "latency_load" in images:
            entry.update(
                alt="latency against offered load",
                caption="Average packet latency against offered load on the simulated networks of the "
                "recommended design and the next designs of the front, a colour and marker per design "
                "(label: design @ simulated endpoints). The points are the loads the saturation search ran: "
                "joined up to the saturation load, hollow above it (a saturated run's average latency is of "
                "the packets delivered before it ended, not a steady value); a design whose one run carried "
                "full load is a single point, named beside it. The error bars are each run's 95% confidence "
                "interval of its average latency (batch means over its sample periods; none where a run "
                "measured a single period).",
                image="latency_load",
            )
        out.append(entry)
    if "workload" in images:
        data = c.frame.dropna(subset=["workload_cycles"])
        out.append(
            {
                "key": "workload",
                "title": "Workload",
                "text": "Completion time of the job given to --workload (docs/workloads.md) on each "
                "simulated design, in the simulator's cycles, with its bus bandwidth (NCCL's busbw) over "
                "one link's; the job runs on the network simulated (the design or its stand-in), on as "
                "many ranks as the job asks (default: every endpoint), with the family's routing for "
                "its worst case (adaptive where the family has one: a collective's steps are permutations).",
                "table": table(
                    data,
                    [
                        "rank",
                        "name",
                        "cost_per_endpoint",
                        "workload_cycles",
                        "workload_busbw",
                        "sim_endpoints",
                        "sim_workload",
                    ],
                    "workload-table",
                ),
                "alt": "workload completion against cost per endpoint",
                "caption": "Completion time of the workload against cost per endpoint, one point per "
                "simulated design (label: rank @ simulated endpoints); lower left is better.",
                "image": "workload",
            }
        )
    if plots.has_degradation(c.degradation):
        out.append(_degradation_entry(c))
    for entry in out:
        key = entry.get("image", entry["key"])
        entry["png"] = base64.b64encode(images[key]).decode("ascii") if key in images else None
    return out


def _span(summary: pd.Series, key: str, digits: int = 3) -> tuple[str, str | None]:
    """A summary's mean with the lowest and highest in parentheses when they differ, and the
    mean to sort by."""
    mean, low, high = (summary[f"{key}_{part}"] for part in ("mean", "min", "max"))
    if mean is None or mean != mean:
        return "–", None
    text = f"{mean:.{digits}f}"
    if low != high:
        text += f" ({low:.{digits}f}–{high:.{digits}f})"
    return text, repr(float(mean))


def _degradation_entry(c: Comparison) -> dict[str, Any]:
    """The section of ``compare --failed-fraction``: the degradation curves of the front's simulated
    designs, their table and their figure."""
    s = c.settings
    head = [
        {"header": "rank", "title": "rank of the design in the comparison", "cls": ""},
        {"header": "design", "title": "the design", "cls": "text"},
        {"header": "simulated as", "title": "the network simulated, and its routing", "cls": "text"},
        {"header": "failed", "title": "share of the cables failed at random", "cls": ""},
        {"header": "sets", "title": "failure sets (seeds) simulated", "cls": ""},
        {
            "header": "static bound",
            "title": "1 / the busiest channel's load (mean, lowest–highest)",
            "cls": "",
        },
        {"header": "saturation", "title": "simulated saturation load (mean, lowest–highest)", "cls": ""},
        {"header": "endpoints", "title": "endpoints still connected (mean, lowest–highest)", "cls": ""},
        {"header": "VCs", "title": "virtual channels simulated", "cls": ""},
    ]
    rows = []
    for first, summary in plots.degradation_summary(c.degradation):
        for _, point in summary.iterrows():
            cells = [
                {"text": str(int(first["rank"])), "order": str(int(first["rank"])), "cls": ""},
                {"text": str(first["name"]), "order": None, "cls": "text"},
                {"text": f"{first['sim_network']} / {first['routing']}", "order": None, "cls": "text"},
                {
                    "text": plots.percent(point["failed_fraction"]),
                    "order": repr(float(point["failed_fraction"])),
                    "cls": "",
                },
                {"text": str(int(point["seeds"])), "order": str(int(point["seeds"])), "cls": ""},
            ]
            for key, digits in (
                ("static_bound", 3),
                ("saturation_load", 3),
                ("surviving_endpoints", 0),
                ("num_vcs", 0),
            ):
                text, order = _span(point, key, digits)
                cells.append({"text": text, "order": order, "cls": ""})
            rows.append({"cls": "", "cells": cells})
    seeds = f"seeds {s.seed} to {s.seed + s.failure_seeds - 1}" if s.failure_seeds > 1 else f"seed {s.seed}"
    return {
        "key": "degradation",
        "title": "Degradation as cables fail",
        "text": "Saturation load under uniform traffic with "
        + ", ".join(plots.percent(f) for f in s.curve_fractions)
        + f" of the cables failed at random, on the networks simulated for the recommended design "
        f"and the next designs of the front (--failed-fraction {s.failures:g}; --failure-fractions): "
        f"{s.failure_seeds} failure set{'s' if s.failure_seeds > 1 else ''} per fraction "
        f"(links:fraction=F,seed=S, {seeds}; one at 0%, which fails nothing), each a saturation "
        "search of the simulator as for the other columns, with the family's uniform routing where "
        "it is computed from the surviving graph and minimal routing otherwise, the VCs the "
        "degraded graph needs. Beside each, the static channel-load bound of that degraded graph "
        "(1 / the busiest channel's load under the same routing and traffic). Loads are per "
        "surviving endpoint; endpoints cut off by the failures are counted in 'endpoints' and "
        "their traffic is excluded. Each figure is the mean over the failure sets, in parentheses "
        "the lowest and highest (the range of the sets, not a confidence interval). "
        "docs/resilience.md says how to read them; degradation.csv has every search.",
        "table": {"id": "degradation-table", "columns": head, "rows": rows, "sortable": True},
        "alt": "saturation load against the share of cables failed",
        "caption": "Saturation load against the share of cables failed, a colour and marker per "
        "design (label: design @ simulated endpoints): simulated (solid) and the static "
        "channel-load bound of the degraded graphs (dashed, hollow markers). Points: the mean "
        "over the failure sets; bars: from the lowest to the highest. A simulated load cannot exceed "
        "1 (every endpoint injecting at full rate); the bound can.",
        "image": "degradation",
    }


def _design(row: Any) -> dict[str, Any]:
    return {"rank": int(row["rank"]), "name": str(row["name"]), "spec": str(row.get("spec", ""))}


def _answer(c: Comparison) -> dict[str, Any]:
    """The first screen: the recommended design against the runner-up and the best competitive
    alternative on each objective (``topolab.report.answer``), formatted."""
    frame = c.frame
    best = frame[frame["rank"] == 1].iloc[0]
    second = frame[(frame["rank"] == 2) & frame["on_front"].astype(bool)]
    base_cost = answer.value(best, "cost_per_endpoint")
    rows = []
    for o in answer.objectives(frame, c.objectives):
        entry: dict[str, Any] = {
            "column": o.column,
            "words": answer.SHORT.get(o.column, OBJECTIVE_WORDS.get(o.column, o.column).split(" (")[0]),
            "better": "lower is better" if o.sense == "min" else "higher is better",
            "recommended": answer.show(o.column, o.recommended),
            "runner_up": answer.show(o.column, o.runner_up),
            "runner_up_change": answer.change(o.runner_up, o.recommended, o.sense),
            "alternative": None,
            "beyond": None,
        }
        for key in ("alternative", "beyond"):
            row = getattr(o, key)
            if row is None:
                continue
            number = answer.value(row, o.column)
            cost = answer.value(row, "cost_per_endpoint")
            entry[key] = {
                **_design(row),
                "value": answer.show(o.column, number),
                "change": answer.change(number, o.recommended, o.sense),
                "cost": answer.show("cost_per_endpoint", cost),
                "times": "" if cost is None or not base_cost else f"{cost / base_cost:.1f}x",
            }
        rows.append(entry)
    trades = [(f"{r['runner_up_change'][1]} {r['words']}", r["runner_up_change"][2]) for r in rows]
    return {
        "best": {
            **_design(best),
            "size": f"{int(best['endpoints']):,} endpoints on {int(best['routers']):,} routers of radix "
            f"{int(best['radix'])}",
        },
        "runner_up": _design(second.iloc[0]) if len(second) else None,
        "gains": [words for words, verdict in trades if verdict == "better"],
        "losses": [words for words, verdict in trades if verdict == "worse"],
        "objectives": rows,
        "factor": f"{answer.COST_FACTOR:g}",
        "competitive": len(answer.competitive(frame)),
        "front": len(c.front),
    }


def _far_out_words(frame: pd.DataFrame, y: str) -> str:
    """The sentence naming the designs that the chart's first view leaves out."""
    data = frame.dropna(subset=["cost_per_endpoint", y])
    high = plots.far_out(data[y].to_numpy(float))
    if not high.any():
        return ""
    names = ", ".join(f"#{int(r['rank'])} {r['name']}" for _, r in data[high].iterrows())
    return f"Far out in bandwidth, above the first view ('show all' under the chart shows them): {names}."


def render(
    c: Comparison, images: dict[str, bytes], files: dict[str, str], styles: dict[str, Style] | None = None
) -> str:
    """The report as one HTML string. ``images`` maps plot names (``moore``, ``cable_lengths``,
    ``latency_load``) to PNG bytes; ``files`` names the files written beside it; ``styles``
    the look of each family (as in the PNG files)."""
    from topolab.report.styles import family_styles

    s = c.settings
    frame = c.frame
    styles = family_styles(c.designs["family_name"]) if styles is None else styles
    words = [OBJECTIVE_WORDS.get(k, k).split(" (")[0] for k in c.objectives]
    y = plots.bandwidth_column(frame)
    costs = frame["cost_per_endpoint"].dropna()
    js, css = interactive.datatables_assets()
    context = {
        "s": s,
        "question": question(c),
        "recommendation": list(c.recommendation),
        "answer": _answer(c),
        "front_count": len(c.front),
        "objectives": ", ".join(words[:-1]) + " and " + words[-1] if len(words) > 1 else words[0],
        "allowed": "balanced"
        if s.oversubscription == 0
        else f"at most {s.oversubscription:.0%} oversubscribed",
        "asked": asked_lines(c),
        "tables": {
            "front": table(c.front, tables.FRONT, "front-table"),
            "per_family": table(tables.best_per_family(frame), tables.FRONT, "per-family-table"),
            "all": table(frame, tables.HTML, "all-table"),
            "considered": _considered_table(c),
        },
        "cost_bandwidth_chart": interactive.cost_bandwidth_chart(
            frame, y, plots.BANDWIDTH_LABELS.get(y, y), styles
        ),
        "far_out": _far_out_words(frame, y),
        "cost_log": len(costs) > 0 and costs.min() > 0 and costs.max() / costs.min() > 3,
        "figures": [f for f in _figures(c, images) if f.get("png") or f.get("table")],
        "measured_count": len(frame),
        "failed": [(str(r["name"]), str(r["error"])) for _, r in c.failed.iterrows()],
        "measurements": c.measurements,
        "glossary": tables.present(frame, tables.HTML),
        "references": [r.full for r in REFERENCES.values()],
        "cite": cite,
        "listed": files,
        "files": files,
        "enumerate_s": c.enumerate_s,
        "measure_s": c.measure_s,
        "datatables_js": js,
        "datatables_css": css,
    }
    import markupsafe

    for raw in ("cost_bandwidth_chart", "datatables_css"):
        context[raw] = markupsafe.Markup(context[raw])
    return _environment().get_template("report.html.j2").render(**context)
