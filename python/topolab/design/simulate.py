"""``topolab compare --simulate``: the saturation load of each family's best designs under
uniform and worst-case traffic, simulated at their size (docs/compare.md §5).

By default the designs themselves are simulated; with ``CompareSettings.simulate_scaled`` each
is simulated as a smaller network of the same family and structure (``scaled_member``, rules in
``SCALE_RULES``): the same number of dimensions or levels and the same load (endpoints per
router over the family's balanced concentration, docs/compare.md §1), at most
``CompareSettings.sim_endpoints`` endpoints. Designs simulated as the same network share its
searches. Each search (``topolab.design.saturation``) is one point of the experiment runner.

Which routing and which worst-case pattern a family gets is declared by the family itself
(``routing.simulation`` in its Rust table, crates/topolab-core/src/topology/), read here as
``SIM_CHOICES``: the one place to update when a better routing arrives.
"""

from __future__ import annotations

import functools
import json
import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Iterator

from topolab import _core
from topolab.design.rules import sizes

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
SIM_PARAMS: dict[str, Any] = {"sample_period": 200}

COLUMNS = (
    "saturation_uniform",
    "saturation_worst",
    "sim_network",
    "sim_endpoints",
    "sim_full_size",
    "sim_runs",
    "sim_load",
    "sim_uniform",
    "sim_worst",
    "sim_note",
    "sim_curve_uniform",
    "sim_curve_worst",
)


# ---------------------------------------------------------------------------------------------
# scaled-down members: family rules yield smaller specs, smallest first
# ---------------------------------------------------------------------------------------------


def _balanced(spec: str) -> float | None:
    """The balanced concentration ``spec``'s family declares for it, None if it is not built."""
    s = sizes(spec)
    return None if s is None else s["balanced_concentration"]


def _load_at(balanced: float, p: int) -> float:
    """The load p / p_balanced of concentration ``p`` on a network balanced at ``balanced``."""
    return p / balanced


def _fattree_load(k: int, p: int) -> float:
    """The load of the two-level fat tree of radix ``k`` and concentration ``p`` (infinite when
    the family does not build it, so that ``_nearest_p`` never picks it)."""
    s = sizes(f"fattree:k={k},levels=2,p={p}")
    return math.inf if s is None else s["load"]


def _scaled_p(p: int, balanced_old: float, balanced_new: float) -> int:
    """The concentration giving the load p / p_balanced nearest the design's on the smaller
    network (``_nearest_p``)."""
    most = math.ceil(2 * balanced_new * p / balanced_old) + 1
    return _nearest_p(_load_at(balanced_old, p), functools.partial(_load_at, balanced_new), most)


def _nearest_p(load: float, load_of: Callable[[int], float], most: int) -> int:
    """The p in 1..most whose load is nearest ``load``, on the same side of 1 (a balanced design
    stays balanced, an oversubscribed one oversubscribed) whenever some p allows it."""
    options = sorted(range(1, max(1, most) + 1), key=lambda c: (abs(load_of(c) - load), c))
    same_side = [c for c in options if (load_of(c) <= 1 + 1e-9) == (load <= 1 + 1e-9)]
    return (same_side or options)[0]


def _x(values) -> str:
    return "x".join(str(v) for v in values)


def _smaller_members(family: str, name: str, first: int, step: int = 1):
    """Scaler of a family sized by one parameter: the members with ``name`` from ``first`` (in
    steps of ``step``) below the design's, each with p scaled to the same load."""

    def scale(d: Design) -> Iterator[str]:
        p = d.params["p"]
        for value in range(first, d.params[name], step):
            pb = _balanced(f"{family}:{name}={value}")
            if pb is not None:
                yield f"{family}:{name}={value},p={_scaled_p(p, d.balanced_concentration, pb)}"

    return scale


_slimfly = _smaller_members("slimfly", "q", 3)
_polarfly = _smaller_members("polarfly", "q", 2)
_bdf = _smaller_members("bdf", "u", 3, step=2)


def _bundlefly(d: Design) -> Iterator[str]:
    """Smaller MMS graphs with the same Paley supernode, then smaller supernodes too."""
    q, a, p = d.params["q"], d.params["a"], d.params["p"]
    for q2 in range(3, q + 1):
        for a2 in range(5, a + 1, 4):
            if (q2, a2) == (q, a):
                continue
            pb = _balanced(f"bundlefly:q={q2},a={a2}")
            if pb is not None:
                yield f"bundlefly:q={q2},a={a2},p={_scaled_p(p, d.balanced_concentration, pb)}"


def _polarstar(d: Design) -> Iterator[str]:
    """Smaller ER_q with the same supernode, then smaller supernodes of the same kind too."""
    q, p = d.params["q"], d.params["p"]
    kind = "d" if "d" in d.params else "a"
    size = d.params[kind]
    smaller = range(3, size + 1) if kind == "d" else range(5, size + 1, 4)
    for q2 in range(2, q + 1):
        for s2 in smaller:
            if (q2, s2) == (q, size):
                continue
            pb = _balanced(f"polarstar:q={q2},{kind}={s2}")
            if pb is not None:
                yield f"polarstar:q={q2},{kind}={s2},p={_scaled_p(p, d.balanced_concentration, pb)}"


def _dragonfly(d: Design) -> Iterator[str]:
    """h' < h with a and p in proportion, and the same number of global links per pair of
    groups, ah/(g - 1), which sets the global bandwidth (003 §1.4's G); p' for the same load."""
    a, h, p, g = (d.params[k] for k in ("a", "h", "p", "g"))
    per_pair = max(1, (a * h) // (g - 1))

    def member(a2: int, h2: int) -> tuple[float, tuple[int, int, int, int]]:
        g2 = 1 + max(1, (a2 * h2) // per_pair)
        balance = _balanced(f"dragonfly:a={a2},h={h2},g={g2}") or math.inf
        p2 = max(h2, _nearest_p(d.load, lambda c: c / balance, a2))  # p >= h (000 §VI-B4)
        miss = abs(p2 / balance - d.load) + (0 if (p2 / balance <= 1 + 1e-9) == (d.load <= 1 + 1e-9) else 1)
        return miss, (a2, h2, p2, g2)

    for h2 in range(1, h + 1):
        exact = a * h2 / h
        options = {max(2 * h2, math.floor(exact)), max(2 * h2, math.ceil(exact))}
        _, (a2, h2, p2, g2) = min(member(a2, h2) for a2 in sorted(options))
        if (a2, h2, p2, g2) != (a, h, p, g):
            yield f"dragonfly:a={a2},h={h2},p={p2},g={g2}"


def _dragonflyplus(d: Design) -> Iterator[str]:
    """h' < h with s and l in proportion and the same global links per pair of groups,
    s*h/(g - 1) (as ``_dragonfly``); p' for the same load."""
    h, spines, leaves, g, p = (d.params[k] for k in ("h", "s", "l", "g", "p"))
    per_pair = max(1, (spines * h) // (g - 1))
    for h2 in range(1, h):
        s2, l2 = max(1, round(spines * h2 / h)), max(1, round(leaves * h2 / h))
        g2 = 1 + max(1, (s2 * h2) // per_pair)
        shape = f"dragonflyplus:h={h2},s={s2},l={l2},g={g2}"
        pb = _balanced(shape)
        if pb is not None:
            yield f"{shape},p={_scaled_p(p, d.balanced_concentration, pb)}"


def _hammingmesh(d: Design) -> Iterator[str]:
    """The same boards, tree radix and p on a smaller board grid (x' < x, y' in proportion):
    the load of nonblocking trees does not depend on the grid (docs/families/hammingmesh.md)."""
    a, b, x, y, radix, p = (d.params[k] for k in ("a", "b", "x", "y", "radix", "p"))
    for x2 in range(1, x):
        y2 = max(1, round(y * x2 / x))
        yield f"hammingmesh:a={a},b={b},x={x2},y={y2},radix={radix},p={p}"


def _fattree(d: Design) -> Iterator[str]:
    k, levels = d.params["k"], d.params["levels"]
    for k2 in range(4, k, 2):
        p2 = _nearest_p(d.load, functools.partial(_fattree_load, k2), k2 - 1)
        if levels == 3:
            pods = max(1, min(k2, round(d.params["pods"] * k2 / k)))
            yield f"fattree:k={k2},levels=3,p={p2},pods={pods}"
        else:
            yield f"fattree:k={k2},levels={levels},p={p2}"


def _torus_like(d: Design) -> Iterator[str]:
    """Same dimensions, sizes scaled to a smaller largest side, widths in proportion; p = 1
    stays 1 (000 §III's low-radix networks), other p for the same load p / (c min L_n/K_n),
    c = 8 for a torus and 4 for a mesh (003 §1.1)."""
    dims, p = d.params["dims"], d.params["p"]
    widths = d.params.get("widths", (1,) * len(dims))
    for side in range(3, max(dims)):
        dims2 = [max(3, math.floor(x * side / max(dims) + 0.5)) for x in dims]
        widths2 = [max(1, math.floor(w * x2 / x + 0.5)) for w, x, x2 in zip(widths, dims, dims2)]
        shown = "" if all(w == 1 for w in widths2) else f",widths={_x(widths2)}"
        balanced = _balanced(f"{d.family}:dims={_x(dims2)}{shown}")
        if balanced is None:
            continue
        p2 = 1 if p == 1 else _nearest_p(d.load, functools.partial(_load_at, balanced), 4 * p)
        yield f"{d.family}:dims={_x(dims2)}{shown},p={p2}"


def _hyperx(d: Design) -> Iterator[str]:
    dims, p = d.params["dims"], d.params["p"]
    widths = d.params.get("widths", (1,) * len(dims))
    for side in range(2, max(dims)):
        dims2 = [max(2, round(x * side / max(dims))) for x in dims]
        shown = "" if all(w == 1 for w in widths) else f",widths={_x(widths)}"
        pb = _balanced(f"hyperx:dims={_x(dims2)}{shown}")
        if pb is not None:
            yield f"hyperx:dims={_x(dims2)}{shown},p={_scaled_p(p, d.balanced_concentration, pb)}"


def _hypercube(d: Design) -> Iterator[str]:
    for n in range(2, d.params["n"]):  # balanced concentration 2L does not depend on n
        yield f"hypercube:n={n},width={d.params.get('width', 1)},p={d.params['p']}"


def _mlfm(d: Design) -> Iterator[str]:
    h, lr, p = d.params["h"], d.params["l"], d.params["p"]
    for h2 in range(2, h):
        l2 = max(2, round(lr * h2 / h))
        pb = _balanced(f"mlfm:h={h2},l={l2}")
        if pb is not None:
            yield f"mlfm:h={h2},l={l2},p={_scaled_p(p, d.balanced_concentration, pb)}"


def _oft(d: Design) -> Iterator[str]:
    k, p = d.params["k"], d.params["p"]
    for k2 in range(3, k):
        pb = _balanced(f"oft:k={k2}")
        if pb is not None:
            yield f"oft:k={k2},p={_scaled_p(p, d.balanced_concentration, pb)}"


def _sspt(d: Design) -> Iterator[str]:
    """Smaller r1 with the same design (r2 = r1 or r1 - 1) and stacks, when it is built."""
    r1, r2, stacks, p = (d.params[k] for k in ("r1", "r2", "s", "p"))
    for r1_2 in range(2, r1):
        shape = f"sspt:r1={r1_2},r2={r1_2 - (r1 - r2)},s={stacks}"
        pb = _balanced(shape)
        if pb is not None:
            yield f"{shape},p={_scaled_p(p, d.balanced_concentration, pb)}"


def _random_graph(d: Design) -> Iterator[str]:
    """Degree scaled down with routers / degree^2 kept (the share of the diameter-2 Moore
    bound), p from the same channel-balance estimate as the enumeration."""
    if d.family == "jellyfish":
        routers, degree = d.params["routers"], d.params["degree"]
    elif d.family == "xpander":
        routers, degree = d.routers, d.params["d"]
    else:  # dln: a ring (2 links) plus shortcuts
        routers, degree = d.params["routers"], d.params["shortcuts"] + 2
    for d2 in range(4, degree):
        r2 = max(d2 + 2, round(routers * (d2 / degree) ** 2))
        r2 += (r2 * d2) % 2  # regular graph: routers x degree even
        if d.family == "jellyfish":
            shape = f"jellyfish:routers={r2},degree={d2}"
        elif d.family == "xpander":  # (d' + 1) l' routers: the lift size nearest
            shape = f"xpander:d={d2},l={max(1, round(r2 / (d2 + 1)))}"
        else:
            shape = f"dln:routers={r2},shortcuts={d2 - 2}"
        pb = _balanced(shape)
        if pb is not None:
            yield f"{shape},p={_scaled_p(d.concentration, d.balanced_concentration, pb)}"


def _spectralfly(d: Design) -> Iterator[str]:
    """The same generator prime (network radix p + 1, the structure) over a smaller field
    q' < q, p' for the same load. For lps_p >= 11 the smallest member (lps_q = 5 or 7: 60 to 336 routers)
    can exceed --sim-endpoints; it is then simulated as is (``scaled_member``'s fallback)."""
    gen, q = d.params["lps_p"], d.params["lps_q"]
    for q2 in range(3, q, 2):
        pb = _balanced(f"spectralfly:lps_p={gen},lps_q={q2}")
        if pb is not None:
            p2 = _scaled_p(d.concentration, d.balanced_concentration, pb)
            yield f"spectralfly:lps_p={gen},lps_q={q2},p={p2}"


SCALE_RULES: dict[str, Callable[[Design], Iterator[str]]] = {
    "slimfly": _slimfly,
    "polarfly": _polarfly,
    "bdf": _bdf,
    "bundlefly": _bundlefly,
    "polarstar": _polarstar,
    "dragonfly": _dragonfly,
    "dragonflyplus": _dragonflyplus,
    "fattree": _fattree,
    "hammingmesh": _hammingmesh,
    "torus": _torus_like,
    "mesh": _torus_like,
    "hyperx": _hyperx,
    "hypercube": _hypercube,
    "mlfm": _mlfm,
    "oft": _oft,
    "sspt": _sspt,
    "jellyfish": _random_graph,
    "dln": _random_graph,
    "spectralfly": _spectralfly,
    "xpander": _random_graph,
}


def smaller_members(design: Design) -> list[str] | None:
    """The smaller members of ``design``'s family that may stand in for it, about increasing in
    size (specs; some the family does not build); None when the family has no rule."""
    rule = SCALE_RULES.get(design.family)
    return None if rule is None else list(rule(design))


def scaled_member(design: Design, max_endpoints: int) -> tuple[str, int] | None:
    """(spec, endpoints) of the largest smaller member of ``design``'s family with at most
    ``max_endpoints`` endpoints, or the design itself when it is already that small. When the
    largest that small has fewer than a quarter of ``max_endpoints`` (a Dragonfly whose next
    step is h = 1), the smallest larger one up to twice ``max_endpoints`` is taken instead; when
    none is small enough, the smallest. None when the family has no rule (``SCALE_RULES``)."""
    if design.endpoints <= max_endpoints:
        return design.spec, design.endpoints
    rule = SCALE_RULES.get(design.family)
    if rule is None:
        return None
    fitting: tuple[str, int] | None = None
    above: tuple[str, int] | None = None
    for spec in rule(design):  # about increasing size
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
            tolerance=0.0,
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
    """Hop-indexed VCs need one class per hop (000 §IV-D): D for min, 2D for Valiant and UGAL."""
    if routing not in ("min", "valiant", "ugal_l", "ugal_g"):
        return 4
    if diameter is None:
        from topolab.analysis import analyze

        diameter = analyze(net, progress=False).diameter
    if diameter is None:
        raise _core.ParameterError(
            f"simulate: parameter 'network' = {net.spec or net.family!r} is not allowed: "
            "a connected network (hop-indexed VCs need its diameter)"
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
    cases: dict[tuple[str, str, str], dict[str, Any]] = {}
    vcs: dict[tuple[str, str], int] = {}
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
            "sim_runs": 0,
        }
        notes = ["simulated at full size"] if full else [f"simulated at {endpoints:,} endpoints ({spec})"]
        if load is not None and abs(load - design.load) > 0.1 * design.load:
            notes.append(f"load {load:.2f} there against {design.load:.2f}")
        if choice.note:
            notes.append(choice.note)
        row["_notes"] = notes
        for key, routing, traffic in (
            ("uniform", choice.uniform_routing, "uniform"),
            ("worst", choice.worst_routing, choice.worst_traffic),
        ):
            row[f"sim_{key}"] = f"{routing} / {traffic}"
            if (spec, routing) not in vcs:
                diameter = (diameters or {}).get(spec) if full else None
                try:
                    vcs[spec, routing] = _vcs_needed(build(spec), routing, diameter)
                except _core.TopolabError as err:
                    notes.append(f"{key}: {err}")
                    continue
            cases[spec, routing, traffic] = {
                "network": spec,
                "routing": routing,
                "traffic": traffic,
                "seed": settings.seed,
                "tolerance": TOLERANCE,
                "num_vcs": vcs[spec, routing],
                **SIM_PARAMS,
            }
        rows.append(row)

    found: dict[tuple[str, str, str], dict[str, Any]] = {}
    if cases:
        frame = run_experiment(
            {
                "name": f"compare: {len(cases)} saturation searches",
                "kind": "saturation",
                "cases": list(cases.values()),
            },
            results=results,
            workers=workers,
            scheduler=scheduler,
            progress=progress,
        )
        for record in frame.to_dict("records"):
            found[record["network"], record["routing"], record["traffic"]] = record

    for row in rows:
        notes = row.pop("_notes", None)
        if notes is None:
            continue
        for key in ("uniform", "worst"):
            routing, traffic = row[f"sim_{key}"].split(" / ")
            record = found.get((row["sim_network"], routing, traffic))
            if record is None:
                continue
            if record["status"] != "ok":
                notes.append(f"{key}: {record['error']}")
                continue
            row[f"saturation_{key}"] = record["saturation_load"]
            row["sim_runs"] += int(record["runs"])
            curve = zip(record["offered_load"], record["accepted_throughput"], record["avg_latency"])
            row[f"sim_curve_{key}"] = json.dumps(
                [[round(x, 6) if x is not None else None for x in point] for point in curve]
            )
        row["sim_note"] = "; ".join(notes)
    return rows


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
