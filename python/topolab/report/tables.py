"""The tables of the compare report as rows of strings, shared by the terminal and the HTML.

Each column has a header and a format; a missing value shows as "-". Columns absent from the
frame (resilience unless asked, saturation until simulated) are left out.
"""

from __future__ import annotations

import math
import numbers
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Sequence

if TYPE_CHECKING:
    import pandas as pd


def _int(v: float) -> str:
    return f"{int(v):,}"


def _fixed(digits: int) -> Callable[[float], str]:
    return lambda v: f"{v:,.{digits}f}"


def _percent(v: float) -> str:
    return f"{100 * v:.0f}%"


def _balance(load: float) -> str:
    """The design's load in words: injection within what the network carries under uniform
    traffic, or by how much it exceeds it (docs/compare.md §1, Load)."""
    return "balanced" if load <= 1 + 1e-9 else f"over {100 * (load - 1):.0f}%"


@dataclass(frozen=True)
class Column:
    key: str
    header: str
    fmt: Callable[[Any], str] = str
    title: str = ""  # what the column means, for the HTML header tooltip and the notes
    of: str = ""  # the frame column shown, when not ``key``
    # the frame column of the upper end of an interval whose lower end is shown (a saturation
    # search's bracket): the cell reads "lower–upper"
    upper: str = ""

    @property
    def source(self) -> str:
        return self.of or self.key


COLUMNS = {
    c.key: c
    for c in (
        Column("rank", "#", _int, "rank: Pareto layer first, then score (1 = recommended)"),
        Column("name", "design", str, "family and parameters; in the report the spec below it"),
        Column("family_name", "family", str, "topology family"),
        Column("endpoints", "endp.", _int, "endpoints (compute nodes)"),
        Column("routers", "routers", _int, "routers (switches)"),
        Column("radix", "radix", _int, "ports of the busiest router: links plus endpoints"),
        Column("network_radix", "net. radix", _int, "router-to-router ports of the busiest router"),
        Column("concentration", "p", _int, "endpoints per endpoint-carrying router"),
        Column("load", "load", _fixed(2), "injection over what the network carries (1 = balanced)"),
        Column(
            "balance",
            "balance",
            _balance,
            "balanced, or oversubscribed by how much: injection over what the network carries "
            "under uniform traffic",
            of="load",
        ),
        Column("diameter", "diam.", _int, "largest hop count between routers with endpoints"),
        Column("avg_hops", "hops", _fixed(2), "average router-to-router hops between two endpoints"),
        Column(
            "moore_fraction", "Moore", _percent, "routers over the Moore bound for its radix and diameter"
        ),
        Column(
            "bisection_per_endpoint",
            "bisect/ep",
            _fixed(3),
            "bisection links per endpoint of a half (1 = full bisection bandwidth)",
        ),
        Column("cost_per_endpoint", "$/ep", _fixed(0), "cost per endpoint, routers and cables ($)"),
        Column("power_per_endpoint_w", "W/ep", _fixed(2), "router power per endpoint (W)"),
        Column("avg_latency_ns", "avg ns", _fixed(0), "average latency, Fastest Routing (ns)"),
        Column("max_latency_ns", "max ns", _fixed(0), "maximum latency, Fastest Routing (ns)"),
        Column("electric_cables", "elec.", _int, "electric router-to-router cables"),
        Column("optical_cables", "opt.", _int, "optical router-to-router cables"),
        Column("cable_length_km", "cable km", _fixed(1), "total router-to-router cable length (km)"),
        Column("cabinets", "cab.", _int, "cabinets on the floor"),
        Column(
            "resilience",
            "resil.",
            _percent,
            "fraction of random cable failures before disconnection (Besta & Hoefler, SC14, §III-D)",
        ),
        Column(
            "saturation_uniform",
            "sat. unif.",
            _percent,
            "saturation load, uniform traffic: between the highest load the search carried and the "
            "lowest it saturated at",
            upper="saturation_uniform_upper",
        ),
        Column(
            "saturation_worst",
            "sat. worst",
            _percent,
            "saturation load, worst-case traffic: between the highest load the search carried and "
            "the lowest it saturated at",
            upper="saturation_worst_upper",
        ),
        Column(
            "saturation_failed",
            "sat. failed",
            _percent,
            "saturation load, uniform traffic, the fraction of cables given to --failed-fraction failed: "
            "between the highest load the search carried and the lowest it saturated at",
            upper="saturation_failed_upper",
        ),
        Column(
            "workload_cycles",
            "workload cycles",
            _int,
            "completion time of the --workload job in the simulator (cycles; lower is better)",
        ),
        Column(
            "workload_busbw",
            "busbw/link",
            _fixed(3),
            "the --workload job's bus bandwidth (NCCL's busbw) over one link's bandwidth",
        ),
        Column("sim_workload", "workload", str, "workload / routing of the workload run"),
        Column("sim_endpoints", "sim. endpoints", _int, "endpoints of the simulated network"),
        Column(
            "sim_network",
            "simulated as",
            str,
            "the network simulated: the design itself, or its stand-in with --simulate-scaled",
        ),
        Column("sim_runs", "runs", _int, "simulator runs of the two saturation searches"),
        Column("sim_cpu_s", "CPU s", _int, "CPU seconds of the two saturation searches"),
        Column("sim_uniform", "uniform", str, "routing / traffic of the uniform run"),
        Column("sim_worst", "worst case", str, "routing / traffic of the worst-case run"),
        Column("sim_note", "simulation notes", str, "how the design was simulated"),
        Column(
            "recommendable",
            "recommendable",
            lambda v: "yes" if bool(v) else "no: oversubscribed",
            "within the allowed oversubscription (--oversubscription), so it may be recommended",
        ),
        Column("tags", "notes", str, "balance and variant"),
        Column("spec", "spec", str, "the spec: topolab build SPEC builds this network"),
    )
}

TERMINAL = (
    "rank",
    "name",
    "balance",
    "endpoints",
    "routers",
    "radix",
    "diameter",
    "avg_hops",
    "bisection_per_endpoint",
    "cost_per_endpoint",
    "power_per_endpoint_w",
    "avg_latency_ns",
    "max_latency_ns",
    "cable_length_km",
    "resilience",
    "saturation_uniform",
    "saturation_worst",
    "saturation_failed",
    "workload_cycles",
)
FRONT = (
    "rank",
    "name",
    "balance",
    "endpoints",
    "routers",
    "radix",
    "diameter",
    "avg_hops",
    "bisection_per_endpoint",
    "cost_per_endpoint",
    "power_per_endpoint_w",
    "avg_latency_ns",
    "max_latency_ns",
    "electric_cables",
    "optical_cables",
    "cable_length_km",
    "resilience",
    "saturation_uniform",
    "saturation_worst",
    "saturation_failed",
    "workload_cycles",
    "workload_busbw",
)
# "All measured designs" in the HTML report, narrow enough for a 1024-pixel window: the spec is
# shown under the design's name, the load and recommendability are in "balance"; the CSV has
# every column.
HTML = (
    "rank",
    "name",
    "balance",
    "endpoints",
    "routers",
    "radix",
    "diameter",
    "avg_hops",
    "moore_fraction",
    "bisection_per_endpoint",
    "cost_per_endpoint",
    "power_per_endpoint_w",
    "avg_latency_ns",
    "max_latency_ns",
    "electric_cables",
    "optical_cables",
    "cable_length_km",
    "resilience",
    "saturation_uniform",
    "saturation_worst",
    "saturation_failed",
    "workload_cycles",
    "tags",
)

# The simulation section's columns after the saturation ones.
SIMULATION = (
    "sim_endpoints",
    "sim_network",
    "sim_runs",
    "sim_cpu_s",
    "sim_uniform",
    "sim_worst",
    "sim_workload",
    "sim_note",
)


def present(frame: pd.DataFrame, keys: Sequence[str]) -> list[Column]:
    """The columns among ``keys`` that the frame has with at least one value."""
    out = []
    for key in keys:
        column = COLUMNS[key]
        if column.source in frame.columns and frame[column.source].notna().any():
            out.append(column)
    return out


def cell(value: Any, column: Column) -> str:
    if value is None:
        return "-"
    if isinstance(value, float) and math.isnan(value):
        return "-"
    try:
        import pandas as pd

        if value is pd.NA:
            return "-"
    except ImportError:  # pragma: no cover
        pass
    return column.fmt(value)


def _missing(value: Any) -> bool:
    return value is None or (isinstance(value, float) and math.isnan(value))


def bracket(lower: float, upper: float) -> str:
    """A load interval in percent, "97–98%", with one decimal where whole percents would not
    tell its ends apart."""
    for digits in (0, 1, 2):
        low, high = f"{100 * lower:.{digits}f}", f"{100 * upper:.{digits}f}"
        if low != high:
            break
    return f"{low}–{high}%"


def row_cell(row: Any, column: Column) -> str:
    """The cell of ``column`` in ``row`` (a frame row): its value, or with ``column.upper`` the
    interval from it to the row's upper end where the row has one."""
    value = row[column.source]
    upper: Any = row.get(column.upper) if column.upper else None
    if _missing(value) or _missing(upper):
        return cell(value, column)
    return bracket(float(value), float(upper))


def rows(frame: pd.DataFrame, keys: Sequence[str]) -> tuple[list[Column], list[list[str]]]:
    """(columns shown, rows of strings)."""
    columns = present(frame, keys)
    out = [[row_cell(row, c) for c in columns] for _, row in frame.iterrows()]
    return columns, out


def sort_key(value: Any) -> str | None:
    """What a table sorts a cell by in the browser: the number itself for a numeric value
    (a missing one sorts first), None for text (sorted as shown)."""
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, numbers.Real):
        return "" if math.isnan(float(value)) else repr(float(value))
    return None


def best_per_family(frame: pd.DataFrame) -> pd.DataFrame:
    """The best-ranked design of each family (``frame`` is ranked best first)."""
    return frame.drop_duplicates(subset="family", keep="first")
