"""``topolab compare --simulate``: the saturation load of each family's best designs under
uniform and worst-case traffic, simulated at their size (docs/compare.md §5).

By default the designs themselves are simulated; with ``CompareSettings.simulate_scaled`` each
is simulated as a smaller network of the same family and structure (``scaled_member``, from the
members the family declares, ``smaller_members``): the same number of dimensions or levels and
the same load (endpoints per router over the family's balanced concentration, docs/compare.md
§1), at most ``CompareSettings.sim_endpoints`` endpoints. Designs simulated as the same network share its
searches. Each search (``topolab.design.saturation``) is one point of the experiment runner.

Which routing and which worst-case pattern a family gets is declared by the family itself
(``routing.simulation`` in its Rust table, crates/topolab-core/src/topology/), read here as
``SIM_CHOICES``: the one place to update when a better routing arrives.
"""

from __future__ import annotations

import functools
import json
import math
import os
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from topolab import _core
from topolab._args import bad

if TYPE_CHECKING:
    from topolab.design.compare import CompareSettings
    from topolab.design.enumerate import Design
    from topolab.network import Network


@dataclass(frozen=True)
class SimChoice:
    """The routing for uniform traffic, the family's worst-case pattern (docs/traffic.md) and
    the routing for it: the best the simulator offers for that family today."""

    uniform_routing: str
    worst_traffic: str
    worst_routing: str
    note: str = ""


# family -> what to simulate, as each family declares it; families that declare nothing are
# not simulated.
SIM_CHOICES: dict[str, SimChoice] = {
    f["name"]: SimChoice(**f["simulation"]) for f in _core.families() if f["simulation"] is not None
}

# Router and measurement parameters of every run (the simulator's defaults otherwise,
# docs/simulator.md): sample periods of 200 cycles instead of 1,000. A 10,000-endpoint network
# ejects about a million flits in one such period, so the early verdicts (docs/simulator.md)
# are clear after 4 periods (3 of warm-up, twice the latency of the slowest packet of the
# default networks, and one measured) where 1,000-cycle periods took 5 times as many cycles;
# small networks, whose windows are noisier, go on by the usual rules until the verdict is clear.
# Internal speedup 2, as the router of Besta & Hoefler, SC14, §V: with the simulator's default of 1
# an input-queued router caps uniform traffic near 0.6 whatever the network (head-of-line
# blocking), and a congested link never fills its output, so credit-based adaptive routing does
# not see it (docs/compare.md §5, "The router").
SIM_PARAMS: dict[str, Any] = {"sample_period": 200, "internal_speedup": 2.0}
# A workload run has no sample periods: the router only.
WORKLOAD_PARAMS: dict[str, Any] = {"internal_speedup": SIM_PARAMS["internal_speedup"]}


def router_summary() -> str:
    """The simulated router in a phrase (the ``sim_router`` column, which the terminal and the
    report state)."""
    defaults = {p["name"]: p["default"] for p in _core.sim_params()}

    def value(name: str) -> str:
        return f"{float(SIM_PARAMS.get(name, defaults[name])):g}"

    return (
        f"input-queued routers, internal speedup {value('internal_speedup')} (as Besta & Hoefler, "
        f"SC14, §V), VCs of {value('vc_buf_size')} flits (at least {value('num_vcs')}), "
        f"{value('packet_size')}-flit packets"
    )


COLUMNS = (
    "saturation_uniform",
    "saturation_worst",
    "saturation_failed",
    "workload_cycles",
    "workload_busbw",
    "sim_workload",
    # the upper ends of the searches' brackets: the lowest load each search ran saturated, so
    # that the saturation load lies within [saturation_<key>, saturation_<key>_upper]
    "saturation_uniform_upper",
    "saturation_worst_upper",
    "saturation_failed_upper",
    "sim_network",
    "sim_endpoints",
    "sim_full_size",
    "sim_router",
    "sim_runs",
    "sim_cpu_s",
    "sim_load",
    "sim_uniform",
    "sim_worst",
    "sim_failed",
    "sim_note",
    "sim_curve_uniform",
    "sim_curve_worst",
    "sim_curve_failed",
)


def degraded_routing(routing: str) -> str:
    """The routing a design is simulated with when cables have failed: the family's own when
    it is computed from the surviving graph (``_core.degraded_routings()``), else ``min``; the
    structured ones refuse a degraded network (docs/resilience.md)."""
    name = routing.split(":", 1)[0]
    if name in _core.degraded_routings() and "paths=dragonfly" not in routing:
        return routing
    return "min"


# ---------------------------------------------------------------------------------------------
# scaled-down members: each family declares its smaller members (its Rust file's DesignSpace)
# ---------------------------------------------------------------------------------------------


def smaller_members(design: Design) -> list[str] | None:
    """The smaller members of ``design``'s family that may stand in for it, about increasing in
    size (specs; some the family does not build): the same structure and about the same load,
    as the family declares them (``DesignSpace::smaller_members`` in its file under
    crates/topolab-core/src/topology/). None when the family declares no such rule."""
    return _core.smaller_members(design.spec)


def scaled_member(design: Design, max_endpoints: int) -> tuple[str, int] | None:
    """(spec, endpoints) of the largest smaller member of ``design``'s family with at most
    ``max_endpoints`` endpoints, or the design itself when it is already that small. When the
    largest that small has fewer than a quarter of ``max_endpoints`` (a Dragonfly whose next
    step is h = 1), the smallest larger one up to twice ``max_endpoints`` is taken instead; when
    none is small enough, the smallest. None when the family has no rule (``smaller_members``)."""
    if design.endpoints <= max_endpoints:
        return design.spec, design.endpoints
    members = smaller_members(design)
    if members is None:
        return None
    fitting: tuple[str, int] | None = None
    above: tuple[str, int] | None = None
    for spec in members:  # about increasing size
        n = _endpoints_of(spec)
        if n is None or n >= design.endpoints:  # a combination the family does not build
            continue
        if n <= max_endpoints:
            if fitting is None or n > fitting[1]:
                fitting = (spec, n)
        elif above is None or n < above[1]:
            above = (spec, n)
    if fitting is None:
        return above
    if fitting[1] * 4 < max_endpoints and above is not None and above[1] <= 2 * max_endpoints:
        return above
    return fitting


@functools.lru_cache(maxsize=4096)
def scaled_load(spec: str, family: str) -> float | None:
    """The load §1's rules give ``spec`` (enumerating its family at the spec's own radix and
    endpoint count), or None when the enumeration does not produce it."""
    from topolab.design.enumerate import enumerate_designs
    from topolab.network import build

    net = build(spec)
    try:
        designs = enumerate_designs(
            net.radix,
            net.num_endpoints,
            endpoint_tolerance=0.0,
            families=[family],
            oversubscription=math.inf,
            undersubscription=0.999,
        )
    except _core.TopolabError:
        return None
    return next((d.load for d in designs if d.spec == spec), None)


@functools.lru_cache(maxsize=4096)
def _endpoints_of(spec: str) -> int | None:
    from topolab.network import build

    try:
        return build(spec).num_endpoints
    except _core.TopolabError:
        return None


# ---------------------------------------------------------------------------------------------
# the simulations of a comparison: one saturation search per (network, routing, traffic)
# ---------------------------------------------------------------------------------------------


def _vcs_needed(net: Network, routing: str, diameter: int | None = None) -> int:
    """Hop-indexed VCs need one class per hop (Besta & Hoefler, SC14, §IV-D): D for min, 2D for Valiant and
    UGAL."""
    if routing not in ("min", "valiant", "ugal_l", "ugal_g"):
        return 4
    if diameter is None:
        from topolab.analysis import analyze

        diameter = analyze(net, progress=False).diameter
    if diameter is None:
        raise bad(
            "simulate",
            "network",
            net.spec or net.family,
            "a connected network (hop-indexed VCs need its diameter)",
        )
    return max(4, diameter * (1 if routing == "min" else 2))


def simulated_network(design: Design, settings: CompareSettings) -> tuple[str, int] | None:
    """(spec, endpoints) of what is simulated for ``design``: the design itself, or with
    ``settings.simulate_scaled`` its stand-in (``scaled_member``); None when its family has no
    simulation choice or no scaling rule."""
    if design.family not in SIM_CHOICES:
        return None
    if not settings.simulate_scaled:
        return design.spec, design.endpoints
    return scaled_member(design, settings.sim_endpoints)


def chosen_for_simulation(frame: Any, settings: CompareSettings) -> list[int]:
    """The row labels of ``frame`` (the measured designs, ranked without simulation: best first)
    to simulate: each family's best ``settings.sim_per_family`` that it can simulate."""
    taken: dict[str, int] = {}
    chosen = []
    for label, family in zip(frame.index, frame["family"]):
        if family in SIM_CHOICES and taken.get(family, 0) < settings.sim_per_family:
            taken[family] = taken.get(family, 0) + 1
            chosen.append(label)
    return chosen


def simulate_designs(
    designs: list[Design],
    settings: CompareSettings,
    *,
    diameters: dict[str, int] | None = None,
    workers: int | None = None,
    scheduler: Any = None,
    results: str | None = None,
    progress: bool | None = None,
) -> list[dict[str, Any]]:
    """The simulation columns (``COLUMNS``) of each design: a saturation search
    (``topolab.design.saturation``) under uniform traffic and under the family's worst case, on
    the design at its size or on its stand-in, every search an independent point of the
    experiment runner (``topolab.experiment.run_experiment``: ``workers`` local processes, or
    the Dask ``scheduler``), kept in ``results`` (a directory: a second call resumes from it)."""
    from topolab.design.saturation import TOLERANCE
    from topolab.experiment import run_experiment
    from topolab.network import build

    rows: list[dict[str, Any]] = []
    cases: dict[tuple[str, str, str, str | None], dict[str, Any]] = {}
    failures = (
        None if settings.failures is None else f"links:fraction={settings.failures},seed={settings.seed}"
    )
    vcs: dict[tuple[str, str], int] = {}
    workload_cases: dict[tuple[str, str], dict[str, Any]] = {}
    # the simulator's precision, only when asked (a point's parameters name its stored results)
    precision = {"precision": settings.sim_precision} if settings.sim_precision else {}
    # flits in flight per cycle grow with endpoints x hops: the searches' expected cost
    expected_cost: dict[str, int] = {}
    router = router_summary()
    for design in designs:
        simulated = simulated_network(design, settings)
        if simulated is None:
            rows.append(
                {"sim_note": f"not simulated: no routing or stand-in rule for family {design.family}"}
            )
            continue
        choice = SIM_CHOICES[design.family]
        spec, endpoints = simulated
        full = spec == design.spec
        load = design.load if full else scaled_load(spec, design.family)
        row: dict[str, Any] = {
            "sim_network": spec,
            "sim_endpoints": endpoints,
            "sim_load": load,
            "sim_full_size": full,
            "sim_router": router,
            "sim_runs": 0,
            "sim_cpu_s": 0.0,
        }
        notes = ["simulated at full size"] if full else [f"simulated at {endpoints:,} endpoints ({spec})"]
        if load is not None and abs(load - design.load) > 0.1 * design.load:
            notes.append(f"load {load:.2f} there against {design.load:.2f}")
        if choice.note:
            notes.append(choice.note)
        row["_notes"] = notes
        diameter = (diameters or {}).get(spec) if full else None
        expected_cost[spec] = endpoints * (diameter or 1)
        searches: list[tuple[str, str, str, str | None]] = [
            ("uniform", choice.uniform_routing, "uniform", None),
            ("worst", choice.worst_routing, choice.worst_traffic, None),
        ]
        if failures is not None:
            searches.append(("failed", degraded_routing(choice.uniform_routing), "uniform", failures))
        row["_cases"] = {}
        for key, routing, traffic, failed in searches:
            row[f"sim_{key}"] = f"{routing} / {traffic}" + (f" / {failed}" if failed else "")
            if failed:
                # the VCs follow the degraded graph's diameter (saturation_point)
                row["_cases"][key] = (spec, routing, traffic, failed)
                cases[spec, routing, traffic, failed] = {
                    "network": spec,
                    "routing": routing,
                    "traffic": traffic,
                    "seed": settings.seed,
                    "tolerance": TOLERANCE,
                    "failures": failed,
                    **SIM_PARAMS,
                    **precision,
                }
                continue
            if (spec, routing) not in vcs:
                try:
                    vcs[spec, routing] = _vcs_needed(build(spec), routing, diameter)
                except _core.TopolabError as err:
                    notes.append(f"{key}: {err}")
                    continue
            row["_cases"][key] = (spec, routing, traffic, None)
            cases[spec, routing, traffic, None] = {
                "network": spec,
                "routing": routing,
                "traffic": traffic,
                "seed": settings.seed,
                "tolerance": TOLERANCE,
                "num_vcs": vcs[spec, routing],
                **SIM_PARAMS,
                **precision,
            }
        # A collective's steps are permutations, the traffic the worst-case routing is chosen
        # for (adaptive where the family has one).
        if settings.workload is not None and (spec, choice.worst_routing) in vcs:
            row["sim_workload"] = f"{settings.workload} / {choice.worst_routing}"
            row["_workload"] = (spec, choice.worst_routing)
            workload_cases[spec, choice.worst_routing] = {
                "network": spec,
                "jobs": [settings.workload],
                "routing": choice.worst_routing,
                "seed": settings.seed,
                "num_vcs": vcs[spec, choice.worst_routing],
                **WORKLOAD_PARAMS,
            }
        rows.append(row)

    found: dict[tuple[str, str, str, str | None], dict[str, Any]] = {}
    if cases:
        frame = run_experiment(
            {
                "name": f"compare: {len(cases)} saturation searches",
                "kind": "saturation",
                # the costliest first, so that no long search is left to run alone at the end
                "cases": sorted(cases.values(), key=lambda case: -expected_cost[case["network"]]),
            },
            results=results,
            workers=workers,
            scheduler=scheduler,
            progress=progress,
        )
        for record in frame.to_dict("records"):
            failed = record.get("failures")
            failed = failed if isinstance(failed, str) else None
            found[record["network"], record["routing"], record["traffic"], failed] = record

    ran: dict[tuple[str, str], dict[str, Any]] = {}
    if workload_cases:
        frame = run_experiment(
            {
                "name": f"compare: {len(workload_cases)} workload runs",
                "kind": "workload",
                "cases": sorted(workload_cases.values(), key=lambda case: -expected_cost[case["network"]]),
            },
            results=None if results is None else os.path.join(results, "workload"),
            workers=workers,
            scheduler=scheduler,
            progress=progress,
        )
        for record in frame.to_dict("records"):
            ran[record["network"], record["routing"]] = record

    for row in rows:
        case = row.pop("_workload", None)
        record = ran.get(case) if case is not None else None
        if record is not None:
            if record["status"] != "ok":
                row.setdefault("_notes", []).append(f"workload: {record['error']}")
            else:
                row["workload_cycles"] = record["completion_cycles"]
                row["workload_busbw"] = record["busbw_link_fraction"][0]
                row["sim_runs"] += 1
                row["sim_cpu_s"] += float(record.get("cpu_s", math.nan))
        notes = row.pop("_notes", None)
        searched = row.pop("_cases", {})
        if notes is None:
            continue
        for key, case in searched.items():
            record = found.get(case)
            if record is None:
                continue
            if record["status"] != "ok":
                notes.append(f"{key}: {record['error']}")
                continue
            row[f"saturation_{key}"] = record["saturation_load"]
            upper = record.get("saturated_load")
            row[f"saturation_{key}_upper"] = upper if _number(upper) else math.nan
            row["sim_runs"] += int(record["runs"])
            # the store's CPU seconds of the search (NaN for a search stored before they were)
            row["sim_cpu_s"] += float(record.get("cpu_s", math.nan))
            row[f"sim_curve_{key}"] = sim_curve(record)
        row["sim_note"] = "; ".join(notes)
    return rows


def _number(value: Any) -> bool:
    return isinstance(value, (int, float)) and math.isfinite(value)


def sim_curve(record: dict[str, Any]) -> str:
    """The runs of a search (a "saturation" point's results) as the ``sim_curve_*`` column: JSON
    ``[[offered, accepted, avg latency, accepted ± (95%), latency ± (95%)], ...]`` by increasing
    load, a half-width null where the run measured fewer than two periods (or was stored
    without one)."""
    runs = len(record["offered_load"])

    def listed(name: str) -> Any:
        # a search stored before a column existed has None or NaN there instead of a list
        value: Any = record.get(name)
        return value if hasattr(value, "__len__") and len(value) == runs else [None] * runs

    columns = [
        listed(name)
        for name in (
            "offered_load",
            "accepted_throughput",
            "avg_latency",
            "accepted_throughput_halfwidth",
            "avg_latency_halfwidth",
        )
    ]
    return json.dumps(
        [[round(float(x), 6) if _number(x) else None for x in point] for point in zip(*columns)]
    )


def measure_simulations(
    designs: list[Design], rows: list[dict[str, Any]], settings: CompareSettings, **execution: Any
) -> list[dict[str, Any]]:
    """The batch measurement ``simulation``: ranks the measured designs without simulation
    (cost, bisection, latency; ``rank_and_recommend``), simulates each family's best
    ``settings.sim_per_family`` (``simulate_designs`` with ``execution``: workers, scheduler,
    results, progress) and returns the columns of every design, in order (only a note for
    those not simulated)."""
    import pandas as pd

    from topolab.design.enumerate import designs_frame
    from topolab.design.pareto import DEFAULT_OBJECTIVES
    from topolab.design.ranking import rank_and_recommend

    frame = pd.concat([designs_frame(designs), pd.DataFrame(rows, index=range(len(designs)))], axis=1)
    frame["_position"] = range(len(designs))
    ranked, _ = rank_and_recommend(frame, dict(DEFAULT_OBJECTIVES), settings.oversubscription)
    picked = [int(ranked.at[label, "_position"]) for label in chosen_for_simulation(ranked, settings)]
    diameters = {}
    for i in picked:
        diameter = rows[i].get("router_diameter")
        if isinstance(diameter, (int, float)) and math.isfinite(diameter):
            diameters[designs[i].spec] = int(diameter)
    simulated = simulate_designs([designs[i] for i in picked], settings, diameters=diameters, **execution)
    out: list[dict[str, Any]] = []
    for design in designs:
        if design.family not in SIM_CHOICES:
            out.append({"sim_note": f"not simulated: no routing for family {design.family}"})
        else:
            out.append(
                {"sim_note": f"not simulated: not among the best {settings.sim_per_family} of its family"}
            )
    for i, columns in zip(picked, simulated):
        out[i] = columns
    return out


# Columns of ``degradation_curves`` before those of ``topolab.degradation.RUN_COLUMNS``.
CURVE_COLUMNS = ("rank", "name", "family_name", "sim_network", "sim_endpoints", "routing")


def degradation_curves(
    frame: Any,
    settings: CompareSettings,
    *,
    workers: int | None = None,
    scheduler: Any = None,
    results: str | None = None,
    progress: bool | None = None,
) -> Any:
    """The degradation curves of ``compare --failed-fraction F``: for the designs whose curves the
    report draws (``topolab.comparison.result.simulated_front`` of the ranked ``frame``), the
    saturation load under uniform traffic at each of ``settings.curve_fractions`` of the cables
    failed, with ``settings.failure_seeds`` failure sets from seed ``settings.seed`` on, and the
    static channel-load bound of each degraded graph (``topolab.degradation.degradation``, on
    the simulated network with ``degraded_routing`` of the family's uniform routing, the
    routing of the ``saturation_failed`` column). The searches are points of the experiment
    runner kept in ``results`` (the comparison's store: the search of ``saturation_failed``
    is found there, not run again).

    Returns one row per search: ``CURVE_COLUMNS`` then ``topolab.degradation.RUN_COLUMNS``;
    ``attrs["summary"]`` the per-fraction summaries of every design, with the same leading
    columns. Empty without ``settings.failures``."""
    import pandas as pd

    from topolab.comparison.result import simulated_front
    from topolab.degradation import RUN_COLUMNS, degradation
    from topolab.design.saturation import TOLERANCE

    precision: dict[str, Any] = {"precision": settings.sim_precision} if settings.sim_precision else {}
    runs: list[Any] = []
    summaries: list[Any] = []
    rows = simulated_front(frame) if settings.failures is not None else []
    for row in rows:
        if row["family"] not in SIM_CHOICES:
            continue
        routing = degraded_routing(SIM_CHOICES[row["family"]].uniform_routing)
        df = degradation(
            str(row["sim_network"]),
            settings.curve_fractions,
            settings.failure_seeds,
            routing=routing,
            traffic="uniform",
            seed=settings.seed,
            first_seed=settings.seed,
            load_resolution=TOLERANCE,
            results=results,
            workers=workers,
            scheduler=scheduler,
            progress=progress,
            **SIM_PARAMS,
            **precision,
        )
        leading = {
            "rank": int(row["rank"]),
            "name": str(row["name"]),
            "family_name": str(row.get("family_name", row["family"])),
            "sim_network": str(row["sim_network"]),
            "sim_endpoints": int(row["sim_endpoints"]),
            "routing": routing,
        }
        for part, out in ((df, runs), (df.attrs["summary"], summaries)):
            part = part.copy()
            part.attrs = {}  # the summary frame in attrs cannot be compared by concat
            for position, (key, value) in enumerate(leading.items()):
                part.insert(position, key, value)
            out.append(part)
    curves = (
        pd.concat(runs, ignore_index=True) if runs else pd.DataFrame(columns=[*CURVE_COLUMNS, *RUN_COLUMNS])
    )
    curves.attrs["summary"] = pd.concat(summaries, ignore_index=True) if summaries else pd.DataFrame()
    return curves
