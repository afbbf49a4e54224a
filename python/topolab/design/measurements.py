"""The per-design measurements of ``topolab compare``. A measurement is a function
``(design, network, settings) -> dict of columns`` run once per design on the network built from
``design.spec``; ``MEASUREMENTS`` lists them in order. Adding a metric (e.g. simulated saturation
throughput) is adding one ``Measurement`` to that list; its columns join the frame, and those that
``recommend`` knows (docs/compare.md §3) are ranked and described."""

from __future__ import annotations

import math
import time
from typing import TYPE_CHECKING, Any, Callable, Iterable

from topolab import _core
from topolab.comparison import CompareSettings, Measurement
from topolab.design.pareto import DEFAULT_OBJECTIVES
from topolab.design.simulate import COLUMNS as SIM_COLUMNS
from topolab.design.simulate import measure_simulations

if TYPE_CHECKING:
    from topolab.design.enumerate import Design
    from topolab.network import Network


def measure_graph(design: Design, net: Network, settings: CompareSettings) -> dict[str, Any]:
    """Distances, Moore fraction and METIS bisection (``topolab.analyze``, docs/analysis.md)."""
    from topolab.analysis import analyze

    a = analyze(
        net, bisection=True, bisection_runs=settings.bisection_runs, seed=settings.seed, progress=False
    )
    return {
        # hops between routers that carry endpoints: what an endpoint's packet sees (a fat
        # tree's or MLFM's top routers carry none)
        "diameter": a.endpoint_diameter,
        "avg_hops": a.endpoint_aspl,
        "router_diameter": a.diameter,
        "directed": a.directed,
        "moore_fraction": a.moore_fraction,
        "bisection_links": a.bisection.links_cut if a.bisection else None,
        "bisection_per_endpoint": a.bisection.per_endpoint if a.bisection else None,
    }


def measure_cost(design: Design, net: Network, settings: CompareSettings) -> dict[str, Any]:
    """Cables, cost and power on the floor (``topolab.cost``, docs/physical.md)."""
    from topolab.physical import cost

    c = cost(net, settings.catalog, settings.floor)
    return {
        "cabinets": c.cabinets,
        "electric_cables": c.electric_cables,
        "optical_cables": c.optical_cables,
        "cable_length_km": c.total_cable_m / 1000.0,
        "total_cost": c.total_cost,
        "cost_per_endpoint": c.cost_per_endpoint,
        "power_per_endpoint_w": c.power_per_endpoint_w,
    }


def measure_latency(design: Design, net: Network, settings: CompareSettings) -> dict[str, Any]:
    """All-pairs latency under Fastest Routing (``topolab.latency``, Fujiwara et al., IPDPS 2014, §II-E)."""
    from topolab.physical import latency

    lat = latency(
        net,
        switch_delay_ns=settings.switch_delay_ns,
        routing="fastest",
        floor=settings.floor,
        cable_ns_per_m=settings.cable_ns_per_m,
        injection_ns=settings.injection_ns,
    )
    return {"avg_latency_ns": lat.avg_latency_ns, "max_latency_ns": lat.max_latency_ns}


def measure_resilience(design: Design, net: Network, settings: CompareSettings) -> dict[str, Any]:
    """Random cable failures (``topolab.analyze(resilience=True)``, Besta & Hoefler, SC14, §III-D)."""
    from topolab.analysis import analyze

    r = analyze(net, resilience=True, seed=settings.seed, progress=False).resilience
    if r is None:  # analyze fills every section it is asked for; None would be its bug
        raise RuntimeError("analyze(resilience=True) returned no resilience section")
    return {
        "resilience": r.disconnect.mean,
        "resilience_diameter_plus2": r.diameter_plus2.mean,
        "resilience_aspl_plus1": r.aspl_plus1.mean,
    }


MEASUREMENTS: list[Measurement] = [
    Measurement(
        "graph",
        (
            "diameter",
            "avg_hops",
            "router_diameter",
            "directed",
            "moore_fraction",
            "bisection_links",
            "bisection_per_endpoint",
        ),
        measure_graph,
        "exact hop distances between endpoint routers, Moore fraction, METIS bisection",
    ),
    Measurement(
        "cost",
        (
            "cabinets",
            "electric_cables",
            "optical_cables",
            "cable_length_km",
            "total_cost",
            "cost_per_endpoint",
            "power_per_endpoint_w",
        ),
        measure_cost,
        "placement on the floor, cables, cost and power",
    ),
    Measurement(
        "latency",
        ("avg_latency_ns", "max_latency_ns"),
        measure_latency,
        "all-pairs latency, Fastest Routing",
    ),
    Measurement(
        "resilience",
        ("resilience", "resilience_diameter_plus2", "resilience_aspl_plus1"),
        measure_resilience,
        "fraction of random cable failures survived",
        enabled=lambda settings: settings.resilience,
    ),
    Measurement(
        "simulation",
        SIM_COLUMNS,
        measure_simulations,
        "saturation load under uniform and worst-case traffic, cycle-accurate simulator, each "
        "family's best designs at their size (or stand-ins with --simulate-scaled)",
        enabled=lambda settings: settings.simulate,
        batch=True,
    ),
]


def objectives_for(settings: CompareSettings) -> dict[str, str]:
    """The Pareto objectives: cost per endpoint, bandwidth, average latency. Bandwidth is the
    METIS bisection per endpoint, or with ``simulate`` the simulated saturation load
    under uniform and under worst-case traffic (what the routing actually delivers), and with
    ``failures`` under uniform traffic with that fraction of the cables failed; with ``workload``
    also the job's completion time."""
    if not settings.simulate:
        return dict(DEFAULT_OBJECTIVES)
    return {
        "cost_per_endpoint": "min",
        "saturation_uniform": "max",
        "saturation_worst": "max",
        **({"saturation_failed": "max"} if settings.failures is not None else {}),
        **({"workload_cycles": "min"} if settings.workload is not None else {}),
        "avg_latency_ns": "min",
    }


def measure_design(
    design: Design,
    settings: CompareSettings,
    measurements: Iterable[Measurement],
    status: Callable[[str], None] | None = None,
) -> dict[str, Any]:
    """Every column of every measurement for one design (NaN where one failed), ``error``
    (empty when all ran) and ``measure_s`` (wall time, the one column that varies by run)."""
    from topolab.network import build

    start = time.perf_counter()
    measurements = list(measurements)
    row: dict[str, Any] = {c: math.nan for m in measurements for c in m.columns}
    errors = []
    try:
        net = build(design.spec)
    except _core.TopolabError as err:
        net, errors = None, [f"build: {err}"]
    if net is not None:
        for m in measurements:
            try:
                if m.reports_progress:
                    values = m.function(design, net, settings, status=status)
                else:
                    values = m.function(design, net, settings)
            except _core.TopolabError as err:
                errors.append(f"{m.name}: {err}")
                continue
            row.update({c: (math.nan if values.get(c) is None else values[c]) for c in m.columns})
    row["error"] = "; ".join(errors)
    row["measure_s"] = time.perf_counter() - start
    return row
