"""The self-contained HTML report of a comparison: one file, styles inline, plots embedded as
base64 PNG (the same bytes as the PNG files written beside it), no script, no external link."""

from __future__ import annotations

import base64
import html
from typing import TYPE_CHECKING, Sequence

from topolab.report import tables
from topolab.report.text import asked_lines, question

if TYPE_CHECKING:
    import pandas as pd

    from topolab.comparison import Comparison

STYLE = """
body { font-family: system-ui, -apple-system, "Segoe UI", sans-serif; margin: 2em auto;
       max-width: 1280px; padding: 0 1em; color: #1d1d1f; line-height: 1.45; }
h1 { font-size: 1.6em; margin-bottom: 0.2em; } h2 { margin-top: 1.8em; border-bottom: 1px solid #ddd; }
table { border-collapse: collapse; font-size: 0.82em; margin: 0.6em 0; }
th, td { padding: 0.25em 0.55em; border-bottom: 1px solid #e4e4e4; text-align: right; white-space: nowrap; }
th { background: #f3f3f5; position: sticky; top: 0; }
td.name, th.name, td.text { text-align: left; }
tr.front td { background: #f2f8ff; } tr.best td { background: #fff6d6; font-weight: 600; }
dl.asked { display: grid; grid-template-columns: max-content auto; gap: 0.2em 1em; }
dl.asked dt { font-weight: 600; } dl.asked dd { margin: 0; }
.recommended { background: #fff6d6; border-left: 4px solid #e0b000; padding: 0.6em 1em; }
figure { margin: 1em 0; } figure img { max-width: 100%; border: 1px solid #eee; }
figcaption { font-size: 0.88em; color: #555; max-width: 60em; }
.scroll { overflow-x: auto; max-height: 40em; }
p.note, li { font-size: 0.92em; }
"""


def _table(frame: pd.DataFrame, keys: Sequence[str], highlight: bool = True) -> str:
    columns, body = tables.rows(frame, keys)
    head = "".join(
        f'<th class="{"name" if c.key in ("name", "tags", "spec") else ""}" title="{html.escape(c.title)}">'
        f"{html.escape(c.header)}</th>"
        for c in columns
    )
    out = [f"<table><thead><tr>{head}</tr></thead><tbody>"]
    for (_, row), cells in zip(frame.iterrows(), body):
        cls = ""
        if highlight and "rank" in row.index and row["rank"] == 1:
            cls = "best"
        elif highlight and bool(row.get("on_front", False)):
            cls = "front"
        tds = "".join(
            f'<td class="{"name" if c.key in ("name", "tags", "spec") else ""}">{html.escape(x)}</td>'
            for c, x in zip(columns, cells)
        )
        out.append(f'<tr class="{cls}">{tds}</tr>')
    out.append("</tbody></table>")
    return "\n".join(out)


def _figure(png: bytes, alt: str, caption: str) -> str:
    data = base64.b64encode(png).decode("ascii")
    return (
        f'<figure><img src="data:image/png;base64,{data}" alt="{html.escape(alt)}">'
        f"<figcaption>{html.escape(caption)}</figcaption></figure>"
    )


def _simulation_section(frame: pd.DataFrame, images: dict[str, bytes]) -> str:
    """Only when simulated saturation columns have values: their table and the latency-load
    curves (nothing is drawn without simulation results)."""
    keys = [k for k in ("saturation_uniform", "saturation_worst") if k in frame and frame[k].notna().any()]
    if not keys:
        return ""
    data = frame.dropna(subset=keys, how="all")
    sizes = sorted({int(n) for n in data["sim_endpoints"].dropna()}) if "sim_endpoints" in data else []
    scaled = (
        f" Simulated at {min(sizes):,} to {max(sizes):,} endpoints: each design as a smaller member "
        "of its family with the same structure and load (column 'simulated as'), since the "
        "full-size networks are too slow to simulate here."
        if sizes
        else ""
    )
    parts = [
        "<h2>Simulation</h2>",
        "<p>Saturation throughput from the cycle-accurate simulator: the highest accepted "
        "throughput, in flits per endpoint per cycle (1 = every endpoint injecting at full rate), "
        "under uniform traffic and under the family's worst-case pattern, each with the family's "
        f"best available routing (columns 'uniform', 'worst case').{scaled}</p>",
        '<div class="scroll">' + _table(data, ["rank", "name", *keys, *tables.SIMULATION]) + "</div>",
    ]
    if "latency_load" in images:
        parts.append(
            _figure(
                images["latency_load"],
                "latency against offered load",
                "Average packet latency against offered load on the simulated networks of the "
                "recommended design and the next designs of the front (label: design @ simulated "
                "endpoints). A curve ends at the first load past saturation.",
            )
        )
    return "".join(parts)


def render(c: Comparison, images: dict[str, bytes], files: dict[str, str]) -> str:
    """The report as one HTML string. ``images`` maps plot names (``cost_bandwidth``,
    ``moore``, ``cable_lengths``) to PNG bytes; ``files`` names the files written beside it."""
    s = c.settings
    frame = c.frame
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        f"<title>topolab compare: radix {s.radix}, {s.endpoints:,} endpoints</title>",
        f"<style>{STYLE}</style></head><body>",
        f"<h1>topolab compare: {html.escape(question(c))}</h1>",
        '<dl class="asked">',
    ]
    for label, text in asked_lines(c):
        parts.append(f"<dt>{html.escape(label)}</dt><dd>{html.escape(text)}</dd>")
    parts.append("</dl>")

    parts.append("<h2>Recommendation</h2>")
    for i, sentence in enumerate(c.recommendation):
        cls = ' class="recommended"' if i == 0 else ""
        parts.append(f"<p{cls}>{html.escape(sentence)}</p>")

    front = c.front
    parts.append(f"<h2>Pareto front ({len(front)} designs)</h2>")
    from topolab.report.text import OBJECTIVE_WORDS

    words = [OBJECTIVE_WORDS.get(k, k).split(" (")[0] for k in c.objectives]
    listed = ", ".join(words[:-1]) + " and " + words[-1] if len(words) > 1 else words[0]
    allowed = "balanced" if s.oversubscription == 0 else f"at most {s.oversubscription:.0%} oversubscribed"
    parts.append(
        f'<p class="note">No design on the front is beaten on all of {html.escape(listed)} by '
        f"another measured {allowed} design (only those may be recommended; the others are listed "
        "after them, marked). Order: score, the mean over the objectives of each value relative to "
        "the best one.</p>"
    )
    parts.append('<div class="scroll">' + _table(front, tables.FRONT) + "</div>")

    if "cost_bandwidth" in images:
        parts.append("<h2>Cost against bandwidth</h2>")
        parts.append(
            _figure(
                images["cost_bandwidth"],
                "cost per endpoint against bandwidth per endpoint",
                "Every measured design, coloured by family. Ringed: the Pareto front over cost, "
                "bandwidth and latency, so a ringed design that looks beaten in this plane wins on "
                "latency. Star: the recommendation.",
            )
        )

    parts.append("<h2>Best design of each family</h2>")
    parts.append('<div class="scroll">' + _table(tables.best_per_family(frame), tables.FRONT) + "</div>")

    if "moore" in images:
        parts.append("<h2>Moore bound</h2>")
        parts.append(
            _figure(
                images["moore"],
                "routers against network radix with the Moore bounds",
                "The Moore bound M(d, D) is the most routers a network of network radix d and "
                "diameter D can have (000 §II-A). Designs near the diameter-2 curve use their ports "
                "best; directed designs (triangles) have a lower, directed bound (002 §I).",
            )
        )
    if "cable_lengths" in images:
        parts.append("<h2>Cable lengths</h2>")
        parts.append(
            _figure(
                images["cable_lengths"],
                "histogram of cable lengths",
                f"Router-to-router cables of the recommended design and the next designs of the "
                f"front, placed on the '{s.floor}' floor by their family's rule. Cables up to the "
                "floor's electric limit are electric, longer ones optical.",
            )
        )

    parts.append(_simulation_section(frame, images))

    parts.append(f"<h2>All measured designs ({len(frame)})</h2>")
    parts.append('<div class="scroll">' + _table(frame, tables.HTML) + "</div>")

    failed = c.failed
    if len(failed):
        parts.append(f"<h2>Designs not fully measured ({len(failed)})</h2>")
        parts.append('<p class="note">Their missing values count as the worst in the ranking.</p><ul>')
        for _, row in failed.iterrows():
            parts.append(f"<li>{html.escape(str(row['name']))}: {html.escape(str(row['error']))}</li>")
        parts.append("</ul>")

    parts.append("<h2>Designs considered</h2>")
    parts.append(_considered(c))
    parts.append("<h2>How this was measured</h2>")
    parts.append(_method(c))
    parts.append("<h2>Files</h2><ul>")
    for what, name in files.items():
        parts.append(f"<li>{html.escape(what)}: {html.escape(name)}</li>")
    parts.append("</ul>")
    parts.append(
        f'<p class="note">Enumeration {c.enumerate_s:.1f} s, measurement {c.measure_s:.1f} s.</p>'
        "</body></html>"
    )
    return "\n".join(p for p in parts if p)


def _considered(c: Comparison) -> str:
    d = c.designs
    rows = []
    for family in dict.fromkeys(d["family"]):
        part = d[d["family"] == family]
        rows.append(
            f"<tr><td class='name'>{html.escape(str(part['family_name'].iloc[0]))}</td>"
            f"<td>{len(part):,}</td><td>{int(part['balanced'].sum()):,}</td>"
            f"<td>{int(part['measured'].sum()):,}</td></tr>"
        )
    return (
        '<p class="note">Every configuration with router radix at most the one asked and an endpoint '
        "count within the tolerance, by the rules of docs/compare.md §1; designs.csv lists them.</p>"
        "<table><thead><tr><th class='name'>family</th><th>designs</th><th>balanced</th>"
        "<th>measured</th></tr></thead><tbody>" + "".join(rows) + "</tbody></table>"
    )


def _method(c: Comparison) -> str:
    items = [f"<li><b>{html.escape(m.name)}</b>: {html.escape(m.describe)}.</li>" for m in c.measurements]
    notes = [
        "Each design is built from its spec (the <code>spec</code> column; <code>topolab build SPEC</code> "
        "builds the same network) and measured as <code>topolab analyze</code>, <code>topolab cost</code> "
        "and <code>topolab latency</code> would measure it.",
        "diam. and hops are router-to-router hops between routers that carry endpoints; bisect/ep is "
        "the METIS bisection, links cut over half the endpoints (1 = full bisection bandwidth).",
        "Costs and power follow 000 §VI (docs/physical.md); latency 004 §III-A.",
    ]
    glossary = "".join(
        f"<li><b>{html.escape(col.header)}</b>: {html.escape(col.title)}</li>"
        for col in tables.present(c.frame, tables.HTML)
    )
    return (
        "<ul>"
        + "".join(items)
        + "</ul>"
        + "".join(f'<p class="note">{n}</p>' for n in notes)
        + "<p class='note'>Columns:</p><ul>"
        + glossary
        + "</ul>"
    )
