"""``topolab compare``: enumerate the designs for a radix and an endpoint count, measure each,
rank them and recommend one (docs/compare.md §4).

The design space, the Pareto ranking and the words come from this package (``enumerate_designs``,
``shortlist``, ``rank_designs``, ``recommend``); this module only measures. A measurement is a
function ``(design, network, settings) -> dict of columns`` run once per design on the network
built from ``design.spec``; ``MEASUREMENTS`` lists them in order. Adding a metric (e.g. simulated
saturation throughput) is adding one ``Measurement`` to that list; its columns join the frame,
and those that ``recommend`` knows (docs/compare.md §3) are ranked and described.

    from topolab.design.compare import CompareSettings, run_comparison
    result = run_comparison(CompareSettings(radix=12, endpoints=100, families=("slimfly",)))
    result.frame          # measured designs, best first
    result.recommendation # sentences
"""

from __future__ import annotations

import math
import numbers
import time
from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Iterable, TextIO

from topolab import _core
from topolab.defaults import DEFAULT_CATALOG, DEFAULT_FLOOR, DEFAULT_SEED
from topolab.design.enumerate import (
    DEFAULT_OVERSUBSCRIPTION,
    FAMILY_NAMES,
    Design,
    designs_frame,
    enumerate_designs,
    shortlist,
)
from topolab.design.pareto import DEFAULT_OBJECTIVES, rank_designs
from topolab.design.recommend import recommend
from topolab.design.simulate import COLUMNS as SIM_COLUMNS
from topolab.design.simulate import measure_simulation
from topolab.progress import Progress

if TYPE_CHECKING:
    import pandas as pd

    from topolab.network import Network

# The demonstration that ``topolab compare`` runs without arguments: 000 Table IV's question,
# radix-48 routers (Table IV's networks need 27 to 47 ports) for about 10,000 endpoints.
DEFAULT_RADIX = 48
DEFAULT_ENDPOINTS = 10_000
# Designs measured per family unless every design is asked for. At the defaults the enumeration
# finds 1,137 designs (536 Dragonflies); 8 per family is 135 designs, about 75 s of CPU, against
# about 325 s for all (docs/compare.md §4, Figures).
DEFAULT_PER_FAMILY = 8
# ``--simulate``: each design is simulated as the largest member of its family with at most this
# many endpoints and the same load (topolab.design.simulate; docs/compare.md §5).
DEFAULT_SIM_ENDPOINTS = 600
# An architect gets a balanced network unless they allow oversubscription: by default only
# designs with load <= 1 are recommended (docs/compare.md §3). Oversubscribed designs up to
# SHOWN_OVERSUBSCRIPTION are still measured and shown, marked "not recommended".
DEFAULT_ALLOWED_OVERSUBSCRIPTION = 0.0
SHOWN_OVERSUBSCRIPTION = DEFAULT_OVERSUBSCRIPTION


@dataclass(frozen=True)
class CompareSettings:
    """What ``topolab compare`` is asked. ``per_family=None`` measures every design found.

    One machine room for cost and latency: routers are placed on ``floor`` by their family's
    rule (docs/physical.md), cables priced with ``catalog``; latency is Fastest Routing with
    ``switch_delay_ns`` per switch, ``cable_ns_per_m`` and ``injection_ns`` (004 §III-A)."""

    radix: int = DEFAULT_RADIX
    endpoints: int = DEFAULT_ENDPOINTS
    tolerance: float = 0.15
    families: tuple[str, ...] | None = None
    oversubscription: float = DEFAULT_ALLOWED_OVERSUBSCRIPTION
    floor: str = DEFAULT_FLOOR
    catalog: str = DEFAULT_CATALOG
    resilience: bool = False
    per_family: int | None = DEFAULT_PER_FAMILY
    seed: int = DEFAULT_SEED
    bisection_runs: int = 5
    switch_delay_ns: float = 60.0
    cable_ns_per_m: float = 5.0
    injection_ns: float = 300.0
    simulate: bool = False
    sim_endpoints: int = DEFAULT_SIM_ENDPOINTS

    def __post_init__(self) -> None:
        _integer("radix", self.radix, 3, "an integer >= 3 (router ports)")
        _integer("endpoints", self.endpoints, 1, "an integer >= 1")
        if _not_real(self.tolerance) or not 0 <= self.tolerance < 1:
            raise _bad("tolerance", self.tolerance, "a number from 0 to below 1 (0.15: ±15%)")
        if _not_real(self.oversubscription) or self.oversubscription < 0:
            raise _bad("oversubscription", self.oversubscription, "a number >= 0 (0: balanced designs only)")
        if self.per_family is not None:
            _integer("per_family", self.per_family, 1, "an integer >= 1, or None to measure all")
        _integer("seed", self.seed, 0, "an integer 0 <= seed < 2**64")
        if self.seed >= 2**64:
            raise _bad("seed", self.seed, "an integer 0 <= seed < 2**64")
        _integer("bisection_runs", self.bisection_runs, 1, "an integer >= 1")
        _integer("sim_endpoints", self.sim_endpoints, 2, "an integer >= 2 (simulated network's endpoints)")
        for name in ("switch_delay_ns", "cable_ns_per_m", "injection_ns"):
            value = getattr(self, name)
            if _not_real(value) or value < 0 or math.isinf(value):
                raise _bad(name, value, "a finite number >= 0")
        for name in ("resilience", "simulate"):
            if not isinstance(getattr(self, name), bool):
                raise _bad(name, getattr(self, name), "True or False")
        for name in ("floor", "catalog"):
            if not isinstance(getattr(self, name), str) or not getattr(self, name):
                raise _bad(name, getattr(self, name), "a built-in name or the path of a TOML file")
        if isinstance(self.families, str):  # "slimfly,dragonfly" is accepted as a tuple
            object.__setattr__(self, "families", tuple(f for f in self.families.split(",") if f.strip()))
        elif self.families is not None:
            object.__setattr__(self, "families", tuple(self.families))

    @property
    def shown_oversubscription(self) -> float:
        """Designs up to this oversubscription are enumerated and measured: the allowed one, or
        SHOWN_OVERSUBSCRIPTION when that is larger, so the oversubscribed alternatives appear
        (marked, not recommended) even when only balanced designs may be recommended."""
        return max(self.oversubscription, SHOWN_OVERSUBSCRIPTION)

    def endpoint_range(self) -> tuple[int, int]:
        """The endpoint counts admitted, as ``enumerate_designs`` computes them."""
        slack = self.tolerance * self.endpoints
        return max(1, math.ceil(self.endpoints - slack - 1e-9)), math.floor(self.endpoints + slack + 1e-9)

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["families"] = None if self.families is None else list(self.families)
        return d


# ---------------------------------------------------------------------------------------------
# measurements: design + built network -> columns
# ---------------------------------------------------------------------------------------------

MeasureFunction = Callable[..., "dict[str, Any]"]


@dataclass(frozen=True)
class Measurement:
    """One step of the per-design measurement: ``function(design, network, settings)`` returns
    ``columns`` (all of them; None for a value that is undefined). ``enabled(settings)`` says
    whether it runs. If it raises a ``TopolabError`` its columns stay NaN and the design's
    ``error`` column says why; the other measurements still run. With ``reports_progress`` the
    function also gets ``status``, a callable taking a short text shown on the progress line."""

    name: str
    columns: tuple[str, ...]
    function: MeasureFunction
    describe: str
    enabled: Callable[[CompareSettings], bool] = field(default=lambda settings: True)
    reports_progress: bool = False


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
        "power_per_endpoint": c.power_per_endpoint_w,
    }


def measure_latency(design: Design, net: Network, settings: CompareSettings) -> dict[str, Any]:
    """All-pairs latency under Fastest Routing (``topolab.latency``, 004 §II-E)."""
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
    """Random cable failures (``topolab.analyze(resilience=True)``, 000 §III-D)."""
    from topolab.analysis import analyze

    r = analyze(net, resilience=True, seed=settings.seed, progress=False).resilience
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
            "power_per_endpoint",
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
        measure_simulation,
        "saturation throughput under uniform and worst-case traffic, cycle-accurate simulator, "
        "on a scaled-down member of the family",
        enabled=lambda settings: settings.simulate,
        reports_progress=True,
    ),
]


def objectives_for(settings: CompareSettings) -> dict[str, str]:
    """The Pareto objectives: cost per endpoint, bandwidth, average latency. Bandwidth is the
    METIS bisection per endpoint, or with ``simulate`` the simulated saturation throughput
    under uniform and under worst-case traffic (what the routing actually delivers)."""
    if not settings.simulate:
        return dict(DEFAULT_OBJECTIVES)
    return {
        "cost_per_endpoint": "min",
        "saturation_uniform": "max",
        "saturation_worst": "max",
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


# ---------------------------------------------------------------------------------------------
# the comparison
# ---------------------------------------------------------------------------------------------


@dataclass
class Comparison:
    """The result of ``run_comparison``.

    ``frame``: the measured designs, best first (``rank_designs``: ``pareto_layer``, ``score``,
    ``rank``; ``on_front`` marks the Pareto front); ``designs``: every design enumerated, in
    enumeration order, with ``measured``; ``recommendation``: ``recommend``'s sentences."""

    settings: CompareSettings
    frame: pd.DataFrame
    designs: pd.DataFrame
    recommendation: list[str]
    measurements: list[Measurement]
    objectives: dict[str, str]
    enumerate_s: float
    measure_s: float

    @property
    def front(self) -> pd.DataFrame:
        return self.frame[self.frame["on_front"]]

    @property
    def recommended(self) -> pd.Series:
        return self.frame.iloc[0]

    @property
    def failed(self) -> pd.DataFrame:
        return self.frame[self.frame["error"] != ""]

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: settings, counts, the recommendation and the measured rows."""
        import json

        return {
            "settings": self.settings.to_dict(),
            "considered": len(self.designs),
            "measured": len(self.frame),
            "front": int(self.frame["on_front"].sum()),
            "objectives": dict(self.objectives),
            "measurements": [m.name for m in self.measurements],
            "recommended": str(self.recommended["spec"]),
            "recommendation": list(self.recommendation),
            "enumerate_s": self.enumerate_s,
            "measure_s": self.measure_s,
            "designs": json.loads(self.frame.to_json(orient="records")),
        }


def run_comparison(
    settings: CompareSettings | None = None,
    *,
    measurements: Iterable[Measurement] | None = None,
    progress: bool | TextIO | None = None,
) -> Comparison:
    """Enumerates the designs of ``settings``, measures the shortlist (or all), ranks them and
    recommends one. ``measurements`` defaults to the enabled ones of ``MEASUREMENTS``.
    ``progress``: True (stderr), a stream, False, or None (stderr when it is a terminal).

    Raises ``ParameterError`` for a bad setting, an unknown floor or catalog, or when no design
    fits (the message says which limits to relax)."""
    from topolab.physical import load_catalog, load_floor

    settings = CompareSettings() if settings is None else settings
    load_floor(settings.floor)  # a bad floor or catalog fails now, not in every design
    load_catalog(settings.catalog)
    if measurements is None:
        measurements = [m for m in MEASUREMENTS if m.enabled(settings)]
    measurements = list(measurements)

    start = time.perf_counter()
    designs = enumerate_designs(
        settings.radix,
        settings.endpoints,
        settings.tolerance,
        settings.families,
        oversubscription=settings.shown_oversubscription,
    )
    enumerate_s = time.perf_counter() - start
    if not designs:
        raise _core.ParameterError(
            f"compare: no design has radix <= {settings.radix} and "
            f"{settings.endpoints:,} endpoints ±{settings.tolerance:.0%}"
            + ("" if settings.families is None else f" among families {', '.join(settings.families)}")
            + ": raise 'radix' or 'tolerance', or change 'endpoints' or 'families'"
        )
    chosen = designs if settings.per_family is None else shortlist(designs, settings.per_family)
    stream: TextIO | None = None
    enabled: bool | None = None
    if isinstance(progress, bool) or progress is None:
        enabled = progress
    else:
        stream, enabled = progress, True
    report = Progress(
        f"compare: measuring {len(chosen):,} of {len(designs):,} designs",
        len(chosen),
        unit="design",
        enabled=enabled,
        stream=stream,
    )

    rows = []
    start = time.perf_counter()
    with report:
        for design in chosen:
            head = f"{design.name} ({design.routers:,} routers, {design.endpoints:,} endpoints)"
            report.note(head)

            def status(text: str, head: str = head) -> None:
                report.note(f"{head}: {text}")

            rows.append(measure_design(design, settings, measurements, status))
            report.update()
    measure_s = time.perf_counter() - start

    import pandas as pd

    measured = pd.concat([designs_frame(chosen), pd.DataFrame(rows, index=range(len(chosen)))], axis=1)
    measured["family_name"] = measured["family"].map(FAMILY_NAMES)
    objectives = objectives_for(settings)
    ranked, lines = rank_and_recommend(measured, objectives, settings.oversubscription)

    all_designs = designs_frame(designs)
    chosen_specs = {d.spec for d in chosen}
    all_designs["measured"] = all_designs["spec"].isin(chosen_specs)
    return Comparison(
        settings=settings,
        frame=ranked,
        designs=all_designs,
        recommendation=lines,
        measurements=measurements,
        objectives=objectives,
        enumerate_s=enumerate_s,
        measure_s=measure_s,
    )


def rank_and_recommend(
    measured: pd.DataFrame, objectives: dict[str, str], allowed_oversubscription: float
) -> tuple[pd.DataFrame, list[str]]:
    """Ranks the designs a recommendation may come from (``oversubscription`` <= the allowed
    one: ``recommendable``) by Pareto layer and score among themselves, then the others the
    same way after them; ``on_front`` marks the front of the recommendable designs. The
    sentences are ``recommend``'s over the recommendable designs, and one more about the
    others. When no design is recommendable, all are ranked together and the words say so."""
    import pandas as pd

    over = measured["oversubscription"].astype(float)
    ok = over <= allowed_oversubscription + 1e-9
    if not ok.any():
        ok = pd.Series(True, index=measured.index)
        note = (
            f"No measured design is within the allowed oversubscription "
            f"({allowed_oversubscription:.0%}); all are ranked together: raise --oversubscription "
            "or 'tolerance', or add families, for a balanced choice."
        )
    else:
        note = _not_recommended_note(measured[~ok], objectives, allowed_oversubscription)
    parts = []
    for part, recommendable in ((measured[ok], True), (measured[~ok], False)):
        if len(part) == 0:
            continue
        r = rank_designs(part, objectives)
        r["recommendable"] = recommendable
        r["on_front"] = r["pareto_layer"].eq(0).fillna(False).astype(bool) & recommendable
        parts.append(r)
    ranked = pd.concat(parts, ignore_index=True)
    ranked["rank"] = range(1, len(ranked) + 1)
    ranked.insert(0, "rank", ranked.pop("rank"))
    ranked.insert(2, "on_front", ranked.pop("on_front"))
    ranked.insert(3, "recommendable", ranked.pop("recommendable"))
    lines = recommend(measured[ok], objectives)
    if note:
        lines.append(note)
    return ranked, lines


def _not_recommended_note(others: pd.DataFrame, objectives: dict[str, str], allowed: float) -> str:
    if len(others) == 0:
        return ""
    limit = "balanced designs only" if allowed == 0 else f"at most {allowed:.0%} oversubscribed"
    first = rank_designs(others, objectives).iloc[0]
    cost = first.get("cost_per_endpoint")
    detail = f", ${cost:,.0f} per endpoint" if isinstance(cost, float) and not math.isnan(cost) else ""
    return (
        f"Not recommended: {len(others):,} measured designs more oversubscribed than allowed "
        f"({limit}, so that every endpoint can inject at full rate under uniform traffic; "
        f"--oversubscription X allows up to X); they are listed after the others, marked. "
        f"The best of them: {first['name']} ({first['oversubscription']:.0%} oversubscribed{detail})."
    )


# ---------------------------------------------------------------------------------------------


def _not_real(value: Any) -> bool:
    return isinstance(value, bool) or not isinstance(value, numbers.Real) or math.isnan(value)


def _bad(name: str, value: Any, allowed: str) -> _core.ParameterError:
    return _core.ParameterError(f"compare: parameter '{name}' = {value!r} is not allowed: {allowed}")


def _integer(name: str, value: Any, least: int, allowed: str) -> None:
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value < least:
        raise _bad(name, value, allowed)


def compare(
    radix: int = DEFAULT_RADIX,
    endpoints: int = DEFAULT_ENDPOINTS,
    *,
    families: Iterable[str] | str | None = None,
    tolerance: float = 0.15,
    oversubscription: float = DEFAULT_ALLOWED_OVERSUBSCRIPTION,
    floor: str = DEFAULT_FLOOR,
    catalog: str = DEFAULT_CATALOG,
    resilience: bool = False,
    per_family: int | None = DEFAULT_PER_FAMILY,
    seed: int = DEFAULT_SEED,
    simulate: bool = False,
    sim_endpoints: int = DEFAULT_SIM_ENDPOINTS,
    output: str | None = None,
    progress: bool | None = None,
) -> pd.DataFrame:
    """Which network for ``endpoints`` endpoints with routers of ``radix`` ports?

    Enumerates every feasible design (``enumerate_designs``), measures at most ``per_family``
    per family (``shortlist``; None measures all), ranks them by Pareto layer over cost per
    endpoint, bisection per endpoint and average latency, and recommends one. Returns the
    measured designs best first (``rank`` 1 is the recommendation, ``on_front`` marks the
    Pareto front); ``df.attrs["recommendation"]`` holds the reasons in words and
    ``df.attrs["settings"]`` what was asked. Only balanced designs are recommended unless
    ``oversubscription`` allows more (the others are ranked after them, ``recommendable`` False).
    ``simulate=True`` adds the simulated saturation throughput (uniform and worst case, on a
    member of each family with at most ``sim_endpoints`` endpoints) and ranks by it instead of
    the bisection. With ``output`` a directory, writes the HTML report,
    the plots and the data there (``topolab.report.write_report``). Same arguments, same
    result (except ``measure_s``, the time each design took).
    """
    settings = CompareSettings(
        radix=radix,
        endpoints=endpoints,
        tolerance=tolerance,
        oversubscription=oversubscription,
        families=families if families is None or isinstance(families, str) else tuple(families),
        floor=floor,
        catalog=catalog,
        resilience=resilience,
        per_family=per_family,
        seed=seed,
        simulate=simulate,
        sim_endpoints=sim_endpoints,
    )
    result = run_comparison(settings, progress=progress)
    if output is not None:
        from topolab.report import write_report

        write_report(result, output)
    frame = result.frame.copy()
    frame.attrs["recommendation"] = list(result.recommendation)
    frame.attrs["settings"] = settings.to_dict()
    frame.attrs["considered"] = len(result.designs)
    return frame
